"""The assistant's tools, listed explicitly, and the checks of the model's arguments against their schemas.

To add a tool: copy a sibling module (with its translated ``label`` and its ``pack``, one of
agent.flow.tool_packs.PACKS), add its TOOL here, add tests/tools/test_<tool>.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from django.utils.translation import gettext as _

from agent.flow.tool_packs import DEFAULT_PACKS, PACKS, packs_checked
from agent.tools import (
    analyze_health,
    analyze_rhythm,
    batch_move,
    catch_up,
    create_task_class,
    explain_placement,
    get_overview,
    get_task_info,
    memory_forget,
    min_context_switch,
    move,
    place,
    query_available_slots,
    query_past_semester,
    query_range,
    query_target_tasks,
    query_tasks,
    queue_apply_head_move,
    queue_pop_head,
    queue_skip_head,
    queue_status,
    quick_note_create,
    spread_even,
    start_next_semester,
    swap,
    unplace,
    web_fetch,
    web_search,
)
from agent.tools.support.base import Tool
from agent.tools.support.errors import ToolArgumentError, UnknownTool
from smartmate.llm import ToolSpec

_MODULES = (
    get_overview, query_range, query_available_slots, query_target_tasks, get_task_info, explain_placement,
    queue_status, queue_pop_head, queue_skip_head,
    place, move, swap, batch_move, unplace, queue_apply_head_move, catch_up,
    quick_note_create, query_tasks, create_task_class,
    query_past_semester, start_next_semester,
    web_search, web_fetch,
    memory_forget,
    analyze_health, analyze_rhythm, spread_even, min_context_switch,
)
TOOLS: Mapping[str, Tool] = {module.TOOL.name: module.TOOL for module in _MODULES}
__all__ = ["DEFAULT_PACKS", "PACKS", "TOOLS", "pack_tools", "packs_checked", "tool_get", "tool_label", "tool_specs"]

def pack_tools(packs: Iterable[str]) -> list[str]:
    """The names of the tools in ``packs``, plus the tools that name no pack (offered everywhere)."""
    wanted = set(packs)
    return [name for name, tool in TOOLS.items() if not tool.pack or tool.pack in wanted]


def tool_get(name: str) -> Tool:
    """Return the tool called ``name``; an unknown name lists the tools there are."""
    tool = TOOLS.get(name)
    if tool is None:
        raise UnknownTool(f"没有名为 {name!r} 的工具。可用的工具：{', '.join(TOOLS)}。",
                          detail={"name": name, "tools": list(TOOLS)})
    return tool


def tool_label(name: str) -> str:
    """Return the tool's label in the active language (never its raw name: that is for the model)."""
    tool = TOOLS.get(name)
    label = tool.label if tool is not None else None
    return str(label) if label else _("A tool step")


def _chosen(names: Iterable[str] | None) -> list[Tool]:
    return list(TOOLS.values()) if names is None else [tool_get(name) for name in names]


def tool_specs(names: Iterable[str] | None = None) -> list[ToolSpec]:
    """The tools for native tool calling (all of them, or those named)."""
    return [ToolSpec(name=t.name, description=t.description, parameters=dict(t.parameters)) for t in _chosen(names)]


def tools_prompt_list(names: Iterable[str] | None = None) -> str:
    """The tools as prompt text, from the same schemas: one block per tool."""
    blocks = []
    for tool in _chosen(names):
        props = tool.parameters.get("properties", {})
        required = set(tool.parameters.get("required", ()))
        args = [f"  - {key}（{_type_text(schema)}{'，必填' if key in required else ''}）"
                + (f"：{schema['description']}" if schema.get("description") else "")
                for key, schema in props.items()]
        head = f"- {tool.name}{'（写操作，需学生确认）' if tool.writes else ''}：{tool.description}"
        blocks.append("\n".join([head, *(args or ["  （无参数）"])]))
    return "\n".join(blocks)


def _type_text(schema: Mapping[str, Any]) -> str:
    if "enum" in schema:
        return " / ".join(str(v) for v in schema["enum"])
    if schema.get("type") == "array":
        return f"{_type_text(schema.get('items', {}))} 数组"
    bounds = [f"≥{schema['minimum']}" if "minimum" in schema else "", f"≤{schema['maximum']}" if "maximum" in schema else ""]
    kind = schema.get("type", "any")
    return (" / ".join(map(str, kind)) if isinstance(kind, list) else str(kind)) + "".join(f" {b}" for b in bounds if b)


# --- Argument checks -------------------------------------------------------------------------------

