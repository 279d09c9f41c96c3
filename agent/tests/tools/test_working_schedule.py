"""The working schedule: a board loaded for a window, stored in the checkpoint, rough-built, and the
preview it becomes."""

from __future__ import annotations

from datetime import date, timedelta

from django.utils import translation

from agent.flow.working import working_for, working_from_json, working_to_json
from agent.tests.tools.conftest import NOW, WEEK3_MON, WEEK3_TUE, at, board_of, entry_named, item_entry
from agent.tools.support.board_text import day_index
from agent.tools.support.working_schedule import working_load, working_publish, working_rebase, working_rough_build
from board.previews import preview_apply
from schedule.core.board import Spot
from schedule.core.board_edits import Move, apply
from schedule.models import PlanPreview
from schedule.tests.factories import custom_event

DAY_LABELS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")


def _load(user, class_ids=(), **options):
    return working_load(user=user, now=NOW, task_class_ids=list(class_ids), **options)


def test_the_window_runs_from_today_through_the_plan_and_includes_the_last_sunday(plan):
    custom_event(plan.user, title="周日讲座", week=4, day=7, start=11, end=12)
    board = _load(plan.user, [plan.pk]).board
    assert (board.window.first, board.window.last) == (date(2026, 9, 14), date(2026, 10, 4))
    assert next(e for e in board.entries if e.name == "周日讲座").place == at("2026-10-04", 11, 12)


def test_without_a_class_the_window_is_the_next_fourteen_days(timetable):
    board = _load(timetable).board
    assert (board.window.first, board.window.last) == (date(2026, 9, 14), date(2026, 9, 27))


def test_courses_and_custom_events_are_locked_and_the_filler_course_can_host(working):
    board = board_of(working)
    course, filler, custom = (entry_named(working, n) for n in ("高等数学", "形势与政策", "社团活动"))
    assert all(board.is_locked(e) for e in (course, filler, custom)) and filler.filler
    assert course.place == at(WEEK3_MON, 1)


def test_pending_items_are_loaded_in_order(working):
    items = [e for e in board_of(working).entries if e.item_id is not None]
    assert [(e.order, e.status, e.length) for e in items] == [(n, "pending", 2) for n in range(1, 5)]


def test_another_users_class_ids_are_left_out(plan, other_user):
    board = _load(other_user, [plan.pk]).board
    assert board.planned_class_ids == () and all(e.item_id is None for e in board.entries)


def test_the_checkpoint_holds_the_board_with_a_format_and_version(plan, working):
    stored = working_to_json(working)
    assert (stored["format"], stored["version"], stored["user_id"]) == ("working", 1, plan.user.pk)
    assert stored["board"]["format"] == "board" and working_from_json(stored, now=NOW) == working


def test_a_stored_board_is_used_with_the_clock_of_now(plan, working):
    later = NOW + timedelta(days=7, hours=3)  # Monday of week 3, 10:00
    board = working_for(working, user_id=plan.user.pk, now=later).board
    assert (board.clock.today, board.clock.started) == (date(2026, 9, 21), 2)
    assert board.is_locked(entry_named(working, "高等数学"))


def test_someone_elses_working_schedule_is_not_used(working, other_user):
    assert working_for(working, user_id=other_user.pk, now=NOW) is None


def test_an_unreadable_working_schedule_is_not_read(working):
    stored = working_to_json(working)
    assert working_from_json({**stored, "version": 9}, now=NOW) is None
    assert working_from_json({**stored, "board": {"format": "board"}}, now=NOW) is None
    assert working_from_json({**stored, "user_id": None}, now=NOW) is None


def test_rough_build_suggests_every_block_in_order_without_writing(plan):
    built, summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=None)
    items = sorted((e for e in built.board.entries if e.item_id is not None), key=lambda e: e.order)
    assert summary == "Suggested 4 blocks." and all(e.status == "suggested" for e in items)
    positions = [(e.place.day, e.place.start) for e in items]
    assert positions == sorted(positions)
    assert not PlanPreview.objects.exists()


def test_rough_build_keeps_clear_of_the_conversations_own_suggestions(plan, working):
    first, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=working)
    again, summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=first)
    assert summary == "Suggested 4 blocks."
    assert [e.place for e in again.board.entries] == [e.place for e in first.board.entries]


