from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from schedule.core.time_model import (
    InvalidDayError,
    InvalidSemesterError,
    InvalidSpanError,
    InvalidTemplateError,
    NaiveDatetimeError,
    OutsideSemesterError,
    SectionTemplate,
    SectionTime,
    Semester,
    SlotKey,
    UnknownSectionError,
    UnknownTimeZoneError,
    check_slot,
    slot_at,
    slot_bounds,
    span_bounds,
)

SHANGHAI = ZoneInfo("Asia/Shanghai")
START = date(2026, 3, 2)  # a Monday: week 1 starts on one


@pytest.fixture
def semester() -> Semester:
    return Semester(START, 20, "Asia/Shanghai")


@pytest.fixture
def template() -> SectionTemplate:
    return SectionTemplate.default_cqupt()


# Semester


def test_semester_rejects_a_start_that_is_not_a_monday():
    with pytest.raises(InvalidSemesterError) as caught:
        Semester(date(2026, 3, 3), 20)
    assert caught.value.code == "invalid_semester"
    assert caught.value.message == "The semester must start on a Monday; 2026-03-03 is a Tuesday."


@pytest.mark.parametrize("weeks", [0, 31, -1])
def test_semester_rejects_a_week_count_outside_1_to_30(weeks):
    with pytest.raises(InvalidSemesterError) as caught:
        Semester(START, weeks)
    assert caught.value.message == f"A semester has 1..30 weeks, got {weeks}."


def test_semester_rejects_an_unknown_time_zone():
    with pytest.raises(UnknownTimeZoneError) as caught:
        Semester(START, 20, "Mars/Olympus")
    assert caught.value.code == "unknown_time_zone"
    assert caught.value.message == "Unknown time zone 'Mars/Olympus'."


def test_a_region_name_is_not_a_time_zone():
    with pytest.raises(UnknownTimeZoneError) as caught:
        Semester(START, 20, "Asia")
    assert caught.value.message == "Unknown time zone 'Asia'."


def test_semester_defaults_to_twenty_weeks_in_shanghai():
    assert Semester(START) == Semester(START, 20, "Asia/Shanghai")


def test_last_day_is_the_sunday_of_the_last_week(semester):
    assert semester.last_day == date(2026, 7, 19)


def test_date_of_the_first_slot_is_the_start_monday(semester):
    assert semester.date_of(1, 1) == START


def test_date_of_counts_weeks_and_days_from_the_start(semester):
    assert semester.date_of(3, 7) == date(2026, 3, 22)


def test_date_of_a_week_after_the_semester_is_outside_it(semester):
    with pytest.raises(OutsideSemesterError) as caught:
        semester.date_of(21, 1)
    assert caught.value.code == "outside_semester"
    assert caught.value.message == "Week 21 is outside the semester (weeks 1..20)."


def test_date_of_rejects_day_eight(semester):
    with pytest.raises(InvalidDayError) as caught:
        semester.date_of(1, 8)
    assert caught.value.message == "Day of week must be 1..7 (1 = Monday), got 8."


def test_week_day_of_inverts_date_of_for_every_day_of_the_semester(semester):
    for offset in range(semester.weeks * 7):
        day = START + timedelta(days=offset)
        assert semester.date_of(*semester.week_day_of(day)) == day


def test_week_day_of_a_sunday_is_day_seven(semester):
    assert semester.week_day_of(date(2026, 3, 15)) == (2, 7)


def test_week_day_of_a_date_before_the_start_is_outside_the_semester(semester):
    with pytest.raises(OutsideSemesterError) as caught:
        semester.week_day_of(date(2026, 3, 1))
    assert caught.value.message == (
        "2026-03-01 is outside the semester (2026-03-02 .. 2026-07-19)."
    )


def test_week_day_of_the_day_after_the_last_sunday_is_outside_the_semester(semester):
    with pytest.raises(OutsideSemesterError):
        semester.week_day_of(date(2026, 7, 20))


def test_current_week_is_the_week_containing_now(semester):
    assert semester.current_week(datetime(2026, 3, 18, 12, tzinfo=SHANGHAI)) == 3


def test_current_week_reads_now_in_the_semester_time_zone(semester):
    # 16:30 UTC on Sunday of week 1 is already 00:30 on Monday of week 2 in Shanghai.
    assert semester.current_week(datetime(2026, 3, 8, 16, 30, tzinfo=UTC)) == 2


def test_current_week_is_none_before_and_after_the_semester(semester):
    assert semester.current_week(datetime(2026, 2, 1, tzinfo=SHANGHAI)) is None
    assert semester.current_week(datetime(2026, 8, 1, tzinfo=SHANGHAI)) is None


