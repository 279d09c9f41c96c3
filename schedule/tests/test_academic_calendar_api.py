"""The school calendar through its services and /api/v1/calendar/: validation by code, 404 for another
student's day, idempotency, .ics import all or nothing, national years, conflicts with nothing written."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import translation

from schedule.models import CalendarDay, CalendarSettings, ScheduleEvent, ScheduleSlot, SuspendedMeeting
from schedule.services.academic_calendar import (
    CalendarDayError,
    DayInput,
    UnknownYearError,
    calendar_day_create,
    national_holidays_load,
    national_years,
    school_calendar_switch,
)
from schedule.services.calendar import calendar_settings_update
from schedule.tests.factories import custom_event, import_csv

NATIONAL_DAY = {"kind": "holiday", "name": "国庆节", "first_date": "2026-10-01", "last_date": "2026-10-07"}
MAKEUP_SUNDAY = {"kind": "makeup", "name": "调休", "first_date": "2026-10-11", "runs_week": 5, "runs_day": 5}


def ics(*events: str) -> bytes:
    body = "".join(f"BEGIN:VEVENT\r\nUID:{n}\r\n{e}END:VEVENT\r\n" for n, e in enumerate(events))
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\n{body}END:VCALENDAR\r\n".encode()


def all_day(name: str, first: str, end_exclusive: str) -> str:
    return f"SUMMARY:{name}\r\nDTSTART;VALUE=DATE:{first}\r\nDTEND;VALUE=DATE:{end_exclusive}\r\n"


@pytest.fixture
def timetable(user):
    import_csv(user, "高等数学,4,1,2,王老师,二教1101,1-16", "大学物理,5,3,4,李老师,二教1201,1-16")
    return user


def test_switching_on_and_adding_days_through_the_api(auth_client, timetable):
    assert auth_client.post("/api/v1/calendar/days/", NATIONAL_DAY, format="json").status_code == 201
    made = auth_client.post("/api/v1/calendar/days/", MAKEUP_SUNDAY, format="json")
    assert made.status_code == 201 and made.json()["runs_day"] == 5
    # Off by default: the timetable runs as imported.
    assert ScheduleEvent.objects.filter(user=timetable, week=4, day=4).exists()
    switched = auth_client.put("/api/v1/calendar/", {"follows_school_calendar": True}, format="json")
    body = switched.json()
    assert switched.status_code == 200 and body["follows_school_calendar"] is True
    assert {"date": "2026-10-11", "kind": "makeup", "short": "Make-up day · Friday classes",
            "long": "Make-up day: classes of week 5, Friday"} in body["notes"]
    assert not ScheduleEvent.objects.filter(user=timetable, week=4, day=4).exists()
    assert ScheduleEvent.objects.get(user=timetable, week=5, day=7).title == "大学物理"
    assert [d["name"] for d in auth_client.get("/api/v1/calendar/").json()["days"]] == ["国庆节", "调休"]


@pytest.mark.parametrize("notice", ["10月10日（周六）补10月1日（周四）的课", "10-10 补 10-01 的课",
                                    "10月1日（周四）的课调到10月10日（周六）上"])
def test_the_usual_makeup_day_as_the_school_announces_it(auth_client, timetable, notice):
    """National Day's Thursday classes made up on Saturday 10-10, entered as the notice's own words."""
    assert auth_client.post("/api/v1/calendar/days/", NATIONAL_DAY, format="json").status_code == 201
    made = auth_client.post("/api/v1/calendar/days/", {"kind": "makeup", "name": "", "notice": notice},
                            format="json")
    assert made.status_code == 201, made.json()
    assert (made.json()["first_date"], made.json()["runs_week"], made.json()["runs_day"]) == ("2026-10-10", 4, 4)
    auth_client.put("/api/v1/calendar/", {"follows_school_calendar": True}, format="json")
    assert not ScheduleEvent.objects.filter(user=timetable, week=4, day=4).exists()  # the holiday is off
    copy = ScheduleEvent.objects.get(user=timetable, week=5, day=6)
    assert (copy.title, copy.source, copy.start_section) == ("高等数学", "calendar", 1)
    assert SuspendedMeeting.objects.filter(user=timetable, week=4, day=4, title="高等数学").exists()
    # Taking the holiday away brings Thursday back and Saturday still runs it.
    holiday = CalendarDay.objects.get(user=timetable, kind="holiday")
    assert auth_client.delete(f"/api/v1/calendar/days/{holiday.pk}/").status_code == 204
    assert ScheduleEvent.objects.filter(user=timetable, week=4, day=4, title="高等数学").exists()
    assert ScheduleEvent.objects.filter(user=timetable, week=5, day=6, title="高等数学").exists()


def test_exam_weeks_by_number_become_dates(auth_client):
    made = auth_client.post("/api/v1/calendar/days/", {"kind": "exam", "name": "期末考试", "first_week": 19,
                                                       "last_week": 20}, format="json")
    assert made.status_code == 201
    assert (made.json()["first_date"], made.json()["last_date"]) == ("2027-01-11", "2027-01-24")
    outside = auth_client.post("/api/v1/calendar/days/", {"kind": "exam", "name": "x", "first_week": 20,
                                                          "last_week": 21}, format="json")
    assert outside.status_code == 400 and outside.json()["code"] == "weeks_outside_semester"


@pytest.mark.parametrize(("extra", "day", "code"), [
    ([], {**MAKEUP_SUNDAY, "runs_week": 21}, "makeup_week_outside"),
    ([], {"kind": "makeup", "name": "", "notice": "12-13 补课"}, "notice_not_two_dates"),
    ([], {"kind": "makeup", "name": "", "notice": "10月11日（周六）补10月9日的课"}, "notice_weekday_mismatch"),
    ([], {"kind": "makeup", "name": "", "notice": "3-1 补 2-27 的课"}, "date_outside_semester"),
    ([NATIONAL_DAY], {**MAKEUP_SUNDAY, "first_date": "2026-10-03"}, "makeup_on_holiday"),
    ([NATIONAL_DAY], {**NATIONAL_DAY, "name": "中秋", "first_date": "2026-10-07", "last_date": "2026-10-08"},
     "holiday_overlap"),
    ([], {**NATIONAL_DAY, "first_date": "2026-08-30"}, "date_outside_semester"),
    ([], {**NATIONAL_DAY, "name": "  "}, "empty_name"),
    ([], {**NATIONAL_DAY, "last_date": "2026-09-30"}, "range_reversed"),
])
def test_bad_days_are_refused_by_code_and_nothing_is_written(auth_client, user, extra, day, code):
    for earlier in extra:
        assert auth_client.post("/api/v1/calendar/days/", earlier, format="json").status_code == 201
    refused = auth_client.post("/api/v1/calendar/days/", day, format="json")
    body = refused.json()
    assert refused.status_code == 400 and body["code"] == code, body
    assert body["message"] and body["detail"]["problems"][0]["code"] == code
    assert CalendarDay.objects.filter(user=user).count() == len(extra)


def test_refusals_read_in_chinese(user):
    calendar_day_create(user=user, day=DayInput("holiday", "国庆节", date(2026, 10, 1), date(2026, 10, 7)))
    with translation.override("zh-hans"), pytest.raises(CalendarDayError) as refused:
        calendar_day_create(user=user, day=DayInput("makeup", "调休", date(2026, 10, 3), date(2026, 10, 3), 5, 5))
    assert refused.value.message == "调休 落在假日（2026-10-03）上。"


def test_another_students_day_is_not_found(auth_client, other_user):
    theirs = calendar_day_create(user=other_user, day=DayInput("holiday", "国庆节", date(2026, 10, 1),
                                                                date(2026, 10, 7)))
    gone = auth_client.delete(f"/api/v1/calendar/days/{theirs.pk}/")
    assert gone.status_code == 404 and gone.json()["code"] == "calendar_day_not_found"
    assert CalendarDay.objects.filter(pk=theirs.pk).exists()


def test_deleting_a_holiday_brings_its_courses_back(auth_client, timetable):
    day = auth_client.post("/api/v1/calendar/days/", NATIONAL_DAY, format="json").json()
    auth_client.put("/api/v1/calendar/", {"follows_school_calendar": True}, format="json")
    assert SuspendedMeeting.objects.filter(user=timetable).count() == 2  # Thursday 10-01 and Friday 10-02
    assert auth_client.delete(f"/api/v1/calendar/days/{day['id']}/").status_code == 204
    assert SuspendedMeeting.objects.filter(user=timetable).count() == 0
    assert ScheduleEvent.objects.filter(user=timetable, week=4, day=4, title="高等数学").exists()


def test_writes_replay_with_the_same_idempotency_key(auth_client, user):
    first = auth_client.post("/api/v1/calendar/days/", NATIONAL_DAY, format="json", HTTP_X_IDEMPOTENCY_KEY="day-1")
    again = auth_client.post("/api/v1/calendar/days/", NATIONAL_DAY, format="json", HTTP_X_IDEMPOTENCY_KEY="day-1")
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    # Without a key the same day is not doubled either: it is already there.
    third = auth_client.post("/api/v1/calendar/days/", NATIONAL_DAY, format="json")
    assert third.json()["id"] == first.json()["id"] and CalendarDay.objects.filter(user=user).count() == 1


def test_a_makeup_day_over_a_study_block_is_a_conflict_with_nothing_written(auth_client, timetable):
    custom_event(timetable, title="社团活动", week=5, day=7, start=3, end=4)
    auth_client.put("/api/v1/calendar/", {"follows_school_calendar": True}, format="json")
    refused = auth_client.post("/api/v1/calendar/days/", MAKEUP_SUNDAY, format="json")
    body = refused.json()
    assert refused.status_code == 409 and body["code"] == "calendar_conflict"
    assert body["detail"]["conflicts"][0] == {"course": "大学物理", "week": 5, "day": 7, "date": "2026-10-11",
                                              "sections": "3-4", "taken_by": ["社团活动"]}
    assert not CalendarDay.objects.filter(user=timetable).exists()
    assert ScheduleEvent.objects.filter(user=timetable, week=5, day=7).get().title == "社团活动"


def test_holidays_from_an_ics_file_all_or_nothing(auth_client, user):
    good = ics(all_day("国庆节", "20261001", "20261008"), all_day("补班", "20261010", "20261011"))
    made = auth_client.post("/api/v1/calendar/import/", {"file": SimpleUploadedFile("h.ics", good)},
                            format="multipart")
    assert made.status_code == 201, made.json()
    assert [d["name"] for d in made.json()["days"]] == ["国庆节"] and made.json()["workdays"] == ["补班 2026-10-10"]
    assert CalendarDay.objects.get(user=user).origin == CalendarDay.Origin.ICS
    timed = ics(all_day("元旦", "20270101", "20270102"),
                "SUMMARY:开会\r\nDTSTART:20261020T090000Z\r\nDTEND:20261020T100000Z\r\n")
    refused = auth_client.post("/api/v1/calendar/import/", {"file": SimpleUploadedFile("h.ics", timed)},
                               format="multipart")
    assert refused.status_code == 400 and refused.json()["code"] == "not_all_day"
    overlapping = ics(all_day("国庆假期", "20261005", "20261009"))
    refused = auth_client.post("/api/v1/calendar/import/", {"file": SimpleUploadedFile("h.ics", overlapping)},
                               format="multipart")
    assert refused.status_code == 400 and refused.json()["code"] == "holiday_overlap"
    broken = auth_client.post("/api/v1/calendar/import/", {"file": SimpleUploadedFile("h.ics", b"not a calendar")},
                              format="multipart")
    assert broken.status_code == 400 and broken.json()["code"] == "invalid_ics"
    assert CalendarDay.objects.filter(user=user).count() == 1


def test_only_cited_years_ship_and_loading_one_is_idempotent(user):
    assert national_years() == [2025]
    with pytest.raises(UnknownYearError):
        national_holidays_load(user=user, year=2026)
    calendar_settings_update(user=user, semester_start=date(2025, 9, 1), semester_weeks=20)
    loaded = national_holidays_load(user=user, year=2025)
    assert [(d.name, d.first_date, d.last_date) for d in loaded.days] == [
        ("国庆节、中秋节", date(2025, 10, 1), date(2025, 10, 8))]
    assert loaded.workdays == ["国庆节调休上班 2025-09-28", "国庆节调休上班 2025-10-11"]
    assert loaded.outside_semester == 5
    national_holidays_load(user=user, year=2025)
    assert CalendarDay.objects.filter(user=user, origin=CalendarDay.Origin.NATIONAL).count() == 1


def test_the_management_command_loads_a_year_for_a_student(user, capsys):
    calendar_settings_update(user=user, semester_start=date(2025, 9, 1), semester_weeks=20)
    call_command("load_holidays", "2025", "--user", user.username)
    assert CalendarDay.objects.filter(user=user, name="国庆节、中秋节").exists()
    assert "2025" in capsys.readouterr().out


def test_moving_the_semester_moves_the_suspended_meetings(timetable):
    calendar_day_create(user=timetable, day=DayInput("holiday", "国庆节", date(2026, 10, 1), date(2026, 10, 7)))
    school_calendar_switch(user=timetable, follows=True)
    assert not ScheduleEvent.objects.filter(user=timetable, week=4, day=4).exists()
    calendar_settings_update(user=timetable, semester_start=date(2026, 9, 14))  # National Day now in week 3
    assert ScheduleEvent.objects.filter(user=timetable, week=4, day=4).exists()
    assert not ScheduleEvent.objects.filter(user=timetable, week=3, day=4).exists()
    slots = set(ScheduleSlot.objects.filter(user=timetable, week=3).values_list("day", "section"))
    assert (4, 1) not in slots and CalendarSettings.objects.get(user=timetable).follows_school_calendar


def meetings(user, week: int, day: int) -> list[tuple[str, str]]:
    return list(ScheduleEvent.objects.filter(user=user, week=week, day=day).order_by("start_section")
                .values_list("title", "source"))


def test_a_weekday_makeup_replaces_that_days_courses_and_deleting_it_brings_them_back(timetable):
    # Thursday 10-15 (week 6) runs week 6 Friday: 大学物理 instead of 高等数学.
    day = calendar_day_create(user=timetable, day=DayInput("makeup", "运动会调课", date(2026, 10, 15),
                                                            date(2026, 10, 15), 6, 5))
    school_calendar_switch(user=timetable, follows=True)
    assert meetings(timetable, 6, 4) == [("大学物理", "calendar")]
    from schedule.services.academic_calendar import academic_calendar_sync, calendar_day_delete

    assert academic_calendar_sync(user=timetable).__dict__ == {"suspended": 0, "restored": 0, "makeups_added": 0,
                                                               "makeups_removed": 0}  # idempotent
    calendar_day_delete(user=timetable, day_id=day.pk)
    assert meetings(timetable, 6, 4) == [("高等数学", "import")]


def test_switching_off_over_a_block_in_the_freed_holiday_time_is_refused(timetable):
    calendar_day_create(user=timetable, day=DayInput("holiday", "国庆节", date(2026, 10, 1), date(2026, 10, 7)))
    school_calendar_switch(user=timetable, follows=True)
    custom_event(timetable, title="出游", week=4, day=4, start=1, end=4)  # the holiday's free morning
    from schedule.services.academic_calendar import CalendarConflictError

    with pytest.raises(CalendarConflictError) as refused:
        school_calendar_switch(user=timetable, follows=False)
    assert refused.value.detail["conflicts"][0]["taken_by"] == ["出游"]
    assert CalendarSettings.objects.get(user=timetable).follows_school_calendar  # nothing written
    assert meetings(timetable, 4, 4) == [("出游", "manual")]
    assert SuspendedMeeting.objects.filter(user=timetable).count() == 2


def test_a_reimport_during_a_holiday_is_suspended_at_once_and_a_second_sync_doubles_nothing(timetable):
    from schedule.services.academic_calendar import academic_calendar_sync

    calendar_day_create(user=timetable, day=DayInput("holiday", "国庆节", date(2026, 10, 1), date(2026, 10, 7)))
    school_calendar_switch(user=timetable, follows=True)
    import_csv(timetable, "高等数学,4,1,2,王老师,二教1101,1-16")  # the import runs the sync itself
    assert meetings(timetable, 4, 4) == []
    academic_calendar_sync(user=timetable)
    assert meetings(timetable, 4, 4) == []
    school_calendar_switch(user=timetable, follows=False)
    assert meetings(timetable, 4, 4) == [("高等数学", "import")]
    assert not SuspendedMeeting.objects.filter(user=timetable).exists()


def test_the_admin_lists_days_and_its_action_loads_a_year(admin_client, user):
    calendar_settings_update(user=user, semester_start=date(2025, 9, 1), semester_weeks=20)
    assert admin_client.get("/admin/schedule/calendarday/").status_code == 200
    assert admin_client.get("/admin/schedule/suspendedmeeting/").status_code == 200
    done = admin_client.post("/admin/schedule/calendarsettings/", {
        "action": "load_national_holidays_2025", "_selected_action": [str(user.pk)]}, follow=True)
    assert done.status_code == 200
    assert CalendarDay.objects.filter(user=user, origin="national").count() == 1
