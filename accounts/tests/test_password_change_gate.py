"""Password change goes through the login gate: wrong current passwords count like sign-in guesses."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.tests.factories import DEFAULT_PASSWORD
from accounts.tests.test_login_gate import frozen_clock, policy, token_login  # noqa: F401  (fixtures)

NEW_PASSWORD = "a-new-long-passphrase-9"
API = "/api/v1/auth/password/"
PAGE = "/accounts/password/"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("policy")]


def api_change(client: APIClient, old: str):
    return client.post(API, {"old_password": old, "new_password": NEW_PASSWORD}, format="json",
                       REMOTE_ADDR="10.0.0.1", HTTP_ACCEPT_LANGUAGE="en")


def page_change(client: Client, old: str):
    return client.post(PAGE, {"old_password": old, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
                       REMOTE_ADDR="10.0.0.1", HTTP_ACCEPT_LANGUAGE="en")


# The probe (M1): 40 wrong current passwords in 18 s, then the right one changed it.
def test_wrong_current_passwords_on_the_api_are_refused_like_sign_in_guesses(user):
    api = APIClient()
    api.force_authenticate(user)
    answers = [api_change(api, f"guess-{index}").status_code for index in range(8)]
    right = api_change(api, DEFAULT_PASSWORD)
    assert answers == [400] * 5 + [429] * 3
    assert right.status_code == 429
    assert right.json()["code"] == "rate_limited"
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)


def test_wrong_current_passwords_on_the_page_are_refused_like_sign_in_guesses(user):
    page = Client()
    page.force_login(user)
    answers = [page_change(page, f"guess-{index}").status_code for index in range(6)]
    right = page_change(page, DEFAULT_PASSWORD)
    assert answers == [200] * 5 + [429]
    assert right.status_code == 429
    assert "Too many failed sign-ins" in right.content.decode()
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)


def test_password_change_guesses_and_sign_in_guesses_share_one_count(user):
    api = APIClient()
    api.force_authenticate(user)
    for index in range(3):
        api_change(api, f"guess-{index}")
    for _ in range(2):
        token_login(APIClient(), user.username, "wrong")
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD).status_code == 429


def test_the_right_current_password_is_refunded(user):
    api = APIClient()
    api.force_authenticate(user)
    for index in range(4):
        api_change(api, f"guess-{index}")
    assert api_change(api, DEFAULT_PASSWORD).status_code == 200
    assert token_login(APIClient(), user.username, NEW_PASSWORD).status_code == 200
