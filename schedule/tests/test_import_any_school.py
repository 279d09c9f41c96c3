"""Any school's timetable gets in: the file's section times and semester proposed and adopted in one
confirm, events that cannot be taken left out by name, a course's own times kept, damaged files read,
and a re-import of the same file changing nothing."""

from __future__ import annotations

import random
from datetime import date, time

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from board.previews import changeset_undo
from board.timetable_edits import timetable_sync
from schedule.exceptions import ImportRejectedError
from schedule.models import CalendarSettings, ChangeSet, Course, ScheduleEvent
from schedule.selectors import week_board_get
from schedule.services.calendar import calendar_settings_update
from schedule.services.imports import timetable_import
from schedule.tests import import_shapes as shapes


def local(event: ScheduleEvent) -> tuple[str, str, str]:
    starts, ends = event.starts_at.astimezone(shapes_zone()), event.ends_at.astimezone(shapes_zone())
    return starts.date().isoformat(), f"{starts:%H:%M}", f"{ends:%H:%M}"


def shapes_zone():
    from zoneinfo import ZoneInfo

    return ZoneInfo("Asia/Shanghai")


def confirm(user, data: bytes, fmt: str = "ics"):
    """The student's one confirm after the preview: adopt what it proposed, leave out what it listed."""
    preview = timetable_import(user=user, data=data, fmt=fmt, dry_run=True)
    return preview, timetable_import(user=user, data=data, fmt=fmt, adopt=preview.frame is not None,
                                     accept_skips=bool(preview.skipped))


def test_a_per_section_file_proposes_the_schools_day_and_semester_and_imports_blocks(user):
    data = shapes.per_section_ics()
    preview = timetable_import(user=user, data=data, fmt="ics", dry_run=True)
    assert preview.frame is not None and preview.frame.start == "2025-02-17"
    used = [(s.start, s.end) for s in preview.frame.sections if s.uses]
    assert used == [("08:00", "08:45"), ("08:50", "09:35"), ("14:00", "14:45"), ("14:50", "15:35")]
    # Consecutive one-section events of one class are one block.
    assert [(c.name, c.day, c.start_section, c.end_section, c.weeks_text) for c in preview.courses] == [
        ("数据结构", 1, 1, 2, "1-16"), ("大学英语", 3, 5, 6, "1-15单")]
    with pytest.raises(ImportRejectedError) as refused:
        timetable_import(user=user, data=data, fmt="ics")
    assert refused.value.code == "frame_not_adopted" and not Course.objects.filter(user=user).exists()

    done = timetable_import(user=user, data=data, fmt="ics", adopt=True)
    calendar = CalendarSettings.objects.get(user=user)
    assert calendar.semester_start.isoformat() == "2025-02-17"
    assert calendar.section_times[:2] == [["08:00", "08:45"], ["08:50", "09:35"]]
    assert done.created_events == 16 + 8
    first = ScheduleEvent.objects.filter(user=user, title="数据结构").order_by("starts_at").first()
    assert local(first) == ("2025-02-17", "08:00", "09:35") and first.location == "致远楼A203"
    courses = {c.name: c for c in Course.objects.filter(user=user)}
    assert courses["数据结构"].teacher == "顾明川"
    assert (courses["大学英语"].teacher, courses["大学英语"].location, courses["大学英语"].note) == (
        "林晓", "外语楼301", "课程号：ENG1001")


def test_a_course_at_its_own_times_keeps_them_through_a_change_of_section_times(user):
    preview, _done = confirm(user, shapes.wakeup_export())
    assert preview.frame is not None
    sport = ScheduleEvent.objects.filter(user=user, title="体育").order_by("starts_at").first()
    assert (sport.clock_start, sport.clock_end) == (time(8, 30), time(10, 5))
    assert local(sport) == ("2025-02-20", "08:30", "10:05")
    assert (sport.start_section, sport.end_section) == (1, 3)  # it holds the sections it overlaps
    math = ScheduleEvent.objects.filter(user=user, title="高等数学").order_by("starts_at").first()
    assert local(math) == ("2025-02-17", "08:00", "09:35") and math.clock_start is None
    assert ScheduleEvent.objects.filter(user=user, title="高等数学").count() == 16

    times = CalendarSettings.objects.get(user=user).section_times
    times[0] = ["07:50", "08:35"]
    calendar_settings_update(user=user, section_times=times)
    sport.refresh_from_db()
    math.refresh_from_db()
    assert local(sport)[1:] == ("08:30", "10:05")  # its own times stay
    assert local(math)[1] == "07:50"  # a meeting on the grid follows its sections


