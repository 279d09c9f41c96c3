"""The model's refinement of an uncertain line, checked and merged by pure code (no database).

Said on Wednesday 2026-03-11 10:15 (quick_add_cases.WEDNESDAY).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from taskclasses.notes.core.quick_add import Doubt, QuadrantReason, parse_quick_note
from taskclasses.notes.core.quick_add.refinement import (
    RefinementRejected,
    refinement_apply,
    refinement_read,
    refinement_request,
)
from taskclasses.tests.notes.quick_add_cases import SHANGHAI, WEDNESDAY


def parse(text: str):
    return parse_quick_note(text, now=WEDNESDAY, tz=SHANGHAI)


def answer(title: str = "交实习周记", quadrant: int = 2, readings: list | None = None) -> dict:
    return {"title": title, "quadrant": quadrant, "readings": readings or []}


@pytest.mark.parametrize(
    ("text", "doubts"),
    [
        ("周三交实习周记", (Doubt.NO_SINGLE_READING,)),
        ("考完试聚餐", (Doubt.NO_SINGLE_READING, Doubt.IMPORTANCE_UNDECIDED)),
        ("520前交报告", (Doubt.UNKNOWN_TIME_WORD,)),
        ("後天交作業", (Doubt.UNKNOWN_TIME_WORD,)),
        ("明天交概率论作业", ()),
        ("练吉他", ()),
        ("Submit CS101 homework tomorrow", ()),
    ],
)
def test_the_parser_says_where_the_rules_ran_out(text, doubts):
    assert parse(text).doubts == doubts


def test_the_request_carries_the_note_the_moment_and_the_rules_answer():
    request = refinement_request(parse("周三交实习周记"), now=WEDNESDAY)
    assert '"note": "周三交实习周记"' in request and '"weekday": "Wednesday"' in request
    assert '"readings": ["2026-03-11", "2026-03-18"]' in request and "no_single_reading" in request


def test_an_ambiguous_line_keeps_no_date_and_takes_the_models_readings_as_choices():
    rules = parse("周三交实习周记")
    model = refinement_read(answer(readings=[{"date": "2026-03-18", "time": None}]), parsed=rules, now=WEDNESDAY)
    refined = refinement_apply(rules, model, now=WEDNESDAY)
    assert (refined.deadline, refined.ambiguous) == (None, True)
    assert [reading.deadline.isoformat() for reading in refined.readings] == ["2026-03-18T23:59:00+08:00"]
    assert refined.readings[0].weeks_ahead == 1


def test_a_dated_line_takes_a_clock_the_model_read_on_the_same_day():
    rules = parse("明天交第3章作业")
    model = refinement_read(answer("交第3章作业", 2, [{"date": "2026-03-12", "time": "08:00"}]),
                            parsed=rules, now=WEDNESDAY)
    refined = refinement_apply(rules, model, now=WEDNESDAY)
    assert (refined.deadline, refined.has_time) == (datetime(2026, 3, 12, 8, 0, tzinfo=ZoneInfo(SHANGHAI)), True)
    assert (refined.quadrant, refined.quadrant_reason, refined.confidence) == (1, QuadrantReason.MODEL, 0.6)


def test_a_date_written_in_the_note_is_plausible():
    rules = parse("12.5交材料 别忘")
    model = refinement_read(answer("交材料", 2, [{"date": "2026-12-05", "time": None}]), parsed=rules, now=WEDNESDAY)
    assert model.readings[0].day.isoformat() == "2026-12-05"


def test_two_readings_of_a_dated_line_take_its_date_away():
    rules = parse("明天交第3章作业")
    model = refinement_read(answer("交第3章作业", 2, [{"date": "2026-03-12", "time": "08:00"},
                                                   {"date": "2026-03-12", "time": "20:00"}]),
                            parsed=rules, now=WEDNESDAY)
    refined = refinement_apply(rules, model, now=WEDNESDAY)
    assert (refined.deadline, refined.ambiguous, len(refined.readings)) == (None, True, 2)


def test_an_unimportant_quadrant_from_the_model_replaces_the_default():
    rules = parse("考完试聚餐")
    refined = refinement_apply(rules, refinement_read(answer("考完试聚餐", 3), parsed=rules, now=WEDNESDAY),
                               now=WEDNESDAY)
    assert (refined.title, refined.quadrant, refined.deadline, refined.ambiguous) == ("考完试聚餐", 3, None, True)


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("not an object", "expected exactly the keys"),
        ({"title": "x", "quadrant": 2}, "expected exactly the keys"),
        ({**answer(), "reason": "because"}, "expected exactly the keys"),
        (answer(title=""), "title must be one line"),
        (answer(title="a\nb"), "title must be one line"),
        (answer(quadrant=5), "quadrant must be 1, 2, 3 or 4"),
        (answer(quadrant=True), "quadrant must be 1, 2, 3 or 4"),
        (answer(readings=[{"date": "2026-03-13", "time": None}]), "2026-03-13 is neither among"),
        (answer(readings=[{"date": "18/03/2026", "time": None}]), "date is YYYY-MM-DD"),
        (answer(readings=[{"date": "2026-02-30", "time": None}]), "does not exist"),
        (answer(readings=[{"date": "2026-03-18", "time": "8pm"}]), "time is HH:MM or null"),
        (answer(readings=[{"date": "2026-03-18"}]), "exactly the keys"),
        (answer(readings=[{"date": "2026-03-18", "time": None}] * 2), "the same reading twice"),
        (answer(readings=[{"date": "2026-03-11", "time": None}] * 4), "at most 3"),
    ],
)
def test_an_answer_outside_the_contract_is_rejected_whole(raw, problem):
    with pytest.raises(RefinementRejected, match=problem):
        refinement_read(raw, parsed=parse("周三交实习周记"), now=WEDNESDAY)