def test_current_week_clamps_to_the_first_and_last_week_when_asked(semester):
    assert semester.current_week(datetime(2026, 2, 1, tzinfo=SHANGHAI), clamp=True) == 1
    assert semester.current_week(datetime(2026, 8, 1, tzinfo=SHANGHAI), clamp=True) == 20


def test_current_week_refuses_a_naive_now(semester):
    with pytest.raises(NaiveDatetimeError) as caught:
        semester.current_week(datetime(2026, 3, 18, 12))
    assert caught.value.code == "naive_datetime"


# Section template


def test_default_template_has_the_twelve_cqupt_sections(template):
    assert template.to_hhmm() == (
        ("08:00", "08:45"),
        ("08:55", "09:40"),
        ("10:15", "11:00"),
        ("11:10", "11:55"),
        ("14:00", "14:45"),
        ("14:55", "15:40"),
        ("16:15", "17:00"),
        ("17:10", "17:55"),
        ("19:00", "19:45"),
        ("19:55", "20:40"),
        ("20:50", "21:35"),
        ("21:45", "22:30"),
    )


def test_pairs_of_the_default_template_are_one_two_to_eleven_twelve(template):
    assert template.pairs() == ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12))


def test_an_odd_last_section_has_no_pair():
    odd = SectionTemplate.from_hhmm([("08:00", "08:45"), ("08:55", "09:40"), ("10:00", "10:45")])
    assert odd.pairs() == ((1, 2),)
    assert odd.pair_of(3) is None


def test_pair_of_a_section_is_its_aligned_block(template):
    assert [template.pair_of(s) for s in (1, 2, 7, 12)] == [1, 1, 4, 6]


def test_pair_sections_of_an_unknown_pair_is_an_unknown_section(template):
    with pytest.raises(UnknownSectionError) as caught:
        template.pair_sections(7)
    assert caught.value.message == "Pair 7 does not exist; the day has pairs 1..6."


def test_section_thirteen_is_unknown_in_the_default_template(template):
    with pytest.raises(UnknownSectionError) as caught:
        template.section(13)
    assert caught.value.code == "unknown_section"
    assert caught.value.message == "Section 13 does not exist; the day has sections 1..12."


def test_template_allows_up_to_sixteen_sections():
    times = [(f"{7 + h:02d}:00", f"{7 + h:02d}:45") for h in range(16)]
    assert SectionTemplate.from_hhmm(times).count == 16


def test_template_rejects_seventeen_sections():
    times = [(f"{6 + h:02d}:00", f"{6 + h:02d}:45") for h in range(17)]
    with pytest.raises(InvalidTemplateError) as caught:
        SectionTemplate.from_hhmm(times)
    assert caught.value.message == "A day has 1..16 sections, got 17."


def test_template_rejects_an_empty_day():
    with pytest.raises(InvalidTemplateError):
        SectionTemplate(())


def test_template_rejects_overlapping_sections():
    with pytest.raises(InvalidTemplateError) as caught:
        SectionTemplate.from_hhmm([("08:00", "08:45"), ("08:30", "09:15")])
    assert caught.value.message == "Section 2 starts at 08:30, before section 1 ends at 08:45."


def test_template_rejects_sections_numbered_out_of_order():
    with pytest.raises(InvalidTemplateError) as caught:
        SectionTemplate((SectionTime(2, time(8), time(9)),))
    assert (
        caught.value.message == "Sections must be numbered 1..1 in order; position 1 is numbered 2."
    )


def test_section_must_end_after_it_starts():
    with pytest.raises(InvalidTemplateError) as caught:
        SectionTime(1, time(9), time(8))
    assert caught.value.message == "Section 1 must end after it starts (09:00-08:00)."


def test_from_hhmm_rejects_an_impossible_time():
    with pytest.raises(InvalidTemplateError) as caught:
        SectionTemplate.from_hhmm([("8:60", "9:00")])
    assert caught.value.message == "Expected a time as HH:MM, got '8:60'."


def test_section_at_a_time_between_sections_is_none(template):
    assert template.section_at(time(9, 50)) is None
    assert template.section_at(time(8, 55)) == 2


def test_section_starting_near_accepts_a_start_within_the_tolerance(template):
    assert template.section_starting_near(time(10, 5), timedelta(minutes=10)) == 3
    assert template.section_starting_near(time(10, 0), timedelta(minutes=10)) is None


# Conversions


def test_span_bounds_are_aware_and_at_the_section_times(semester, template):
    start, end = span_bounds(semester, template, 2, 3, 3, 4)
    assert start == datetime(2026, 3, 11, 10, 15, tzinfo=SHANGHAI)
    assert end == datetime(2026, 3, 11, 11, 55, tzinfo=SHANGHAI)
    assert start.tzinfo is not None


