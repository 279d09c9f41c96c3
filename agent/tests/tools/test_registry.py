"""The registry: every tool listed once, schemas for native calls and the prompt, argument checks."""

from __future__ import annotations

import pytest

from agent.flow.state import TurnOptions
from agent.toolbox import RegistryToolbox
from agent.tools.support.errors import ToolArgumentError, UnknownTool
from agent.tools.support.registry import TOOLS, arguments_check, tool_get, tool_specs, tools_prompt_list

WRITES = {"place", "move", "swap", "batch_move", "unplace", "queue_apply_head_move", "quick_note_create",
          "create_task_class", "forget_memories", "spread_even", "min_context_switch", "catch_up",
          "start_next_semester"}


def test_every_tool_is_registered_with_its_write_flag():
    assert len(TOOLS) == 28 and {name for name, tool in TOOLS.items() if tool.writes} == WRITES


def test_an_unknown_tool_lists_the_tools():
    with pytest.raises(UnknownTool) as caught:
        tool_get("delete_everything")
    assert caught.value.code == "unknown_tool" and "get_overview" in caught.value.message


def test_specs_and_the_prompt_list_come_from_the_same_schemas():
    spec = tool_specs(["place"])[0].to_openai()
    assert spec["function"]["parameters"]["required"] == ["task_id", "date", "start_section"]
    assert "- place（写操作，需学生确认）" in tools_prompt_list(["place"])
    assert "start_section（integer ≥1 ≤15，必填）" in tools_prompt_list(["place"])


def test_whole_floats_become_ints():
    assert arguments_check(tool_get("place"), {"task_id": 3.0, "date": "2026-09-21", "start_section": 1}) == {
        "task_id": 3, "date": "2026-09-21", "start_section": 1}


@pytest.mark.parametrize("raw, message", [
    ({"date": "2026-09-21", "start_section": 1}, "arguments: missing required field(s) task_id."),
    ({"task_id": 1, "date": "2026-09-21", "start_section": 1, "user_id": 2},
     "arguments: unknown field(s) user_id; allowed: task_id, date, start_section."),
    ({"task_id": "1", "date": "2026-09-21", "start_section": 1}, "arguments.task_id: must be a whole number; got '1'."),
    ({"task_id": 1, "date": "21/09", "start_section": 1}, "arguments.date: must be a date YYYY-MM-DD; got '21/09'."),
    ({"task_id": 1, "date": "2026-09-21", "start_section": 0}, "arguments.start_section: must be at least 1; got 0."),
    ({"task_id": True, "date": "2026-09-21", "start_section": 1}, "arguments.task_id: must be a whole number; got True."),
])
def test_bad_arguments_say_what_to_fix(raw, message):
    with pytest.raises(ToolArgumentError) as caught:
        arguments_check(tool_get("place"), raw)
    assert caught.value.message == message and caught.value.code == "invalid_tool_arguments"


def test_enums_and_nested_arrays_are_checked():
    with pytest.raises(ToolArgumentError, match=r"arguments.day_scope: must be one of all, weekday, weekend"):
        arguments_check(tool_get("query_available_slots"), {"day_scope": "weekends"})
    with pytest.raises(ToolArgumentError, match=r"arguments.moves\[0\]: missing required field\(s\) date"):
        arguments_check(tool_get("batch_move"), {"moves": [{"task_id": 1, "start_section": 1}]})
    with pytest.raises(ToolArgumentError, match="arguments.moves: needs at least 1 item"):
        arguments_check(tool_get("batch_move"), {"moves": []})


@pytest.mark.django_db
def test_the_toolbox_tells_the_turn_after_each_write_tool_and_never_after_a_read(plan, working):
    ran: list[str] = []
    toolbox = RegistryToolbox(user=plan.user, conversation_id=1, on_write=lambda: ran.append("write"))
    toolbox.run("get_overview", {}, call_id="c1", working=working, options=TurnOptions())
    assert ran == []
    toolbox.run("unplace", {"task_id": 999}, call_id="c2", working=working, options=TurnOptions())
    assert ran == ["write"]  # refused too: what it changed is for the turn to read again, not to guess


def test_the_tools_folder_holds_one_registered_tool_per_module_and_nothing_else():
    import importlib
    from pathlib import Path

    from agent.tools.support.registry import TOOLS

    folder = Path(__file__).resolve().parents[2] / "tools"
    modules = sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")
    tools = {name: importlib.import_module(f"agent.tools.{name}").TOOL for name in modules}

    assert sorted(tool.name for tool in tools.values()) == sorted(TOOLS)
    assert all(TOOLS[tool.name] is tool for tool in tools.values())
