"""The login gate: every door to sign in shares one policy, and a stranger cannot lock a student out."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.login_gate import DEVICE_COOKIE, normalise_account
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from smartmate.platform import ratelimit

T0 = 1_800_000_000.0  # a boundary of 15-minute windows
TOKEN = "/api/v1/auth/token/"

pytestmark = pytest.mark.django_db


@pytest.fixture
def frozen_clock(monkeypatch):
    monkeypatch.setattr(ratelimit, "clock", lambda: T0 + 10)


@pytest.fixture
def policy(settings, frozen_clock):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login_pair": "5/15min", "login_address": "30/15min",
                            "login_account": "10/15min", "login_slow": "1/30s"}


@pytest.fixture
def staff():
    return UserFactory(username="operator", is_staff=True, is_superuser=True)


def token_login(client: APIClient, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(TOKEN, {"username": username, "password": password}, format="json", REMOTE_ADDR=address)


def page_login(client: Client, path: str, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address,
                       HTTP_ACCEPT_LANGUAGE="en")


# --- Every door, one gate ------------------------------------------------------------------------------

# The probe: 20 wrong passwords on the browsable API's login answered 200, then the right one signed in.
@pytest.mark.parametrize("path", ["/api-auth/login/", "/accounts/login/", "/admin/login/"])
def test_twenty_wrong_passwords_on_any_login_page_leave_the_right_one_refused(path, policy, staff):
    client = Client()
    answers = [page_login(client, path, staff.username, "wrong").status_code for _ in range(20)]
    right = page_login(client, path, staff.username, DEFAULT_PASSWORD)
    assert answers[:5] == [200] * 5
    assert set(answers[5:]) == {429}
    assert right.status_code == 429
    assert "Too many failed sign-ins" in right.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_doors_share_one_count(policy, user):
    client, api = Client(), APIClient()
    for _ in range(2):
        page_login(client, "/accounts/login/", user.username, "wrong")
    for _ in range(2):
        page_login(client, "/admin/login/", user.username, "wrong")
    token_login(api, user.username, "wrong")
    refused = token_login(api, user.username, DEFAULT_PASSWORD)
    assert refused.status_code == 429
    assert refused.json()["detail"]["scope"] == "login_pair"


def test_the_browsable_api_login_is_the_gated_login_page(client):
    response = client.get("/api-auth/login/")
    assert response.status_code == 200
    assert [t.name for t in response.templates][0] == "accounts/login.html"


def test_a_refused_token_login_never_checks_the_password(policy, user, monkeypatch):
    for _ in range(5):
        token_login(APIClient(), user.username, "wrong")
    checked = []
    monkeypatch.setattr(type(user), "check_password", lambda self, raw: checked.append(raw) or True)
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD).status_code == 429
    assert checked == []


def test_the_shell_is_not_counted(policy, user):
    from django.contrib.auth import authenticate

    for _ in range(20):
        assert authenticate(username=user.username, password="wrong") is None
    assert authenticate(username=user.username, password=DEFAULT_PASSWORD) == user


# --- No targeted lockout ---------------------------------------------------------------------------------

# The probe: 31 wrong API logins from one address locked the student out for up to an hour.
def test_a_stranger_guessing_does_not_lock_the_student_out(policy, user):
    stranger = APIClient()
    for _ in range(31):
        token_login(stranger, user.username, "wrong", address="203.0.113.9")
    assert token_login(stranger, user.username, DEFAULT_PASSWORD, address="203.0.113.9").status_code == 429
    student = token_login(APIClient(), user.username, DEFAULT_PASSWORD, address="198.51.100.7")
    assert student.status_code == 200


def slow_the_account(user, addresses=5) -> None:
    # Ten failures spread over addresses slow the account: no pair reaches its own limit.
    for index in range(10):
        token_login(APIClient(), user.username, "wrong", address=f"203.0.113.{index % addresses}")


# The probe (M4): a slowed account still gave every new address one full-speed guess (80 addresses, 80 checks).
def test_a_slowed_account_holds_back_guesses_from_new_addresses_too(policy, user):
    slow_the_account(user)
    answers = [token_login(APIClient(), user.username, "wrong", address=f"198.51.100.{index}").status_code
               for index in range(8)]
    assert answers == [401] + [429] * 7  # one attempt per 30 s for every unknown source together


def test_a_slowed_account_refuses_with_the_sign_in_message(policy, user):
    slow_the_account(user)
    token_login(APIClient(), user.username, "wrong", address="198.51.100.1")
    refused = token_login(APIClient(), user.username, DEFAULT_PASSWORD, address="198.51.100.2")
    assert refused.status_code == 429
    assert refused.json()["detail"]["scope"] == "login_slow"
    assert refused.json()["message"] == "登录失败次数过多，请 20 秒后再试，或在你以前登录过的设备上登录。"


# L4: a student who signed in before cannot be kept out by someone slowing their account.
def test_a_slowed_account_lets_in_an_address_that_signed_in_before(policy, user):
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD, address="198.51.100.7").status_code == 200
    slow_the_account(user)
    token_login(APIClient(), user.username, "wrong", address="203.0.113.1")  # spends the slow lane
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD, address="203.0.113.2").status_code == 429
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD, address="198.51.100.7").status_code == 200


# The probe (L4): a student who mistyped once was kept out for 15 minutes by someone slowing the account.
def test_a_student_who_mistyped_once_is_not_kept_out_by_a_stranger(policy, user):
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD, address="198.51.100.7").status_code == 200
    assert token_login(APIClient(), user.username, "typo", address="198.51.100.7").status_code == 401
    slow_the_account(user)
    for index in range(3):  # the stranger keeps the slow lane spent
        token_login(APIClient(), user.username, "wrong", address=f"203.0.113.{index}")
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD, address="198.51.100.7").status_code == 200


def test_a_slowed_account_lets_in_a_device_that_signed_in_before(policy, user):
    device = Client()
    assert page_login(device, "/accounts/login/", user.username, DEFAULT_PASSWORD,
                      address="198.51.100.7").status_code == 302
    device.post("/accounts/logout/")
    slow_the_account(user)
    token_login(APIClient(), user.username, "wrong", address="203.0.113.1")  # spends the slow lane
    assert page_login(device, "/accounts/login/", user.username, DEFAULT_PASSWORD,
                      address="192.0.2.44").status_code == 302


def test_a_known_address_still_has_its_own_pair_limit(policy, user):
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD).status_code == 200
    answers = [token_login(APIClient(), user.username, "wrong").status_code for _ in range(6)]
    assert answers == [401] * 5 + [429]


def test_a_device_that_signed_in_before_gets_in_while_its_address_is_refused(policy, user):
    device = Client()
    assert page_login(device, "/accounts/login/", user.username, DEFAULT_PASSWORD).status_code == 302
    assert DEVICE_COOKIE in device.cookies
    device.post("/accounts/logout/")
    neighbour = Client()
    for index in range(30):  # a noisy neighbour behind the same campus address, other accounts
        page_login(neighbour, "/accounts/login/", f"someone{index}", "wrong")
    assert page_login(Client(), "/accounts/login/", user.username, DEFAULT_PASSWORD).status_code == 429
    assert page_login(device, "/accounts/login/", user.username, DEFAULT_PASSWORD).status_code == 302


def test_a_device_cookie_for_another_account_is_not_trusted(policy, user):
    device = Client()
    page_login(device, "/accounts/login/", user.username, DEFAULT_PASSWORD)
    device.post("/accounts/logout/")
    other = UserFactory(username="lilei")
    for _ in range(5):
        page_login(device, "/accounts/login/", other.username, "wrong")
    assert page_login(device, "/accounts/login/", other.username, DEFAULT_PASSWORD).status_code == 429


def test_a_forged_device_cookie_is_ignored(policy, user):
    client = Client()
    client.cookies[DEVICE_COOKIE] = "forged:value"
    for _ in range(5):
        page_login(client, "/accounts/login/", user.username, "wrong")
    assert page_login(client, "/accounts/login/", user.username, DEFAULT_PASSWORD).status_code == 429


def test_a_success_clears_the_pair_and_refunds_its_attempt(policy, user):
    api = APIClient()
    for _ in range(4):
        token_login(api, user.username, "wrong")
    assert token_login(api, user.username, DEFAULT_PASSWORD).status_code == 200
    for _ in range(4):
        token_login(api, user.username, "wrong")
    assert token_login(api, user.username, DEFAULT_PASSWORD).status_code == 200


def test_the_window_ends_the_refusal(policy, user, monkeypatch):
    for _ in range(6):
        token_login(APIClient(), user.username, "wrong")
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD).status_code == 429
    monkeypatch.setattr(ratelimit, "clock", lambda: T0 + 15 * 60 + 1)
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD).status_code == 200


def test_the_refusal_says_when_to_retry_in_chinese(policy, user):
    for _ in range(5):
        token_login(APIClient(), user.username, "wrong")
    refused = APIClient().post(TOKEN, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json",
                               REMOTE_ADDR="10.0.0.1", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(15 * 60 - 10)
    assert "登录失败次数过多" in refused.json()["message"]


# The probe: behind a proxy (one shared address), ten bad logins for one student made another's correct
# login answer 429.
def test_one_students_failures_do_not_refuse_another_behind_the_same_address(policy, user):
    classmate = UserFactory(username="classmate")
    for _ in range(10):
        token_login(APIClient(), user.username, "wrong", address="10.9.9.9")
    assert token_login(APIClient(), classmate.username, DEFAULT_PASSWORD, address="10.9.9.9").status_code == 200


def test_behind_a_trusted_proxy_each_student_is_counted_by_their_own_address(policy, user, settings):
    settings.RATE_LIMIT_TRUSTED_PROXIES = 1
    for _ in range(6):
        APIClient().post(TOKEN, {"username": user.username, "password": "wrong"}, format="json",
                         REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="203.0.113.5")
    student = APIClient().post(TOKEN, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json",
                               REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="198.51.100.20")
    assert student.status_code == 200


# --- IPv6 and look-alike names -----------------------------------------------------------------------

# The probe (M4): IPv6 was counted per /128, so one subscriber's /64 held 2**64 fresh addresses.
def test_ipv6_addresses_of_one_slash_64_share_one_pair_count(policy, user):
    answers = [token_login(APIClient(), user.username, "wrong", address=f"2001:db8:1:2::{index:x}").status_code
               for index in range(1, 7)]
    assert answers == [401] * 5 + [429]
    assert token_login(APIClient(), user.username, DEFAULT_PASSWORD, address="2001:db8:1:3::1").status_code == 200


# The probe (M3): MySQL's accent-insensitive collation signs "bób" in as "bob"; the gate counted them apart.
def test_accented_and_wide_spellings_of_a_name_share_one_count(policy):
    bob = UserFactory(username="bob")
    for spelling in ["bób", "BÓB", "ｂｏｂ", "Bob ", "böb"]:
        token_login(APIClient(), spelling, "wrong")
    refused = token_login(APIClient(), bob.username, DEFAULT_PASSWORD)
    assert refused.status_code == 429
    assert refused.json()["detail"]["scope"] == "login_pair"


@pytest.mark.parametrize(("typed", "folded"), [("bób", "bob"), ("Straße", "strasse"), ("ＡＢＣ", "abc"),
                                               ("  Zoë ", "zoe"), ("小明", "小明")])
def test_names_are_folded_as_the_database_compares_them(typed, folded):
    assert normalise_account(typed) == folded


# --- Trusted devices and the password -------------------------------------------------------------------

# L6: the trusted-device cookie outlived a password change.
def test_a_password_change_voids_every_trusted_device(policy, user):
    device = Client()
    page_login(device, "/accounts/login/", user.username, DEFAULT_PASSWORD)
    device.post("/accounts/logout/")
    other = Client()
    page_login(other, "/accounts/login/", user.username, DEFAULT_PASSWORD, address="198.51.100.7")
    other.post("/accounts/password/", {"old_password": DEFAULT_PASSWORD, "new_password1": "a-new-long-passphrase-9",
                                       "new_password2": "a-new-long-passphrase-9"}, REMOTE_ADDR="198.51.100.7")
    for _ in range(5):
        page_login(device, "/accounts/login/", user.username, "wrong")
    refused = page_login(device, "/accounts/login/", user.username, "a-new-long-passphrase-9")
    assert refused.status_code == 429


def test_the_browser_that_changed_the_password_stays_trusted(policy, user):
    browser = Client()
    page_login(browser, "/accounts/login/", user.username, DEFAULT_PASSWORD)
    browser.post("/accounts/password/", {"old_password": DEFAULT_PASSWORD, "new_password1": "a-new-long-passphrase-9",
                                         "new_password2": "a-new-long-passphrase-9"}, REMOTE_ADDR="10.0.0.1")
    browser.post("/accounts/logout/")
    for index in range(30):  # the address is refused for everyone else
        page_login(Client(), "/accounts/login/", f"someone{index}", "wrong")
    assert page_login(browser, "/accounts/login/", user.username, "a-new-long-passphrase-9").status_code == 302
