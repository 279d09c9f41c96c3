"""Read and check the fields every timetable format shares: name, day, sections, weeks."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from schedule.core.importers.metadata import MAX_NOTE, split_course_code
from schedule.core.importers.notices import WeeksClipped
from schedule.core.importers.people import teacher_names
from schedule.core.importers.report import ImportedCourse, ImportProblem, problem
from schedule.core.time_model import MAX_WEEKS, SectionTemplate, Semester
from schedule.core.weekspec import WeekSpecError, parse_weeks

MAX_NAME_LENGTH = 100
MAX_TEXT_LENGTH = 100

_DAY_WORDS = {
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "日": 7,
    "天": 7,
    "七": 7,
    "mon": 1,
    "tue": 2,
    "wed": 3,
    "thu": 4,
    "fri": 5,
    "sat": 6,
    "sun": 7,
    "monday": 1,
    "tuesday": 2,
    "wednesday": 3,
    "thursday": 4,
    "friday": 5,
    "saturday": 6,
    "sunday": 7,
}
_DAY_PREFIX = re.compile(r"^(星期|礼拜|周)")
_SECTION_TEXT = re.compile(r"^第?\s*(\d+)\s*节?$")
_TRUE_WORDS = {"1", "true", "yes", "y", "是", "水课", "可嵌入", "√"}
_FALSE_WORDS = {"", "0", "false", "no", "n", "否"}


@dataclass(frozen=True, slots=True)
class RawCourse:
    """A course as read from a file, before checking: values are still strings, ints or lists."""

    row: int
    name: object
    day: object
    start_section: object
    end_section: object
    weeks: object
    teacher: object = ""
    location: object = ""
    is_filler: object = False
    note: object = ""  # a remark the file keeps beside the course (a CSV's 备注 column)


def parse_day(value: object) -> int | None:
    """Return 1..7 for 1-7, 周一/星期一/礼拜日, Mon/Monday; None if it is not a day."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 1 <= value <= 7 else None
    if not isinstance(value, str):
        return None
    text = unicodedata.normalize("NFKC", value).strip().lower()
    if text.isdigit():
        return int(text) if 1 <= int(text) <= 7 else None
    return _DAY_WORDS.get(_DAY_PREFIX.sub("", text))


def parse_section_number(value: object) -> int | None:
    """Return the section number of 3, '3', '第3节'; None if unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        match = _SECTION_TEXT.match(unicodedata.normalize("NFKC", value).strip())
        return int(match[1]) if match else None
    return None


def parse_flag(value: object) -> bool | None:
    """Return a yes/no flag from a bool, 0/1 or words like true/是; None if unreadable."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE_WORDS:
        return True
    if text in _FALSE_WORDS:
        return False
    return None


def build_course(
    raw: RawCourse, semester: Semester, template: SectionTemplate
) -> ImportedCourse | list[ImportProblem]:
    """Check a raw course against the semester and template; return it or its problems."""
    problems: list[ImportProblem] = []
    name = course_name(text_field(raw.row, "name", raw.name, MAX_NAME_LENGTH, problems, required=True))
    teacher = teacher_names(text_field(raw.row, "teacher", raw.teacher, MAX_TEXT_LENGTH, problems))
    location = text_field(raw.row, "location", raw.location, MAX_TEXT_LENGTH, problems)
    day = day_field(raw.row, raw.day, problems)
    start, end = _sections(raw, template, problems)
    weeks, dropped = weeks_field(raw.row, raw.weeks, semester, problems)
    is_filler = parse_flag(raw.is_filler)
    if is_filler is None:
        problems.append(problem("invalid_value", raw.row, "is_filler", value=str(raw.is_filler)))
    if problems or day is None or start is None or end is None:
        return problems
    notices = (WeeksClipped(raw.row, name, dropped, semester.weeks),) if dropped else ()
    note = text_field(raw.row, "note", raw.note, MAX_NOTE, problems)
    return ImportedCourse(
        raw.row, name, day, start, end, weeks, teacher, location, bool(is_filler), note=note, notices=notices
    )


def course_name(text: str) -> str:
    """The course's name as a student knows it: a course code pasted in brackets before it is not part of it."""
    return split_course_code(text)[0]


def text_field(
    row: int,
    name: str,
    value: object,
    limit: int,
    problems: list[ImportProblem],
    *,
    required: bool = False,
) -> str:
    """The stripped text of a field; a missing required one or one over ``limit`` adds a problem."""
    text = "" if value is None else str(value).strip()
    if required and not text:
        problems.append(problem("missing_value", row, name))
    elif len(text) > limit:
        problems.append(problem("too_long", row, name, limit=limit))
    return text


def day_field(row: int, value: object, problems: list[ImportProblem]) -> int | None:
    """The weekday (1..7) of a field, or None with a problem added."""
    if value is None or (isinstance(value, str) and not value.strip()):
        problems.append(problem("missing_value", row, "day"))
        return None
    day = parse_day(value)
    if day is None:
        problems.append(problem("invalid_day", row, "day", value=str(value).strip()))
    return day


def _sections(
    raw: RawCourse, template: SectionTemplate, problems: list[ImportProblem]
) -> tuple[int | None, int | None]:
    start = _section(raw, "start_section", raw.start_section, template, problems)
    end = _section(raw, "end_section", raw.end_section, template, problems)
    if start is not None and end is not None and start > end:
        problems.append(problem("reversed_sections", raw.row, "end_section", start=start, end=end))
        return None, None
    return start, end


def _section(
    raw: RawCourse,
    name: str,
    value: object,
    template: SectionTemplate,
    problems: list[ImportProblem],
) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        problems.append(problem("missing_value", raw.row, name))
        return None
    number = parse_section_number(value)
    if number is None:
        problems.append(problem("invalid_section", raw.row, name, value=str(value).strip()))
        return None
    if not 1 <= number <= template.count:
        problems.append(
            problem("unknown_section", raw.row, name, value=number, count=template.count)
        )
        return None
    return number


def weeks_field(
    row: int, value: object, semester: Semester, problems: list[ImportProblem]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return the weeks inside the semester and those after it that were left out.

    Weeks that cannot be read add a problem and come back empty.
    """
    written = value
    if isinstance(value, list) and value and all(type(w) is int for w in value):
        value = ",".join(str(w) for w in value)
    elif isinstance(value, list) and value:
        problems.append(problem("invalid_value", row, "weeks", value=str(written)))
        return (), ()
    elif isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    spec = value if isinstance(value, str) else ""
    try:
        return parse_weeks(spec, semester.weeks), ()
    except WeekSpecError as error:
        if error.code == "week_out_of_range":
            clipped = _clipped_weeks(spec, semester)
            if clipped is not None:
                return clipped
        problems.append(ImportProblem(row, "weeks", error.code, error.message, error.detail))
        return (), ()


def _clipped_weeks(spec: str, semester: Semester) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Split weeks running past the semester (a 1-18 timetable in a 16-week term) into kept and dropped.

    None when that cannot help: week 0, a week past any semester, or no week left inside.
    """
    try:
        weeks = parse_weeks(spec, MAX_WEEKS)
    except WeekSpecError:
        return None
    kept = tuple(w for w in weeks if w <= semester.weeks)
    dropped = tuple(w for w in weeks if w > semester.weeks)
    return (kept, dropped) if kept else None
