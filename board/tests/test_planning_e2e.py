"""A student plans a study plan in Chromium: feasibility, plan, drag a block, apply, undo; a refused
drop reads as the assistant's refusal of the same move."""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from schedule.models import CalendarSettings, PlanPreview, ScheduleEvent
from schedule.tests.factories import custom_event, import_csv, make_task_class
from smartmate.tests.live_server import log_in


def _in_week_three_now(student) -> tuple[date, date, date]:
    """Move the student's semester so that today is in week 3; return the Mondays of weeks 4 and 5
    and the Sunday of week 5 (the page's daphne runs on the real clock)."""
    from datetime import timedelta

    from django.utils import timezone

    today = timezone.localdate(timezone.now(), student.zone)
    week_one = today - timedelta(days=today.weekday() + 14)
    CalendarSettings.objects.filter(user=student).update(semester_start=week_one)
    return week_one + timedelta(weeks=3), week_one + timedelta(weeks=4), week_one + timedelta(weeks=5, days=-1)


@pytest.mark.e2e
def test_plan_drag_apply_and_undo(live_page, transactional_db):
    student = UserFactory(username="planner1")
    week_four, _week_five, end = _in_week_three_now(student)
    task_class = make_task_class(student, items=16, excluded_pairs=[6], start=week_four, end=end)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/plans/{task_class.pk}/")
    assert page.inner_text("[data-test=feasibility]").strip() == "请求 16 个学习块，窗口内有 70 个可用时段，余量 54"
    page.click("[data-test=plan-button]")
    page.wait_for_selector("[data-test=preview-banner]")
    page.wait_for_selector("table.board[data-ready]")  # the drop handlers are attached (the page parses first)
    expect(page.locator("[data-test=suggestion]").first).to_be_attached()  # the page may still be parsing
    first = page.locator("[data-test=suggestion]").first
    item = first.get_attribute("data-item")
    first.drag_to(page.locator('td.free[data-day="7"][data-section="9"]'))
    page.wait_for_selector(f'td.suggestion-cell[data-day="7"][data-section="9"] [data-item="{item}"], '
                           f'td.suggestion-cell[data-day="7"][data-section="9"] [data-test=suggestion]')
    page.click("[data-test=preview-apply]")
    page.wait_for_selector("[data-test=undo-banner]")
    assert ScheduleEvent.objects.filter(user=student, kind="task_item").count() == 16
    assert ScheduleEvent.objects.filter(user=student, kind="task_item", day=7, start_section=9).exists()
    expect(page.locator("td.kind-task_item").first).to_be_attached()  # the board may still be parsing
    page.click("[data-test=undo]")
    page.wait_for_selector("[data-test=undo-banner]", state="detached")
    assert not ScheduleEvent.objects.filter(user=student, kind="task_item").exists()
    expect(page.locator("td.kind-task_item")).to_have_count(0)


@pytest.mark.e2e
def test_a_refused_drop_shows_the_reason(live_page, transactional_db):
    student = UserFactory(username="planner2")
    week_four, _week_five, end = _in_week_three_now(student)
    custom_event(student, title="社团活动", week=4, day=2, start=3, end=4)
    make_task_class(student, items=2, start=week_four, end=end)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/plans/")
    page.check("input[name=task_class_ids]")
    page.click("[data-test=plan-selected]")
    page.wait_for_selector("[data-test=preview-banner]")
    page.wait_for_selector("table.board[data-ready]")  # the drop handlers are attached (the page parses first)
    page.locator("[data-test=suggestion]").first.drag_to(page.locator('td[data-event-id]').first)
    page.wait_for_selector("[data-test=board-error]:not([hidden])")
    assert "社团活动" in page.inner_text("[data-test=board-error]")


