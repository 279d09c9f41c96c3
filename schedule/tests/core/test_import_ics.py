from datetime import date, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

from schedule.core.ics_export import ExportEvent, build_ics, make_uid
from schedule.core.importers import ParseReport, parse_timetable
from schedule.core.importers.notices import DatesOutsideSemester, SnappedToSections
from schedule.core.time_model import SectionTemplate, Semester, span_bounds

SEMESTER = Semester(date(2026, 3, 2), 20)
TEMPLATE = SectionTemplate.default_cqupt()
DEMO = Path(__file__).resolve().parents[2] / "demo_data" / "demo_timetable.csv"


def calendar(*events: str) -> bytes:
    body = "".join(f"BEGIN:VEVENT\r\n{event.strip()}\r\nEND:VEVENT\r\n" for event in events)
    text = f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//test//EN\r\n{body}END:VCALENDAR\r\n"
    return text.encode()


def event(summary: str, start: str, end: str, *extra: str, uid: str = "u1") -> str:
    lines = [
        f"UID:{uid}",
        f"SUMMARY:{summary}",
        f"DTSTART;TZID=Asia/Shanghai:{start}",
        f"DTEND;TZID=Asia/Shanghai:{end}",
        *extra,
    ]
    return "\r\n".join(lines)


def parse(data: bytes) -> ParseReport:
    return parse_timetable(data, "ics", SEMESTER, TEMPLATE)


def summary(report: ParseReport) -> list[tuple]:
    assert report.ok, report.problems
    return [(c.name, c.day, c.start_section, c.end_section, c.weeks_text) for c in report.courses]


def only_skip(report: ParseReport) -> tuple:
    """The one event left out: (row, file line, code, English message)."""
    assert len(report.skipped) == 1, report.skipped
    found = report.skipped[0]
    return found.row, found.line, found.code, found.message


def only_problem(report: ParseReport) -> tuple:
    assert len(report.problems) == 1, report.problems
    found = report.problems[0]
    return found.row, found.field, found.code, found.message


def test_a_weekly_event_with_a_count_becomes_one_course_over_those_weeks():
    data = calendar(
        event("高等数学", "20260302T080000", "20260302T094000", "RRULE:FREQ=WEEKLY;COUNT=16")
    )
    assert summary(parse(data)) == [("高等数学", 1, 1, 2, "1-16")]


def test_an_interval_of_two_weeks_gives_odd_weeks():
    data = calendar(
        event(
            "线性代数", "20260306T080000", "20260306T094000", "RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=8"
        )
    )
    assert summary(parse(data)) == [("线性代数", 5, 1, 2, "1-15单")]


def test_until_ends_the_repetition():
    data = calendar(
        event(
            "英语", "20260303T101500", "20260303T115500", "RRULE:FREQ=WEEKLY;UNTIL=20260421T035500Z"
        )
    )
    assert summary(parse(data)) == [("英语", 2, 3, 4, "1-8")]


def test_a_rule_on_two_weekdays_becomes_one_course_per_weekday():
    data = calendar(
        event(
            "数据结构",
            "20260304T080000",
            "20260304T094000",
            "RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=WE,FR",
        )
    )
    assert summary(parse(data)) == [("数据结构", 3, 1, 2, "1-2"), ("数据结构", 5, 1, 2, "1-2")]


def test_exdate_removes_single_weeks():
    data = calendar(
        event(
            "体育",
            "20260303T140000",
            "20260303T154000",
            "RRULE:FREQ=WEEKLY;COUNT=4",
            "EXDATE;TZID=Asia/Shanghai:20260310T140000",
            "EXDATE;VALUE=DATE:20260317",
        )
    )
    assert summary(parse(data)) == [("体育", 2, 5, 6, "1,4")]


def test_an_open_ended_rule_runs_to_the_end_of_the_semester():
    data = calendar(event("形势与政策", "20260615T190000", "20260615T204000", "RRULE:FREQ=WEEKLY"))
    assert summary(parse(data)) == [("形势与政策", 1, 9, 10, "16-20")]


def test_a_single_event_becomes_a_course_in_its_week():
    data = calendar(event("实验考试", "20260319T161500", "20260319T175500"))
    assert summary(parse(data)) == [("实验考试", 4, 7, 8, "3")]


def test_times_within_ten_minutes_of_the_section_boundaries_are_accepted():
    data = calendar(event("晚课", "20260302T190500", "20260302T203500"))
    assert summary(parse(data)) == [("晚课", 1, 9, 10, "1")]


def test_an_event_off_the_section_boundaries_is_moved_onto_the_sections_it_overlaps_with_a_notice():
    data = calendar(event("社团活动", "20260302T083000", "20260302T100000"))
    report = parse(data)
    assert summary(report) == [("社团活动", 1, 1, 2, "1")]
    assert report.notices == (
        SnappedToSections(1, "社团活动", time(8, 30), time(10, 0), 1, 2, time(8, 0), time(9, 40)),
    )


