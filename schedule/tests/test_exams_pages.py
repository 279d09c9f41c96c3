"""The exams page (in Chinese, the students' language) and what the other pages show of exams: add,
change, delete (clear errors, nothing half-written), the countdowns and tomorrow's preview on the
overview, the week board's day headers, the .ics."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar

from schedule.exams.models import Exam
from schedule.models import CalendarSettings
from schedule.services.academic_calendar import DayInput, calendar_day_create, school_calendar_switch
from schedule.tests.factories import import_csv

# Saturday 2026-10-10, 21:00 in Shanghai: week 5 of the factory semester (week 1 starts 2026-09-07).
EVENING = datetime(2026, 10, 10, 21, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.fixture
def page_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def evening(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: EVENING)
    return EVENING


def add(page_client, **fields):
    values = {"action": "add", "title": "高等数学", "date": "2026-10-22", "start_time": "09:00",
              "end_time": "11:00", "place": "二教1101", "course": "", **fields}
    return page_client.post("/schedule/exams/", values, follow=True)


def test_adding_changing_and_deleting_on_the_page(page_client, user, evening):
    answer = add(page_client)
    assert answer.status_code == 200 and "已添加考试「高等数学」。" in answer.content.decode()
    exam = Exam.objects.get()
    assert (exam.start_time, exam.place) == (time(9), "二教1101")
    assert "还有 12 天" in answer.content.decode()
    changed = page_client.post("/schedule/exams/", {
        "action": "edit", "exam_id": exam.pk, f"exam{exam.pk}-title": "高数（下）", f"exam{exam.pk}-date": "2026-10-23",
        f"exam{exam.pk}-start_time": "", f"exam{exam.pk}-end_time": "", f"exam{exam.pk}-place": "",
        f"exam{exam.pk}-course": ""}, follow=True)
    assert changed.status_code == 200
    exam.refresh_from_db()
    assert (exam.title, exam.date, exam.start_time) == ("高数（下）", date(2026, 10, 23), None)
    page_client.post("/schedule/exams/", {"action": "delete", "exam_id": exam.pk})
    assert not Exam.objects.exists()


def test_bad_input_on_the_page_says_why_and_saves_nothing(page_client, user, evening):
    answer = add(page_client, start_time="11:00", end_time="09:00")
    assert "考试的结束时间早于开始时间。" in answer.content.decode()
    answer = add(page_client, start_time="09:00", end_time="")
    assert "开始和结束时间要么都填，要么都不填。" in answer.content.decode()
    assert not Exam.objects.exists()
    assert page_client.post("/schedule/exams/", {"action": "delete", "exam_id": "x"}, follow=True).status_code == 200


def test_anothers_exam_cannot_be_changed_or_deleted_from_the_page(page_client, other_user, evening):
    theirs = Exam.objects.create(user=other_user, title="线性代数", date=date(2026, 11, 1))
    answer = page_client.post("/schedule/exams/", {"action": "delete", "exam_id": theirs.pk}, follow=True)
    assert "找不到这场考试。" in answer.content.decode() and Exam.objects.filter(pk=theirs.pk).exists()


def test_the_overview_counts_down_and_previews_a_makeup_sunday_in_chinese(page_client, user, evening):
    import_csv(user, "大学物理,5,3,4,李老师,二教1201,1-16")
    calendar_day_create(user=user, day=DayInput("makeup", "调休", date(2026, 10, 11), date(2026, 10, 11), 5, 5))
    school_calendar_switch(user=user, follows=True)
    Exam.objects.create(user=user, title="高等数学", date=date(2026, 10, 22))
    page = page_client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "距「高等数学」考试还有 12 天" in page
    assert "明天按第 5 周周五上课。" in page and "大学物理" in page


def test_before_the_preview_time_the_overview_has_no_preview(page_client, user, evening):
    settings_row = CalendarSettings.objects.get(user=user)
    settings_row.preview_after = time(22, 0)
    settings_row.save()
    assert 'data-test="tomorrow"' not in page_client.get("/").content.decode()


def test_the_week_board_and_the_ics_show_the_exam(page_client, user, evening):
    Exam.objects.create(user=user, title="高等数学", date=date(2026, 10, 22), start_time=time(9), end_time=time(11))
    Exam.objects.create(user=user, title="体育", date=date(2026, 10, 23))
    board = page_client.get("/board/?week=7").content.decode()
    assert board.count("考试：高等数学 09:00") == 2          # the day header and the phone agenda
    calendar = Calendar.from_ical(page_client.get("/schedule/export.ics").content)
    exams = {str(e["summary"]): e for e in calendar.walk("VEVENT") if str(e["uid"]).startswith("exam-")}
    assert exams["考试：高等数学"].decoded("dtstart") == datetime(2026, 10, 22, 9, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    assert exams["考试：体育"].decoded("dtstart") == date(2026, 10, 23)