def test_the_day_index_names_days_blocks_and_free_runs(working):
    text = day_index(board_of(working))
    assert f"{WEEK3_TUE}(周二)：1-2节[" in text and "形势与政策(课程·水课可嵌入·固定·已有)" in text
    assert "空闲 3-4节、7-12节" in text and "待安排：" in text


def test_no_change_means_no_preview(plan):
    assert working_publish(user=plan.user, working=_load(plan.user, [plan.pk]), conversation_id=7, now=NOW) is None


def test_the_preview_carries_placements_in_time_order(plan):
    built, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=None)
    preview = working_publish(user=plan.user, working=built, conversation_id=7, now=NOW)
    assert preview.source == "assistant" and preview.conversation_id == 7 and len(preview.placements) == 4
    assert preview.placements[0]["item_id"] == plan.items.get(order=1).pk


def test_a_newer_preview_of_the_conversation_replaces_the_older_one(plan):
    built, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=None)
    first = working_publish(user=plan.user, working=built, conversation_id=7, now=NOW)
    working_publish(user=plan.user, working=built, conversation_id=7, now=NOW)
    first.refresh_from_db()
    assert first.status == PlanPreview.Status.DISCARDED


def test_a_reload_keeps_ids_and_carries_suggestions_over(plan):
    built, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=None)
    again = _load(plan.user, [plan.pk], previous=built)
    assert [(e.id, e.place) for e in again.board.entries] == [(e.id, e.place) for e in built.board.entries]


def test_the_stored_form_reads_back_the_same(plan):
    built, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=None)
    stored = working_from_json(working_to_json(built), now=NOW)
    assert stored == built and item_entry(stored, 1).suggested


def test_the_preview_says_why_each_suggested_block_is_there_and_applying_keeps_it(plan):
    built, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=None)
    preview = working_publish(user=plan.user, working=built, conversation_id=7, now=NOW)
    reasons = [row.get("reason", {}) for row in preview.placements]
    # A steady plan: spread over its window, each block after the one before.
    assert [(r.get("kind"), r.get("item"), r.get("after")) for r in reasons] == [
        ("spread", 1, None), ("spread", 2, 1), ("spread", 3, 2), ("spread", 4, 3)]
    preview_apply(user=plan.user, preview_id=preview.pk)
    kept = plan.items.get(order=2).placement_reason
    assert (kept["kind"], kept["after"]) == ("spread", 1)


def test_a_block_moved_after_the_rough_build_has_no_planner_reason_and_the_stored_form_keeps_the_rest(plan):
    built, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=None)
    last = item_entry(built, 4)
    moved = built.with_board(apply(built.board, Move(last.id, Spot(last.place.day + timedelta(days=1), 11))))
    stored = working_from_json(working_to_json(moved), now=NOW)
    assert stored == moved
    preview = working_publish(user=plan.user, working=stored, conversation_id=7, now=NOW)
    by_item = {row["item_id"]: row.get("reason") for row in preview.placements}
    assert by_item[last.item_id] is None
    assert sorted(reason["item"] for reason in by_item.values() if reason) == [1, 2, 3]


def test_a_rebase_replays_the_suggestions_and_names_in_chinese_the_one_an_event_now_holds(plan):
    built, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=None)
    second = item_entry(built, 2)
    week, day = built.board.calendar.week_day(second.place.day)
    custom_event(plan.user, title="社团招新", week=week, day=day, start=second.place.start, end=second.place.end)

    with translation.override("zh-hans"):
        rebased, dropped = working_rebase(user=plan.user, now=NOW, working=built)

    assert dropped == (f"之前把「{second.name}」放在 {second.place.day}（{DAY_LABELS_ZH[day - 1]}） 第 "
                       f"{second.place.start}-{second.place.end} 节的改动已撤下：{second.place.day}（"
                       f"{DAY_LABELS_ZH[day - 1]}） 第 {second.place.start}-{second.place.end} 节已被“社团招新”占用。",)
    assert item_entry(rebased, 2).place is None
    assert [item_entry(rebased, n).place for n in (1, 3, 4)] == [item_entry(built, n).place for n in (1, 3, 4)]


def test_a_rebase_after_the_preview_was_settled_keeps_the_ids_but_not_the_edits(plan):
    built, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=None)
    rebased, dropped = working_rebase(user=plan.user, now=NOW, working=built, replay_edits=False)
    assert dropped == () and all(item_entry(rebased, n).place is None for n in range(1, 5))
    assert [e.id for e in rebased.board.entries] == [e.id for e in built.board.entries]
