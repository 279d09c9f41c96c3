"""A deterministic, rule-based stand-in for the memory-stage model, served by the fake LLM server.

It answers the two memory prompts by *reading the request it is sent*, as a model would:

* extraction (``【任务：记忆提取】``): it takes the student's message out of the user message, splits
  it into clauses, drops questions, requests and small talk, and classifies what is left with
  keyword rules (constraint: a time plus a fixed commitment; preference: liking, habits, changes of
  habit; goal; personal fact; "no longer" statements). Hedged clauses ("可能", "大概") get a low
  confidence, which the server then filters out. "别再记着…" is a forget request (category
  ``forget_request``); everything else is labelled ``ordinary``.
* decisions (``【任务：记忆决策】``): it reads the JSON of existing memories (aliases) and new facts,
  and compares *topics*: the text left once time words, verbs of liking and negations are removed,
  as character bigrams. Same topic and same times → NONE; same topic with a negation → INVALIDATE;
  same topic otherwise → UPDATE; no topic in common → ADD. A forget request names every memory on
  its topic (FORGET), or none (NONE).

English is read by the same rules in English words (``bench.memory_eval.scripted_english``).

It labels every fact ``ordinary`` (a model that never flags anything: the write gate's rules carry
all the weight). ``make_responder(careless=True)`` is a model that also ignores "not about other
people" and keeps any other statement as a fact: what a careless model proposes, for measuring
what the gate keeps out.

It knows nothing about the evaluation's expected answers: its figures come from these rules
meeting the dialogue text. Use ``responder`` with ``FakeLLMServer.set_responder``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bench.fake_model import RecordedRequest, Reply
from bench.memory_eval import scripted_english as english
from memory.prompts import DECIDE_TAG, EXTRACT_TAG

_SPLIT = re.compile(r"[，,。！!？?；;\n]|(?<!\d)\.(?!\d)|而且|并且|另外|还有|不过|但是|同时"
                    r"|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")  # chat uses a space as a comma
_QUESTION = re.compile(r"吗$|呢$|没$|什么|怎么|几点|多少|哪|是不是|能不能|可不可以|帮我|请你|麻烦|给我|安排一下|看看|来着")
_LEADING = re.compile(r"^(?:对了|嗯|哦|好的|好|其实|然后|另外|现在|我现在|我们|我|也|还|平时|一般|通常)+")
_TRAILING = re.compile(r"(?:了|哦|啊|呀|吧|的)+$")
_OTHERS = re.compile(r"^(?:我的)?(?:室友|同学|朋友|妈妈|爸爸|老师|导师|他|她|他们|她们)")
_ONE_OFF = re.compile(r"今天|明天|后天|今晚|明晚|这周|本周|下周|这个周末")
_HEDGE = re.compile(r"可能|也许|大概|好像|说不定|不一定|还没想好|考虑")
_TIME = re.compile(r"周[一二三四五六日天末]|星期[一二三四五六日天]|每周|每天|每月|工作日|周末|早上|早晨|上午|中午|下午|傍晚|晚上|"
                   r"夜里|深夜|凌晨|早八|\d+点|[一二三四五六七八九十两]+点|\d+[:：]\d+|\d+号")
#: A clause that opens with a time finishes the one before it ("在奶茶店兼职，每周二四晚上6点到10点").
_STARTS_WITH_TIME = re.compile(r"^(?:我)?(?:每周|每天|每月|周[一二三四五六日天末]|星期|早上|上午|中午|下午|晚上|\d|"
                               r"那会儿|那时候|那个时候)")
_NEGATION = re.compile(r"不再|不用再|已经不|不[\u4e00-\u9fff]{1,2}了|取消了|没有了|退出了|退了|停了")
_CHANGE = re.compile(r"改成|改为|换成|改到|调到|换到")
# A forget request names memory: "别再记着…", "忘掉…", "忘记…" said to the assistant, or deleting a
# memory ("这条/那条…记忆删了", "把我…这条删掉", "删掉关于…的那条"). A bare "删掉周三的课" is a calendar
# edit, and "别忘了…" / "我忘了…" are reminders and the student's own forgetting: none of them.
_FORGET = re.compile(
    r"(?:别再|不要再|不用再|不必再|别|不要|不用|不必)记(?:着|住|得|录)?|不想让你记(?:着|住|得)?|不希望你记(?:着|住|得)?|"
    r"忘掉|忘了吧|^(?:请|麻烦你?|你可以|你就|你)?忘记|^(?:你)?忘了(?:我|刚才|之前)*(?:说|讲)的|"
    r"从(?:你的)?记忆里(?:删掉|删了|删除|去掉)|^(?:别|不要|不用)把(?=.+记下来)|"
    r"(?:这条|那条)?(?:记忆)(?:删掉|删了|删除|去掉)|删掉(?:这条记忆|那条|这条|关于)|(?:这条|那条)(?:删掉|删了|删除)|"
    r"forget\s*掉", re.IGNORECASE)
_BARE_FORGET = re.compile(r"^(?:你就|你也|就|也)?(?:别再|不要再|不用再|别|不要|不用)记(?:着|住|得)?了?(?:吧|啊)?$"
                          r"|^忘了吧$|^删了吧$")
_SMALL_TALK = re.compile(r"^(?:你好|您好|谢谢|多谢|好的|好吧|没问题|再见|晚安|早上好|哈哈|嗯嗯|收到)")
_LIKING = re.compile(r"更喜欢|喜欢|习惯|偏好|倾向于|更愿意|愿意|比较|最好|更|想要|想")

RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("goal", re.compile(r"目标|考到|考过|争取|拿到|通过.*考试|考研|上岸|打算.*(?:考|过)|希望.*(?:考|过|拿)|冲一下|冲个")),
    ("constraint", re.compile(r"不能|没空|不要安排|别安排|别排|不要排|别给我排|不排|不要在|不想在|不要把|必须|要上|有课|要去|"
                              r"兼职|家教|训练|值班|例会|排练|课|早八|上班|打工|社团|班会|门禁|回家|志愿者|助教|复诊|午睡|补觉|起床")),
    ("preference", re.compile(r"喜欢|习惯|偏好|倾向|更愿意|效率高|效率最高|专注|不超过|最多学|每次学|学得进去|改成|改为|换成")),
    ("fact", re.compile(r"我是|我叫|名字|专业|大[一二三四]|研[一二三]|住在|宿舍|过敏|生日|来自|学院|年级|老家|近视|左撇子")),
)


def make_responder(*, careless: bool = False):
    """A responder answering memory-stage prompts by rule and leaving every other request to the script."""

    def answer(request: RecordedRequest) -> Reply | None:
        messages = request.messages
        if not messages:
            return None
        system = str(messages[0].get("content") or "")
        user = str(messages[-1].get("content") or "")
        if system.startswith(EXTRACT_TAG):
            facts = extract(student_message(user), careless=careless)
            return Reply(text=json.dumps({"facts": facts}, ensure_ascii=False))
        if system.startswith(DECIDE_TAG):
            return Reply(text=json.dumps({"decisions": decide(json.loads(user))}, ensure_ascii=False))
        return None

    return answer


responder = make_responder()
careless_responder = make_responder(careless=True)


def student_message(user_content: str) -> str:
    """The student's words from the extraction request (the answer section is context only)."""
    text = user_content.split("## 学生的消息", 1)[-1]
    return text.split("## 助手的回答", 1)[0].strip()


