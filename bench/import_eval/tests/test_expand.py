"""Hand-made inputs for bench/import_eval/expand.py.

Run from the worktree root:
    python -m pytest -p no:cacheprovider -c /dev/null --noconftest bench/import_eval/tests
"""
from datetime import date, time

import pytest

from bench.import_eval.expand import Meeting, expand_csv_wakeup, expand_ics, parse_week_spec

SH = "Asia/Shanghai"


def cal(*events: str, head: str = "BEGIN:VCALENDAR\nVERSION:2.0\n", tail: str = "END:VCALENDAR\n") -> bytes:
    body = "".join("BEGIN:VEVENT\n" + e.strip("\n") + "\nEND:VEVENT\n" for e in events)
    return (head + body + tail).encode()


def days(ms):
    return [m.date for m in ms]


def test_floating_single_event_and_text_unescaping():
    ex = expand_ics(cal("SUMMARY:高数\\, 上\nLOCATION:A101\nDESCRIPTION:教师：甲\\n课程号：MA101\n"
                        "DTSTART:20240304T080000\nDTEND:20240304T094500"), SH)
    assert ex.timed == [Meeting(date(2024, 3, 4), time(8), time(9, 45), "高数, 上", "A101", "教师：甲\n课程号：MA101")]
    assert ex.all_day == [] and ex.skipped == []
    timed, all_day = ex
    assert timed == ex.timed and all_day == []


def test_utc_converted_to_zone():
    ex = expand_ics(cal("SUMMARY:X\nDTSTART:20240304T000000Z\nDTEND:20240304T004500Z"), SH)
    assert (ex.timed[0].date, ex.timed[0].start, ex.timed[0].end) == (date(2024, 3, 4), time(8), time(8, 45))


def test_utc_crossing_local_date():
    ex = expand_ics(cal("SUMMARY:X\nDTSTART:20240303T233000Z\nDTEND:20240304T001500Z"), SH)
    assert ex.timed[0].date == date(2024, 3, 4) and ex.timed[0].start == time(7, 30)


def test_tzid_without_vtimezone_is_honoured():
    ex = expand_ics(cal("SUMMARY:X\nDTSTART;TZID=Asia/Tokyo:20240304T090000\nDTEND;TZID=Asia/Tokyo:20240304T100000"), SH)
    assert ex.timed[0].start == time(8) and ex.timed[0].end == time(9)


def test_tzid_mozilla_prefix_and_x_lic_location():
    head = ("BEGIN:VCALENDAR\nBEGIN:VTIMEZONE\nTZID:China Standard Time\nX-LIC-LOCATION:Asia/Shanghai\n"
            "END:VTIMEZONE\n")
    ex = expand_ics(cal("SUMMARY:X\nDTSTART;TZID=\"China Standard Time\":20240304T090000\nDURATION:PT45M",
                        "SUMMARY:Y\nDTSTART;TZID=/mozilla.org/20050126_1/Asia/Shanghai:20240305T090000\n"
                        "DURATION:PT45M", head=head), "Europe/London")
    assert [(m.start, m.end) for m in ex.timed] == [(time(1), time(1, 45)), (time(1), time(1, 45))]


def test_weekly_count_and_interval():
    ex = expand_ics(cal("SUMMARY:X\nDTSTART:20240304T080000\nDTEND:20240304T084500\n"
                        "RRULE:FREQ=WEEKLY;COUNT=3;INTERVAL=2"), SH)
    assert days(ex.timed) == [date(2024, 3, 4), date(2024, 3, 18), date(2024, 4, 1)]


def test_weekly_byday_count_counts_dtstart():
    ex = expand_ics(cal("SUMMARY:X\nDTSTART:20240304T080000\nDTEND:20240304T084500\n"
                        "RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO,TH"), SH)
    assert days(ex.timed) == [date(2024, 3, 4), date(2024, 3, 7), date(2024, 3, 11), date(2024, 3, 14)]


def test_until_utc_is_inclusive_and_read_in_event_zone():
    # WakeUp style: UNTIL = local midnight expressed in UTC (16:00Z the day before)
    ex = expand_ics(cal("SUMMARY:X\nDTSTART;TZID=Asia/Shanghai:20250915T080000\n"
                        "DTEND;TZID=Asia/Shanghai:20250915T093500\n"
                        "RRULE:FREQ=WEEKLY;UNTIL=20251005T160000Z;INTERVAL=1"), SH)
    assert days(ex.timed) == [date(2025, 9, 15), date(2025, 9, 22), date(2025, 9, 29)]
    ex = expand_ics(cal("SUMMARY:X\nDTSTART;TZID=Asia/Shanghai:20250915T080000\nDURATION:PT1H\n"
                        "RRULE:FREQ=WEEKLY;UNTIL=20250929T000000Z"), SH)  # = 08:00 local, inclusive
    assert days(ex.timed)[-1] == date(2025, 9, 29)


