"""A student, in Chromium and in Chinese, downloads their archive, reads it, deletes the account, and
cannot sign in again."""

from __future__ import annotations

import json
import zipfile

import pytest

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from schedule.tests.factories import import_csv
from smartmate.tests.live_server import log_in


@pytest.mark.e2e
def test_download_read_delete_and_stay_out(live_page, transactional_db, tmp_path):
    student = UserFactory(username="xiaolin")
    import_csv(student, "高等数学,1,1,2,王老师,二教1101,1-16")
    page = live_page
    log_in(page, student.username)

    page.goto(f"{page.base_url}/accounts/settings/")
    page.click("[data-test=my-data-link]")
    assert "下载我的数据" in page.inner_text("[data-test=my-data]")
    assert "课程\t1" in page.inner_text("[data-test=data-counts]")
    with page.expect_download() as download:
        page.click("[data-test=data-download]")
    saved = tmp_path / "mine.zip"
    download.value.save_as(saved)
    archive = zipfile.ZipFile(saved)
    assert [c["name"] for c in json.loads(archive.read("schedule.json"))["tables"]["course"]] == ["高等数学"]

    page.fill("#id_password", "not-my-password")
    page.check("#id_confirm")
    page.click("[data-test=account-delete-submit]")
    assert "密码不对" in page.inner_text("[data-test=account-delete]")
    assert User.objects.filter(pk=student.pk).exists()

    page.fill("#id_password", DEFAULT_PASSWORD)
    page.check("#id_confirm")
    page.click("[data-test=account-delete-submit]")
    page.wait_for_url("**/accounts/login/**")
    assert "你的账号及其中的全部内容已删除" in page.inner_text("body")
    assert not User.objects.filter(pk=student.pk).exists()

    page.fill("#id_username", student.username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("button[type=submit]")
    assert page.url.endswith("/accounts/login/") and page.locator(".form-errors").count() == 1


@pytest.mark.e2e
def test_the_page_fits_a_phone(live_page, transactional_db):
    student = UserFactory(username="xiaomu")
    page = live_page
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, student.username)

    page.goto(f"{page.base_url}/accounts/data/")

    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("[data-test=account-delete-submit]").is_visible()