@pytest.mark.e2e
def test_a_refused_drop_low_on_a_scrolled_page_says_why_where_the_student_is_looking(live_page, transactional_db):
    student = UserFactory(username="planner4")
    week_four, _week_five, end = _in_week_three_now(student)
    custom_event(student, title="晚自习", week=4, day=2, start=11, end=12)  # the board's last rows
    task_class = make_task_class(student, items=2, start=week_four, end=end)
    page = live_page
    page.set_viewport_size({"width": 1366, "height": 900})
    log_in(page, student.username)
    page.goto(f"{page.base_url}/plans/{task_class.pk}/")
    page.click("[data-test=plan-button]")
    page.wait_for_selector("[data-test=preview-banner]")
    page.wait_for_selector("table.board[data-ready]")  # the drop handlers are attached (the page parses first)
    target = page.locator('td[data-event-id][data-day="2"][data-section="11"]')
    target.scroll_into_view_if_needed()
    page.locator("[data-test=suggestion]").first.drag_to(target)
    error = page.locator("[data-test=board-error]")
    expect(error).to_be_visible()
    assert "晚自习" in error.inner_text()
    assert page.evaluate("window.scrollY") > 0  # the page stayed scrolled down at the drop
    box = error.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 900, box
    dropped = target.bounding_box()
    assert dropped is not None and abs(box["y"] - dropped["y"]) < 450, (box, dropped)  # near the drop


@pytest.mark.e2e
def test_two_classes_on_a_tight_week_place_every_placeable_block(live_page, transactional_db):
    from datetime import timedelta

    student = UserFactory(username="planner3")
    week_four, _week_five, _end = _in_week_three_now(student)
    week = {"start": week_four, "end": week_four + timedelta(days=6)}
    for day in range(1, 8):
        custom_event(student, title=f"忙 {day}", week=4, day=day, start=1, end=8)
    first = make_task_class(student, name="概率论", items=8, **week)
    second = make_task_class(student, name="数据结构", items=8, strategy="rapid", **week)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/plans/")
    for checkbox in page.locator("input[name=task_class_ids]").all():
        checkbox.check()
    page.click("[data-test=plan-selected]")
    page.wait_for_selector("[data-test=preview-banner]")
    page.wait_for_selector("table.board[data-ready]")  # the drop handlers are attached (the page parses first)
    expect(page.locator("[data-test=suggestion]")).to_have_count(14)  # waits: the page may still be parsing
    assert page.locator("[data-test=unplaced] li").count() == 2
    assert set(PlanPreview.objects.get(user=student).task_class_ids) == {first.pk, second.pk}


def _preview_with_a_block_last_week(student, task_class, week_two: date, week_four: date) -> int:
    """A preview made on Monday of last week and still open: block #1 on that Wednesday evening (now
    past), #2 on Monday and #3 on Friday of next week. Returns its id."""
    from datetime import datetime, time, timedelta

    from django.utils import timezone

    from board.boards import board_load
    from board.planning import PreviewOrigin, preview_publish
    from schedule.core.board import Spot
    from schedule.core.board_edits import place

    then = datetime.combine(week_two, time(0, 0), tzinfo=student.zone)
    board = board_load(user=student, now=then, first=week_two, last=week_four + timedelta(days=6),
                       class_ids=[task_class.pk])
    items = dict(task_class.items.values_list("order", "pk"))
    for order, day, start in ((1, week_two + timedelta(days=2), 11), (2, week_four, 3),
                              (3, week_four + timedelta(days=4), 3)):
        board = place(board, board.find(item_id=items[order]).id, Spot(day, start))  # type: ignore[union-attr]  # there
    preview = preview_publish(user=student, board=board, origin=PreviewOrigin(), now=timezone.now())
    return preview.pk  # type: ignore[union-attr]  # a page preview is kept


