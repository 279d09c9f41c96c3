"""Derive a tidy task title by cutting the time phrases and filler out of the note."""

from __future__ import annotations

import re
import unicodedata

from .fragments import Fragment

# Words that only tie a time phrase to the task: "之前" in 下周日之前, "by" in "by Friday".
# "'s" too: "prep for friday's quiz" -> "prep quiz", as 准备周六的面试 -> 准备面试.
# a deadline word after the day ("周五 ddl：数据结构作业", "周五截止") is a connector too.
# "周五或之前", "friday or earlier" = by Friday; 周五当天 = on Friday.
_AFTER_SPAN = re.compile(
    r"\s*(?:或者?(?:之前|以前|更早)|当天|那天|之前|以前|为止|之内|以内|前|内|的)|['’]s\b"
    r"|\s*(?:截止|ddl|deadline)(?:\s*:)?|\s+or\s+(?:earlier|before|sooner)\b",
    re.IGNORECASE,
)
# "ddl" and "due" are students' connectors too ("ddl周日 概率论作业", "lab report due: thursday"):
# they say "the deadline is", so they go with the time phrase, not into the title.
_BEFORE_SPAN = re.compile(
    r"(?:(?<![\w-])(?:(?:any\s*time|some\s*time|whenever)\s+(?:before|by|until|till)|by|before|b4|until|till|due(?:\s+(?:on|by|in|at))?|(?:ddl|deadline)(?:\s*是)?|on|at|in|for|after|around"
    r"|no\s+later\s+than|during)|在|于|截止(?:到|至|日期|时间)?(?:是)?|截至)\s*:?\s*$",
    re.IGNORECASE,
)
# What may sit between two time phrases and goes with them: 明天或者后天, tomorrow or Friday.
_JOINER = re.compile(r"\s*(?:或者|或是|或|还是|和|到|至|or|and|to|thru|through|till|til|,|、|~|-)?\s*", re.IGNORECASE)
_ZH_PREFIX = re.compile(
    # 请 is "please" only before a request ("请帮我…", "请提醒…"); "请室友吃饭" / "请假" keep it.
    # a label the student puts first (备忘：, 待办, 任务：) is not the task
    r"^(?:(?:备忘录?|待办(?:事项)?|todo|任务\s*[:：]|记一下\s*[:：])\s*[:：]?\s*)?"
    r"(?:(?:请|麻烦)(?=你|帮|提醒|记|务必|一定|别|不要))?你?(?:帮我|帮忙)?(?:提醒我|提醒一下|提醒|记一下|记下|记个|记住|记得|别忘了|不要忘了|不要忘记)?"
    r"(?:我要|我得|我需要|需要|一定要|务必|必须|我想要?|想要|我打算|打算|计划要|准备要|要(?![求是])|得(?![到分奖])"
    r")?"
    # effort words before a target date (争取周五前交报告) say how hard, not what
    r"(?:争取|尽量|尽可能|最好|应该)?"
)
_EN_PREFIX = re.compile(
    r"^(?:please\s+)?(?:remind\s+me\s+(?:to\s+)?|remember\s+to\s+|don'?t\s+forget\s+(?:to\s+)?"
    r"|(?:i\s+)?need\s+(?:to|2)\s+|(?:i\s+)?have\s+(?:to|2)\s+|i\s+must\s+|must\s+|to-?do:?\s*"
    # a label first ("note:", "task -", "remember:", "memo:"), texting ("lemme", "got 2")
    r"|(?:note|task|remember|memo|reminder)\s*(?::|-|–)\s*|(?:lemme|let\s+me)\s+|got\s+2\s+"
    r"|(?:pls|plz)\s+|(?:i\s+)?(?:gotta|got\s+to|should|want\s+to|wanna)\s+|(?:i'?m\s+)?(?:going\s+to|gonna)\s+"
    r"|make\s+sure\s+(?:to|i)\s+|(?:can\s+you\s+)?remind\s+me\s+to\s+|reminder:\s*"
    r"|(?:i\s+)?(?:try|aim|plan|hope)\s+to\s+|hopefully\s+|ideally\s+)",
    re.IGNORECASE,
)
_EDGE = " ,.;:!?~-、—"
_EMPTY_BRACKETS = re.compile(r"\(\s*\)|\[\s*\]|（\s*）")
_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+(?=[,，;；])")
# the student's own spaces between Chinese words stay ("取快递 菜鸟驿站"); a space
# beside a cut stays too, and only a cut inside words is glued (see _join).
# every full-width punctuation mark the student typed comes back, not only brackets
# ("考试！！复习第五章", "买水果，洗衣服"); normalisation folds them to ASCII for the rules only.
_FULL_WIDTH_PUNCTUATION = "（）！，：；？～、"


