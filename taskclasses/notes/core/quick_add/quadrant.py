"""Suggest a quadrant, an effort in sections and the urgency threshold (see QUICK_ADD.md).

Rule, small on purpose:
- important: the title names coursework or an obligation (考试, 作业, 提交/交, 答辩, 面试, 报名,
  老师, exam, homework, submit, interview, pay...);
- urgent: the urgency threshold has been reached (the deadline is within the lead, 48 h by
  default), the deadline is past, or the note says 尽快/马上/ASAP;
- important: 1 if urgent else 2. Unimportant: 3 if urgent; else 4 when the task is complex
  (学习/复习/项目/论文/写, study, read, project, or 3+ sections), 3 when simple or unknown.
  Unimportant urgent work is 3 because the threshold promotes 4 -> 3 anyway.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta

from .fragments import Fragment
from .markers import PriorityMarks
from .result import QuadrantReason

URGENCY_LEAD = timedelta(hours=48)  # a deadline within 48 h makes a task urgent
EXTRA_LEAD_PER_SECTION = timedelta(hours=24)  # big jobs need warning earlier
SECTION_MINUTES = 45
MAX_SECTIONS = 4  # the Task model clamps estimated_sections to 1..4


def _words(chinese: str, english: str) -> re.Pattern[str]:
    return re.compile(rf"{chinese}|\b(?:{english})\b", re.IGNORECASE)


_IMPORTANT = _words(
    r"考试|测验|小测|期中|期末|(?<![参思])考(?![虑察勤])|四级|六级|雅思|托福|作业|报告|ddl|截止|提交"
    r"|(?<![外社])交(?![流友通朋])|答辩|面试|笔试|报名|申请|简历|开会|组会|例会|班会|会议|汇报|展示|ppt"
    r"|实验(?!室)|老师|导师|教授|辅导员|选课|抢课|签证|体测|缴费|奖学金|大创|竞赛|备考|文献"
    # tuning4: the weekly report / journal / lab meeting, course slides, recorded lectures and
    # exercise sets are coursework too; 周X as a time word is cut before this runs.
    r"|周报|周记|周会|课件|习题|心得",
    r"exams?|tests?|quiz(?:zes)?|midterms?|finals?|homework|hw|assignments?|problem\s+sets?|psets?"
    r"|reports?|essays?|deadlines?|due|submit|submission|hand\s+in|turn\s+in|defen[cs]e|interviews?"
    r"|register|registration|sign\s+up|apply|application|presentations?|demo|meetings?|professor|prof"
    r"|advisor|supervisor|teacher|ta|pay|tuition|rent|visa|cv|resume|scholarship|write-?ups?|check-?ins?|stand-?ups?"
    r"|gre|gmat|toefl|ielts|lsat|mcat"
    r"|responses?|reflections?|worksheets?|registrar|course\s+selection|enrol(?:l)?(?:ment)?",
)
# Everyday obligations: missing them costs money, health or a document (issue #20's outside
# check found them all filed as errands). Fees and bills, medical visits, official paperwork,
# and what is owed to someone.
_OBLIGATION = _words(
    r"学费|房租|水电费|电费|水费|话费|网费|校园网|物业费|缴|医院|医务室|医生|看病|门诊|急诊|诊所|[牙眼]科|口腔|体检|抽血|牙医"
    r"|看牙|拔牙|复查|复诊"
    r"|挂号|打针|疫苗|大使馆|领事馆|面签|出入境"
    r"|盖章|签字|签名|证明(?!题)|成绩单|报销|户口|社保|医保|护照|签证|通行证|身份证|学生证|居住证|档案|合同|协议|保险"
    r"|还(?:图书馆|图书)?的?书|把[^,，。\s]{0,6}书还|书还(?:了|给|回)|还款|还信用卡|还花呗|还贷|还(?![没要是有在得需剩差])[^,，。\s]{0,4}(?:钱|块|元)",
    r"bills?|fees?|tuition|rent|doctor(?:'s)?|dentist(?:'s)?|checkup|check-up|physical|clinic|hospital"
    r"|blood\s+work|prescription|vaccin\w*|transcripts?|passport|visa|paperwork|notari[sz]e|lease|contract"
    r"|insurance|id\s+card|residence\s+permit|repay|owes?|(?:flu\s+)?shots?|embassy|consulate|stamp",
)
# A form to sign, books to return: the verb and the object may be apart ("get the form signed").
_OBLIGATION_PAIRS = re.compile(
    r"\bforms?\b.*\bsign|\bsign\w*\b.*\bforms?\b|\breturn\w*\b.*\bbooks?\b", re.IGNORECASE
)
# Work done *for* a class session is coursework: "read the chapters for tuesday's lecture",
# "readings for seminar", 为讨论课准备, 讨论课的文献 (文献 itself is in _IMPORTANT). Reviewing one's
# own notes stays ordinary study (复习高数, review lecture notes: complex, not important), and
# studying for an exam is already caught by the exam word. Making slides is a presentation;
# printing them is an errand.
_STUDY_FOR_COURSE = re.compile(
    r"为[^,，。;；!?]{0,10}(?:课|讲座|研讨)|讨论课|研讨课"
    r"|\b(?:study|studying|review|reviewing|read|reading|readings|prep|prepare|cram)\b[^,.;!?]{0,40}"
    r"\bfor\b[^,.;!?]{0,20}\b(?:class|course|lecture|seminar|tutorial|recitation)s?\b"
    r"|\b(?:prep|prepare|make|making|finish|do|work\s+on)\b[^,.;!?]{0,20}\bslides\b"
    r"|\b(?:study|studying|cram|cramming|revise|revising)\s+for\b",  # "study for bio": exam preparation
    re.IGNORECASE,
)
# "ddl周日 概率论作业": the connector leaves the title, but a stated deadline still marks an obligation.
_DEADLINE_WORD = _words(r"ddl|截止|截至", r"ddl|due|deadline")
_URGENT = _words(r"尽快|尽早|赶紧|马上|立刻|立即|紧急|加急|很急|急需",
                 r"urgent(?:ly)?|asap|as\s+soon\s+as\s+possible|right\s+away|immediately")
_SIMPLE = _words(
    r"整理|收拾|打扫|买|取|拿|寄|快递|洗|倒垃圾|充值|打个?电话|视频(?!剪辑)|回复|回消息|发邮件|还书|打印|复印|理发|剪头发|扔"
    r"|预约|预订|订|填",
    r"buy|pick\s+up|grab|laundry|clean|tidy|call|text|email|reply|print|return|groceries|grocery"
    r"|shopping|trash|water|wash|book|fill\s+(?:in|out)",
)
_COMPLEX = _words(
    r"学习|(?<![同大开放上留小中])学(?![校院期生长姐妹弟号分])|复习|预习|项目|论文|研究|读|看书|看完|练|刷题"
    r"|写|背|自学|备考|毕设|课程设计|准备|《"  # 《书名》: a book to read
    r"|博客|作品集|网站|小程序|剪辑",  # tuning4: personal projects take several sittings
    r"learn|study|review|project|read|reading|practi[cs]e|research|write|writing|paper|thesis|code"
    r"|coding|build|prepare|tutorial|chapter|portfolio|blog|website|side\s+project",
)
_QUICK = _words(r"顺手|随手", r"quick(?:ly)?")
# A meeting is coursework when it is a class's or an advisor's; a club's meeting or a party is a
# pastime (tuning4: "3点去社团活动室开会", "club meeting at 3" had been filed as important).
_MEETING = _words(r"开会|会议|例会", r"meetings?")
_PASTIME = _words(r"社团|协会|俱乐部|读书会|聚餐|聚会|派对|联谊",
                  r"club|society|party|hangout|movie\s+night|game\s+night")


def estimate_sections(fragments: list[Fragment], text: str) -> int | None:
    """Sections (45 min) the note says the task takes: "2小时" -> 3, "4节课" -> 4, "顺手" -> 1."""
    minutes = [fragment.duration_minutes for fragment in fragments if fragment.duration_minutes]
    if minutes:
        return max(1, min(MAX_SECTIONS, math.ceil(max(minutes) / SECTION_MINUTES)))
    return 1 if _QUICK.search(text) else None


def urgency_lead(sections: int | None) -> timedelta:
    """48 h, plus a day per section beyond a standard two-section block."""
    return URGENCY_LEAD + EXTRA_LEAD_PER_SECTION * max(0, (sections or 2) - 2)


def urgency_threshold(deadline: datetime | None, now: datetime, sections: int | None) -> datetime | None:
    """When the task turns urgent: deadline minus the lead, but never before now.

    A deadline nearer than the lead gets `now` (urgent already); one already past keeps the
    deadline itself, so the threshold never lies after the deadline.
    """
    if deadline is None:
        return None
    # Subtract in UTC (elapsed hours, not wall-clock hours, across a DST change).
    lead_start = (deadline.astimezone(UTC) - urgency_lead(sections)).astimezone(deadline.tzinfo)
    return max(lead_start, min(now, deadline))


NO_MARKS = PriorityMarks()


def is_important(title: str, text: str, marks: PriorityMarks = NO_MARKS) -> bool:
    """Coursework, an everyday obligation, a stated deadline, or the student's own 重要/!!."""
    return (
        marks.important
        or _names_obligation(title)
        or any(pattern.search(title) for pattern in (_OBLIGATION, _OBLIGATION_PAIRS, _STUDY_FOR_COURSE))
        or bool(_DEADLINE_WORD.search(text))
    )


