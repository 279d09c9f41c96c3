""""上学期高数复习了多少次？": a whole turn with the scripted model, the real read tool and the frozen semester."""

from __future__ import annotations

import json

import pytest

from agent.flow.prompts import system_prompt
from agent.tests.factories import last_of, make_conversation, reply, resume, route, run_turn, tool_call
from agent.turn_services import DjangoTurnServices
from schedule.semesters.models import Semester
from schedule.tests.semesters.helpers import autumn_semester, start_spring

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_assistant_answers_about_last_semester_from_its_frozen_blocks(fake_llm, user):
    start_spring(user, autumn_semester(user)["notes"])
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), tool_call("query_past_semester", {"keyword": "高数"}),
                    reply("上学期（2026 秋季学期）高数复习安排了 3 次：完成 1 次，错过 1 次，还有 1 次没标记。"))

    frames = run_turn(user, conversation, "上学期高数复习了多少次？")

    assert [f["status"] for f in frames if f["type"] == "tool.result"] == ["done"]
    tool_message = [m for m in fake_llm.requests[-1].messages if m.get("role") == "tool"][-1]
    assert json.loads(tool_message["content"])["study_blocks_by_plan"] == [
        {"name": "高数复习", "done": 1, "missed": 1, "placed": 1, "total": 3}]
    assert "完成 1 次" in "".join(f.get("text", "") for f in frames if f["type"] == "assistant.delta")


def test_the_prompt_names_this_semester_and_last_semester(user):
    start_spring(user, autumn_semester(user)["notes"])

    prompt = system_prompt(DjangoTurnServices(user=user, conversation_id=0, turn_id="t").prompt_context())

    assert "本学期是2027 春季学期；往期学期（新的在前，第一个即“上学期”）：2026 秋季学期" in prompt


def test_starting_the_next_semester_waits_for_the_students_confirmation(fake_llm, user):
    notes = autumn_semester(user)["notes"]
    conversation = make_conversation(user)
    arguments = {"weeks": 18, "note_ids": [notes[0].pk], "protected": ["午饭"]}
    fake_llm.script(route("execute"), tool_call("start_next_semester", arguments, text="要开始新学期吗？"))

    card = last_of(run_turn(user, conversation, "下学期开始了，帮我开新学期，带上还图书馆的书和午饭"), "confirm.request")

    assert card["details"] == {"tool": "start_next_semester", "arguments": arguments}
    assert not Semester.objects.filter(user=user).exists()  # nothing ran before the answer
    fake_llm.script(reply("新学期开始了，去导入新课表吧。"))
    frames = resume(user, conversation, card["interaction_id"], "accept")
    assert [f["status"] for f in frames if f["type"] == "tool.result"] == ["done"]
    assert Semester.objects.get(user=user).label == "2026 autumn semester"
