from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar

from schedule.core.ics_export import ExportEvent, IcsExportError, build_ics, make_uid

SHANGHAI = ZoneInfo("Asia/Shanghai")
STAMP = datetime(2026, 3, 1, 12, tzinfo=UTC)
MATH = ExportEvent(
    uid=make_uid("event", 42),
    title="高等数学A(下)",
    start=datetime(2026, 3, 2, 8, 0, tzinfo=SHANGHAI),
    end=datetime(2026, 3, 2, 9, 40, tzinfo=SHANGHAI),
    location="二教2305",
    description="老师：王建华",
)
REVIEW = ExportEvent(
    make_uid("event", 43),
    "概率论复习 #1",
    datetime(2026, 3, 3, 2, 15, tzinfo=UTC),
    datetime(2026, 3, 3, 3, 55, tzinfo=UTC),
)


def read_back(data: bytes) -> list:
    return list(Calendar.from_ical(data).walk("VEVENT"))


def test_the_export_parses_back_with_the_same_absolute_times():
    event = read_back(build_ics([MATH], generated_at=STAMP))[0]
    assert (event.start, event.end) == (MATH.start, MATH.end)
    assert (str(event["SUMMARY"]), str(event["LOCATION"]), str(event["UID"])) == (
        "高等数学A(下)",
        "二教2305",
        "event-42@smartmate",
    )


def test_times_are_written_as_local_times_with_a_time_zone_id():
    data = build_ics([REVIEW], generated_at=STAMP).decode()
    assert "DTSTART;TZID=Asia/Shanghai:20260303T101500" in data
    assert "DTEND;TZID=Asia/Shanghai:20260303T115500" in data


def test_the_calendar_carries_the_vtimezone_it_refers_to_before_the_events():
    calendar = Calendar.from_ical(build_ics([MATH], generated_at=STAMP))
    assert [tz["TZID"] for tz in calendar.walk("VTIMEZONE")] == ["Asia/Shanghai"]
    assert calendar.to_ical().index(b"BEGIN:VTIMEZONE") < calendar.to_ical().index(b"BEGIN:VEVENT")


def test_a_zone_with_daylight_saving_keeps_wall_clock_times_across_the_change():
    berlin = ZoneInfo("Europe/Berlin")
    events = [
        ExportEvent(
            make_uid("e", day),
            "Vorlesung",
            datetime(2026, 3, day, 8, tzinfo=berlin),
            datetime(2026, 3, day, 9, 40, tzinfo=berlin),
        )
        for day in (27, 30)
    ]
    back = read_back(build_ics(events, generated_at=STAMP, tz="Europe/Berlin"))
    assert [e.start.astimezone(UTC).hour for e in back] == [7, 6]


def test_the_output_is_the_same_whatever_the_order_of_the_events():
    assert build_ics([MATH, REVIEW], generated_at=STAMP) == build_ics(
        [REVIEW, MATH], generated_at=STAMP
    )


def test_events_are_written_in_time_order():
    assert [str(e["UID"]) for e in read_back(build_ics([REVIEW, MATH], generated_at=STAMP))] == [
        "event-42@smartmate",
        "event-43@smartmate",
    ]


def test_dtstamp_is_the_time_passed_in_written_in_utc():
    event = read_back(build_ics([MATH], generated_at=datetime(2026, 3, 1, 20, tzinfo=SHANGHAI)))[0]
    assert event.decoded("DTSTAMP") == datetime(2026, 3, 1, 12, tzinfo=UTC)


def test_make_uid_is_stable_for_the_same_parts():
    assert (
        make_uid("user", 7, "event", 42)
        == make_uid("user", 7, "event", 42)
        == "user-7-event-42@smartmate"
    )


def test_commas_and_semicolons_in_titles_survive_the_round_trip():
    tricky = ExportEvent("t@x", "实验; 第一组, 第二组", MATH.start, MATH.end)
    assert (
        str(read_back(build_ics([tricky], generated_at=STAMP))[0]["SUMMARY"])
        == "实验; 第一组, 第二组"
    )


def test_the_calendar_is_named_and_asks_subscribers_to_refresh_hourly():
    data = build_ics([MATH], generated_at=STAMP, calendar_name="时伴课表").decode()
    assert "X-WR-CALNAME:时伴课表" in data
    assert "X-PUBLISHED-TTL:PT1H" in data


def test_an_empty_schedule_is_still_a_valid_calendar():
    calendar = Calendar.from_ical(build_ics([], generated_at=STAMP))
    assert calendar.name == "VCALENDAR" and read_back(calendar.to_ical()) == []


def test_a_duplicate_uid_is_refused():
    with pytest.raises(IcsExportError) as caught:
        build_ics(
            [MATH, ExportEvent(MATH.uid, "copy", REVIEW.start, REVIEW.end)], generated_at=STAMP
        )
    assert (caught.value.code, caught.value.message) == (
        "duplicate_uid",
        "Event UID 'event-42@smartmate' is empty or used twice.",
    )


def test_a_naive_start_is_refused():
    naive = ExportEvent(
        "n@x", "x", datetime(2026, 3, 2, 8), datetime(2026, 3, 2, 9, tzinfo=SHANGHAI)
    )
    with pytest.raises(IcsExportError) as caught:
        build_ics([naive], generated_at=STAMP)
    assert (caught.value.code, caught.value.message) == (
        "naive_datetime",
        "n@x start (2026-03-02T08:00:00) has no time zone.",
    )


def test_an_event_that_ends_before_it_starts_is_refused():
    backwards = ExportEvent("b@x", "x", MATH.end, MATH.start)
    with pytest.raises(IcsExportError) as caught:
        build_ics([backwards], generated_at=STAMP)
    assert caught.value.code == "empty_range"


def test_a_naive_generation_time_is_refused():
    with pytest.raises(IcsExportError) as caught:
        build_ics([MATH], generated_at=datetime(2026, 3, 1))
    assert caught.value.code == "naive_datetime"


def test_a_custom_refresh_interval_is_written_in_minutes():
    data = build_ics([MATH], generated_at=STAMP, refresh=timedelta(minutes=30)).decode()
    assert "X-PUBLISHED-TTL:PT30M" in data and "REFRESH-INTERVAL;VALUE=DURATION:PT30M" in data