def test_span_bounds_reject_a_span_that_runs_backwards(semester, template):
    with pytest.raises(InvalidSpanError) as caught:
        span_bounds(semester, template, 1, 1, 4, 3)
    assert caught.value.code == "invalid_span"
    assert caught.value.message == "The span starts at section 4 but ends at section 3."


def test_span_bounds_reject_a_section_outside_the_template(semester, template):
    with pytest.raises(UnknownSectionError):
        span_bounds(semester, template, 1, 1, 11, 13)


def test_slot_bounds_cover_one_section(semester, template):
    assert slot_bounds(semester, template, SlotKey(1, 1, 12)) == (
        datetime(2026, 3, 2, 21, 45, tzinfo=SHANGHAI),
        datetime(2026, 3, 2, 22, 30, tzinfo=SHANGHAI),
    )


def test_slot_at_a_moment_in_a_section_is_that_slot(semester, template):
    assert slot_at(semester, template, datetime(2026, 3, 3, 14, 20, tzinfo=SHANGHAI)) == SlotKey(
        1, 2, 5
    )


def test_slot_at_converts_the_moment_to_the_semester_time_zone(semester, template):
    assert slot_at(semester, template, datetime(2026, 3, 3, 0, 10, tzinfo=UTC)) == SlotKey(
        1, 2, 1
    )


def test_slot_at_a_break_is_none(semester, template):
    assert slot_at(semester, template, datetime(2026, 3, 3, 12, 30, tzinfo=SHANGHAI)) is None


def test_slot_at_a_moment_outside_the_semester_raises(semester, template):
    with pytest.raises(OutsideSemesterError):
        slot_at(semester, template, datetime(2026, 9, 1, 8, 30, tzinfo=SHANGHAI))


def test_slot_at_refuses_a_naive_moment(semester, template):
    with pytest.raises(NaiveDatetimeError) as caught:
        slot_at(semester, template, datetime(2026, 3, 3, 8, 30))
    assert caught.value.message == "The datetime 2026-03-03T08:30:00 has no time zone."


def test_check_slot_rejects_a_section_the_template_lacks(semester, template):
    with pytest.raises(UnknownSectionError):
        check_slot(semester, template, SlotKey(1, 1, 13))


def test_slot_keys_sort_by_week_then_day_then_section():
    keys = [SlotKey(2, 1, 1), SlotKey(1, 7, 12), SlotKey(1, 2, 3), SlotKey(1, 2, 1)]
    assert sorted(keys) == [SlotKey(1, 2, 1), SlotKey(1, 2, 3), SlotKey(1, 7, 12), SlotKey(2, 1, 1)]


def test_slot_key_reads_as_english():
    assert str(SlotKey(3, 2, 5)) == "week 3, Tuesday, section 5"


# A second grid from a date (winter hours)

WINTER_FROM = START + timedelta(weeks=4)  # the Monday of week 5


def winter(template: SectionTemplate) -> SectionTemplate:
    """The default day with the afternoon half an hour earlier from week 5 on."""
    later = template.to_hhmm()[:4] + (("13:30", "14:15"), ("14:25", "15:10")) + template.to_hhmm()[6:]
    return template.changing_to(SectionTemplate.from_hhmm(later), WINTER_FROM)


def test_a_section_means_the_grid_in_force_on_its_date(semester, template):
    two_grids = winter(template)
    assert span_bounds(semester, two_grids, 4, 7, 5, 6)[0].time() == time(14, 0)  # the Sunday before
    starts, ends = span_bounds(semester, two_grids, 5, 1, 5, 6)
    assert (starts.time(), ends.time()) == (time(13, 30), time(15, 10))


def test_the_slot_running_at_a_moment_is_read_on_that_days_grid(semester, template):
    moment = datetime.combine(WINTER_FROM, time(13, 40), tzinfo=SHANGHAI)
    assert slot_at(semester, winter(template), moment) == SlotKey(5, 1, 5)
    assert slot_at(semester, template, moment) is None  # the lunch break on one grid


def test_a_second_grid_needs_as_many_sections_as_the_first(template):
    with pytest.raises(InvalidTemplateError) as error:
        template.changing_to(SectionTemplate.from_hhmm([("08:00", "08:45")]), WINTER_FROM)
    assert error.value.detail == {"count": 1, "expected": 12}


def test_without_a_date_there_is_no_second_grid(template):
    assert template.changing_to(winter(template).in_force(WINTER_FROM), None).change is None
