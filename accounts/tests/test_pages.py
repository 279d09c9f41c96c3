"""Account pages over the Django test client: register, log in and out, language.

(The settings page edits the calendar: schedule/tests/test_calendar_settings.py.)
"""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.mark.django_db
def test_register_page_creates_the_account_and_signs_in(client):
    response = client.post("/accounts/register/", {"username": "lihua", "password": "kaoyan-2027!",
                                                   "password_again": "kaoyan-2027!"}, **EN)
    assert response.status_code == 302 and response["Location"] == "/welcome/"
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
