"""Account pages over the Django test client: register, log in and out, settings, language."""

from __future__ import annotations

import pytest

from accounts.models import CalendarSettings, User
from accounts.tests.factories import DEFAULT_PASSWORD

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.mark.django_db
def test_register_page_creates_the_account_and_signs_in(client):
    response = client.post("/accounts/register/", {"username": "lihua", "password": "kaoyan-2027!",
                                                   "password_again": "kaoyan-2027!"}, **EN)
    assert response.status_code == 302 and response["Location"] == "/accounts/settings/"
    assert client.get("/", **EN).status_code == 200
    assert User.objects.filter(username="lihua").exists()


@pytest.mark.django_db
def test_register_page_shows_mismatched_passwords(client):
    response = client.post("/accounts/register/", {"username": "lihua", "password": "kaoyan-2027!",
                                                   "password_again": "kaoyan-2028!"}, **EN)
    assert response.status_code == 200
    assert "The two passwords differ." in response.content.decode()
    assert not User.objects.exists()


def test_register_page_shows_a_taken_username(client, user):
    response = client.post("/accounts/register/", {"username": user.username, "password": "kaoyan-2027!",
                                                   "password_again": "kaoyan-2027!"}, **EN)
    assert "This username is already taken." in response.content.decode()


def test_login_page_signs_in_and_lands_on_the_dashboard(client, user):
    response = client.post("/accounts/login/", {"username": user.username, "password": DEFAULT_PASSWORD},
                           follow=True, **EN)
    assert response.redirect_chain[-1][0] == "/"
    assert f"Hello, {user.username}" in response.content.decode()


def test_login_page_refuses_a_wrong_password(client, user):
    response = client.post("/accounts/login/", {"username": user.username, "password": "nope"}, **EN)
    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()


def test_dashboard_requires_login(client, db):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_logout_needs_a_post_and_ends_the_session(client, user):
    client.force_login(user)
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/").status_code == 302


def test_settings_page_saves_semester_and_sections(client, user):
    client.force_login(user)
    response = client.post("/accounts/settings/", {
        "semester_start": "2027-03-01", "semester_weeks": "18", "time_zone": "Asia/Shanghai",
        "section_start": ["08:00", "09:00"], "section_end": ["08:45", "09:45"]}, **EN)
    assert response.status_code == 302
    calendar = CalendarSettings.objects.get(user=user)
    assert (str(calendar.semester_start), calendar.semester_weeks) == ("2027-03-01", 18)
    assert calendar.section_times == [["08:00", "08:45"], ["09:00", "09:45"]]


def test_settings_page_shows_a_section_error_and_keeps_the_old_template(client, user):
    client.force_login(user)
    response = client.post("/accounts/settings/", {
        "semester_start": "2027-03-01", "semester_weeks": "18", "time_zone": "Asia/Shanghai",
        "section_start": ["09:00"], "section_end": ["08:00"]}, **EN)
    assert response.status_code == 200
    assert "Section 1 ends before it starts." in response.content.decode()
    assert len(CalendarSettings.objects.get(user=user).section_times) == 12


def test_pages_are_chinese_by_default_and_english_on_request(client, user):
    client.force_login(user)
    chinese = client.get("/").content.decode()
    assert "总览" in chinese and "设置" in chinese
    english = client.get("/", **EN).content.decode()
    assert "Overview" in english and "Settings" in english


def test_language_switch_is_remembered(client, user):
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Overview" in client.get("/").content.decode()


def test_settings_page_refuses_a_semester_in_a_far_year_without_a_500(client, user):
    # Found beside the probe: 9999-12-27 (a Monday) overflowed the week arithmetic.
    client.force_login(user)
    response = client.post("/accounts/settings/", {
        "semester_start": "9999-12-27", "semester_weeks": "18", "time_zone": "Asia/Shanghai",
        "section_start": ["08:00"], "section_end": ["08:45"]}, **EN)
    assert response.status_code == 200
    assert "Use a date from 1970 to 2100." in response.content.decode()
    assert str(CalendarSettings.objects.get(user=user).semester_start) != "9999-12-27"
