"""Registration and JWT login, refresh and logout over the API, including every bad input."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework_simplejwt.tokens import AccessToken

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD

REGISTER = "/api/v1/auth/register/"
TOKEN = "/api/v1/auth/token/"
REFRESH = "/api/v1/auth/token/refresh/"
LOGOUT = "/api/v1/auth/logout/"


def _login(api_client, user) -> dict:
    response = api_client.post(TOKEN, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


@pytest.mark.django_db
def test_register_creates_a_student_with_tokens(api_client):
    response = api_client.post(REGISTER, {"username": "xiaoming", "password": "kaoyan-2027!"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["user"]["username"] == "xiaoming"
    assert body["user"]["time_zone"] == "Asia/Shanghai"
    assert body["access"] and body["refresh"]
    assert User.objects.filter(username="xiaoming").exists()


@pytest.mark.django_db
def test_register_answers_in_its_documented_shape(api_client):
    # Found by schemathesis: the schema documented the bare user, the answer is {user, refresh, access}.
    components = api_client.get("/api/schema/?format=json").json()["components"]["schemas"]
    response = api_client.post(REGISTER, {"username": "xiaohong", "password": "kaoyan-2027!"}, format="json")
    documented = components["RegisterOutput"]
    assert set(response.json()) == set(documented["properties"]) == set(documented["required"])
    assert documented["properties"]["user"] == {"$ref": "#/components/schemas/UserOutput"}


def test_register_refuses_a_taken_username_case_insensitively(api_client, user):
    response = api_client.post(REGISTER, {"username": user.username.upper(), "password": "kaoyan-2027!"},
                               format="json")
    assert response.status_code == 409
    assert response.json() == {"code": "username_taken", "message": "This username is already taken.",
                               "detail": {"username": ["This username is already taken."]}}


@pytest.mark.django_db
def test_register_refuses_a_weak_password(api_client):
    response = api_client.post(REGISTER, {"username": "xiaohong", "password": "12345678"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert "This password is too common." in body["detail"]["password"]
    assert not User.objects.filter(username="xiaohong").exists()


@pytest.mark.django_db
def test_register_refuses_malformed_fields(api_client):
    response = api_client.post(REGISTER, {"username": "a b", "password": "", "email": "not-an-email",
                                          "time_zone": "Nowhere/City"}, format="json")
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert set(detail) == {"username", "password", "email", "time_zone"}


def test_login_returns_a_token_pair_that_authenticates(api_client, user):
    tokens = _login(api_client, user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens['access']}")
    assert api_client.get("/api/v1/me/").json()["username"] == user.username


def test_bad_login_is_a_401_in_the_common_shape(api_client, user):
    response = api_client.post(TOKEN, {"username": user.username, "password": "wrong"}, format="json")
    assert response.status_code == 401
    assert response.json() == {"code": "authentication_failed",
                               "message": "No active account found with the given credentials", "detail": None}


def test_login_is_throttled_after_too_many_attempts(api_client, user, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login_pair": "3/min"}
    for _ in range(3):
        api_client.post(TOKEN, {"username": user.username, "password": "wrong"}, format="json")
    response = api_client.post(TOKEN, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "rate_limited"
    assert body["detail"]["retry_after"] > 0


def test_refresh_rotates_and_blacklists_the_old_refresh_token(api_client, user):
    tokens = _login(api_client, user)
    rotated = api_client.post(REFRESH, {"refresh": tokens["refresh"]}, format="json")
    assert rotated.status_code == 200
    assert rotated.json()["refresh"] != tokens["refresh"]
    reused = api_client.post(REFRESH, {"refresh": tokens["refresh"]}, format="json")
    assert reused.status_code == 401
    assert reused.json()["code"] == "token_not_valid"


def test_logout_blacklists_the_refresh_token(api_client, user):
    tokens = _login(api_client, user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens['access']}")
    assert api_client.post(LOGOUT, {"refresh": tokens["refresh"]}, format="json").status_code == 204
    api_client.credentials()
    response = api_client.post(REFRESH, {"refresh": tokens["refresh"]}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "token_not_valid"


def test_logout_refuses_another_students_refresh_token(api_client, user, other_user):
    theirs = _login(api_client, other_user)
    mine = _login(api_client, user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {mine['access']}")
    response = api_client.post(LOGOUT, {"refresh": theirs["refresh"]}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "token_not_valid"


def test_an_expired_access_token_is_a_401(api_client, user):
    token = AccessToken.for_user(user)
    token.set_exp(lifetime=-timedelta(seconds=1))
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    response = api_client.get("/api/v1/me/")
    assert response.status_code == 401
    body = response.json()
    assert body["code"] == "token_not_valid"
    assert body["message"] == "The token is invalid or expired."


def test_a_garbage_access_token_is_a_401(api_client, db):
    api_client.credentials(HTTP_AUTHORIZATION="Bearer not.a.token")
    response = api_client.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["code"] == "token_not_valid"
