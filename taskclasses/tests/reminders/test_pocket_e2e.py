"""Done when (issue 22), tried as a new student would on a phone (390×844, Chinese, real Chromium): set a
10-minute reminder, the bell announces a block starting, the feed file has the alarm, the app is
installable (manifest + service worker), offline the saved agenda shows with the banner, signing out wipes
it, and a second student on the same device never sees the first one's agenda."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from schedule.models import CalendarSettings, ScheduleEvent
from schedule.services.feeds import calendar_feed_ensure
from smartmate.tests.live_server import wait_until
from taskclasses.reminders.services import reminders_produce
from taskclasses.tests.factories import make_task_class, place_item

PHONE = {"width": 390, "height": 844}
BLOCK = "线性代数错题复习"


def _student_in_week_13(username: str) -> User:
    UserFactory(username=username, time_zone="Asia/Shanghai")
    student = User.objects.get(username=username)
    today = timezone.localdate(timezone.now(), student.zone)
    CalendarSettings.objects.filter(user=student).update(semester_start=today - timedelta(days=today.weekday(), weeks=12))
    return student


def _a_block_in_eight_minutes(student) -> str:
    """Put a study block on today's agenda starting 8 minutes from this frozen moment; return its HH:MM."""
    now = timezone.now().replace(second=0, microsecond=0)
    today = timezone.localdate(now, student.zone)
    item = make_task_class(student, name=BLOCK, items=1).items.get()
    event = place_item(item, week=13, day=today.isoweekday(), start=11)
    starts = now + timedelta(minutes=8)
    ScheduleEvent.objects.filter(pk=event.pk).update(title=BLOCK, starts_at=starts, ends_at=starts + timedelta(minutes=95))
    return timezone.localtime(starts, student.zone).strftime("%H:%M")


