"""Read one cell of a 教务系统 grid timetable into its courses: name, teacher, room and weeks.

Exports write a cell's courses in one of two ways:

* inline, one course after another: "课程 教师(1-16单周 教室)", the weeks and the room in brackets
  after the name and the teacher (several courses may share a cell: alternate weeks);
* stacked, one fact per line: "课程\\n教师\\n教室\\n1-16周", courses apart by a blank line or
  simply one after another (as many lines each).

``read_cell`` returns None for text that is neither: the caller reports that cell, it never guesses.
Weeks come back as written (minus 周 and section notes) for the caller to check against the semester.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from schedule.core.importers.metadata import looks_like_place
from schedule.core.time_model import MAX_WEEKS
from schedule.core.weekspec import WeekSpecError, parse_weeks

_BRACKETED = re.compile(r"\(([^()]*)\)")
_LINE_BREAK = re.compile(r"\r\n|\r|\n|<br\s*/?>", re.I)
_SEPARATOR = re.compile(r"^[-—=_*]{2,}$")
# "[01-02节]", "(1-2节)", "第1-2节": which sections, already given by the grid's rows.
_SECTIONS_NOTE = re.compile(r"[\[(]?\s*第?\s*\d{1,2}(?:\s*[-,、]\s*\d{1,2})*\s*节\s*[\])]?")
_ENTRY_GAP = " ,;，；、"


@dataclass(frozen=True, slots=True)
class CellCourse:
    """One course written in a grid cell; ``weeks`` is the week spec as written."""

    name: str
    teacher: str
    location: str
    weeks: str


def read_cell(text: str) -> list[CellCourse] | None:
    """The courses a cell holds, in the order written; None when the cell cannot be read."""
    lines = [line.strip() for line in _LINE_BREAK.split(narrow_width(text))]
    written = [line for line in lines if line]
    if not written:
        return []
    inline = [_inline_courses(line) for line in written]
    if all(found is not None for found in inline):
        return [course for found in inline if found is not None for course in found]
    return _stacked_courses(lines)


_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def narrow_width(text: str) -> str:
    """Full-width letters, digits and punctuation as ASCII ("（１－１６周）" -> "(1-16周)").

    Only the width is folded: other compatibility forms are the course's name as written, and
    NFKC would turn "形势与政策Ⅲ" into "形势与政策III".
    """
    return text.translate(_FULL_WIDTH)



def week_spec(text: str) -> str | None:
    """The week spec ``text`` is ("1-16单周" -> "1-16单"), None when it names no week."""
    spec = _SECTIONS_NOTE.sub(" ", text).replace("单周", "单").replace("双周", "双").replace("周", " ").strip()
    # A parity alone ("单周") or a bare word is no week range of its own.
    if not any(ch.isdigit() for ch in spec):
        return None
    try:
        parse_weeks(spec, MAX_WEEKS)
    except WeekSpecError:
        return None
    return spec


# --- "课程 教师(1-16单周 教室)" -----------------------------------------------------------------------

def _inline_courses(line: str) -> list[CellCourse] | None:
    courses: list[CellCourse] = []
    start = 0
    for bracket in _BRACKETED.finditer(line):
        split = _weeks_and_place(bracket[1])
        if split is None:
            continue  # a bracket inside a name: "高等数学(下)"
        head = line[start:bracket.start()].strip(_ENTRY_GAP)
        if not head:
            return None
        name, teacher = _name_and_teacher(head)
        courses.append(CellCourse(name, teacher, split[1], split[0]))
        start = bracket.end()
    if not courses or line[start:].strip(_ENTRY_GAP):
        return None
    return courses


def _weeks_and_place(inner: str) -> tuple[str, str] | None:
    """(weeks, room) of "1-16单周 教室": the longest leading words that are weeks, the rest the room."""
    words = inner.split()
    for count in range(len(words), 0, -1):
        spec = week_spec(" ".join(words[:count]))
        if spec is not None:
            return spec, " ".join(words[count:])
    return None


def _name_and_teacher(head: str) -> tuple[str, str]:
    # Exports write "课程 教师": the last word is the teacher (several joined by 、), the rest the name.
    words = head.split()
    if len(words) < 2:
        return head, ""
    return " ".join(words[:-1]), words[-1]


# --- "课程\n教师\n教室\n1-16周" --------------------------------------------------------------------

def _stacked_courses(lines: list[str]) -> list[CellCourse] | None:
    courses: list[CellCourse] = []
    for group in _groups(lines):
        found = _stacked_group(group)
        if found is None:
            return None
        courses.extend(found)
    return courses or None


def _groups(lines: list[str]) -> list[list[str]]:
    """The cell's lines in groups apart by blank or separator lines."""
    groups: list[list[str]] = [[]]
    for line in lines:
        if not line or _SEPARATOR.match(line):
            groups.append([])
        else:
            groups[-1].append(line)
    return [group for group in groups if group]


def _stacked_group(group: list[str]) -> list[CellCourse] | None:
    """One or more courses of as many lines each, every one with exactly one line of weeks."""
    weeks_at = [i for i, line in enumerate(group) if week_spec(line) is not None]
    if not weeks_at or len(group) % len(weeks_at):
        return None
    size = len(group) // len(weeks_at)
    chunks = [group[i:i + size] for i in range(0, len(group), size)]
    courses = [_stacked_course(chunk) for chunk in chunks]
    return None if any(course is None for course in courses) else [c for c in courses if c is not None]


def _stacked_course(chunk: list[str]) -> CellCourse | None:
    weeks = [week_spec(line) for line in chunk]
    if weeks[0] is not None or sum(spec is not None for spec in weeks) != 1:
        return None  # the name comes first, and one course has one line of weeks
    spec = next(spec for spec in weeks if spec is not None)
    others = [line for line, found in zip(chunk[1:], weeks[1:]) if found is None]
    places = [line for line in others if looks_like_place(line)]
    people = [line for line in others if line not in places]
    return CellCourse(chunk[0], "、".join(people), " ".join(places), spec)
