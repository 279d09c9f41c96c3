"""Read and write the SmartMate JSON timetable, and read the course format of the earlier SmartMate app.

SmartMate format (rows are 1-based positions in ``courses``)::

    {
      "format": "smartmate-timetable/1",
      "courses": [
        {"name": "高等数学A(下)", "teacher": "王建华", "location": "二教2305",
         "day": 1, "start_section": 1, "end_section": 2,
         "weeks": "1-16", "is_filler": false}
      ]
    }

``name``, ``day`` (1-7 or 周一..周日), ``start_section``, ``end_section`` and ``weeks`` (a week spec
such as ``"1-15单"`` or a list of week numbers) are required; ``teacher``, ``location`` and
``is_filler`` are optional; other keys are ignored.

The earlier app's import body is also read, so a timetable prepared for it imports unchanged
(``{"courses": [{"course_name", "location", "is_allow_tasks", "arrangements": [{"start_week",
"end_week", "day_of_week", "start_section", "end_section", "week_type": "all"|"odd"|"even"}]}]}``);
each arrangement becomes one course.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from schedule.core.importers.budget import NO_LIMIT, WorkBudget
from schedule.core.importers.fields import RawCourse, build_course
from schedule.core.importers.report import ImportedCourse, ImportProblem, ImportRejected, problem
from schedule.core.time_model import SectionTemplate, Semester

FORMAT_ID = "smartmate-timetable/1"
_WEEK_TYPE_SUFFIX = {"all": "", "odd": "单", "even": "双"}


def parse_json(
    text: str, semester: Semester, template: SectionTemplate, budget: WorkBudget = NO_LIMIT
) -> tuple[list[ImportedCourse], list[ImportProblem]]:
    """Return the courses of a JSON timetable and the problems of its entries."""
    document = _load(text)
    raws, problems = _raw_courses(document)
    courses: list[ImportedCourse] = []
    for raw in raws:
        budget.spend()
        result = build_course(raw, semester, template)
        if isinstance(result, ImportedCourse):
            courses.append(result)
        else:
            problems.extend(result)
    return courses, problems


def dump_json(courses: Iterable[ImportedCourse]) -> bytes:
    """Write courses in the SmartMate JSON format (UTF-8, readable Chinese, stable order)."""
    document = {
        "format": FORMAT_ID,
        "courses": [
            {
                "name": c.name,
                "teacher": c.teacher,
                "location": c.location,
                "day": c.day,
                "start_section": c.start_section,
                "end_section": c.end_section,
                "weeks": c.weeks_text,
                "is_filler": c.is_filler,
            }
            for c in sorted(courses, key=lambda c: (c.day, c.start_section, c.weeks, c.name, c.row))
        ],
    }
    return json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8")


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        # [[[[…]]]]: the decoder recursed past the interpreter's limit. Refused like any bad file.
        raise ImportRejected(problem("json_too_deep", None)) from None
    except json.JSONDecodeError as error:
        raise ImportRejected(
            problem(
                "invalid_json",
                error.lineno,
                error=f"{error.msg} at line {error.lineno}, column {error.colno}",
            )
        ) from None


def _raw_courses(document: Any) -> tuple[list[RawCourse], list[ImportProblem]]:
    if not isinstance(document, dict) or not isinstance(document.get("courses"), list):
        raise ImportRejected(problem("unknown_json_format", None, expected=FORMAT_ID))
    if document.get("format") == FORMAT_ID:
        entries = _entries(document["courses"])
        return [_smartmate_course(row, entry) for row, entry in entries], _entry_problems(
            document["courses"]
        )
    if "format" not in document and all(
        isinstance(c, dict) and "arrangements" in c for c in document["courses"]
    ):
        entries = _entries(document["courses"])
        raws = [raw for row, entry in entries for raw in _original_courses(row, entry)]
        return raws, _entry_problems(document["courses"])
    raise ImportRejected(problem("unknown_json_format", None, expected=FORMAT_ID))


def _entries(items: list[Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(row, item) for row, item in enumerate(items, start=1) if isinstance(item, dict)]


def _entry_problems(items: list[Any]) -> list[ImportProblem]:
    problems = [
        problem("invalid_value", row, "course", value=str(item)[:50])
        for row, item in enumerate(items, start=1)
        if not isinstance(item, dict)
    ]
    if not items:
        problems.append(problem("no_courses", None))
    return problems


def _smartmate_course(row: int, entry: dict[str, Any]) -> RawCourse:
    return RawCourse(
        row=row,
        name=_string(entry.get("name")),
        day=entry.get("day"),
        start_section=entry.get("start_section"),
        end_section=entry.get("end_section"),
        weeks=entry.get("weeks"),
        teacher=_string(entry.get("teacher")),
        location=_string(entry.get("location")),
        is_filler=entry.get("is_filler", False),
    )


def _original_courses(row: int, entry: dict[str, Any]) -> list[RawCourse]:
    arrangements = entry.get("arrangements")
    if not isinstance(arrangements, list):
        arrangements = [None]
    return [
        RawCourse(
            row=row,
            name=_string(entry.get("course_name")),
            day=_get(arrangement, "day_of_week"),
            start_section=_get(arrangement, "start_section"),
            end_section=_get(arrangement, "end_section"),
            weeks=_original_weeks(arrangement),
            location=_string(entry.get("location")),
            is_filler=entry.get("is_allow_tasks", False),
        )
        for arrangement in arrangements
    ]


def _get(arrangement: Any, key: str) -> Any:
    return arrangement.get(key) if isinstance(arrangement, dict) else None


def _original_weeks(arrangement: Any) -> str:
    start, end = _get(arrangement, "start_week"), _get(arrangement, "end_week")
    suffix = _WEEK_TYPE_SUFFIX.get(str(_get(arrangement, "week_type") or "all").lower())
    if type(start) is not int or type(end) is not int or suffix is None:
        return f"{start}-{end} {_get(arrangement, 'week_type')}"
    return f"{start}-{end}{suffix}"


def _string(value: Any) -> str:
    # Numbers are accepted as text (a room called 3105); anything else is treated as missing.
    return (
        str(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else ""
    )
