"""A new student imports in Chromium, in Chinese: a bad week is refused in plain Chinese, an ICS with
off-grid times and an endless repetition is previewed with what the importer adjusted, at desktop width
and on a 390x844 phone."""

from __future__ import annotations

import pytest

from accounts.tests.factories import UserFactory
from schedule.models import Course, ScheduleEvent
from schedule.tests.factories import HEADER
from smartmate.tests.live_server import log_in

PHONE = {"width": 390, "height": 844}
BAD_WEEK_CSV = HEADER + "高等数学,1,1,2,王建华,二教2305,0-16\n"
OFF_GRID_ICS = (
    "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//test//EN\n"
    "BEGIN:VEVENT\nUID:a\nSUMMARY:高等数学\nDTSTART;TZID=Asia/Shanghai:20260907T080500\n"
    "DTEND;TZID=Asia/Shanghai:20260907T094000\nRRULE:FREQ=WEEKLY\nLOCATION:二教2305\nEND:VEVENT\n"
    "END:VCALENDAR\n"
)


def _preview(page, content: str) -> None:
    page.goto(f"{page.base_url}/schedule/import/")
    page.fill("#import-content", content)
    page.click("[data-test=import-preview]")
    page.wait_for_load_state()


def _fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_import_says_in_chinese_what_it_refused_and_what_it_adjusted(live_page, transactional_db, viewport):
    student = UserFactory(username="importer" + ("p" if viewport else "d"))
    page = live_page
    if viewport:
        page.set_viewport_size(viewport)
    log_in(page, student.username)

    _preview(page, BAD_WEEK_CSV)
    error = page.inner_text("[data-test=import-error]")
    assert "第 0 周不在学期内（本学期共 20 周）。" in error
    assert "outside" not in error and "limit" not in error
    assert _fits_the_screen(page)

    _preview(page, OFF_GRID_ICS)
    # Read as it means itself, the file's 08:05 start is offered as a section time beside the student's...
    assert "文件里的" in page.inner_text("[data-test=import-frame]")
    # ...and the student keeps their own sections instead: the times are moved, each move listed.
    page.click("[data-test=import-keep-mine]")
    page.wait_for_load_state()
    row = page.locator("[data-test=import-row]").first
    assert row.locator("[data-test=import-when]").inner_text().startswith("周一 第 1–2 节 08:00–09:40 · 第 1-20 周")
    notices = row.locator("[data-test=import-notice]").all_inner_texts()
    assert notices == ["高等数学（08:05–09:40）与节次时间不一致，已对齐到第 1–2 节（08:00–09:40）。",
                       "高等数学的重复超出了本学期，只保留到学期最后一天（1月24日）为止的课。"]
    assert "2 处调整" in page.inner_text("[data-test=import-adjusted-count]")
    assert _fits_the_screen(page)
    if viewport is None:  # the import card spans the page instead of a third of it
        card, main = page.eval_on_selector(".import-card", "e => e.getBoundingClientRect().width"), \
            page.eval_on_selector("main", "e => e.getBoundingClientRect().width")
        assert card > 0.9 * main - 48
    assert not ScheduleEvent.objects.filter(user=student).exists()

    page.click("[data-test=import-confirm]")
    page.wait_for_url(f"{page.base_url}/board/")
    assert Course.objects.filter(user=student).count() == 1
    assert ScheduleEvent.objects.filter(user=student).count() == 20
