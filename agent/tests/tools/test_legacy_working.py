"""The upgrade: a working schedule stored in the format written before the board existed is read
into a board that means the same (ids, places, moves, locks, queue, preview), and the tools go on
with it."""

from __future__ import annotations

import pytest

from agent.flow.state import TurnState
from agent.flow.working import Working, working_from_json, working_to_json
from agent.tests.legacy_working import legacy_scene, legacy_working
from agent.tests.tools.conftest import NOW, board_of, make_ctx
from agent.tools.support.registry import arguments_check, tool_get
from agent.tools.support.working_schedule import working_publish
from schedule.models import ScheduleEvent


@pytest.fixture
def scene(user):
    plan = legacy_scene(user)
    return plan, legacy_working(user, plan)


def run_tool(name: str, args: dict, ctx, working: Working):
    tool = tool_get(name)
    return tool.run(arguments_check(tool, args), ctx, working)


def read(stored: dict) -> Working | None:
    return working_from_json(stored, now=NOW)


def test_every_entry_keeps_its_id_place_status_and_lock(user, scene):
    _plan, stored = scene
    board = read(stored).board
    for old in stored["entries"]:
        new = board.get(old["id"])
        moved = old["status"] == "existing" and old["origin"] is not None and old["origin"]["date"] != old["at"]["date"]
        assert (new.name, new.status, new.moved, board.is_locked(new)) == (
            old["name"], old["status"], moved, old["locked"] or old["filler"])
        at = old["at"]
        assert (new.place.day.isoformat(), new.place.start, new.place.end) == (at["date"], at["start"], at["end"]) \
            if at else new.place is None
    assert board.get(5).place.host == 2 and board.next_id == 9


def test_the_work_queue_comes_along(user, scene):
    _plan, stored = scene
    assert read(stored).queue.current == 7


def test_it_makes_the_same_preview_the_old_code_made(user, scene):
    plan, stored = scene
    preview = working_publish(user=user, working=read(stored), conversation_id=7,
                              now=NOW)
    host = ScheduleEvent.objects.get(title="形势与政策").pk
    items = dict(plan.items.values_list("order", "pk"))
    assert preview.placements == [
        {"item_id": items[1], "class_id": plan.pk, "week": 3, "day": 2, "start_section": 1, "end_section": 2,
         "host_event_id": host},
        {"item_id": items[2], "class_id": plan.pk, "week": 3, "day": 2, "start_section": 3, "end_section": 4,
         "host_event_id": None}]
    assert [(m["item_id"], m["from"]["day"], m["to"]["day"], m["to"]["start_section"]) for m in preview.moves] == [
        (items[4], 3, 5, 9)]
    assert [u["item_id"] for u in preview.unplaced] == [items[3]]


def test_the_tools_go_on_with_the_same_ids_and_store_the_new_format(user, scene):
    _plan, stored = scene
    ctx = make_ctx(user)
    moved = run_tool("move", {"task_id": 6, "date": "2026-09-24", "start_section": 5}, ctx, read(stored))
    assert moved.status == "done" and working_to_json(moved.working)["format"] == "working"
    assert board_of(moved.working).get(6).place.day.isoformat() == "2026-09-24"
    head = run_tool("queue_apply_head_move", {"date": "2026-09-25", "start_section": 1}, ctx, moved.working)
    assert head.status == "done" and board_of(head.working).get(7).suggested


def test_a_checkpoint_with_it_is_stored_again_in_the_new_format(user, scene):
    _plan, stored = scene
    state = TurnState.from_json({**TurnState(conversation_id=1, turn_id="t", user_text="排一下").to_json(),
                                 "working": stored}, now=NOW)
    assert state.to_json()["working"]["format"] == "working"
    assert "待移动 1" in run_tool("get_overview", {}, make_ctx(user), state.working).content


@pytest.mark.parametrize(("target", "code"), [
    (("2026-09-21", 1), "slot_taken"),  # 高等数学
    (("2026-10-05", 1), "outside_window"),
    (("2026-09-21", 3), "order_broken"),  # item 3 before items 1 and 2
])
def test_the_core_refuses_what_the_old_engine_refused(user, scene, target, code):
    _plan, stored = scene
    result = run_tool("place", {"task_id": 7, "date": target[0], "start_section": target[1]}, make_ctx(user),
                      read(stored))
    assert result.data["code"] == code


def test_a_stored_schedule_of_another_student_is_never_read(other_user, scene):
    _plan, stored = scene
    result = run_tool("get_overview", {}, make_ctx(other_user), read(stored))
    assert "高等数学" not in result.content and result.working.user_id == other_user.pk