def test_all_day_events_and_last_years_series_are_left_out_by_name_with_one_confirm(user):
    data = shapes.google_export()
    with translation.override("zh-hans"):
        preview = timetable_import(user=user, data=data, fmt="ics", dry_run=True)
    groups = {g.code: g for g in preview.skipped}
    assert (groups["all_day"].count, groups["outside_semester"].count) == (3, 1)
    assert groups["all_day"].summary == "全天日程（假期、截止日、备注）：略去 3 个"
    assert "“Week 1”是全天日程（2025-02-17）" in groups["all_day"].examples[0]
    assert preview.frame is not None and preview.frame.start == "2025-02-17"
    with pytest.raises(ImportRejectedError) as refused:
        timetable_import(user=user, data=data, fmt="ics", adopt=True)
    assert refused.value.code == "skips_not_accepted"
    done = timetable_import(user=user, data=data, fmt="ics", adopt=True, accept_skips=True)
    assert done.created_events == 15
    assert {local(e)[0][:4] for e in ScheduleEvent.objects.filter(user=user)} == {"2025"}


def test_winter_hours_keep_every_meeting_at_its_real_time(user):
    confirm(user, shapes.winter_hours_ics())
    graphics = [local(e) for e in ScheduleEvent.objects.filter(user=user, title="计算机图形学").order_by("starts_at")]
    assert graphics[0][1:] == ("14:30", "16:15") and graphics[-1][1:] == ("14:00", "15:35")
    assert len(graphics) == 8
    assert {local(e)[1:] for e in ScheduleEvent.objects.filter(user=user, title="操作系统")} == {("10:00", "11:35")}


def test_winter_hours_are_proposed_as_a_second_grid_from_the_monday_they_start(user):
    preview = timetable_import(user=user, data=shapes.winter_hours_ics(), fmt="ics", dry_run=True)
    assert preview.frame is not None and preview.frame.later_from == "2025-03-17"  # week 5
    assert [(s.start, s.end) for s in preview.frame.sections[4:6]] == [("14:30", "15:20"), ("15:25", "16:15")]
    assert [(s.start, s.end) for s in preview.frame.later_sections[4:6]] == [("14:00", "14:45"), ("14:50", "15:35")]
    # One course on sections 5-6 all term, not two halves or a course at its own times.
    assert [(c.name, c.start_section, c.end_section, c.weeks_text, c.own_times) for c in preview.courses] == [
        ("计算机图形学", 5, 6, "1-8", False), ("操作系统", 3, 4, "1-8", False)]


def test_adopting_winter_hours_puts_every_section_reader_on_the_grid_of_its_date(user):
    confirm(user, shapes.winter_hours_ics())
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.later_sections_from.isoformat(), calendar.later_section_times[4]) == ("2025-03-17", ["14:00", "14:45"])
    assert not ScheduleEvent.objects.filter(user=user, clock_start__isnull=False).exists()
    assert [r.start for r in week_board_get(user=user, week=4).sections[4:6]] == ["14:30", "15:25"]
    assert [r.start for r in week_board_get(user=user, week=5).sections[4:6]] == ["14:00", "14:50"]
    times = calendar.section_times
    times[0] = ["07:50", "08:35"]
    calendar_settings_update(user=user, section_times=times)  # a change of the first grid keeps the second
    late = ScheduleEvent.objects.filter(user=user, title="计算机图形学", week=8).get()
    assert local(late)[1:] == ("14:00", "15:35")


def test_undoing_an_import_that_adopted_winter_hours_drops_the_second_grid(user):
    _preview, done = confirm(user, shapes.winter_hours_ics())
    changeset_undo(user=user, changeset_id=done.changeset_id)
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.later_section_times, calendar.later_sections_from) == ([], None)
    assert not ScheduleEvent.objects.filter(user=user).exists()


def test_importing_a_winter_hours_file_again_changes_nothing(user):
    confirm(user, shapes.winter_hours_ics())
    before = sorted(ScheduleEvent.objects.filter(user=user).values_list("pk", "starts_at", "ends_at"))
    result = timetable_sync(user=user, data=shapes.winter_hours_ics(), fmt="ics")
    assert result.changeset_id is None
    assert sorted(ScheduleEvent.objects.filter(user=user).values_list("pk", "starts_at", "ends_at")) == before


