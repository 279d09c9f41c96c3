"""Time zones as students name them: the settings page offers a select of common zones in Chinese, and
forms and the API accept everyday names ("北京时间", "CST", "UTC+8") as well as IANA names."""

from __future__ import annotations

import pytest

from accounts.time_zones import time_zone_resolve

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
SEMESTER = {"semester_start": "2026-09-07", "semester_weeks": "20", "section_start": ["08:00"], "section_end": ["08:45"]}


@pytest.mark.parametrize(("typed", "zone"), [
    ("北京时间", "Asia/Shanghai"), ("CST", "Asia/Shanghai"), ("UTC+8", "Asia/Shanghai"),
    ("GMT+08:00", "Asia/Shanghai"), (" 东八区 ", "Asia/Shanghai"), ("asia/shanghai", "Asia/Shanghai"),
    ("UTC+9", "Etc/GMT-9"), ("UTC-5", "Etc/GMT+5"), ("UTC", "UTC"), ("东京时间", "Asia/Tokyo"),
    ("Europe/Berlin", "Europe/Berlin"),
])
def test_everyday_names_resolve_to_iana_zones(typed, zone):
    assert time_zone_resolve(typed) == zone


@pytest.mark.parametrize("typed", ["", "火星时间", "UTC+15", "Nowhere/City"])
def test_unknown_names_resolve_to_nothing(typed):
    assert time_zone_resolve(typed) is None


def test_the_settings_page_offers_common_zones_with_chinese_labels(client, user):
    client.force_login(user)
    html = client.get("/accounts/settings/", **ZH).content.decode()
    assert '<select name="time_zone"' in html
    assert '<option value="Asia/Shanghai" selected>北京时间（UTC+8）</option>' in html
    assert '<option value="Asia/Tokyo">东京（UTC+9）</option>' in html


def test_the_settings_page_accepts_beijing_time_written_out(client, user):
    client.force_login(user)
    user.time_zone = "Europe/Berlin"
    user.save()
    response = client.post("/accounts/settings/", {**SEMESTER, "time_zone": "北京时间"}, **ZH)
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.time_zone == "Asia/Shanghai"


def test_the_settings_page_still_refuses_a_zone_nobody_knows(client, user):
    client.force_login(user)
    response = client.post("/accounts/settings/", {**SEMESTER, "time_zone": "火星时间"}, **ZH)
    assert response.status_code == 200
    assert "“火星时间”不是可识别的时区：请从列表中选择，或写“北京时间”“UTC+8”" in response.content.decode()
    user.refresh_from_db()
    assert user.time_zone == "Asia/Shanghai"


def test_a_saved_zone_outside_the_list_stays_selected(client, user):
    user.time_zone = "Europe/Madrid"
    user.save()
    client.force_login(user)
    assert '<option value="Europe/Madrid" selected>Europe/Madrid</option>' in client.get(
        "/accounts/settings/", **ZH).content.decode()


def test_the_profile_api_accepts_utc_plus_8(auth_client, user):
    response = auth_client.patch("/api/v1/me/", {"time_zone": "UTC+8"}, format="json")
    assert response.status_code == 200 and response.json()["time_zone"] == "Asia/Shanghai"


def test_the_profile_api_refuses_an_unknown_zone_with_the_error_shape(auth_client, user):
    response = auth_client.patch("/api/v1/me/", {"time_zone": "火星时间"}, format="json")
    assert response.status_code == 400
    assert response.json()["message"] and "time_zone" in response.json()["detail"]
