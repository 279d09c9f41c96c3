"""The school calendar on the settings zh_client (Chinese), and its labels on the week board and agenda."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from schedule.models import CalendarDay, CalendarSettings, ScheduleEvent
from schedule.services.academic_calendar import DayInput, calendar_day_create
from schedule.tests.factories import import_csv

SETTINGS = "/accounts/settings/"
WEEK4 = datetime(2026, 9, 28, 7, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.fixture
def zh_client(client, user, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: WEEK4)
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-hans"
    return client


def post(zh_client, **data):
    return zh_client.post(SETTINGS, data, follow=True)


def test_the_section_switches_adds_and_deletes_days(zh_client, user):
    import_csv(user, "高等数学,4,1,2,王老师,二教1101,1-16", "大学物理,5,3,4,李老师,二教1201,1-16")
    shown = zh_client.get(SETTINGS).content.decode()
    assert "校历" in shown and "跟随校历" in shown and "还没有假日、调休日或考试周。" in shown
    added = post(zh_client, action="calendar_day_add", kind="holiday", name="国庆节", first_date="2026-10-01",
                 last_date="2026-10-07").content.decode()
    assert "已添加 国庆节。" in added
    post(zh_client, action="calendar_day_add", kind="makeup", name="调休", first_date="2026-10-11", runs_week="5",
         runs_day="5")
    switched = post(zh_client, action="calendar_switch", follows="on").content.decode()
    assert "已开始跟随校历（停课 2 次，调休加课 1 次）。" in switched and "调休：按第 5 周周五上课" in switched
    assert CalendarSettings.objects.get(user=user).follows_school_calendar
    assert ScheduleEvent.objects.get(user=user, week=5, day=7).title == "大学物理"
    holiday = CalendarDay.objects.get(user=user, kind="holiday")
    assert "已删除。" in post(zh_client, action="calendar_day_delete", day_id=str(holiday.pk)).content.decode()
    assert ScheduleEvent.objects.filter(user=user, week=4, day=4).exists()
    assert "课表按导入的原样运行。" in post(zh_client, action="calendar_switch").content.decode()


def test_refusals_are_shown_in_chinese_and_nothing_is_written(zh_client, user, other_user):
    post(zh_client, action="calendar_day_add", kind="holiday", name="国庆节", first_date="2026-10-01",
         last_date="2026-10-07")
    refused = post(zh_client, action="calendar_day_add", kind="makeup", name="调休", first_date="2026-10-03",
                   runs_week="5", runs_day="5").content.decode()
    assert "调休 落在假日（2026-10-03）上。" in refused
    unread = post(zh_client, action="calendar_day_add", kind="makeup", name="", notice="十月补课").content.decode()
    assert "没看懂这条通知" in unread
    missing = post(zh_client, action="calendar_day_add", kind="makeup", name="调休", first_date="2026-10-11")
    assert "请说明调休日上第几周星期几的课。" in missing.content.decode()
    theirs = calendar_day_create(user=other_user, day=DayInput("holiday", "x", date(2026, 10, 1), date(2026, 10, 1)))
    assert "未找到。" in post(zh_client, action="calendar_day_delete", day_id=str(theirs.pk)).content.decode()
    assert CalendarDay.objects.filter(user=user).count() == 1 and CalendarDay.objects.filter(pk=theirs.pk).exists()


def test_an_ics_of_holidays_is_imported_from_the_page(zh_client, user):
    data = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:国庆节\r\n"
            "DTSTART;VALUE=DATE:20261001\r\nDTEND;VALUE=DATE:20261008\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").encode()
    done = zh_client.post(SETTINGS, {"action": "calendar_ics_import", "file": SimpleUploadedFile("h.ics", data)},
                     follow=True).content.decode()
    assert "已添加假日：国庆节。" in done
    bad = zh_client.post(SETTINGS, {"action": "calendar_ics_import", "file": SimpleUploadedFile("h.ics", b"nope")},
                    follow=True).content.decode()
    assert "这不是有效的 iCalendar（.ics）文件。" in bad
    assert CalendarDay.objects.filter(user=user).count() == 1


def test_the_week_board_and_agenda_show_the_labels(zh_client, user):
    import_csv(user, "大学物理,5,3,4,李老师,二教1201,1-16")
    calendar_day_create(user=user, day=DayInput("holiday", "国庆节", date(2026, 10, 1), date(2026, 10, 7)))
    calendar_day_create(user=user, day=DayInput("makeup", "调休", date(2026, 10, 11), date(2026, 10, 11), 5, 5))
    calendar_day_create(user=user, day=DayInput("exam", "期中考试", date(2026, 11, 2), date(2026, 11, 8)))
    post(zh_client, action="calendar_switch", follows="on")
    week5 = zh_client.get("/board/?week=5").content.decode()
    assert "国庆节 · 停课" in week5 and "调休 · 按周五上课" in week5 and "调休：按第 5 周周五上课" in week5
    assert "期中考试" in zh_client.get("/board/?week=9").content.decode()
