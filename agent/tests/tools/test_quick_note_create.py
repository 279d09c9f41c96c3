"""quick_note_create: a real quick note, once per call id, added to the working schedule."""

from __future__ import annotations

import json

from agent.tests.tools.conftest import board_of, make_ctx
from agent.tools.quick_note_create import TOOL
from taskclasses.models import Task


def test_a_note_is_parsed_and_saved_once_per_call(ctx, working):
    result = TOOL.run({"text": "下周日之前交概率论作业"}, ctx, working)
    again = TOOL.run({"text": "下周日之前交概率论作业"}, ctx, working)
    saved = json.loads(result.content)
    assert Task.objects.count() == 1 and saved["title"] == "交概率论作业"
    assert saved["deadline"] == "2026-09-27 23:59" and json.loads(again.content)["task_id"] == saved["task_id"]
    note = board_of(result.working).find(task_id=saved["task_id"])
    assert note.status == "pending" and note.id == saved["entry_id"]


def test_a_chosen_quadrant_wins(ctx):
    saved = json.loads(TOOL.run({"text": "买牙膏", "quadrant": 3}, ctx, None).content)
    assert saved["quadrant"] == 3 and saved["quadrant_label"] == "简单不重要"


def test_an_empty_note_is_refused(ctx):
    result = TOOL.run({"text": "   "}, ctx, None)
    assert result.status == "failed" and result.content == "创建失败：Write what the note is about."


def test_the_note_belongs_to_the_caller_only(user, other_user):
    TOOL.run({"text": "交作业"}, make_ctx(other_user, call_id="c9"), None)
    assert not Task.objects.filter(user=user).exists() and Task.objects.filter(user=other_user).count() == 1


def test_the_confirmation_quotes_the_note(ctx):
    assert TOOL.confirmation({"text": "交作业"}, ctx, None) == "Save the quick note “交作业”."
