"""Per-stage call settings: which model, how creative, how long, whether to think, JSON or not.

Defaults: low temperatures for the stages that decide or answer in JSON (route, plan, execute,
memory, title), a little more for the prose of deliver; ``max_tokens`` is what one call of the stage
needs, not the model's ceiling, so a runaway answer stays cheap. Models come from ``LLM_MODELS``
(one per stage, ``LLM_MODEL`` by default); any field can be overridden per stage with
``LLM_STAGE_OVERRIDES``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from smartmate.llm.contracts import StageConfig, Thinking

# How an endpoint is told to think or not; there is no standard for it.
#   none            send nothing (OpenAI and most servers reject unknown parameters)
#   thinking        {"thinking": {"type": "enabled" | "disabled"}}  (Volcengine Ark/Doubao, DeepSeek, GLM)
#   enable_thinking {"enable_thinking": true | false}              (Qwen on DashScope, vLLM Qwen3)
ThinkingParam = Literal["none", "thinking", "enable_thinking"]
THINKING_PARAMS: tuple[str, ...] = ("none", "thinking", "enable_thinking")


@dataclass(frozen=True)
class StageDefaults:
    """A stage's settings apart from its model."""

    temperature: float | None
    max_tokens: int | None
    thinking: Thinking
    json_mode: bool


STAGE_DEFAULTS: Mapping[str, StageDefaults] = {
    "route": StageDefaults(temperature=0.3, max_tokens=1024, thinking="off", json_mode=False),
    "plan": StageDefaults(temperature=0.2, max_tokens=4096, thinking="on", json_mode=True),
    "execute": StageDefaults(temperature=0.3, max_tokens=2048, thinking="on", json_mode=False),
    "deliver": StageDefaults(temperature=0.5, max_tokens=1200, thinking="off", json_mode=False),
    "memory": StageDefaults(temperature=0.1, max_tokens=1200, thinking="off", json_mode=True),
    "title": StageDefaults(temperature=0.2, max_tokens=40, thinking="off", json_mode=False),
    # Quick add's refinement of an uncertain line: a small JSON object, within a 2 s budget, so no thinking.
    "quick_add": StageDefaults(temperature=0.1, max_tokens=300, thinking="off", json_mode=True),
}
_OVERRIDABLE = ("model", "temperature", "max_tokens", "thinking", "json_mode")


def build_stage_config(stage: str, *, models: Mapping[str, str], default_model: str,
                       overrides: Mapping[str, Mapping[str, Any]]) -> StageConfig:
    """Return the StageConfig of ``stage``; raise ValueError for a stage nobody declared."""
    known = set(STAGE_DEFAULTS) | set(models) | set(overrides)
    if stage not in known:
        raise ValueError(f"Unknown LLM stage {stage!r}; known stages: {', '.join(sorted(known))}.")
    defaults = STAGE_DEFAULTS.get(stage, StageDefaults(None, None, "auto", False))
    config = StageConfig(model=models.get(stage) or default_model, temperature=defaults.temperature,
                         max_tokens=defaults.max_tokens, thinking=defaults.thinking, json_mode=defaults.json_mode)
    return replace(config, **dict(overrides.get(stage, {})))


def validate_overrides(overrides: Mapping[str, Mapping[str, Any]]) -> None:
    """Raise ValueError naming the first override field that is unknown or of the wrong kind."""
    for stage, fields in overrides.items():
        for name, value in fields.items():
            if name not in _OVERRIDABLE:
                raise ValueError(f"LLM_STAGE_OVERRIDES[{stage!r}] has unknown field {name!r}; "
                                 f"use {', '.join(_OVERRIDABLE)}.")
            if name == "thinking" and value not in ("auto", "on", "off"):
                raise ValueError(f"LLM_STAGE_OVERRIDES[{stage!r}]['thinking'] must be auto, on or off.")


def thinking_body(thinking: Thinking, param: str) -> dict[str, Any]:
    """Return the extra request fields that switch thinking on or off for this endpoint family."""
    if thinking == "auto" or param == "none":
        return {}
    if param == "thinking":
        return {"thinking": {"type": "enabled" if thinking == "on" else "disabled"}}
    if param == "enable_thinking":
        return {"enable_thinking": thinking == "on"}
    raise ValueError(f"LLM_THINKING_PARAM must be one of {', '.join(THINKING_PARAMS)}; got {param!r}.")
