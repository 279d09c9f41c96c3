"""The working schedule: loading a window, rough build, day index, and the preview it becomes."""

from __future__ import annotations

from datetime import date

from agent.tests.tools.conftest import NOW, WEEK3_MON, WEEK3_TUE, entry_named, item_entry
from agent.tools.working_schedule import working_day_index, working_load, working_rough_build, working_to_preview
from schedule.models import PlanPreview
from schedule.tests.factories import custom_event


def test_the_window_runs_from_today_through_the_plan_and_includes_the_last_sunday(plan):
    custom_event(plan.user, title="周日讲座", week=4, day=7, start=11, end=12)
    working = working_load(user=plan.user, now=NOW, task_class_ids=[plan.pk])
    assert working["window"] == {"start": "2026-09-14", "end": "2026-10-04"}
    assert entry_named(working, "周日讲座")["at"] == {"date": "2026-10-04", "start": 11, "end": 12}


def test_without_a_class_the_window_is_the_next_fourteen_days(timetable):
    working = working_load(user=timetable, now=NOW)
    assert working["window"] == {"start": "2026-09-14", "end": "2026-09-27"}


def test_courses_and_custom_events_are_locked_and_the_filler_course_can_host(working):
    course, filler, custom = (entry_named(working, n) for n in ("高等数学", "形势与政策", "社团活动"))
    assert course["locked"] and custom["locked"] and filler["locked"] and filler["filler"]
    assert course["at"] == {"date": WEEK3_MON, "start": 1, "end": 2}


def test_pending_items_are_loaded_in_order(working):
    items = [e for e in working["entries"] if e["kind"] == "task_item"]
    assert [(e["order"], e["status"], e["sections"]) for e in items] == [(n, "pending", 2) for n in range(1, 5)]


def test_another_users_class_ids_are_left_out(plan, other_user):
    working = working_load(user=other_user, now=NOW, task_class_ids=[plan.pk])
    assert working["class_ids"] == [] and all(e["kind"] != "task_item" for e in working["entries"])


def test_rough_build_suggests_every_block_in_order_without_writing(plan, working):
    new, summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=working)
    items = sorted((e for e in new["entries"] if e["kind"] == "task_item"), key=lambda e: e["order"])
    assert summary == "Suggested 4 blocks." and all(e["status"] == "suggested" for e in items)
    positions = [(e["at"]["date"], e["at"]["start"]) for e in items]
    assert positions == sorted(positions)
    assert not PlanPreview.objects.exists()


def test_the_day_index_names_days_blocks_and_free_runs(working):
    text = working_day_index(working)
    assert f"{WEEK3_TUE}(周二)：1-2节[" in text and "形势与政策(课程·水课可嵌入·固定·已有)" in text
    assert "空闲 3-4节、7-12节" in text and "待安排：" in text


def test_no_change_means_no_preview(plan, working):
    assert working_to_preview(user=plan.user, working=working, conversation_id=7, now=NOW) is None


def test_the_preview_carries_placements_in_time_order(plan, working):
    new, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=working)
    preview = working_to_preview(user=plan.user, working=new, conversation_id=7, now=NOW)
    assert preview.source == "assistant" and preview.conversation_id == 7 and len(preview.placements) == 4
    assert preview.placements[0]["item_id"] == item_entry(new, 1)["item_id"]


def test_a_newer_preview_of_the_conversation_replaces_the_older_one(plan, working):
    new, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=working)
    first = working_to_preview(user=plan.user, working=new, conversation_id=7, now=NOW)
    working_to_preview(user=plan.user, working=new, conversation_id=7, now=NOW)
    first.refresh_from_db()
    assert first.status == PlanPreview.Status.DISCARDED


def test_a_reload_keeps_ids_and_carries_suggestions_over(plan, working):
    new, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=working)
    again = working_load(user=plan.user, now=NOW, task_class_ids=[plan.pk], previous=new)
    assert [(e["id"], e["at"]) for e in again["entries"]] == [(e["id"], e["at"]) for e in new["entries"]]


def test_someone_elses_working_schedule_never_becomes_a_preview(plan, working, other_user):
    assert working_to_preview(user=other_user, working=working, conversation_id=7, now=NOW) is None
    assert date.fromisoformat(working["window"]["end"]) == plan.end_date