def extract(text: str, *, careless: bool = False) -> list[dict[str, Any]]:
    """Return the facts about the student in ``text``, by the rules above (at most three)."""
    facts: list[dict[str, Any]] = []
    reader = (english.clauses, english.classify) if english.is_english(text) else (_clauses, _classify)
    for clause, asked in reader[0](text):
        fact = reader[1](clause, asked, careless=careless)
        if fact and all(fact["content"] != other["content"] for other in facts):
            facts.append(fact)
    return facts[:3]


def _clauses(text: str) -> list[tuple[str, bool]]:
    out: list[tuple[str, bool]] = []
    position = 0
    for piece in _SPLIT.split(text):
        start = text.find(piece, position)
        position = start + len(piece) if start >= 0 else position
        asked = position < len(text) and text[position] in "？?"
        clause = piece.strip()
        if not clause:
            continue
        if out and _STARTS_WITH_TIME.match(clause) and not _TIME.search(out[-1][0]) and not out[-1][1]:
            out[-1] = (f"{out[-1][0]}，{clause}", asked)
        elif out and _BARE_FORGET.match(clause):  # "关于考研的事，别记了": the request is about the clause before
            out[-1] = (f"{clause}{out[-1][0]}", asked)
        else:
            out.append((clause, asked))
    return out


def _classify(clause: str, asked: bool, *, careless: bool = False) -> dict[str, Any] | None:
    if _FORGET.search(clause):
        return _forget_request(clause)
    if asked or _QUESTION.search(clause):
        return None
    negated = bool(_NEGATION.search(clause))
    # "不干了" keeps its "了": without it the sentence no longer says that something stopped.
    content = _LEADING.sub("", clause).strip()
    content = (content.rstrip("哦啊呀吧") if negated else _TRAILING.sub("", content)).strip()
    if len(content) < 3 or (_OTHERS.match(content) and not careless):
        return None  # too short to mean anything, or about someone else
    if RULES[2][1].search(clause) and _CHANGE.match(content):
        content = _CHANGE.sub("", content, count=1)  # "改成晚上学数学" states the new habit: "晚上学数学"
    for memory_type, pattern in RULES:
        if pattern.search(clause):
            if memory_type == "constraint" and (_ONE_OFF.search(clause) or not (
                    _TIME.search(clause) or negated or "不能" in clause or "必须" in clause)):
                continue  # a one-off plan, or a commitment without a time, is not a standing constraint
            confidence = 0.5 if _HEDGE.search(clause) else 0.9
            importance = {"constraint": 0.8, "goal": 0.7, "preference": 0.6, "fact": 0.5}[memory_type]
            return {"type": memory_type, "content": content, "importance": importance, "confidence": confidence,
                    "category": "ordinary"}
    if negated:
        return {"type": "fact", "content": content, "importance": 0.5, "confidence": 0.85, "category": "ordinary"}
    if careless and len(content) >= 4 and not _ONE_OFF.search(clause) and not _SMALL_TALK.match(content):
        confidence = 0.5 if _HEDGE.search(clause) else 0.8
        return {"type": "fact", "content": content, "importance": 0.5, "confidence": confidence, "category": "ordinary"}
    return None


