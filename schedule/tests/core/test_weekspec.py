import random

import pytest

from schedule.core.weekspec import WeekSpecError, format_weeks, parse_weeks

ALL = tuple(range(1, 17))
ODD = tuple(range(1, 17, 2))
EVEN = tuple(range(2, 17, 2))


@pytest.mark.parametrize(
    ("spec", "weeks"),
    [
        ("1-16", ALL),
        ("1-16单", ODD),
        ("2-16双", EVEN),
        ("1,3,5-7", (1, 3, 5, 6, 7)),
        ("1-16周", ALL),
        ("第1-16周", ALL),
        ("1，3，5－7", (1, 3, 5, 6, 7)),
        ("1 - 16", ALL),
        ("1-16单周", ODD),
        ("1-16周(单)", ODD),
        ("1-16（双）", EVEN),
        ("1-16 odd", ODD),
        ("2-16 even", EVEN),
        ("1~16", ALL),
        ("1至16", ALL),
        ("1-8, 10-16", (*range(1, 9), *range(10, 17))),
        ("1、3、5", (1, 3, 5)),
        ("5", (5,)),
        ("３-５", (3, 4, 5)),
        ("1-4,3-6", (1, 2, 3, 4, 5, 6)),
    ],
)
def test_parse_weeks_reads_the_common_timetable_notations(spec, weeks):
    assert parse_weeks(spec, 16) == weeks


def test_a_parity_word_alone_means_every_odd_week_of_the_semester():
    assert parse_weeks("单周", 16) == ODD


def test_a_parity_word_alone_needs_the_semester_length():
    with pytest.raises(WeekSpecError) as caught:
        parse_weeks("双周")
    assert caught.value.code == "invalid_weeks"
    assert (
        caught.value.message == "'双周' names odd or even weeks without a range; write e.g. 1-16单."
    )


def test_an_empty_spec_has_no_weeks():
    with pytest.raises(WeekSpecError) as caught:
        parse_weeks("  ")
    assert (caught.value.code, caught.value.message) == ("empty_weeks", "No weeks given.")


def test_an_unreadable_spec_is_refused_with_examples():
    with pytest.raises(WeekSpecError) as caught:
        parse_weeks("第一周到第三周")
    assert caught.value.code == "invalid_weeks"
    assert caught.value.message == (
        "Cannot read the weeks '第一周到第三周'; use forms like 1-16, 1-16单, 2-16双 or 1,3,5-7."
    )


def test_a_range_that_runs_backwards_is_refused():
    with pytest.raises(WeekSpecError) as caught:
        parse_weeks("16-1")
    assert (caught.value.code, caught.value.message) == (
        "reversed_weeks",
        "The week range 16-1 runs backwards.",
    )


def test_a_week_after_the_semester_is_out_of_range():
    with pytest.raises(WeekSpecError) as caught:
        parse_weeks("1-18", 16)
    assert caught.value.code == "week_out_of_range"
    assert caught.value.message == "Week 18 is outside the semester (weeks 1..16)."


def test_week_zero_is_out_of_range():
    with pytest.raises(WeekSpecError) as caught:
        parse_weeks("0-3", 16)
    assert caught.value.message == "Week 0 is outside the semester (weeks 1..16)."


def test_without_a_semester_the_longest_semester_bounds_the_range():
    with pytest.raises(WeekSpecError) as caught:
        parse_weeks("1-99999999")
    assert caught.value.message == "Week 99999999 is outside the semester (weeks 1..30)."


def test_an_odd_range_with_only_even_weeks_is_empty():
    with pytest.raises(WeekSpecError) as caught:
        parse_weeks("2-2单", 16)
    assert (caught.value.code, caught.value.message) == (
        "no_weeks",
        "The week range '2-2单' contains no week.",
    )


@pytest.mark.parametrize(
    ("weeks", "text"),
    [
        (ALL, "1-16"),
        (ODD, "1-15单"),
        (EVEN, "2-16双"),
        ((1, 3, 5, 6, 7), "1,3,5-7"),
        ((1, 3), "1,3"),
        ((4,), "4"),
        ((1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 15), "1-8,11-15单"),
        ((), ""),
    ],
)
def test_format_weeks_writes_weeks_compactly(weeks, text):
    assert format_weeks(weeks) == text


def test_format_weeks_ignores_order_and_duplicates():
    assert format_weeks([5, 1, 3, 3]) == "1-5单"


def test_format_then_parse_gives_back_the_same_weeks_for_many_sets():
    rng = random.Random(20260302)
    for _ in range(500):
        weeks = tuple(sorted(rng.sample(range(1, 21), rng.randint(1, 20))))
        assert parse_weeks(format_weeks(weeks), 20) == weeks
