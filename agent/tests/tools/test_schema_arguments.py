"""Every tool's schema against the checker the model's calls go through (``RegistryToolbox.check``).

Arguments are generated from each tool's own schema: every schema-valid set must be accepted, and
anything at all the model could send either passes or becomes a correctable ``ToolArgumentError``,
never another exception (which would end the turn in "服务器出了点问题").
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.models import User
from agent.toolbox import RegistryToolbox
from agent.tools.support.errors import ToolArgumentError
from agent.tools.support.registry import TOOLS, arguments_check, tool_get, tools_prompt_list

_CHECKER = RegistryToolbox(user=User(pk=1), conversation_id=1)
_FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER


def _valid(schema: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    """Values valid against ``schema`` (the keywords the tools' schemas use)."""
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of(*(_valid({**schema, "type": one}) for one in kind))
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries({k: _valid(v) for k, v in props.items() if k in required},
                                     optional={k: _valid(v) for k, v in props.items() if k not in required})
    if kind == "array":
        return st.lists(_valid(schema.get("items", {})), min_size=schema.get("minItems", 0),
                        max_size=min(schema.get("maxItems", 4), 4))
    if kind == "integer":
        return st.integers(min_value=schema.get("minimum"), max_value=schema.get("maximum"))
    if kind == "number":
        return st.floats(min_value=schema.get("minimum"), max_value=schema.get("maximum"), allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "string":
        if schema.get("format") == "date":
            return st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31)).map(date.isoformat)
        return st.text(min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 12), 12))
    return _json


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                     max_leaves=8)


def _near(schema: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    """Arguments a model could send: valid ones with a field replaced by anything, or anything at all."""
    props = list(schema.get("properties", {}))

    def damaged(args: dict[str, Any], key: str, junk: Any) -> dict[str, Any]:
        return {**args, key: junk}

    if not props:
        return _json
    return st.one_of(_json, st.builds(damaged, _valid(schema), st.sampled_from(props), _json))


@pytest.mark.parametrize("name", list(TOOLS))
def test_schema_valid_arguments_are_accepted(name):
    tool = tool_get(name)
    jsonschema.Draft202012Validator.check_schema(dict(tool.parameters))

    @settings(max_examples=40, deadline=None)
    @given(args=_valid(tool.parameters))
    def accepted(args):
        jsonschema.validate(args, dict(tool.parameters), format_checker=_FORMATS)
        checked = _CHECKER.check(name, args)
        assert checked == args
        jsonschema.validate(checked, dict(tool.parameters), format_checker=_FORMATS)

    accepted()


@pytest.mark.parametrize("name", list(TOOLS))
def test_any_arguments_pass_or_become_a_correctable_error(name):
    tool = tool_get(name)

    @settings(max_examples=40, deadline=None)
    @given(args=_near(tool.parameters))
    def checked(args):
        valid = jsonschema.Draft202012Validator(dict(tool.parameters), format_checker=_FORMATS).is_valid(args)
        try:
            _CHECKER.check(name, args)
        except ToolArgumentError as exc:
            assert not valid, f"schema-valid arguments refused: {exc.message}"
            assert exc.message.startswith("arguments")

    checked()


def test_an_exam_given_by_id_or_title_or_null_is_checked():
    tool = tool_get("create_task_class")
    base = {"name": "期末复习", "start_date": "2026-12-01", "end_date": "2026-12-10", "strategy": "spaced"}
    assert arguments_check(tool, {**base, "exam": 3}) == {**base, "exam": 3}
    assert arguments_check(tool, {**base, "exam": 3.0}) == {**base, "exam": 3}
    assert arguments_check(tool, {**base, "exam": "高数期末"}) == {**base, "exam": "高数期末"}
    with pytest.raises(ToolArgumentError, match=r"arguments.exam: must be integer or string; got \[1\]"):
        arguments_check(tool, {**base, "exam": [1]})
    nullable = {"type": "object", "properties": {"n": {"type": ["integer", "null"], "minimum": 1}}}
    assert _check_schema(nullable, {"n": None}) == {"n": None}
    with pytest.raises(ToolArgumentError, match="arguments.n: must be at least 1; got 0"):
        _check_schema(nullable, {"n": 0})


def test_the_prompt_list_shows_a_list_type():
    assert "exam（integer / string）" in tools_prompt_list(["create_task_class"])


def _check_schema(schema: Mapping[str, Any], args: Any) -> Any:
    class _Tool:
        parameters = schema
    return arguments_check(_Tool(), args)  # type: ignore[arg-type]
