"""A student edits the applied week board in Chromium (Chinese): drags a placed study block to Friday and
undoes it, drags one onto a course and reads the core's refusal, opens a block inside a filler course and
moves it (by the picker and by dragging it out), works the board with the keyboard only, edits a repeating
event for all weeks, and moves a block with the picker in the phone's day agenda (390x844)."""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.tests.factories import UserFactory
from board.tests.test_planning_e2e import _in_week_three_now
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.services.event_series import event_series_create
from schedule.tests.factories import import_csv
from smartmate.tests.live_server import log_in
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

PHONE = {"width": 390, "height": 844}


def _student(username: str, items: int = 2) -> tuple:
    """Today in week 3; ``items`` applied blocks on Tuesday (and Thursday) sections 5-6 of week 4;
    高等数学 on Thursday 3-4 of week 4."""
    student: User = UserFactory(username=username)  # type: ignore[assignment]  # factory_boy is untyped
    week_four, _week_five, end = _in_week_three_now(student)
    import_csv(student, "高等数学,4,3,4,王老师,二教1101,4")
    task_class = make_task_class(student, items=items, start_date=week_four, end_date=end)
    placed = list(task_class.items.order_by("order"))
    for item, day in zip(placed, (2, 4), strict=False):
        place_item(item, week=4, day=day, start=5)
    TaskItem.objects.filter(pk__in=[i.pk for i in placed]).update(status=TaskItem.Status.PLACED)
    return student, placed


def _embed_in_filler(item: TaskItem) -> ScheduleEvent:
    """Take the block off its own event and put it inside a filler course on Monday 9-10 of week 4."""
    user = item.task_class.user
    ScheduleEvent.objects.filter(task_item=item).delete()
    import_csv(user, "形势与政策,1,9,10,赵立新,二教1101,4")
    host = ScheduleEvent.objects.get(user=user, course__name="形势与政策", week=4)
    assert host.course is not None
    host.course.is_filler = True
    host.course.save()
    host.slots.update(embedded_item=item)
    return host


def _open_board(page, student, week: int = 4):
    from django.urls import reverse

    log_in(page, student.username)
    page.goto(f"{page.base_url}{reverse('board:week')}?week={week}")
    page.wait_for_selector("#board-edit[data-ready=true]", state="attached")


def _place(item: TaskItem) -> tuple:
    event = ScheduleEvent.objects.filter(task_item=item).first()
    if event is not None:
        return event.week, event.day, event.start_section, event.end_section, None
    slots = list(ScheduleSlot.objects.filter(embedded_item=item).order_by("section"))
    return slots[0].week, slots[0].day, slots[0].section, slots[-1].section, slots[0].event_id


@pytest.mark.e2e
def test_drag_a_block_to_friday_read_the_undo_bar_and_undo(live_page, transactional_db):
    student, (first,) = _student("drag1", items=1)
    page = live_page
    _open_board(page, student)
    block = f'td[data-block-kind="item"][data-block-id="{first.pk}"]'
    page.drag_and_drop(block, 'td.free[data-day="5"][data-section="4"]')  # a drop in a pair means its start
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert page.inner_text("[data-test=edit-undo-summary]") == "已把「概率论复习 #1」移到 第 4 周 周五 第 3–4 节"
    page.wait_for_selector(f'{block}[data-day="5"][data-section="3"]')
    assert _place(first) == (4, 5, 3, 4, None)
    assert page.locator("[data-test=undo-banner]").is_hidden()  # the same change is not said twice
    assert page.evaluate("document.activeElement.dataset.blockId") == str(first.pk)

    page.click("[data-test=edit-undo-button]")
    page.wait_for_selector(f'{block}[data-day="2"][data-section="5"]')
    assert _place(first) == (4, 2, 5, 6, None)


@pytest.mark.e2e
def test_a_drop_on_a_course_shows_the_core_refusal_and_moves_nothing(live_page, transactional_db):
    student, (first, _second) = _student("drag2")
    page = live_page
    _open_board(page, student)
    page.drag_and_drop(f'td[data-block-kind="item"][data-block-id="{first.pk}"]',
                       'td.kind-course[data-day="4"][data-section="3"]')
    error = page.locator("[data-test=board-error]")
    error.wait_for(state="visible")
    message = page.inner_text("[data-test=board-error-message]")
    assert "高等数学" in message and "概率论复习 #1" not in message
    assert any("\u4e00" <= ch <= "\u9fff" for ch in message)
    assert _place(first) == (4, 2, 5, 6, None)
    suggestions = page.locator("[data-test=board-error-suggestion]")
    if suggestions.count():  # a suggested place moves the block there
        suggestions.first.click()
        page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
        assert _place(first) != (4, 2, 5, 6, None)