def test_until_as_date_and_floating_until_equal_to_dtstart():
    ex = expand_ics(cal("SUMMARY:X\nDTSTART:20240304T080000\nDTEND:20240304T084500\nRRULE:FREQ=WEEKLY;UNTIL=20240318"), SH)
    assert days(ex.timed) == [date(2024, 3, 4), date(2024, 3, 11), date(2024, 3, 18)]
    ex = expand_ics(cal("SUMMARY:X\nDTSTART:20240304T080000\nDTEND:20240304T084500\n"
                        "RRULE:FREQ=WEEKLY;UNTIL=20240304T084500;BYDAY=MO"), SH)
    assert days(ex.timed) == [date(2024, 3, 4)]


def test_exdate_folded_list_and_rdate():
    ex = expand_ics(cal("SUMMARY:X\nDTSTART:20240304T080000\nDTEND:20240304T084500\n"
                        "RRULE:FREQ=WEEKLY;COUNT=5\nEXDATE:20240311T080000,20240101T080000,2024\n"
                        " 0325T080000\nRDATE:20240406T100000"), SH)
    assert days(ex.timed) == [date(2024, 3, 4), date(2024, 3, 18), date(2024, 4, 1), date(2024, 4, 6)]
    assert ex.timed[-1].start == time(10)


def test_exdate_in_utc_matches_local_instance():
    ex = expand_ics(cal("SUMMARY:X\nDTSTART;TZID=Asia/Shanghai:20240304T080000\nDURATION:PT45M\n"
                        "RRULE:FREQ=WEEKLY;COUNT=3\nEXDATE:20240311T000000Z"), SH)
    assert days(ex.timed) == [date(2024, 3, 4), date(2024, 3, 18)]


def test_recurrence_id_override_and_cancel():
    master = ("UID:u1\nSUMMARY:Lecture\nDTSTART;TZID=America/Toronto:20210111T091000\n"
              "DTEND;TZID=America/Toronto:20210111T100000\nRRULE:FREQ=WEEKLY;COUNT=3")
    moved = ("UID:u1\nSUMMARY:Lecture (moved)\nRECURRENCE-ID;TZID=America/Toronto:20210118T091000\n"
             "DTSTART;TZID=America/Toronto:20210119T140000\nDTEND;TZID=America/Toronto:20210119T150000")
    gone = ("UID:u1\nSUMMARY:Lecture\nSTATUS:CANCELLED\nRECURRENCE-ID:20210125T141000Z\n"
            "DTSTART;TZID=America/Toronto:20210125T091000\nDTEND;TZID=America/Toronto:20210125T100000")
    ex = expand_ics(cal(moved, master, gone), "America/Toronto")
    assert [(m.date, m.start, m.summary) for m in ex.timed] == [
        (date(2021, 1, 11), time(9, 10), "Lecture"), (date(2021, 1, 19), time(14), "Lecture (moved)")]


def test_unbounded_rrule_stops_at_until_and_dst_keeps_wall_time():
    ex = expand_ics(cal("SUMMARY:OH\nDTSTART;TZID=America/Toronto:20210301T091000\nDURATION:PT50M\n"
                        "RRULE:FREQ=WEEKLY;BYDAY=MO"), "America/Toronto", until=date(2021, 3, 22))
    assert days(ex.timed) == [date(2021, 3, 1), date(2021, 3, 8), date(2021, 3, 15), date(2021, 3, 22)]
    assert {m.start for m in ex.timed} == {time(9, 10)}  # across the 14 March DST change


def test_utc_rrule_keeps_utc_time():
    ex = expand_ics(cal("SUMMARY:X\nDTSTART:20210301T141000Z\nDURATION:PT1H\nRRULE:FREQ=WEEKLY;COUNT=3"),
                    "America/Toronto")
    assert [m.start for m in ex.timed] == [time(9, 10), time(9, 10), time(10, 10)]  # EDT from 14 March


def test_all_day_events_are_separate():
    ex = expand_ics(cal("SUMMARY:Week 1\nDTSTART;VALUE=DATE:20210111\nDTEND;VALUE=DATE:20210112",
                        "SUMMARY:Reading week\nDTSTART;VALUE=DATE:20210215\nDTEND;VALUE=DATE:20210220"), SH)
    assert ex.timed == []
    assert [(a.date, a.end, a.summary) for a in ex.all_day] == [
        (date(2021, 1, 11), date(2021, 1, 12), "Week 1"), (date(2021, 2, 15), date(2021, 2, 20), "Reading week")]


