"""Find clashes: between rows of one file, and between an import and slots already taken."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from schedule.core.importers.budget import NO_LIMIT, WorkBudget
from schedule.core.importers.report import ImportedCourse, ImportProblem, Occurrence, problem
from schedule.core.time_model import DAY_NAMES, SlotKey
from schedule.core.weekspec import format_weeks


def find_row_clashes(
    courses: Iterable[ImportedCourse], budget: WorkBudget = NO_LIMIT
) -> tuple[ImportProblem, ...]:
    """Report each later row that shares a slot with an earlier row, once per pair of rows."""
    claimed: dict[SlotKey, ImportedCourse] = {}
    problems: list[ImportProblem] = []
    for course in sorted(courses, key=lambda c: c.row):
        budget.spend()
        overlaps: dict[ImportedCourse, list[SlotKey]] = defaultdict(list)
        for key in course.slot_keys():
            earlier = claimed.get(key)
            if earlier is None:
                claimed[key] = course
            else:
                overlaps[earlier].append(key)
        for earlier, keys in sorted(overlaps.items(), key=lambda item: item[0].row):
            problems.append(
                problem(
                    "clash",
                    course.row,
                    None,
                    other_row=earlier.row,
                    other_name=earlier.name,
                    **_where(keys),
                )
            )
    return tuple(problems)


def find_clashes(
    occurrences: Iterable[Occurrence],
    occupied: Collection[SlotKey] | Mapping[SlotKey, str],
    budget: WorkBudget = NO_LIMIT,
) -> tuple[ImportProblem, ...]:
    """Report imported meetings that land on occupied slots; a mapping names the occupants.

    One problem per source row and occupant, listing the weeks and sections affected.
    """
    names = occupied if isinstance(occupied, Mapping) else {}
    taken = {SlotKey(*key) if isinstance(key, tuple) else key for key in occupied}
    hits: dict[tuple[int, str], list[SlotKey]] = defaultdict(list)
    courses: dict[int, ImportedCourse] = {}
    for occurrence in occurrences:
        budget.spend()
        for key in occurrence.slot_keys():
            if key in taken:
                occupant = _occupant_name(names, key)
                hits[(occurrence.course.row, occupant)].append(key)
                courses[occurrence.course.row] = occurrence.course
    return tuple(
        problem(
            "clash_with_existing",
            row,
            None,
            name=courses[row].name,
            occupant=occupant,
            **_where(keys),
        )
        for (row, occupant), keys in sorted(hits.items())
    )


# The occupant's name when the caller gave none; the Django side words it in the student's language.
UNNAMED_OCCUPANT = "an existing entry"


def _occupant_name(names: Mapping[Any, str], key: SlotKey) -> str:
    # Callers may key their mapping by SlotKey or by plain (week, day, section) tuples.
    found = names.get(key) or names.get((key.week, key.day, key.section))
    return found or UNNAMED_OCCUPANT


def _where(keys: list[SlotKey]) -> dict[str, object]:
    # Every key of one course lies on the course's single weekday.
    sections = sorted({k.section for k in keys})
    weeks = sorted({k.week for k in keys})
    return {
        "day": keys[0].day,
        "day_name": DAY_NAMES[keys[0].day - 1],
        "first": sections[0],
        "last": sections[-1],
        "sections": _sections_text(sections[0], sections[-1]),
        "weeks": format_weeks(weeks),
        "week_list": weeks,
    }


def _sections_text(first: int, last: int) -> str:
    return f"section {first}" if first == last else f"sections {first}-{last}"
