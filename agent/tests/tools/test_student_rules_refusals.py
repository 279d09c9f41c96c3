"""The assistant's write tools keep the student's rules: a pinned block and a protected time are refused by name."""

from __future__ import annotations

from django.utils import translation

from agent.tests.tools.conftest import NOW, WEEK3_THU, item_entry, load_working
from agent.tools.move import TOOL as MOVE
from agent.tools.place import TOOL as PLACE
from board.direct_edits import block_pin
from board.planning import preview_create
from board.previews import preview_apply
from schedule.student_rules.services import ProtectedInput, study_rules_update


def test_move_refuses_a_pinned_block_naming_the_pin(ctx, plan):
    preview_apply(user=plan.user, preview_id=preview_create(user=plan.user, task_class_ids=[plan.pk]).pk)
    first = plan.items.order_by("order").first()
    block_pin(user=plan.user, kind="item", block_id=first.pk, pinned=True, now=NOW)
    working = load_working(plan.user, [plan.pk])
    pinned = item_entry(working, 1)
    assert pinned.pinned
    result = MOVE.run({"task_id": pinned.id, "date": WEEK3_THU, "start_section": 9}, ctx, working)
    assert result.status == "failed" and result.data["code"] == "pinned" and result.working is None
    assert result.summary == f"“{pinned.name}” is pinned: unpin it to move or remove it."
    with translation.override("zh-hans"):
        chinese = MOVE.run({"task_id": pinned.id, "date": WEEK3_THU, "start_section": 9}, ctx, working)
    assert chinese.summary == f"“{pinned.name}”已固定：先取消固定，才能移动或移除。"


def test_place_refuses_a_protected_time_and_suggests_places_outside_it(ctx, plan):
    study_rules_update(user=plan.user, daily_cap=None, buffer_sections=0, latest_section=None,
                       protected=[ProtectedInput(name="午饭", days=(1, 2, 3, 4, 5, 6, 7), first=5, last=5)])
    working = load_working(plan.user, [plan.pk])
    with translation.override("zh-hans"):
        result = PLACE.run({"task_id": item_entry(working, 1).id, "date": WEEK3_THU, "start_section": 5}, ctx,
                           working)
    assert result.status == "failed" and result.data["code"] == "protected_time"
    assert result.summary == "2026-09-24（周四） 第 5 节是你的保护时段“午饭”，不安排学习。"
    assert [s["start_section"] for s in result.data["suggestions"]] == [3, 7, 1]
    assert "可用的位置例如：2026-09-24(周四) 3-4节" in result.content
