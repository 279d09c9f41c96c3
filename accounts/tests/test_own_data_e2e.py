"""A student, in Chromium and in Chinese, downloads their archive, reads it, deletes the account, and
cannot sign in again; on a phone the page fits and the archive explains itself."""

from __future__ import annotations

import json
import zipfile

import pytest

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from schedule.tests.factories import import_csv
from smartmate.tests.live_server import log_in


def _download(page, tmp_path) -> zipfile.ZipFile:
    """Press the page's download button; return the archive the browser saved."""
    with page.expect_download() as download:
        page.click("[data-test=data-download]")
    saved = tmp_path / "mine.zip"
    download.value.save_as(saved)
    return zipfile.ZipFile(saved)


@pytest.mark.e2e
def test_download_read_delete_and_stay_out(live_page, transactional_db, tmp_path):
    student = UserFactory(username="xiaolin")
    import_csv(student, "高等数学,1,1,2,王老师,二教1101,1-16")
    page = live_page
    page.set_viewport_size({"width": 1366, "height": 900})
    log_in(page, student.username)

    page.goto(f"{page.base_url}/accounts/settings/")
    page.click("[data-test=my-data-link]")
    assert "下载我的数据" in page.inner_text("[data-test=my-data]")
    assert "课程\t1" in page.inner_text("[data-test=data-counts]")
    archive = _download(page, tmp_path)
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
def test_the_page_fits_a_phone_and_the_archive_explains_itself(live_page, transactional_db, tmp_path):
    student = UserFactory(username="xiaomu")
    import_csv(student, "高等数学,1,1,2,王老师,二教1101,1-16")
    page = live_page
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, student.username)

    page.goto(f"{page.base_url}/accounts/data/")

    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("[data-test=account-delete-submit]").is_visible()
    # Not a raw table dump in UTC: a 说明.txt in her language, times in her zone with their offset.
    archive = _download(page, tmp_path)
    readme = archive.read("说明.txt").decode()
    assert "你的课表：" in readme and "时区（Asia/Shanghai）" in readme
    meeting = json.loads(archive.read("schedule.json"))["tables"]["scheduleevent"][0]
    assert meeting["starts_at"].endswith("+08:00"), meeting