def test_utc_times_are_read_in_the_semester_time_zone():
    data = calendar("UID:z\r\nSUMMARY:早课\r\nDTSTART:20260302T000000Z\r\nDTEND:20260302T014000Z")
    assert summary(parse(data)) == [("早课", 1, 1, 2, "1")]


def test_floating_times_are_read_in_the_semester_time_zone():
    data = calendar("UID:f\r\nSUMMARY:早课\r\nDTSTART:20260302T080000\r\nDURATION:PT1H40M")
    assert summary(parse(data)) == [("早课", 1, 1, 2, "1")]


def test_an_all_day_event_cannot_be_placed_on_sections():
    data = calendar(
        "UID:a\r\nSUMMARY:运动会\r\nDTSTART;VALUE=DATE:20260416\r\nDTEND;VALUE=DATE:20260417"
    )
    report = parse(data)
    assert only_skip(report) == (1, 4, "all_day", "运动会 is an all-day event (2026-04-16); all-day events are "
                                                 "holidays or notes, not classes.")
    assert only_problem(report)[2] == "no_courses"


def test_an_event_without_an_end_or_duration_is_reported():
    data = calendar("UID:e\r\nSUMMARY:讲座\r\nDTSTART;TZID=Asia/Shanghai:20260302T080000")
    assert only_skip(parse(data))[2:] == ("missing_end", "讲座 has neither an end (DTEND) nor a duration.")


def test_an_event_without_a_summary_is_reported():
    data = calendar(
        "UID:s\r\nDTSTART;TZID=Asia/Shanghai:20260302T080000\r\n"
        "DTEND;TZID=Asia/Shanghai:20260302T084500"
    )
    assert only_skip(parse(data)) == (1, 4, "no_name", "An event has no name (SUMMARY).")


def test_an_event_before_the_semester_is_outside_it():
    data = calendar(event("寒假补课", "20260223T080000", "20260223T094000"))
    assert only_skip(parse(data))[2:] == (
        "outside_semester",
        "寒假补课 (2026-02-23) has no meeting inside the semester (2026-03-02 .. 2026-07-19).",
    )


def test_a_rule_that_runs_past_the_semester_is_stopped_at_its_end_with_a_notice():
    data = calendar(
        event("高数", "20260302T080000", "20260302T094000", "RRULE:FREQ=WEEKLY;COUNT=25")
    )
    report = parse(data)
    assert summary(report) == [("高数", 1, 1, 2, "1-20")]
    assert report.notices == (DatesOutsideSemester(1, "高数", 5, date(2026, 3, 2), date(2026, 7, 19)),)


def test_a_huge_count_is_stopped_at_the_semester_end_without_running_away():
    data = calendar(
        event("高数", "20260302T080000", "20260302T094000", "RRULE:FREQ=WEEKLY;COUNT=10000000")
    )
    assert summary(parse(data)) == [("高数", 1, 1, 2, "1-20")]


def test_an_endless_rule_says_it_was_stopped_at_the_semester_end():
    data = calendar(event("形势与政策", "20260615T190000", "20260615T204000", "RRULE:FREQ=WEEKLY"))
    assert [n.code for n in parse(data).notices] == ["repeat_clipped"]


def test_a_rule_starting_before_the_semester_keeps_its_weeks_inside_with_a_notice():
    data = calendar(
        event("高数", "20260216T080000", "20260216T094000", "RRULE:FREQ=WEEKLY;COUNT=4")
    )
    report = parse(data)
    assert summary(report) == [("高数", 1, 1, 2, "1-2")]
    assert report.notices == (
        DatesOutsideSemester(1, "高数", 2, date(2026, 3, 2), date(2026, 7, 19)),
    )


def test_off_grid_times_are_snapped_to_sections_with_a_notice():
    data = calendar(event("高等数学", "20260302T080500", "20260302T094000"))
    report = parse(data)
    assert summary(report) == [("高等数学", 1, 1, 2, "1")]
    assert report.notices == (
        SnappedToSections(1, "高等数学", time(8, 5), time(9, 40), 1, 2, time(8, 0), time(9, 40)),
    )


def test_times_on_the_grid_make_no_notice():
    data = calendar(event("高等数学", "20260302T080000", "20260302T094000", "RRULE:FREQ=WEEKLY;COUNT=16"))
    assert parse(data).notices == ()


def test_a_daily_rule_is_not_supported():
    data = calendar(event("早读", "20260302T080000", "20260302T084500", "RRULE:FREQ=DAILY;COUNT=5"))
    assert only_skip(parse(data))[2:] == ("not_weekly", "早读 repeats in a way other than weekly (FREQ=DAILY;COUNT=5).")


