"""place: a pending entry gets a place, or a correctable refusal and an unchanged board."""

from __future__ import annotations

from datetime import date

from django.utils import translation

from agent.tests.tools.conftest import (
    WEEK3_FRI,
    WEEK3_MON,
    WEEK3_THU,
    WEEK3_TUE,
    at,
    entry_named,
    item_entry,
    load_working,
    make_ctx,
)
from agent.tools.place import TOOL
from schedule.tests.factories import make_task_class


def _place(ctx, working, entry, day, start):
    return TOOL.run({"task_id": entry.id, "date": day, "start_section": start}, ctx, working)


def test_a_pending_block_is_suggested_at_the_given_place(ctx, working):
    result = _place(ctx, working, item_entry(working, 1), WEEK3_THU, 3)
    placed = item_entry(result.working, 1)
    assert result.status == "done" and placed.status == "suggested"
    assert placed.place == at(WEEK3_THU, 3)
    assert "预排到 2026-09-24(周四) 3-4节(10:15-11:55)" in result.content
    assert item_entry(working, 1).status == "pending"  # the input is never changed


def test_a_block_inside_a_filler_course_is_embedded(ctx, working):
    result = _place(ctx, working, item_entry(working, 1), WEEK3_TUE, 1)
    assert item_entry(result.working, 1).place.host == entry_named(working, "形势与政策").id


def test_a_course_is_a_conflict_naming_it_and_what_would_work(ctx, working):
    result = _place(ctx, working, item_entry(working, 1), WEEK3_MON, 1)
    course = entry_named(working, "高等数学")
    assert result.status == "failed" and result.working is None
    assert result.summary == "2026-09-21 (Monday), sections 1-2: taken by “高等数学”."
    assert (result.data["code"], result.data["occupant"]) == ("slot_taken", course.id)
    assert f"涉及的条目：[{item_entry(working, 1).id}]概率论复习 #1、[{course.id}]高等数学" in result.content
    assert "可用的位置例如：2026-09-21(周一) 3-4节" in result.content
    assert result.data["suggestions"][0] == {"date": WEEK3_MON, "start_section": 3}


def test_an_even_start_the_past_and_days_outside_are_refused(ctx, working):
    entry = item_entry(working, 1)
    assert "not on section 2" in _place(ctx, working, entry, WEEK3_THU, 2).summary
    assert "is outside the planning window" in _place(ctx, working, entry, "2026-12-01", 1).summary
    assert "格式不对" in _place(ctx, working, entry, "next monday", 1).content


def test_the_class_window_and_exclusions_are_honoured(ctx, plan):
    strict = make_task_class(plan.user, name="英语", items=1, excluded_pairs=[2], excluded_days=[4],
                             start=date(2026, 9, 22), end=date(2026, 9, 30))
    working = load_working(plan.user, [strict.pk])
    entry = entry_named(working, "英语 #1")
    assert _place(ctx, working, entry, WEEK3_THU, 5).summary == "This plan excludes Thursday."
    assert _place(ctx, working, entry, WEEK3_TUE, 3).summary == "This plan excludes sections 3-4."
    assert "is outside this plan's dates" in _place(ctx, working, entry, WEEK3_MON, 3).summary


def test_a_time_that_has_passed_is_refused(ctx, working):
    import dataclasses
    from datetime import timedelta

    later = dataclasses.replace(ctx, now=ctx.now + timedelta(days=7, hours=5))  # Monday of week 3, 12:00
    assert "section 3 has already passed" in _place(later, working, item_entry(working, 1), WEEK3_MON, 3).summary


def test_an_already_placed_block_must_be_moved_instead(ctx, working):
    placed = _place(ctx, working, item_entry(working, 1), WEEK3_THU, 3).working
    result = _place(ctx, placed, item_entry(placed, 1), WEEK3_THU, 5)
    assert result.data["code"] == "not_pending" and "请用 move" in result.content


def test_blocks_of_a_class_stay_in_order_unless_reordering_is_allowed(ctx, user, working):
    placed = _place(ctx, working, item_entry(working, 2), WEEK3_TUE, 3).working
    refused = _place(ctx, placed, item_entry(placed, 3), WEEK3_MON, 3)
    assert refused.status == "failed" and refused.data["code"] == "order_broken"
    assert refused.summary == ("“概率论复习 #3” must come after “概率论复习 #2” in this plan; choose a later place, "
                               "or allow reordering.")
    allowed = _place(make_ctx(user, allow_reorder=True), placed, item_entry(placed, 3), WEEK3_MON, 3)
    assert allowed.status == "done"


def test_an_unknown_or_foreign_id_is_refused(ctx, working, other_user):
    unknown = TOOL.run({"task_id": 999, "date": WEEK3_THU, "start_section": 1}, ctx, working)
    assert unknown.summary == "There is no item 999 on this schedule." and "编号见 get_overview" in unknown.content
    foreign = TOOL.run({"task_id": item_entry(working, 1).id, "date": WEEK3_THU, "start_section": 1},
                       make_ctx(other_user), working)
    assert foreign.status == "failed" and foreign.working.user_id == other_user.pk


def test_the_confirmation_names_the_block_and_the_real_time(ctx, working):
    text = TOOL.confirmation({"task_id": item_entry(working, 1).id, "date": WEEK3_THU, "start_section": 3},
                             ctx, working)
    assert text == "Place “概率论复习 #1” on 2026-09-24 (Thu) 10:15-11:55."


def test_the_confirmation_gives_the_weekday_in_the_students_language(ctx, working):
    args = {"task_id": item_entry(working, 1).id, "date": WEEK3_FRI, "start_section": 3}
    with translation.override("zh-hans"):
        text = TOOL.confirmation(args, ctx, working)
    assert text == "把“概率论复习 #1”安排在 2026-09-25 (周五) 10:15-11:55。"
    with translation.override("en"):
        assert "2026-09-25 (Fri) 10:15-11:55" in TOOL.confirmation(args, ctx, working)
