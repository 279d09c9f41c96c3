"""create_task_class: a real study plan, once per call id."""

from __future__ import annotations

import json

from agent.tests.tools.conftest import board_of, make_ctx
from agent.tools.create_task_class import TOOL
from taskclasses.models import TaskClass

ARGS = {"name": "线代复习", "start_date": "2026-09-21", "end_date": "2026-09-27", "item_count": 3,
        "strategy": "rapid", "excluded_days": [7]}


def test_a_plan_is_created_once_and_joins_the_working_schedule(ctx, working):
    result = TOOL.run(ARGS, ctx, working)
    again = TOOL.run(ARGS, ctx, working)
    created = json.loads(result.content)
    assert TaskClass.objects.filter(name="线代复习").count() == 1 and created["items"] == 3
    assert json.loads(again.content)["task_class_id"] == created["task_class_id"]
    assert len(board_of(result.working).class_members(created["task_class_id"])) == 3


def test_the_service_rules_come_back_to_the_model(ctx):
    result = TOOL.run({**ARGS, "start_date": "2027-09-21", "end_date": "2027-09-27"}, ctx, None)
    assert result.status == "failed" and "outside the semester" in result.content
    assert "只能给一个" in TOOL.run({**ARGS, "items": ["a"]}, ctx, None).content
    no_items = {k: v for k, v in ARGS.items() if k != "item_count"}
    assert "items" in TOOL.run(no_items, ctx, None).content


def test_the_plan_belongs_to_the_caller(user, other_user):
    TOOL.run(ARGS, make_ctx(other_user, call_id="x"), None)
    assert not TaskClass.objects.filter(user=user).exists()


def test_the_confirmation_names_the_plan(ctx):
    assert TOOL.confirmation(ARGS, ctx, None) == ("Create the study plan “线代复习” with 3 blocks, "
                                                  "2026-09-21 to 2026-09-27.")


def _exam(user, title: str = "线代期末", on: str = "2026-09-27"):
    from datetime import date

    from schedule.exams.models import Exam

    return Exam.objects.create(user=user, title=title, date=date.fromisoformat(on))


SPACED = {"name": "线代间隔复习", "start_date": "2026-09-14", "end_date": "2026-09-27", "item_count": 4,
          "strategy": "spaced"}


def test_a_spaced_plan_is_tied_to_an_exam_by_title_or_id(ctx, user):
    exam = _exam(user)
    made = TOOL.run({**SPACED, "exam": "线代期末"}, ctx, None)
    assert made.status != "failed", made.content
    by_title = json.loads(made.content)
    assert by_title["strategy"] == "spaced" and by_title["exam"] == {"id": exam.pk, "title": "线代期末",
                                                                      "date": "2026-09-27"}
    by_id = TOOL.run({**SPACED, "name": "再复习", "exam": exam.pk}, make_ctx(user, call_id="again"), None)
    assert TaskClass.objects.get(pk=json.loads(by_id.content)["task_class_id"]).exam_id == exam.pk


def test_a_spaced_plan_without_a_known_exam_is_refused_and_writes_nothing(ctx, user, other_user):
    foreign = _exam(other_user)
    for exam in ("期中考试", foreign.pk):
        result = TOOL.run({**SPACED, "exam": exam}, make_ctx(user, call_id=f"x{exam}"), None)
        assert result.status == "failed" and "没有找到考试" in result.content
    no_exam = TOOL.run(SPACED, make_ctx(user, call_id="none"), None)
    assert no_exam.status == "failed"
    assert not TaskClass.objects.filter(user=user).exists()