def phrase_spans(text: str, fragments: list[Fragment]) -> list[tuple[int, int]]:
    """The character ranges of the time phrases, widened to their connectors and merged."""
    spans = [_widen(text, fragment.start, fragment.end) for fragment in fragments if not fragment.keep_in_title]
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and _JOINER.fullmatch(text, merged[-1][1], max(start, merged[-1][1])):
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _widen(text: str, start: int, end: int) -> tuple[int, int]:
    after = _AFTER_SPAN.match(text, end)
    if after:
        end = after.end()
    before = _BEFORE_SPAN.search(text, 0, start)
    if before:
        start = before.start()
    return start, end


def build_title(
    text: str, fragments: list[Fragment], markers: tuple[tuple[int, int], ...] = (), *, original: str = ""
) -> str:
    """The note without its time phrases, priority markers, request prefixes and stray punctuation.

    `text` is the normalised note; `original` (as typed) gives back the student's full-width
    brackets, which normalisation folded to ASCII (去教务处盖章（成绩证明）).
    """
    kept, cursor = [], 0
    for start, end in _merge_overlaps([*phrase_spans(text, fragments), *markers]):
        kept.append(text[cursor:start])
        cursor = end
    kept.append(text[cursor:])
    title = _strip_prefixes(_tidy(_join(kept))) or _tidy(text)
    return _restore_full_width(title, original)


def _restore_full_width(title: str, original: str) -> str:
    for full_width in _FULL_WIDTH_PUNCTUATION:
        ascii_form = unicodedata.normalize("NFKC", full_width)
        if ascii_form != full_width and full_width in original and ascii_form not in original:
            title = title.replace(ascii_form, full_width)
    return title


def _merge_overlaps(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _join(pieces: list[str]) -> str:
    """Glue what is left around a cut: the student's own space stays (论文终稿 周五前发给导师 -> 论文终稿
    发给导师), a cut inside Chinese words is closed (组会PPT明天做完 -> 组会PPT做完)."""
    joined, spaced = "", False
    for raw in pieces:
        piece = raw.strip()
        spaced = spaced or raw[:1].isspace()
        if piece:
            chinese_edge = bool(joined) and (_CJK_CHAR.match(joined[-1]) or _CJK_CHAR.match(piece[0]))
            glue = "" if not joined or (chinese_edge and not spaced) else " "
            joined += glue + piece
            spaced = raw[-1:].isspace()
        else:
            spaced = spaced or bool(raw)
    return joined


def _strip_prefixes(title: str) -> str:
    # Prefixes stack ("pls remind me to …", "要记得…"): strip until none is left.
    for _ in range(3):
        stripped = _EN_PREFIX.sub("", _ZH_PREFIX.sub("", title, count=1), count=1).strip()
        if stripped == title or not stripped:
            break
        title = stripped
    return _tidy(title)


_TRAILING_PLEASE = re.compile(r"\s+(?:pls|plz|please)[\s!.]*$", re.IGNORECASE)


def _tidy(title: str) -> str:
    title = _TRAILING_PLEASE.sub("", title)  # "buy milk asap pls"
    title = _EMPTY_BRACKETS.sub("", title)
    title = " ".join(title.split())
    title = _SPACE_BEFORE_PUNCTUATION.sub("", title)  # "database final , review" after a cut
    return title.strip(_EDGE)