def test_damaged_file_tolerance():
    raw = ("BEGIN:VCALENDAR\r\r\n\r\r\nBEGIN:VEVENT\r\r\nSUMMARY:A\r\r\nDTSTART:20191021T080000\r\r\n"
           "DTEND:20191021T094500\r\r\nRULE:FREQ=WEEKLY\r\r\nRULE:COUNT=18\r\r\nthis is not a property\r\r\n"
           "END:VEVENT\r\r\n\r\r\nBEGIN:VEVENT\r\r\nSUMMARY:B\r\r\nDTSTART:20191028T164000\r\r\n"
           "DTEND:20191028T00\r\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\r\nEND:VEVENT\r\r\n")  # no END:VCALENDAR
    ex = expand_ics(raw.encode(), SH)
    assert [(m.summary, m.date, m.start, m.end) for m in ex.timed] == [("A", date(2019, 10, 21), time(8), time(9, 45))]
    assert [(p.summary, p.why) for p in ex.skipped] == [("B", "damaged")]
    assert any("ends inside VCALENDAR" in n for n in ex.notes)
    assert any("RULE" in n for n in ex.notes)


def test_no_vcalendar_wrapper_and_bom_and_gb18030():
    ex = expand_ics("\ufeffBEGIN:VEVENT\nSUMMARY:课\nDTSTART:20240304T080000\nDTEND:20240304T084500\nEND:VEVENT\n"
                    .encode("utf-8"), SH)
    assert len(ex.timed) == 1
    ex = expand_ics(cal("SUMMARY:线性代数\nDTSTART:20240304T080000\nDTEND:20240304T084500").decode().encode("gb18030"), SH)
    assert ex.timed[0].summary == "线性代数"


def test_duration_and_missing_end():
    ex = expand_ics(cal("SUMMARY:X\nDTSTART:20240304T080000\nDURATION:PT1H35M", "SUMMARY:Y\nDTSTART:20240305T080000"), SH)
    assert [(m.start, m.end) for m in ex.timed] == [(time(8), time(9, 35)), (time(8), time(8))]


def test_cancelled_master_and_end_before_start():
    ex = expand_ics(cal("SUMMARY:X\nSTATUS:CANCELLED\nDTSTART:20240304T080000\nDURATION:PT1H",
                        "SUMMARY:Y\nDTSTART:20240304T080000\nDTEND:20240304T070000"), SH)
    assert ex.timed == [] and sorted(p.why for p in ex.skipped) == ["cancelled", "damaged"]


@pytest.mark.parametrize("spec,weeks", [
    ("1-16", list(range(1, 17))),
    ("1-16单", list(range(1, 17, 2))),
    ("2-16双", list(range(2, 17, 2))),
    ("1,3,5-7", [1, 3, 5, 6, 7]),
    ("1-5、7-11单、12-16双", [1, 2, 3, 4, 5, 7, 9, 11, 12, 14, 16]),
    ("2、5、8", [2, 5, 8]),
    ("1-8周", list(range(1, 9))),
    ("1-16周(单)", list(range(1, 17, 2))),
])
def test_week_spec(spec, weeks):
    assert parse_week_spec(spec) == weeks


GRID = [["08:00", "08:45"], ["08:55", "09:40"], ["10:00", "10:45"], ["10:55", "11:40"]]


def test_wakeup_csv_seven_columns():
    data = ("课程名称,星期,开始节数,结束节数,老师,地点,周数\r\n高数,1,1,2,甲,A101,1-3单\r\n英语,3,3,4,乙,B2,2\r\n"
            .encode("utf-8-sig"))
    ms = expand_csv_wakeup(data, date(2024, 2, 26), GRID)
    assert ms == [Meeting(date(2024, 2, 26), time(8), time(9, 40), "高数", "A101", "甲"),
                  Meeting(date(2024, 3, 6), time(10), time(11, 40), "英语", "B2", "乙"),
                  Meeting(date(2024, 3, 11), time(8), time(9, 40), "高数", "A101", "甲")]


def test_wakeup_csv_nine_columns():
    data = ("\ufeff课程名称,星期,开始节数,结束节数,老师,地点,开始周,结束周,单双周(0全1单2双)\r\n"
            "矩阵,5,2,3,丙,C1,1,4,2\r\n图论,7,1,1,丁,D1,3,3,0").encode()
    ms = expand_csv_wakeup(data, date(2024, 2, 26), GRID)
    assert [(m.date, m.start, m.end, m.summary) for m in ms] == [
        (date(2024, 3, 8), time(8, 55), time(10, 45), "矩阵"),  # even weeks 2 and 4
        (date(2024, 3, 17), time(8), time(8, 45), "图论"),
        (date(2024, 3, 22), time(8, 55), time(10, 45), "矩阵")]