def _assistant_refusals(student, task_class, week_two: date, week_four: date) -> dict[str, dict]:
    """The same three refusals from the assistant's move tool, rendered in Chinese: onto 高等数学
    (Tuesday 1-2 of next week), onto 形势与政策 (Wednesday 1-2) and onto Monday 3-4 of last week."""
    from datetime import datetime, time, timedelta

    from django.utils import timezone, translation

    from agent.flow.working import Working
    from agent.tools.move import TOOL as MOVE
    from agent.tools.place import TOOL as PLACE
    from agent.tools.support.base import ToolContext
    from agent.tools.support.working_schedule import working_load

    then = datetime.combine(week_two, time(0, 0), tzinfo=student.zone)
    earlier = ToolContext(user_id=student.pk, conversation_id=1, call_id="then", now=then)
    loaded = working_load(user=student, now=then, task_class_ids=[task_class.pk])
    item_ids = {order: task_class.items.get(order=order).pk for order in (1, 2)}
    ids = {order: loaded.board.find(item_id=item_id).id  # type: ignore[union-attr]  # on the board
           for order, item_id in item_ids.items()}
    working: Working | None = loaded
    for order, day, start in ((1, week_two + timedelta(days=2), 11), (2, week_four, 3)):
        working = PLACE.run({"task_id": ids[order], "date": day.isoformat(), "start_section": start}, earlier,
                            working).working
    now = ToolContext(user_id=student.pk, conversation_id=1, call_id="now", now=timezone.now())
    moves = {"course": (ids[2], week_four + timedelta(days=1), 1), "filler": (ids[2], week_four + timedelta(days=2), 1),
             "past": (ids[1], week_two, 3)}
    with translation.override("zh-hans"):
        results = {name: MOVE.run({"task_id": entry_id, "date": day.isoformat(), "start_section": start}, now, working)
                   for name, (entry_id, day, start) in moves.items()}
    return {name: result.data for name, result in results.items()}


@pytest.mark.e2e
def test_refused_drops_say_what_the_assistant_says_for_the_same_refusals(live_page, transactional_db):
    from datetime import timedelta

    from schedule.models import Course

    student = UserFactory(username="planner4")
    week_four, _week_five, _end = _in_week_three_now(student)
    week_two = week_four - timedelta(weeks=2)
    import_csv(student, "高等数学,2,1,2,王老师,二教1101,4", "形势与政策,3,1,2,赵立新,二教1102,4")
    Course.objects.filter(user=student, name="形势与政策").update(is_filler=True)
    task_class = make_task_class(student, items=3, allow_filler=False, start=week_two,
                                 end=week_four + timedelta(days=6))
    preview = _preview_with_a_block_last_week(student, task_class, week_two, week_four)
    said = _assistant_refusals(student, task_class, week_two, week_four)
    assert [said[name]["code"] for name in ("course", "filler", "past")] == [
        "slot_taken", "filler_not_allowed", "in_the_past"]
    items = dict(task_class.items.values_list("order", "pk"))
    course, filler = (ScheduleEvent.objects.get(user=student, title=title) for title in ("高等数学", "形势与政策"))
    page = live_page
    log_in(page, student.username)
    message = page.locator("[data-test=board-error-message]")

    page.goto(f"{page.base_url}/board/?week=4&preview={preview}")
    page.wait_for_selector("table.board[data-ready]")  # the drop handlers are attached (the page parses first)
    assert page.get_attribute("html", "lang") == "zh-hans"
    block = page.locator(f'[data-test=suggestion][data-item="{items[2]}"]')
    block.drag_to(page.locator(f'td[data-event-id="{course.pk}"]'))
    expect(message).to_have_text(said["course"]["message"])
    assert "周二" in said["course"]["message"] and "高等数学" in said["course"]["message"]
    assert page.inner_text("[data-test=board-error-suggestions]").strip() != ""
    block.drag_to(page.locator(f'td[data-event-id="{filler.pk}"]'))
    expect(message).to_have_text(said["filler"]["message"])

    page.goto(f"{page.base_url}/board/?week=2&preview={preview}")
    page.locator(f'[data-test=suggestion][data-item="{items[1]}"]').drag_to(
        page.locator('td.free[data-day="1"][data-section="3"]'))
    expect(message).to_have_text(said["past"]["message"])
    assert "周一" in said["past"]["message"]
    assert PlanPreview.objects.get(pk=preview).placements[0]["week"] == 2  # nothing moved