def _forget_request(clause: str) -> dict[str, Any] | None:
    """"别再记着我在准备考研了" → forget "在准备考研" (type as it would have been learned)."""
    content = _FORGET.sub("", clause, count=1)
    content = re.sub(r"^(?:那个|这个|那条说|这条说|那条|这条|那|把|关于)+"
                     r"|(?:的事情|的事|那事|这事|那件事|这件事|的记忆|的那条|的这条|这条|那条|记忆|从)+"
                     r"|你就|你可以|你|吧|[，,：:]", "", content.strip(" ：:，,的"))
    content = re.sub(r"^(?:关于|说)|记下来$", "", content)
    content = _TRAILING.sub("", _LEADING.sub("", content.strip(" ：:，,的"))).strip()
    content = re.sub(r"(?:那个|这个)$", "", content)
    if len(content) < 2:
        return None
    memory_type = next((name for name, pattern in RULES if pattern.search(content)), "fact")
    return {"type": memory_type, "content": content, "importance": 0.5, "confidence": 0.9,
            "category": "forget_request"}


# --- Decisions -----------------------------------------------------------------------------------

def decide(payload: dict[str, Any]) -> list[dict[str, str]]:
    """Return one decision per new fact, comparing topics with the existing memories."""
    existing = [item for item in payload.get("existing", []) if isinstance(item, dict)]
    decisions = []
    for new in payload.get("new", []):
        decisions.append(_decide_one(new, existing))
    return decisions


def _decide_one(new: dict[str, Any], existing: list[dict[str, Any]]) -> dict[str, Any]:
    content = str(new.get("content", ""))
    best, best_score = None, 0.0
    for item in existing:
        score = _overlap(_topic(content), _topic(str(item.get("content", ""))))
        if score > best_score:
            best, best_score = item, score
    ref = str(new.get("ref", ""))
    if new.get("request") == "forget_request":
        targets = [item["ref"] for item in existing if _overlap(_topic(content), _topic(str(item.get("content", "")))) >= 0.4]
        if not targets and best is not None and _overlap(_chars(content), _chars(str(best.get("content", "")))) >= 0.25:
            targets = [best["ref"]]  # the closest memory the server found shares the key word ("挂科" / "挂了")
        if not targets:
            return {"new": ref, "action": "NONE", "reason": "没有要忘掉的记忆"}
        # As the prompt asks: details learned in the same sentence as a target go with it, unless they
        # are another matter (this model's judgement: a different kind of memory is another matter).
        kinds = {item["ref"]: item.get("type") for item in existing}
        targets += [item["ref"] for item in existing
                    if item.get("learned_with") in targets and item.get("type") == kinds[item["learned_with"]]]
        return {"new": ref, "action": "FORGET", "targets": targets, "reason": "学生要求忘掉"}
    if best is None or best_score < 0.4:
        return {"new": ref, "action": "ADD", "reason": "新话题"}
    old = str(best.get("content", ""))
    if _negated(content) and not _negated(old):
        return {"new": ref, "action": "INVALIDATE", "target": best["ref"], "reason": "不再成立"}
    if _topic(content) == _topic(old) and _times(content) == _times(old) and not _changed(content):
        return {"new": ref, "action": "NONE", "target": best["ref"], "reason": "已记住"}
    return {"new": ref, "action": "UPDATE", "target": best["ref"], "reason": "有变化"}


def _negated(text: str) -> bool:
    return bool(_NEGATION.search(text) or english.NEGATION.search(text))


def _changed(text: str) -> bool:
    return bool(_CHANGE.search(text) or english.CHANGE.search(text))


def _topic(text: str) -> set[str]:
    if english.is_english(text):
        return english.topic(text)
    residue = _TIME.sub("", text)
    for pattern in (_NEGATION, _CHANGE, _LIKING):
        residue = pattern.sub("", residue)
    residue = re.sub(r"[要在有去上得的了是都也还我\s]", "", residue)
    return {residue[i:i + 2] for i in range(len(residue) - 1)} or ({residue} if residue else set())


def _chars(text: str) -> set[str]:
    """Single characters (Chinese) or words (English) of a topic, for a looser match."""
    if english.is_english(text):
        return english.topic(text)
    return {char for char in "".join(sorted(_topic(text))) if "\u4e00" <= char <= "\u9fff"}


def _overlap(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def _times(text: str) -> list[str]:
    return english.times(text) if english.is_english(text) else sorted(_TIME.findall(text))
