"""Lean prompts: tools come in packs, a stage is offered only the packs its route or plan asked for,
the model can ask for another pack in one step, and the route stage sees today and tomorrow.

The probe: "我明天有什么课" cost 3 model calls and about 6,700 prompt tokens; every execute call
carried all 20 tool schemas, the web and write tools included.
"""

from __future__ import annotations

import json

import pytest

from agent.flow.tool_packs import PACKS
from agent.tests.factories import last_of, make_conversation, plan, reply, resume, route, run_turn, tool_call
from agent.tools.support.registry import TOOLS, pack_tools
from schedule.tests.factories import import_csv

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("week_two")]


def offered(request) -> set[str]:
    return {tool["function"]["name"] for tool in request.body.get("tools") or []}


def routed(name: str, packs: list[str]) -> dict:
    return {"text": json.dumps({"route": name, "packs": packs, "reason": "test"}), "prompt_tokens": 100,
            "completion_tokens": 5}


def test_every_tool_belongs_to_a_known_pack_or_to_every_stage():
    # A tool that names no pack is offered in every execute stage (never hidden by mistake).
    assert {name: tool.pack for name, tool in TOOLS.items() if tool.pack and tool.pack not in PACKS} == {}
    assert all(name in pack_tools(["schedule_read"]) for name, tool in TOOLS.items() if not tool.pack)
    assert {"web_search", "web_fetch"} <= set(pack_tools(["web"]))
    assert not {"web_search", "web_fetch"} & set(pack_tools(["schedule_read"]))


def test_tomorrows_courses_are_answered_in_two_calls_from_the_prompt(fake_llm, user):
    # Monday of week 2: tomorrow (Tuesday) has 线性代数 in sections 3-4.
    import_csv(user, "线性代数,2,3,4,李老师,三教201,1-16", "高等数学,1,1,2,王老师,二教1101,1-16")
    fake_llm.script(route("reply"), reply("明天上午有线性代数（三教201）。"))

    frames = run_turn(user, make_conversation(user), "我明天有什么课")

    assert frames[-1]["outcome"] == "completed" and len(fake_llm.requests) == 2
    route_prompt = fake_llm.requests[0].messages[0]["content"]
    assert "## 明天的课表" in route_prompt and "线性代数（三教201）" in route_prompt
    assert "## 今天的课表" in route_prompt and "高等数学（二教1101）" in route_prompt
    assert all(not request.body.get("tools") for request in fake_llm.requests)  # no stage sends a tool


def test_the_execute_stage_gets_only_the_packs_the_route_asked_for(fake_llm, user):
    fake_llm.script(routed("execute", ["schedule_read"]), tool_call("query_range", {"date": "2026-09-16"}),
                    reply("周三没有课。"))

    frames = run_turn(user, make_conversation(user), "周三有什么安排")

    assert frames[-1]["outcome"] == "completed"
    tools = offered(fake_llm.requests[1])
    assert tools == {*pack_tools(["schedule_read"]), "ask_user", "request_tools"}
    assert not tools & {"web_fetch", "web_search", "move", "place", "quick_note_create"}


def test_the_model_asks_for_another_pack_and_has_it_the_next_round(fake_llm, user):
    fake_llm.script(routed("execute", ["schedule_read"]), tool_call("request_tools", {"packs": ["notes"]}),
                    tool_call("query_tasks", {}), reply("你没有待办。"))

    frames = run_turn(user, make_conversation(user), "看看日程和待办")

    assert frames[-1]["outcome"] == "completed"
    first, second = fake_llm.requests[1], fake_llm.requests[2]
    assert "query_tasks" not in offered(first) and "query_tasks" in offered(second)
    assert "request_tools" in offered(second)  # the packs still missing can be asked for too
    granted = second.messages[-1]
    assert granted["role"] == "tool" and "query_tasks" in granted["content"]
    assert [f["name"] for f in frames if f["type"] == "tool.call"] == ["query_tasks"]  # not a student-facing step


def test_unknown_pack_names_fall_back_to_the_routes_defaults(fake_llm, user):
    fake_llm.script(routed("quick_note", ["teleport"]), reply("好的。"))

    run_turn(user, make_conversation(user), "记一下")

    assert offered(fake_llm.requests[1]) == {*pack_tools(["notes"]), "ask_user", "request_tools"}


def test_a_plan_names_the_packs_its_execution_gets(fake_llm, user):
    conversation = make_conversation(user)
    body = json.loads(plan("查空闲")["text"])
    fake_llm.script(route("plan"), {"text": json.dumps({**body, "packs": ["schedule_read"]}, ensure_ascii=False)})
    card = last_of(run_turn(user, conversation, "帮我看看下周哪里有空"), "confirm.request")

    fake_llm.script(reply("下周每天晚上都有空。"))
    frames = resume(user, conversation, card["interaction_id"], "accept")

    assert frames[-1]["outcome"] == "completed" and len(fake_llm.requests) == 3  # plan -> confirm -> execute
    assert offered(fake_llm.requests[2]) == {*pack_tools(["schedule_read"]), "ask_user", "request_tools"}


def test_a_route_that_names_no_packs_gets_the_read_pack_only(fake_llm, user):
    # The probe: a question routed without packs carried all 18 read+write tools (9,256 characters).
    fake_llm.script(route("execute"), reply("周三没有课。"))

    frames = run_turn(user, make_conversation(user), "周三有什么安排")

    assert frames[-1]["outcome"] == "completed"
    tools = offered(fake_llm.requests[1])
    assert tools == {*pack_tools(["schedule_read"]), "ask_user", "request_tools"}
    assert not tools & set(pack_tools(["schedule_write"])) - set(pack_tools(["schedule_read"]))
    request_tools = next(t for t in fake_llm.requests[1].body["tools"] if t["function"]["name"] == "request_tools")
    assert "schedule_write" in json.dumps(request_tools, ensure_ascii=False)  # writing is one request away
