"""Merge rows that repeat a course at the same time, so a duplicated line is not a clash.

Spreadsheets and calendar exports often hold the same course twice (a line copied, an event
exported from two calendars). A later row with the same name, teacher, place, day and sections
whose weeks overlap an earlier row's is folded into that earlier row, which says so with a
``MergedDuplicate`` notice. Rows that differ in anything but their weeks are left alone: if they
share a slot, that is a real clash and ``find_row_clashes`` reports it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from schedule.core.importers.budget import NO_LIMIT, WorkBudget
from schedule.core.importers.notices import MergedDuplicate
from schedule.core.importers.report import ImportedCourse

_Identity = tuple[str, str, str, int, int, int, bool]


def merge_duplicates(
    courses: Iterable[ImportedCourse], budget: WorkBudget = NO_LIMIT
) -> list[ImportedCourse]:
    """Return the courses with overlapping repeats of an earlier row merged into it."""
    merged: list[ImportedCourse] = []
    position_of: dict[_Identity, list[int]] = {}
    for course in sorted(courses, key=lambda c: c.row):
        budget.spend()
        positions = position_of.setdefault(_identity(course), [])
        target = next((p for p in positions if set(merged[p].weeks) & set(course.weeks)), None)
        if target is None:
            positions.append(len(merged))
            merged.append(course)
        else:
            merged[target] = _absorb(merged[target], course)
    return merged


def _identity(course: ImportedCourse) -> _Identity:
    return (
        course.name,
        course.teacher,
        course.location,
        course.day,
        course.start_section,
        course.end_section,
        course.is_filler,
    )


def _absorb(kept: ImportedCourse, repeat: ImportedCourse) -> ImportedCourse:
    shared = tuple(sorted(set(kept.weeks) & set(repeat.weeks)))
    notice = MergedDuplicate(kept.row, kept.name, repeat.row, shared)
    return dataclasses.replace(
        kept,
        weeks=tuple(sorted(set(kept.weeks) | set(repeat.weeks))),
        notices=(*kept.notices, notice, *repeat.notices),
    )
