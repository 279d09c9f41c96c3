"""What only developers should see stays with them (#35 minors): Django's English technical 404 of
``make run`` (DEBUG=1) and the footer's link to the API documentation."""

from __future__ import annotations

import pytest

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.mark.parametrize("path", ["/no-such-page/", "/schedule/no-such-thing/"])
def test_under_debug_a_student_gets_the_friendly_404_in_chinese(client, user, settings, path):
    settings.DEBUG = True
    client.force_login(user)
    response = client.get(path, **ZH)
    html = response.content.decode()
    assert response.status_code == 404
    assert "URLconf" not in html and "Page not found" not in html
    assert 'lang="zh-hans"' in html


def test_under_debug_staff_still_get_djangos_technical_404(client, user, settings):
    settings.DEBUG = True
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    client.force_login(user)
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and "URLconf" in response.content.decode()


def test_the_api_json_404_is_unchanged_under_debug(client, user, settings):
    settings.DEBUG = True
    client.force_login(user)
    response = client.get("/api/v1/no-such-route/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_the_footer_links_the_api_documentation_for_staff_only(client, user):
    client.force_login(user)
    assert 'data-test="footer-api"' not in client.get("/", **ZH).content.decode()
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    assert 'data-test="footer-api"' in client.get("/", **ZH).content.decode()
