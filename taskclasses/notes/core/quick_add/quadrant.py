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
    r"|实验(?!室)|老师|导师|教授|辅导员|选课|抢课|签证|体测|缴费|奖学金|大创|竞赛",
    r"exams?|tests?|quiz(?:zes)?|midterms?|finals?|homework|hw|assignments?|problem\s+sets?|psets?"
    r"|reports?|essays?|deadlines?|due|submit|submission|hand\s+in|turn\s+in|defen[cs]e|interviews?"
    r"|register|registration|sign\s+up|apply|application|presentations?|demo|meetings?|professor|prof"
    r"|advisor|supervisor|teacher|ta|pay|tuition|rent|visa|cv|resume|scholarship|write-?ups?|check-?ins?|stand-?ups?"
    r"|gre|gmat|toefl|ielts|lsat|mcat",
)
_URGENT = _words(r"尽快|尽早|赶紧|马上|立刻|立即|紧急|加急|很急|急需",
                 r"urgent(?:ly)?|asap|as\s+soon\s+as\s+possible|right\s+away|immediately")
_SIMPLE = _words(
    r"整理|收拾|打扫|买|取|拿|寄|快递|洗|倒垃圾|充值|打电话|回复|回消息|发邮件|还书|打印|复印|理发|剪头发|扔"
    r"|预约|预订|订|填",
    r"buy|pick\s+up|grab|laundry|clean|tidy|call|text|email|reply|print|return|groceries|grocery"
    r"|shopping|trash|water|wash|book|fill\s+(?:in|out)",
)
_COMPLEX = _words(
    r"学习|(?<![同大开放上留小中])学(?![校院期生长姐妹弟号分])|复习|预习|项目|论文|研究|读|看书|看完|练|刷题"
    r"|写|背|自学|备考|毕设|课程设计|准备|《",  # 《书名》: a book to read
    r"learn|study|review|project|read|reading|practi[cs]e|research|write|writing|paper|thesis|code"
    r"|coding|build|prepare|tutorial|chapter",
)
_QUICK = _words(r"顺手|随手", r"quick(?:ly)?")


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


def suggest_quadrant(
    *, title: str, text: str, now: datetime, threshold: datetime | None, sections: int | None
) -> tuple[int, QuadrantReason]:
    """The quadrant (1..4) and the branch of the rule that chose it."""
    urgent = (threshold is not None and threshold <= now) or bool(_URGENT.search(text))
    if _IMPORTANT.search(title):
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
