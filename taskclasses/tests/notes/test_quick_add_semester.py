"""Semester weeks in quick add: 第N周周X and "wk N ddd" count from the student's own semester.

Pure tests of the parser (no database), and one through the service that passes the settings.
"""

from __future__ import annotations

from datetime import date, datetime

import pytest

from taskclasses.notes.core.quick_add import AmbiguityReason, parse_quick_note
from taskclasses.tests.notes.quick_add_cases import SHANGHAI, WEDNESDAY

SPRING = date(2026, 3, 2)  # Monday of week 1


def parse(text: str, semester_start: date | None = SPRING):
    return parse_quick_note(text, now=WEDNESDAY, tz=SHANGHAI, semester_start=semester_start)


@pytest.mark.parametrize(
    ("text", "deadline", "title"),
    [
        ("第七周周三交电路实验报告", "2026-04-15T23:59:00+08:00", "交电路实验报告"),
        ("第7周的周五之前 交实习周记", "2026-04-17T23:59:00+08:00", "交实习周记"),
        ("第十二周星期二 晚上八点 社团例会", "2026-05-19T20:00:00+08:00", "社团例会"),
        ("wk 19 thu lab report", "2026-07-09T23:59:00+08:00", "lab report"),
        ("week 3 mon 9am advisor meeting", "2026-03-16T09:00:00+08:00", "advisor meeting"),
    ],
)
def test_a_semester_week_and_day_land_on_the_students_semester(text: str, deadline: str, title: str) -> None:
    parsed = parse(text)

    assert parsed.deadline == datetime.fromisoformat(deadline)
    assert parsed.title == title  # the week number never leaks into the title


def test_without_a_semester_a_semester_week_is_ambiguous_and_leaves_the_title() -> None:
    parsed = parse("第七周周三交电路实验报告", semester_start=None)

    assert (parsed.deadline, parsed.ambiguity_reason) == (None, AmbiguityReason.SEMESTER_WEEK)
    assert parsed.title == "交电路实验报告"


@pytest.mark.parametrize("text", ["第十六周 期末考", "week 18 final exam"])
def test_a_semester_week_without_a_day_is_ambiguous(text: str) -> None:
    parsed = parse(text)

    assert (parsed.deadline, parsed.ambiguity_reason) == (None, AmbiguityReason.WEEK_WITHOUT_DAY)


def test_chapters_and_ordinals_are_not_semester_weeks() -> None:
    parsed = parse("复习大物 第三章到第五章")

    assert (parsed.deadline, parsed.ambiguous, parsed.title) == (None, False, "复习大物 第三章到第五章")