@pytest.mark.e2e
def test_a_drop_after_the_next_block_asks_before_breaking_the_order(live_page, transactional_db):
    student, (first, _second) = _student("drag5")
    page = live_page
    _open_board(page, student)
    page.drag_and_drop(f'td[data-block-kind="item"][data-block-id="{first.pk}"]',
                       'td.free[data-day="5"][data-section="3"]')
    page.locator("[data-test=board-error]").wait_for(state="visible")
    assert "必须排在" in page.inner_text("[data-test=board-error-message]")
    assert _place(first) == (4, 2, 5, 6, None)
    page.click("[data-test=board-error-reorder]")
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert _place(first) == (4, 5, 3, 4, None)


@pytest.mark.e2e
def test_a_block_inside_a_filler_course_opens_moves_and_drags_out(live_page, transactional_db):
    student, (first, _second) = _student("drag3")
    host = _embed_in_filler(first)
    page = live_page
    _open_board(page, student)
    embedded = f'table.board .embedded[data-block-kind="item"][data-block-id="{first.pk}"]'
    assert "概率论复习 #1" in page.inner_text(embedded)
    assert page.locator(f'td[data-event-id="{host.pk}"] .embedded[data-block-id="{first.pk}"]').count() == 1
    page.click(embedded)
    dialog = page.locator("[data-test=block-dialog]")
    dialog.wait_for(state="visible")
    assert page.inner_text("[data-test=block-dialog-title]") == "📘 概率论复习 #1"
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.dataset.blockId") == str(first.pk)

    page.drag_and_drop(embedded, 'td.free[data-day="3"][data-section="1"]')
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert page.inner_text("[data-test=edit-undo-summary]") == "已把「概率论复习 #1」移到 第 4 周 周三 第 1–2 节"
    assert _place(first) == (4, 3, 1, 2, None)
    assert not ScheduleSlot.objects.filter(embedded_item=first).exists()

    # ...and back into the filler course by dragging: the core embeds it.
    page.drag_and_drop(f'td[data-block-kind="item"][data-block-id="{first.pk}"]', f'td[data-event-id="{host.pk}"]')
    page.wait_for_selector(f'td[data-event-id="{host.pk}"] .embedded[data-block-id="{first.pk}"]')
    assert _place(first) == (4, 1, 9, 10, host.pk)


@pytest.mark.e2e
def test_the_embedded_block_moves_with_the_picker(live_page, transactional_db):
    student, (first, _second) = _student("drag4")
    host = _embed_in_filler(first)
    page = live_page
    _open_board(page, student)
    page.focus(f'table.board .embedded[data-block-kind="item"][data-block-id="{first.pk}"]')
    page.keyboard.press("Enter")
    page.locator("[data-test=block-dialog]").wait_for(state="visible")
    page.click("[data-test=block-move]")
    choice = page.locator("[data-test=move-choice]").first
    choice.wait_for()
    choice.click()
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert page.inner_text("[data-test=edit-undo-summary]").startswith("已把「概率论复习 #1」移到 ")
    assert _place(first) != (4, 1, 9, 10, host.pk)


@pytest.mark.e2e
def test_the_board_works_from_the_keyboard(live_page, transactional_db):
    student, (first, _second) = _student("keys1")
    page = live_page
    _open_board(page, student)
    free = 'td.free[data-day="3"][data-section="7"]'
    page.focus(free)
    page.keyboard.press("Enter")
    dialog = page.locator("[data-test=event-dialog]")
    dialog.wait_for(state="visible")
    assert page.evaluate("document.activeElement.dataset.test") == "event-title"
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.evaluate("(selector) => document.activeElement.matches(selector)", free)

    page.focus(free)
    page.keyboard.press(" ")
    dialog.wait_for(state="visible")
    page.keyboard.type("小组讨论")
    page.keyboard.press("Enter")
    page.wait_for_selector('td.kind-custom[data-day="3"][data-section="7"]:has-text("小组讨论")')
    assert ScheduleEvent.objects.filter(user=student, kind="custom", title="小组讨论", week=4).count() == 1

    block = f'td[data-block-kind="item"][data-block-id="{first.pk}"]'
    page.wait_for_selector("#board-edit[data-ready=true]", state="attached")
    page.focus(block)
    page.keyboard.press("Enter")
    blocks = page.locator("[data-test=block-dialog]")
    blocks.wait_for(state="visible")
    assert "移动到" in blocks.inner_text()
    page.keyboard.press("Escape")
    blocks.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.dataset.blockId") == str(first.pk)