def test_a_second_grid_with_another_number_of_sections_is_refused_in_chinese(user):
    with translation.override("zh-hans"), pytest.raises(ValidationError) as refused:
        calendar_settings_update(user=user, later_sections=([["08:00", "08:45"]], date(2026, 11, 2)))
    assert refused.value.message_dict["later_section_times"] == ["第二套作息需要与第一套节数相同（12 节）。"]


def test_a_damaged_file_is_read_with_its_repairs_listed_in_chinese(user):
    with translation.override("zh-hans"):
        preview, done = confirm(user, shapes.damaged_ics())
    assert done.created_events == 16
    assert any("END:VCALENDAR" in line for line in preview.repairs)
    assert any("换行符" in line for line in preview.repairs)


def test_a_file_that_is_no_calendar_is_refused_without_the_parsers_words(user):
    with translation.override("zh-hans"), pytest.raises(ImportRejectedError) as refused:
        timetable_import(user=user, data=b"BEGIN:VEVENT\r\nSUMMARY:x\r\nEND:VEVENT\r\n", fmt="ics", dry_run=True)
    (message,) = [p["message"] for p in refused.value.detail["problems"]]
    assert message.startswith("这个文件不是能读取的日历文件") and "Expected" not in message


def test_importing_the_same_file_again_in_another_order_changes_nothing(user):
    data = shapes.wakeup_export().decode()
    confirm(user, data.encode())
    head, *events = data.split("BEGIN:VEVENT")
    tail = events[-1].split("END:VCALENDAR")[0]
    events[-1] = tail
    random.Random(4).shuffle(events)
    shuffled = (head + "".join("BEGIN:VEVENT" + e for e in events) + "END:VCALENDAR\r\n").encode()
    before = sorted(ScheduleEvent.objects.filter(user=user).values_list("pk", "location", "starts_at", "ends_at"))
    changes = ChangeSet.objects.filter(user=user).count()  # the first import's, undoable
    result = timetable_sync(user=user, data=shuffled, fmt="ics")
    assert result.changeset_id is None and ChangeSet.objects.filter(user=user).count() == changes
    after = sorted(ScheduleEvent.objects.filter(user=user).values_list("pk", "location", "starts_at", "ends_at"))
    assert before == after


def test_a_course_in_two_rooms_keeps_its_rooms_on_a_reimport_in_any_order(user):
    rows = ["高数,1,1,2,王,二教101,1-16", "高数,3,3,4,王,三教202,1-16"]
    from schedule.tests.factories import csv_bytes

    timetable_import(user=user, data=csv_bytes(*rows), fmt="csv")
    course_room = Course.objects.get(user=user).location
    result = timetable_sync(user=user, data=csv_bytes(*reversed(rows)), fmt="csv")
    assert result.changeset_id is None
    assert Course.objects.get(user=user).location == course_room
    assert set(ScheduleEvent.objects.filter(user=user).values_list("day", "location")) == {
        (1, "二教101"), (3, "三教202")}


def test_undo_takes_a_first_import_back_whole_with_the_settings_it_adopted(user):
    from board.previews import changeset_undo

    before = CalendarSettings.objects.get(user=user)
    _preview, done = confirm(user, shapes.per_section_ics())
    assert done.changeset_id is not None and Course.objects.filter(user=user).exists()
    changeset_undo(user=user, changeset_id=done.changeset_id)
    after = CalendarSettings.objects.get(user=user)
    assert not Course.objects.filter(user=user).exists() and not ScheduleEvent.objects.filter(user=user).exists()
    assert (after.semester_start, after.section_times) == (before.semester_start, before.section_times)


def test_the_board_offers_to_undo_the_first_import_in_words_that_say_so(client, user):
    confirm(user, shapes.wakeup_export())
    client.force_login(user)
    page = client.get("/board/?week=1", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "已导入课表：4 门课" in page
    assert 'data-test="own-times"' in page and "08:30–10:05" in page


def test_syncing_a_file_with_two_courses_at_one_time_again_changes_nothing(user):
    rows = ("课程名称,星期,开始节数,结束节数,老师,地点,周数\n线性代数,2,3,4,小红,理工楼110,1-16\n"
            "大学英语,2,3,4,小红,文成楼125,2、5、8\n")
    confirm(user, rows.encode(), fmt="csv")
    before = sorted(ScheduleEvent.objects.filter(user=user).values_list("pk", "beside"))
    assert sum(beside for _pk, beside in before) == 3
    result = timetable_sync(user=user, data=rows.encode(), fmt="csv")
    assert result.changeset_id is None
    assert sorted(ScheduleEvent.objects.filter(user=user).values_list("pk", "beside")) == before
