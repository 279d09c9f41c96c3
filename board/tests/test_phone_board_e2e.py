"""What a student's hands find on a phone (390×844, Chinese), and on a desktop where it applies: the day
agenda adds an event (its "+" and its free rows open the board's new-event dialog), "移动到…" takes any
day and section, checks each pick and says beside the picker why a place is refused, the week page's tap targets are
big enough under a slim header, and a reminder's toast leaves the week's buttons free."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.tests.factories import UserFactory
from board.tests.test_board_edit_e2e import _board_path, _student_with_blocks, new_event_dialog_opened
from board.tests.test_planning_e2e import _in_week_three_now
from schedule.models import ScheduleEvent
from schedule.tests.factories import import_csv
from smartmate.tests.live_server import log_in
from taskclasses.tests.factories import make_task_class
from taskclasses.tests.reminders.test_pocket_e2e import _a_block_in_eight_minutes, _announced, _student_in_week_13

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def _on_the_agenda(page, student, day: int) -> None:
    page.set_viewport_size(PHONE)
    log_in(page, student.username)
    page.goto(f"{page.base_url}{_board_path()}?week=4&day={day}")
    page.wait_for_selector("#board-edit[data-ready=true]", state="attached")


@pytest.mark.e2e
def test_a_free_row_of_the_day_agenda_adds_an_event_there(live_page, transactional_db):
    student, (block,) = _student_with_blocks("phoneadd1", items=1)  # Tuesday of week 4, sections 5-6
    page = live_page
    _on_the_agenda(page, student, day=2)
    free = page.locator("[data-test=agenda-free]:visible")
    assert [text.split()[-1] for text in free.all_inner_texts()] == ["＋", "＋"]
    assert [f.get_attribute("data-section") + "-" + f.get_attribute("data-last-section") for f in free.all()] == \
        ["1-4", "7-12"]
    assert "第 7–12 节" in free.nth(1).inner_text() and "空闲" in free.nth(1).inner_text()
    free.nth(1).click()
    new_event_dialog_opened(page, start=7, end=8)
    page.fill("[data-test=event-title]", "小组讨论")
    page.click("[data-test=event-save]")
    page.locator("[data-test=agenda-item]:visible", has_text="小组讨论").wait_for()
    event = ScheduleEvent.objects.get(user=student, kind="custom")
    assert (event.title, event.week, event.day, event.start_section, event.end_section) == ("小组讨论", 4, 2, 7, 8)
    assert ScheduleEvent.objects.filter(task_item=block, day=2, start_section=5).exists()


@pytest.mark.e2e
def test_a_one_section_free_row_ends_the_new_event_there(live_page, transactional_db):
    student, _blocks = _student_with_blocks("phoneadd2", items=1)
    import_csv(student, "大学英语,2,2,4,李老师,二教204,1-16")  # Tuesday 2-4: section 1 is free alone
    page = live_page
    _on_the_agenda(page, student, day=2)
    page.locator('[data-test=agenda-free][data-section="1"]:visible').click()
    new_event_dialog_opened(page, start=1, end=1)


@pytest.mark.e2e
def test_the_plus_adds_an_event_on_the_day_shown(live_page, transactional_db):
    student, _blocks = _student_with_blocks("phoneadd3", items=0)
    page = live_page
    _on_the_agenda(page, student, day=1)
    page.click("[data-test=agenda-next]")  # Tuesday now: its own "+"
    add = page.locator("[data-test=agenda-add]:visible")
    assert add.inner_text() == "＋ 添加日程"
    add.click()
    page.locator("[data-test=event-dialog]").wait_for(state="visible")
    assert page.inner_text("[data-test=event-dialog-when]") == "周二 第 1 节起"
    page.select_option("[data-test=event-start]", "3")
    page.fill("[data-test=event-title]", "实验报告")
    page.fill("[data-test=event-weeks]", "4-5")
    page.click("[data-test=event-save]")
    page.locator("[data-test=agenda-item]:visible", has_text="实验报告").wait_for()
    rows = ScheduleEvent.objects.filter(user=student, kind="custom").values_list("week", "day", "start_section",
                                                                               "end_section")
    assert sorted(rows) == [(4, 2, 3, 4), (5, 2, 3, 4)]


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_move_to_any_day_and_section_says_why_a_place_is_refused_beside_the_picker(
        live_page, transactional_db, viewport):
    student, (block,) = _student_with_blocks(f"phonemove{viewport['width']}", items=1)
    import_csv(student, "高等数学,5,3,4,王老师,一教101,1-16")  # every Friday, sections 3-4
    friday = ScheduleEvent.objects.get(user=student, kind="course", week=4).starts_at
    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    page.goto(f"{page.base_url}{_board_path()}?week=4&day=2")
    page.wait_for_selector("#board-edit[data-ready=true]", state="attached")
    page.locator(f'[data-block-kind="item"][data-block-id="{block.pk}"]:visible').click()
    page.click("[data-test=block-move]")
    picker = page.locator("[data-test=move-pick]")
    picker.wait_for(state="visible")
    tuesday = ScheduleEvent.objects.get(task_item=block).starts_at
    assert page.input_value("[data-test=move-pick-date]") == _local_date(tuesday, student)
    assert page.input_value("[data-test=move-pick-section]") == "5"

    page.fill("[data-test=move-pick-date]", _local_date(friday, student))
    page.select_option("[data-test=move-pick-section]", "3")  # checked at once, before any tap on 移到这里
    refusal = page.locator("[data-test=move-pick-error]")
    refusal.wait_for(state="visible")
    assert page.inner_text("[data-test=move-pick-message]").endswith("第 3-4 节已被“高等数学”占用。")
    assert page.locator("[data-test=move-pick-suggestion]").count() >= 1
    _just_below(page, "[data-test=move-pick-go]", "[data-test=move-pick-error]")
    assert ScheduleEvent.objects.get(task_item=block).day == 2  # nothing moved

    page.click("[data-test=move-pick-go]")  # tapped anyway: the same refusal, still nothing moved
    page.wait_for_function("() => !document.querySelector('[data-test=move-pick-go]').disabled")
    assert page.inner_text("[data-test=move-pick-message]").endswith("第 3-4 节已被“高等数学”占用。")
    assert ScheduleEvent.objects.get(task_item=block).day == 2

    page.fill("[data-test=move-pick-date]", _local_date(friday + timedelta(weeks=1), student))
    page.select_option("[data-test=move-pick-section]", "7")
    free = page.locator("[data-test=move-pick-ok]")
    free.wait_for(state="visible")
    assert free.inner_text().startswith("这里空着，可以移过去：") and free.inner_text().endswith("第 7-8 节")
    assert refusal.is_hidden()
    page.click("[data-test=move-pick-go]")
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    moved = ScheduleEvent.objects.get(task_item=block)
    assert (moved.week, moved.day, moved.start_section, moved.end_section) == (5, 5, 7, 8)
    assert page.inner_text("[data-test=edit-undo-summary]").startswith("已把「概率论复习 #1」移到")


def _local_date(moment, student) -> str:
    return moment.astimezone(student.zone).date().isoformat()


def _just_below(page, above: str, below: str) -> None:
    """``below`` starts within a few lines under ``above``, on screen: beside the picker, not far away."""
    first = page.locator(above).bounding_box()
    second = page.locator(below).bounding_box()
    viewport = page.viewport_size
    assert 0 <= second["y"] - (first["y"] + first["height"]) < 48, (first, second)
    assert second["y"] + second["height"] <= viewport["height"], (second, viewport)


# Everything a finger may tap that is drawn, with its size; the ones under 40 px either way.
SMALL_TARGETS = """() => Array.from(document.querySelectorAll('button, a, select, input, [role=button], summary'))
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map((el) => { const r = el.getBoundingClientRect();
    return [`${el.tagName} ${el.dataset.test || el.className} ${el.textContent.trim().slice(0, 12)}`,
            Math.round(r.width), Math.round(r.height)]; })
  .filter(([, width, height]) => width < 40 || height < 40)"""


@pytest.mark.e2e
def test_a_phones_week_page_and_dialogs_have_finger_sized_targets_under_a_slim_header(live_page, transactional_db):
    student, (block,) = _student_with_blocks("phonetaps", items=1)
    import_csv(student, "高等数学,2,1,2,王老师,一教101,1-16")
    page = live_page
    _on_the_agenda(page, student, day=2)
    assert page.locator("header.topbar").bounding_box()["height"] <= 96
    assert page.evaluate(SMALL_TARGETS) == []
    page.locator(f'[data-block-kind="item"][data-block-id="{block.pk}"]:visible').click()
    page.click("[data-test=block-move]")
    page.locator("[data-test=move-pick]").wait_for(state="visible")
    assert page.evaluate(SMALL_TARGETS) == []
    page.keyboard.press("Escape")
    page.locator("[data-test=agenda-add]:visible").click()
    page.locator("[data-test=event-dialog]").wait_for(state="visible")
    assert page.evaluate(SMALL_TARGETS) == []


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_reminders_toast_leaves_the_week_buttons_free(live_page, transactional_db, viewport):
    student = _student_in_week_13(f"phonetoast{viewport['width']}")
    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    page.goto("about:blank")
    _a_block_in_eight_minutes(student)
    page.goto(f"{page.base_url}{_board_path()}")
    toast = page.locator("[data-test=bell-toast]")
    _announced(page, toast)
    assert _under_the_toast(page) == []
    # Scrolled so the day strip sits just under the header, where a student's thumb looks for it.
    page.evaluate("""() => { const strip = document.querySelector('.agenda-strip:not([hidden])');
      const header = document.querySelector('header.topbar').getBoundingClientRect().height;
      if (strip.getClientRects().length) window.scrollBy(0, strip.getBoundingClientRect().top - header - 8); }""")
    assert _under_the_toast(page) == []


def _under_the_toast(page) -> list[str]:
    """The week's buttons the toast overlaps (their text)."""
    return page.evaluate("""() => {
      const toast = document.querySelector('[data-test=bell-toast]').getBoundingClientRect();
      return Array.from(document.querySelectorAll('.week-nav a, .agenda-bar button, .agenda-strip button, .agenda-add'))
        .filter((el) => el.getClientRects().length)
        .filter((el) => { const r = el.getBoundingClientRect();
          return r.left < toast.right && toast.left < r.right && r.top < toast.bottom && toast.top < r.bottom; })
        .map((el) => el.textContent.trim());
    }""")


@pytest.mark.e2e
def test_a_previews_day_agenda_has_finger_sized_targets_too(live_page, transactional_db):
    student = UserFactory(username="phonetaps2")
    week_four, _week_five, end = _in_week_three_now(student)
    task_class = make_task_class(student, items=3, start_date=week_four, end_date=end, strategy="rapid")
    page = live_page
    page.set_viewport_size(PHONE)
    log_in(page, student.username)
    page.goto(f"{page.base_url}/plans/{task_class.pk}/")
    page.click("[data-test=plan-button]")
    page.wait_for_selector("[data-test=preview-banner]")
    page.locator("[data-test=agenda-suggestion]:visible").first.wait_for()
    assert page.evaluate(SMALL_TARGETS) == []