def arguments_check(tool: Tool, raw: Mapping[str, Any] | Any) -> dict[str, Any]:
    """Return the arguments checked against the tool's schema (whole floats become ints), or raise
    ToolArgumentError saying which field is wrong and what it should be."""
    if raw is None:
        raw = {}
    value = _check(tool.parameters, raw, "arguments")
    return value


def _fail(path: str, message: str) -> ToolArgumentError:
    return ToolArgumentError(f"{path}: {message}", detail={"field": path})


def _check(schema: Mapping[str, Any], value: Any, path: str) -> Any:
    kind = schema.get("type", "")
    if isinstance(kind, list):  # one of several types: the first that takes the value
        value = _one_of_types(schema, [str(one) for one in kind], value, path)
    else:
        checker = _CHECKERS.get(str(kind))
        if checker is not None:
            value = checker(schema, value, path)
    if "enum" in schema and value not in schema["enum"]:
        raise _fail(path, f"must be one of {', '.join(map(str, schema['enum']))}; got {value!r}.")
    return value


def _one_of_types(schema: Mapping[str, Any], kinds: list[str], value: Any, path: str) -> Any:
    """Check ``value`` against the first of ``kinds`` whose type it has (``["integer", "null"]``: a
    whole number or null); its error is the one the model reads. No type fits: say which would."""
    for kind in kinds:
        if _is_a(kind, value):
            checker = _CHECKERS.get(kind)
            return checker(schema, value, path) if checker is not None else value
    raise _fail(path, f"must be {' or '.join(kinds)}; got {value!r}.")


def _is_a(kind: str, value: Any) -> bool:
    """Whether ``value`` has the JSON type ``kind`` (a whole float counts as an integer)."""
    if kind == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and value.is_integer())
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    types: dict[str, type | tuple[type, ...]] = {"object": Mapping, "array": list, "string": str, "boolean": bool,
                                                 "null": type(None)}
    return kind not in types or isinstance(value, types[kind])


def _object(schema: Mapping[str, Any], value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(path, f"must be an object; got {type(value).__name__}.")
    props = schema.get("properties", {})
    if schema.get("additionalProperties", True) is False:
        unknown = sorted(set(value) - set(props))
        if unknown:
            raise _fail(path, f"unknown field(s) {', '.join(unknown)}; allowed: {', '.join(props) or 'none'}.")
    missing = [key for key in schema.get("required", ()) if key not in value]
    if missing:
        raise _fail(path, f"missing required field(s) {', '.join(missing)}.")
    return {key: _check(props.get(key, {}), item, f"{path}.{key}") for key, item in value.items()}


def _array(schema: Mapping[str, Any], value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(path, f"must be an array; got {type(value).__name__}.")
    if len(value) < schema.get("minItems", 0):
        raise _fail(path, f"needs at least {schema['minItems']} item(s).")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        raise _fail(path, f"takes at most {schema['maxItems']} item(s); got {len(value)}.")
    return [_check(schema.get("items", {}), item, f"{path}[{n}]") for n, item in enumerate(value)]


def _integer(schema: Mapping[str, Any], value: Any, path: str) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, f"must be a whole number; got {value!r}.")
    return _bounded(schema, value, path)


def _number(schema: Mapping[str, Any], value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail(path, f"must be a number; got {value!r}.")
    return _bounded(schema, value, path)


def _bounded(schema: Mapping[str, Any], value: Any, path: str) -> Any:
    if "minimum" in schema and value < schema["minimum"]:
        raise _fail(path, f"must be at least {schema['minimum']}; got {value}.")
    if "maximum" in schema and value > schema["maximum"]:
        raise _fail(path, f"must be at most {schema['maximum']}; got {value}.")
    return value


def _string(schema: Mapping[str, Any], value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _fail(path, f"must be a string; got {value!r}.")
    if len(value) < schema.get("minLength", 0):
        raise _fail(path, "must not be empty." if schema.get("minLength") == 1
                    else f"needs at least {schema['minLength']} characters.")
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        raise _fail(path, f"takes at most {schema['maxLength']} characters; got {len(value)}.")
    if schema.get("format") == "date":
        try:
            date.fromisoformat(value)
        except ValueError:
            raise _fail(path, f"must be a date YYYY-MM-DD; got {value!r}.") from None
    return value


def _boolean(schema: Mapping[str, Any], value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, f"must be true or false; got {value!r}.")
    return value


def _null(schema: Mapping[str, Any], value: Any, path: str) -> None:
    if value is not None:
        raise _fail(path, f"must be null; got {value!r}.")
    return None


_CHECKERS = {"object": _object, "array": _array, "integer": _integer, "number": _number, "string": _string,
             "boolean": _boolean, "null": _null}