@pytest.mark.e2e
def test_edit_a_repeating_event_for_all_weeks(live_page, transactional_db):
    student, _items = _student("series1", items=0)
    series = event_series_create(user=student, title="社团例会", weeks="1-8", day=3, start_section=9,
                                 end_section=10, location="学生活动中心")
    page = live_page
    _open_board(page, student)
    page.click('td.kind-custom[data-day="3"][data-section="9"]')
    page.locator("[data-test=block-dialog]").wait_for(state="visible")
    page.click("[data-test=event-edit]")
    dialog = page.locator("[data-test=event-dialog]")
    dialog.wait_for(state="visible")
    assert page.inner_text("[data-test=event-dialog-heading]") == "修改日程"
    assert page.input_value("[data-test=event-title]") == "社团例会"
    assert page.input_value("[data-test=event-weeks]") == "1-8"
    assert page.is_disabled("[data-test=event-weeks]")  # "只改这一周" first: the weeks stay
    assert "只改这一周" in dialog.inner_text() and "所有周" in dialog.inner_text()
    assert page.inner_text("[data-test=event-weeks-help]").startswith("留空则保持原来的周次")

    page.fill("[data-test=event-title]", " ")
    page.click("[data-test=event-save]")
    assert page.inner_text("[data-test=event-dialog-error]") == "请给日程填写标题。"

    page.check("[data-test=event-scope-all]")
    page.fill("[data-test=event-title]", "社团例会（新址）")
    page.fill("[data-test=event-location]", "图书馆报告厅")
    page.fill("[data-test=event-weeks]", "1-25")
    page.click("[data-test=event-save]")
    error = page.locator("[data-test=event-dialog-error]")
    page.locator("[data-test=event-dialog-error]:has-text('25')").wait_for()
    assert error.inner_text() == "第 25 周不在学期内（本学期共 20 周）。"

    page.fill("[data-test=event-weeks]", "2-12双")
    page.select_option("[data-test=event-start]", "11")
    page.click("[data-test=event-save]")
    page.wait_for_selector('td.kind-custom[data-day="3"][data-section="11"]:has-text("社团例会（新址）")')
    events = ScheduleEvent.objects.filter(series_id=series.series_id).order_by("week")
    assert [e.week for e in events] == [2, 4, 6, 8, 10, 12]
    assert {(e.title, e.location, e.start_section, e.end_section) for e in events} == {
        ("社团例会（新址）", "图书馆报告厅", 11, 12)}


@pytest.mark.e2e
def test_an_overlapping_edit_names_the_occupant(live_page, transactional_db):
    student, _items = _student("series2", items=1)
    event_series_create(user=student, title="社团例会", weeks="4", day=2, start_section=1, end_section=2)
    page = live_page
    _open_board(page, student)
    page.click('td.kind-custom[data-day="2"][data-section="1"]')
    page.click("[data-test=event-edit]")
    page.select_option("[data-test=event-start]", "5")  # the study block's sections
    page.click("[data-test=event-save]")
    page.locator("[data-test=event-dialog-error]").wait_for(state="visible")
    assert "概率论复习 #1" in page.inner_text("[data-test=event-dialog-error]")
    assert ScheduleEvent.objects.get(user=student, kind="custom").start_section == 1


@pytest.mark.e2e
def test_on_a_phone_a_block_moves_with_the_picker_in_the_agenda(live_page, transactional_db):
    student, (first, _second) = _student("phonemove1")
    page = live_page
    page.set_viewport_size(PHONE)
    _open_board(page, student)
    page.click("[data-test=agenda-strip] button[data-day='2']")
    item = page.locator(f'.agenda-item[data-block-kind="item"][data-block-id="{first.pk}"]')
    item.wait_for(state="visible")
    item.click()
    page.locator("[data-test=block-dialog]").wait_for(state="visible")
    page.click("[data-test=block-move]")
    choice = page.locator("[data-test=move-choice]").first
    choice.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    choice.click()
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert page.inner_text("[data-test=edit-undo-summary]").startswith("已把「概率论复习 #1」移到 第 ")
    assert _place(first) != (4, 2, 5, 6, None)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.e2e
def test_on_a_phone_a_block_inside_a_filler_course_opens_from_the_agenda(live_page, transactional_db):
    student, (first, _second) = _student("phonemove2")
    host = _embed_in_filler(first)
    page = live_page
    page.set_viewport_size(PHONE)
    _open_board(page, student)
    page.click("[data-test=agenda-strip] button[data-day='1']")
    embedded = page.locator(f'.agenda-item[data-event-id="{host.pk}"] [data-test=agenda-embedded]')
    embedded.wait_for(state="visible")
    assert "概率论复习 #1" in embedded.inner_text()
    embedded.click()
    page.locator("[data-test=block-dialog]").wait_for(state="visible")
    assert page.inner_text("[data-test=block-dialog-title]") == "📘 概率论复习 #1"
    page.click("[data-test=block-remove]")
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert page.inner_text("[data-test=edit-undo-summary]") == "已移除「概率论复习 #1」（回到待安排）"
    assert not ScheduleSlot.objects.filter(embedded_item=first).exists()
    assert TaskItem.objects.get(pk=first.pk).status == TaskItem.Status.PENDING