def _names_obligation(title: str) -> bool:
    """A coursework word, unless the only one is a meeting of a club or a party."""
    words = [match.group(0) for match in _IMPORTANT.finditer(title)]
    if not words:
        return False
    if _PASTIME.search(title) and all(_MEETING.fullmatch(word) for word in words):
        return False
    return True


def suggest_quadrant(
    *,
    title: str,
    text: str,
    now: datetime,
    threshold: datetime | None,
    sections: int | None,
    marks: PriorityMarks = NO_MARKS,
) -> tuple[int, QuadrantReason]:
    """The quadrant (1..4) and the branch of the rule that chose it."""
    urgent = (threshold is not None and threshold <= now) or marks.urgent or bool(_URGENT.search(text))
    if is_important(title, text, marks):
        if urgent:
            return 1, QuadrantReason.IMPORTANT_URGENT
        return 2, QuadrantReason.IMPORTANT_NOT_URGENT
    if urgent:
        return 3, QuadrantReason.UNIMPORTANT_URGENT
    effort = _effort(title, sections)
    if effort == "complex":
        return 4, QuadrantReason.UNIMPORTANT_COMPLEX
    if effort == "simple":
        return 3, QuadrantReason.UNIMPORTANT_SIMPLE
    return 3, QuadrantReason.UNIMPORTANT_DEFAULT


def _effort(title: str, sections: int | None) -> str | None:
    """'complex', 'simple' or None; a stated duration wins, else the first effort word."""
    if sections is not None and sections >= 3:
        return "complex"
    if sections == 1:
        return "simple"
    simple, complex_ = _SIMPLE.search(title), _COMPLEX.search(title)
    if simple and complex_:
        # The verb comes first: 整理复习笔记 is tidying, 复习整理好的笔记 is studying.
        return "simple" if simple.start() < complex_.start() else "complex"
    return "simple" if simple else "complex" if complex_ else None