def _log_in(page, username: str) -> None:
    page.goto(f"{page.base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("[data-test=login-submit]")
    page.wait_for_url(f"{page.base_url}/")


def _no_sideways_scroll(page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{page.url} is {widths[0]} px wide in a {widths[1]} px window"


@pytest.fixture
def phone(browser, live_daphne):
    """A browser context as a student's phone (Chinese, Shanghai time, 390×844) and its page on the live server."""
    context = browser.new_context(locale="zh-CN", timezone_id="Asia/Shanghai", viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.base_url = live_daphne
    yield context, page
    context.close()


def _announced(page, toast) -> None:
    """Wait for the bell's toast; if it never shows, say what the bell did know (its socket, its count)."""
    try:
        toast.wait_for(state="visible")
    except Exception as exc:  # Playwright's timeout: the page's side of the story goes into the failure
        bell = page.evaluate("(() => { const b = document.querySelector('[data-bell]');"
                             " return {live: b.dataset.live, count: b.querySelector('.bell-count').textContent,"
                             " items: b.querySelectorAll('.bell-item').length}; })()")
        raise AssertionError(f"the bell never announced the block: {bell}") from exc


def _kept(page) -> list[str]:
    """The addresses the service worker keeps for offline use."""
    return page.evaluate("window.SmartMatePocket.tell({type: 'kept'}).then((answer) => answer && answer.urls)")


@pytest.mark.e2e
def test_reminders_and_the_offline_agenda_in_a_students_pocket(phone, live_daphne, transactional_db):
    context, page = phone
    student = _student_in_week_13("pocket1")
    _log_in(page, "pocket1")

    # Settings: a 10-minute reminder before study blocks, and quiet hours over the night that leave out
    # the next two hours (so the block below is announced whenever the test runs).
    hour = timezone.localtime(timezone.now(), student.zone).hour
    page.goto(f"{page.base_url}/accounts/settings/#reminders")
    page.fill("[data-test=block-lead]", "10")
    page.fill("#id_quiet_start", f"{(hour + 2) % 24:02d}:00")
    page.fill("#id_quiet_end", f"{hour:02d}:00")
    page.click("[data-test=reminder-settings-save]")
    page.wait_for_selector("text=提醒设置已保存。")
    _no_sideways_scroll(page)

    # A block starts in 8 minutes: the bell of the next page announces it (its socket produces the
    # student's due reminders at once on embedded defaults; beat does every minute with a broker). The
    # settings page's socket may still be connecting on the server and produce it first, for a page that
    # is gone: the next page's hello then names it as fresh and the page announces it all the same.
    page.goto("about:blank")
    starts_at = _a_block_in_eight_minutes(student)
    page.goto(f"{page.base_url}/board/")
    toast = page.locator("[data-test=bell-toast]")
    _announced(page, toast)
    assert toast.inner_text() == f"🔔 学习块“{BLOCK}”将于 {starts_at} 开始。"
    assert page.inner_text("[data-test=bell-count]") == "1"
    # The next page counts it but does not announce it again: this device remembers what it announced.
    page.reload()
    page.locator("[data-test=bell-count]").wait_for(state="visible")  # the hello has been handled
    assert toast.is_hidden()
    page.click("[data-test=bell]")
    assert page.inner_text("[data-test=bell-item]") == f"学习块“{BLOCK}”将于 {starts_at} 开始。"
    page.screenshot(path="/tmp/pocket-bell.png")
    _no_sideways_scroll(page)
    page.click("[data-test=bell-read-all]")
    page.locator("[data-test=bell-count]").wait_for(state="hidden")

    # Subscribing: the import/export page gives the feed's address; the file carries the 10-minute alarm.
    page.goto(f"{page.base_url}/schedule/import/")
    feed_url = page.input_value("[data-test=feed-url]")
    assert feed_url.endswith(f"/schedule/feed/{calendar_feed_ensure(user=student).token}.ics")
    feed = page.request.get(feed_url)
    ics = feed.text()
    assert "BEGIN:VALARM" in ics and "TRIGGER:-PT10M" in ics and f"DESCRIPTION:{BLOCK}" in ics

    # Installable: the manifest and an active service worker controlling the page, no installability errors.
    manifest = page.request.get(f"{page.base_url}/manifest.webmanifest").json()
    assert (manifest["name"], manifest["start_url"]) == ("时伴", "/board/")
    page.goto(f"{page.base_url}/board/")
    wait_until(page, "navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the worker's control
    wait_until(page, "!!navigator.serviceWorker.controller")
    cdp = context.new_cdp_session(page)
    errors = [error["errorId"] for error in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    # Playwright's contexts are incognito, where Chromium never offers to install; nothing else may be missing.
    assert errors in ([], ["in-incognito"]), errors
    wait_until(page, "document.documentElement.dataset.offlineKept !== undefined")
    assert sorted(_kept(page)) == ["/board/", "/board/?week=14"]

    # Offline: reloading shows today's agenda as saved, under the banner.
    context.set_offline(True)
    page.reload()
    banner = page.locator("[data-test=offline-banner]")
    banner.wait_for(state="visible")
    assert banner.inner_text().startswith("离线 — 显示的是 ") and banner.inner_text().endswith(" 保存的内容")
    today = page.locator("[data-test=agenda-day]:not([hidden])")
    assert BLOCK in today.inner_text()
    page.screenshot(path="/tmp/pocket-offline.png")
    _no_sideways_scroll(page)
    # The board's first address (an app installed then, a bookmark) opens the same saved copy.
    page.goto(f"{page.base_url}/schedule/?week=14")
    page.locator("[data-test=offline-banner]").wait_for(state="visible")
    assert page.locator("[data-test=offline-page]").count() == 0
    context.set_offline(False)

    # Signing out wipes the saved agenda: offline, nothing of the student is left to show.
    page.goto(f"{page.base_url}/board/")
    page.click("[data-test=logout]")
    page.wait_for_url("**/accounts/login/**")
    assert page.evaluate("caches.has('sm-pages')") is False
    context.set_offline(True)
    page.goto(f"{page.base_url}/board/")  # the offline notice, naming nobody and keeping nothing
    page.locator("[data-test=offline-nothing-kept]").wait_for(state="visible")
    assert BLOCK not in page.content() and "pocket1" not in page.content()
    context.set_offline(False)


@pytest.mark.e2e
def test_a_second_student_on_the_same_device_never_sees_the_firsts_agenda(phone, live_daphne, transactional_db):
    context, page = phone
    _a_block_in_eight_minutes(_student_in_week_13("pocket2"))
    UserFactory(username="pocket3", time_zone="Asia/Shanghai")
    _log_in(page, "pocket2")
    page.goto(f"{page.base_url}/board/")
    wait_until(page, "navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    wait_until(page, "document.documentElement.dataset.offlineKept !== undefined")
    saved = "caches.open('sm-pages').then((c) => c.match('/board/')).then((r) => r ? r.text() : '')"
    assert BLOCK in page.evaluate(saved)
    # The session ends without signing out (cookies cleared); the next student signs in on this device.
    context.clear_cookies()
    _log_in(page, "pocket3")
    page.goto(f"{page.base_url}/board/")
    wait_until(page, "document.documentElement.dataset.offlineKept !== undefined")
    assert BLOCK not in page.evaluate(saved)
    assert page.evaluate(saved) != ""  # the second student's own agenda is kept instead
    # On a desktop the bell sits in the top bar and its list opens under it.
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click("[data-test=bell]")
    page.locator("[data-test=bell-panel]").wait_for(state="visible")
    assert page.inner_text("[data-test=bell-list]") == "还没有提醒。"
    _no_sideways_scroll(page)


@pytest.mark.e2e
def test_a_reminder_made_between_two_pages_is_announced_by_the_next(phone, live_daphne, transactional_db):
    """Beat (or a page that was closing) made the reminder while no page listened: the next page announces it."""
    context, page = phone
    student = _student_in_week_13("pocket4")
    starts_at = _a_block_in_eight_minutes(student)
    assert reminders_produce() == 1
    _log_in(page, "pocket4")
    toast = page.locator("[data-test=bell-toast]")
    _announced(page, toast)
    assert toast.inner_text() == f"🔔 学习块“{BLOCK}”将于 {starts_at} 开始。"


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, PHONE], ids=["desktop", "phone"])
def test_offline_a_saved_copy_disables_what_needs_the_network_and_other_pages_say_they_were_not_saved(
        phone, live_daphne, transactional_db, viewport):
    """#35 M7: the first offline view draws whole (its styles kept with it), 撤销 / 退出登录 are disabled,
    and 总览 or 任务类 offline say they were not saved instead of showing something else (on a laptop too)."""
    context, page = phone
    page.set_viewport_size(viewport)
    username = f"pocket-m7-{viewport['width']}"
    _student_in_week_13(username)
    _log_in(page, username)
    page.goto(f"{page.base_url}/board/")
    wait_until(page, "navigator.serviceWorker.ready.then(() => true)")
    wait_until(page, "document.documentElement.dataset.offlineKept !== undefined")

    context.set_offline(True)
    page.reload()
    page.locator("[data-test=offline-banner]").wait_for(state="visible")
    # Styled as online (app.css kept with the page): the header has its brand colour, not the browser's default.
    assert page.evaluate("getComputedStyle(document.querySelector('main.page, .page')).maxWidth") == "1100px"
    logout = page.locator("[data-test=logout]")
    assert logout.is_disabled() and logout.get_attribute("title") == "需要联网：你现在离线。"
    for path in ("/", "/plans/"):
        page.goto(f"{page.base_url}{path}")
        notice = page.locator("[data-test=offline-page]")
        notice.wait_for(state="visible")
        assert "这个页面没有保存在这台设备上" in notice.inner_text()
        page.locator("[data-test=offline-kept-link]").first.wait_for()
        assert "/board/" in page.locator("[data-test=offline-kept-link]").first.get_attribute("href")
    context.set_offline(False)
