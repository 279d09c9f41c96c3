"""The student's calendar settings: defaults for a new student, the settings page and /api/v1/me/calendar/."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from accounts.models import User
from schedule.core.time_model import guess_semester_start
from schedule.models import CalendarSettings
from schedule.selectors import calendar_settings_get, time_frame_get
from schedule.services.calendar import calendar_settings_update

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


# --- Defaults -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("today", "monday"), [
    (date(2026, 11, 30), date(2026, 9, 7)),
    (date(2027, 1, 10), date(2026, 9, 7)),
    (date(2027, 3, 15), date(2027, 3, 1)),
    (date(2026, 8, 20), date(2026, 9, 7)),
])
def test_semester_guess_is_the_monday_starting_the_current_term(today, monday):
    assert guess_semester_start(today) == monday


@pytest.mark.django_db
def test_registering_gives_the_student_a_guessed_semester(api_client):
    # accounts announces user_registered; the schedule (schedule/receivers.py) creates the calendar.
    response = api_client.post("/api/v1/auth/register/", {"username": "xiaoming", "password": "kaoyan-2027!"},
                               format="json")
    assert response.status_code == 201
    calendar = CalendarSettings.objects.get(user__username="xiaoming")
    assert calendar.semester_start.weekday() == 0
    assert (calendar.semester_weeks, calendar.section_count) == (20, 12)


@pytest.mark.django_db
def test_a_student_without_a_calendar_gets_one_on_first_use():
    student = User.objects.create_user("laowang", password="kaoyan-2027!")
    assert not CalendarSettings.objects.filter(user=student).exists()
    semester, template = time_frame_get(user=student)
    assert semester.weeks == 20 and len(template.to_hhmm()) == 12
    assert calendar_settings_get(user=student) == CalendarSettings.objects.get(user=student)


def test_the_calendar_is_reachable_from_the_student(user):
    assert user.calendar == CalendarSettings.objects.get(user=user)


# --- The settings page (/accounts/settings/, served by the schedule) --------------------------------------------

def test_settings_page_saves_semester_and_sections(client, user):
    client.force_login(user)
    response = client.post("/accounts/settings/", {
        "semester_start": "2027-03-01", "semester_weeks": "18", "time_zone": "Asia/Shanghai",
        "section_start": ["08:00", "09:00"], "section_end": ["08:45", "09:45"]}, **EN)
    assert response.status_code == 302 and response["Location"] == "/accounts/settings/"
    calendar = CalendarSettings.objects.get(user=user)
    assert (str(calendar.semester_start), calendar.semester_weeks) == ("2027-03-01", 18)
    assert calendar.section_times == [["08:00", "08:45"], ["09:00", "09:45"]]


def test_settings_page_saves_the_time_zone(client, user):
    client.force_login(user)
    client.post("/accounts/settings/", {
        "semester_start": "2026-09-07", "semester_weeks": "20", "time_zone": "Europe/Berlin",
        "section_start": ["08:00"], "section_end": ["08:45"]}, **EN)
    user.refresh_from_db()
    assert user.time_zone == "Europe/Berlin"


def test_settings_page_shows_a_section_error_and_keeps_the_old_template(client, user):
    client.force_login(user)
    response = client.post("/accounts/settings/", {
        "semester_start": "2027-03-01", "semester_weeks": "18", "time_zone": "Asia/Shanghai",
        "section_start": ["09:00"], "section_end": ["08:00"]}, **EN)
    assert response.status_code == 200
    assert "Section 1 ends before it starts." in response.content.decode()
    assert len(CalendarSettings.objects.get(user=user).section_times) == 12


def test_settings_page_refuses_a_semester_in_a_far_year_without_a_500(client, user):
    # Found beside the probe: 9999-12-27 (a Monday) overflowed the week arithmetic.
    client.force_login(user)
    response = client.post("/accounts/settings/", {
        "semester_start": "9999-12-27", "semester_weeks": "18", "time_zone": "Asia/Shanghai",
        "section_start": ["08:00"], "section_end": ["08:45"]}, **EN)
    assert response.status_code == 200
    assert "Use a date from 1970 to 2100." in response.content.decode()
    assert str(CalendarSettings.objects.get(user=user).semester_start) != "9999-12-27"


def test_settings_page_is_still_accounts_settings(client, user):
    assert reverse("accounts:settings") == "/accounts/settings/"
    client.force_login(user)
    page = client.get("/accounts/settings/", **EN).content.decode()
    assert 'name="semester_start"' in page and 'name="section_start"' in page


# --- The API ---------------------------------------------------------------------------------------------------

def test_calendar_defaults_to_the_twelve_section_cqupt_day(auth_client):
    body = auth_client.get("/api/v1/me/calendar/").json()
    assert body["semester_start"] == "2026-09-07"
    assert body["semester_end"] == "2027-01-24"
    assert len(body["sections"]) == 12
    assert body["sections"][0] == {"section": 1, "start": "08:00", "end": "08:45"}
    assert body["sections"][10] == {"section": 11, "start": "20:50", "end": "21:35"}


def test_calendar_accepts_a_sixteen_section_template(auth_client, user):
    sections = [{"start": f"{7 + n:02d}:00", "end": f"{7 + n:02d}:45"} for n in range(16)]
    response = auth_client.put("/api/v1/me/calendar/", {"semester_start": "2027-02-22", "semester_weeks": 18,
                                                        "sections": sections}, format="json")
    assert response.status_code == 200
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.semester_weeks, len(calendar.section_times)) == (18, 16)


def test_calendar_refuses_a_start_that_is_not_a_monday(auth_client):
    response = auth_client.put("/api/v1/me/calendar/", {"semester_start": "2027-02-23"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"semester_start": ["Week 1 must start on a Monday."]}


def test_calendar_refuses_overlapping_sections_and_writes_nothing(auth_client, user):
    sections = [{"start": "08:00", "end": "08:45"}, {"start": "08:30", "end": "09:15"}]
    response = auth_client.put("/api/v1/me/calendar/", {"semester_weeks": 10, "sections": sections}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"section_times": ["Section 2 starts before section 1 ends."]}
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.semester_weeks, len(calendar.section_times)) == (20, 12)


def test_calendar_refuses_more_than_sixteen_sections(auth_client):
    sections = [{"start": "08:00", "end": "08:10"}] * 17
    response = auth_client.put("/api/v1/me/calendar/", {"sections": sections}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"sections": {"non_field_errors": ["Ensure this field has no more than 16 elements."]}}


def settings_post(client, sections, **extra):
    return client.post("/accounts/settings/", {
        "semester_start": "2026-09-07", "semester_weeks": "20", "time_zone": "Asia/Shanghai",
        "section_start": [a for a, _b in sections], "section_end": [b for _a, b in sections], **extra})


def test_settings_page_shows_a_second_grid_and_drops_it_on_request(client, user):
    client.force_login(user)
    later = [list(pair) for pair in CalendarSettings.objects.get(user=user).section_times]
    later[4] = ["13:30", "14:15"]
    calendar_settings_update(user=user, later_sections=(later, date(2026, 11, 2)))
    html = client.get("/accounts/settings/", **EN).content.decode()
    assert 'name="later_sections_from" value="2026-11-02"' in html and 'value="13:30"' in html
    sections = CalendarSettings.objects.get(user=user).section_times
    settings_post(client, sections, drop_later_sections="1", later_sections_from="2026-11-02",
                  later_section_start=[a for a, _b in later], later_section_end=[b for _a, b in later])
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.later_section_times, calendar.later_sections_from) == ([], None)


def test_settings_page_adds_and_edits_a_second_grid(client, user):
    client.force_login(user)
    sections = CalendarSettings.objects.get(user=user).section_times
    later = [list(pair) for pair in sections]
    later[4], later[5] = ["13:30", "14:15"], ["14:25", "15:10"]
    response = settings_post(client, sections, later_sections_from="2026-10-12",
                             later_section_start=[a for a, _b in later], later_section_end=[b for _a, b in later])
    assert response.status_code == 302
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.later_section_times, calendar.later_sections_from) == (later, date(2026, 10, 12))
    later[4] = ["13:40", "14:25"]
    settings_post(client, sections, later_sections_from="2026-10-19",
                  later_section_start=[a for a, _b in later], later_section_end=[b for _a, b in later])
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.later_section_times[4], calendar.later_sections_from) == (["13:40", "14:25"], date(2026, 10, 19))


def test_saving_without_the_second_grid_editor_keeps_the_grid(client, user):
    client.force_login(user)
    sections = CalendarSettings.objects.get(user=user).section_times
    calendar_settings_update(user=user, later_sections=([list(p) for p in sections], date(2026, 11, 2)))
    assert settings_post(client, sections).status_code == 302
    assert CalendarSettings.objects.get(user=user).later_sections_from == date(2026, 11, 2)


@pytest.mark.parametrize(("starts", "change", "message"), [
    ("", None, "第二套作息需要同时给出节次时间和开始日期。"),
    ("2026-13-40", None, "请填写另一套时间开始的日期，例如 2026-10-08。"),
    ("2026-10-12", (4, ["15:00", "14:00"]), "第 5 节"),
    ("2026-10-12", (-1, None), "第二套作息需要与第一套节数相同（12 节）。"),
])
def test_a_bad_second_grid_is_refused_in_chinese_and_nothing_is_saved(client, user, starts, change, message):
    client.force_login(user)
    sections = CalendarSettings.objects.get(user=user).section_times
    later = [list(pair) for pair in sections]
    if change is not None and change[1] is None:
        later.pop()
    elif change is not None:
        later[change[0]] = change[1]
    response = settings_post(client, sections, semester_weeks="18", later_sections_from=starts,
                             later_section_start=[a for a, _b in later], later_section_end=[b for _a, b in later],
                             HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    error = response.content.decode().split('data-test="later-sections-error"')[1].split("</div>")[0]
    assert "冬夏令作息：" in error and message in error
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.semester_weeks, calendar.later_section_times, calendar.later_sections_from) == (20, [], None)