def test_a_moved_instance_replaces_its_original_week():
    master = event(
        "线代", "20260303T080000", "20260303T094000", "RRULE:FREQ=WEEKLY;COUNT=3", uid="m"
    )
    moved = event(
        "线代",
        "20260312T080000",
        "20260312T094000",
        "RECURRENCE-ID;TZID=Asia/Shanghai:20260310T080000",
        uid="m",
    )
    assert summary(parse(calendar(master, moved))) == [
        ("线代", 2, 1, 2, "1,3"),
        ("线代", 4, 1, 2, "2"),
    ]


def test_a_cancelled_instance_is_left_out():
    master = event(
        "线代", "20260303T080000", "20260303T094000", "RRULE:FREQ=WEEKLY;COUNT=3", uid="m"
    )
    cancelled = event(
        "线代",
        "20260310T080000",
        "20260310T094000",
        "RECURRENCE-ID;TZID=Asia/Shanghai:20260310T080000",
        "STATUS:CANCELLED",
        uid="m",
    )
    assert summary(parse(calendar(master, cancelled))) == [("线代", 2, 1, 2, "1,3")]


def test_teacher_and_location_are_read_from_the_event():
    data = calendar(
        event(
            "大学物理",
            "20260302T101500",
            "20260302T115500",
            "LOCATION:二教3108",
            "DESCRIPTION:教师：刘海燕\\n备注：带计算器",
        )
    )
    course = parse(data).courses[0]
    assert (course.teacher, course.location) == ("刘海燕", "二教3108")


def test_of_two_events_on_the_same_sections_the_later_is_kept_beside_the_earlier():
    first = event("高数", "20260302T080000", "20260302T094000", uid="a")
    second = event("英语", "20260302T085500", "20260302T110000", uid="b")
    report = parse(calendar(first, second))
    assert [(c.name, c.beside) for c in report.courses] == [("高数", False), ("英语", True)]
    assert report.skipped == () and report.notices[0].other == "高数"


def test_a_file_that_is_not_icalendar_is_refused():
    assert only_problem(parse(b"hello world"))[2] == "invalid_ics"


def test_a_calendar_without_events_is_refused():
    data = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"
    assert only_problem(parse(data)) == (
        None,
        None,
        "no_events",
        "The calendar contains no events.",
    )


def test_an_exported_timetable_imports_back_onto_the_same_slots():
    courses = parse_timetable(DEMO.read_bytes(), "csv", SEMESTER, TEMPLATE)
    events = [
        ExportEvent(
            make_uid("course", o.course.row, o.week),
            o.course.name,
            *span_bounds(
                SEMESTER, TEMPLATE, o.week, o.day, o.course.start_section, o.course.end_section
            ),
        )
        for o in courses.occurrences()
    ]
    exported = build_ics(events, generated_at=datetime(2026, 3, 1, tzinfo=ZoneInfo("UTC")))
    assert parse(exported).slot_keys() == courses.slot_keys()


def test_rdate_adds_extra_meetings_to_a_rule():
    data = calendar(
        event(
            "高数",
            "20260302T080000",
            "20260302T094000",
            "RRULE:FREQ=WEEKLY;COUNT=2",
            "RDATE;TZID=Asia/Shanghai:20260330T080000",
        )
    )
    assert summary(parse(data)) == [("高数", 1, 1, 2, "1-2,5")]


def test_an_event_with_a_broken_property_is_reported_with_its_position():
    good = event("高数", "20260302T080000", "20260302T094000", uid="a")
    broken = event(
        "英语",
        "20260303T080000",
        "20260303T094000",
        "RRULE:FREQ=WEEKLY;COUNT=2",
        "EXDATE:2026031",
        uid="b",
    )
    report = parse(calendar(good, broken))
    assert only_skip(report) == (2, 10, "damaged", "英语 has an unreadable EXDATE ('2026031').")
    assert summary(report) == [("高数", 1, 1, 2, "1")]


def test_events_per_section_of_one_class_become_one_block():
    first = event("线性代数", "20260302T080000", "20260302T084500", uid="a")
    second = event("线性代数", "20260302T085500", "20260302T094000", uid="b")
    assert summary(parse(calendar(first, second))) == [("线性代数", 1, 1, 2, "1")]


def test_a_morning_and_an_afternoon_meeting_of_one_class_stay_two_blocks_across_lunch():
    morning = event("高等数学", "20260302T101500", "20260302T115500", uid="a")  # sections 3-4
    afternoon = event("高等数学", "20260302T140000", "20260302T154000", uid="b")  # sections 5-6
    assert summary(parse(calendar(morning, afternoon))) == [("高等数学", 1, 3, 4, "1"), ("高等数学", 1, 5, 6, "1")]
