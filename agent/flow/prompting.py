"""What the nodes share when they talk to the model: the conversation as messages, the thinking
choice, and the context meter. Keeps each node module about its own decision.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agent.flow.context import compact_history, estimate_tokens, history_budget
from agent.flow.contracts import ContextUsage
from agent.flow.deps import Deps
from agent.flow.state import TurnState
from smartmate.llm import ChatMessage, StageConfig, ToolSpec

DEFAULT_BUDGET = 24_000


def conversation_messages(state: TurnState, *, fixed_tokens: int, budget: int = DEFAULT_BUDGET) -> list[ChatMessage]:
    """Return the earlier messages that fit the budget (older ones as a digest) and the new message."""
    compact = compact_history(state.history, history_budget(budget, fixed=fixed_tokens))
    messages: list[ChatMessage] = []
    if compact.digest or compact.dropped:
        note = "（更早的对话摘要，仅供参考）\n" + compact.digest if compact.digest else ""
        if compact.dropped:
            note += f"\n（另有 {compact.dropped} 条更早的消息已省略）"
        messages.append(ChatMessage.user(note.strip()))
        messages.append(ChatMessage.assistant("好的。"))
    messages += [ChatMessage(role=message.role, content=message.content) for message in compact.recent]
    messages.append(ChatMessage.user(state.user_text))
    return messages


def context_usage(*, system: str, memory: str, history: Sequence[ChatMessage], tools: Sequence[ToolSpec],
                  message: str, budget: int = DEFAULT_BUDGET) -> ContextUsage:
    """Return the context meter: estimated tokens of each prompt part against the budget."""
    parts = {
        "system": max(0, estimate_tokens(system) - estimate_tokens(memory)),
        "memory": estimate_tokens(memory),
        "history": sum(estimate_tokens(item.content) for item in history),
        "tools": sum(estimate_tokens(str(spec.to_openai())) for spec in tools),
        "message": estimate_tokens(message),
    }
    return ContextUsage(parts=parts, used=sum(parts.values()), budget=budget)


def stage_config(deps: Deps, state: TurnState, stage: str, *, deep: bool = False) -> StageConfig:
    """Return the stage's settings with the student's thinking choice applied ("auto" keeps the stage's)."""
    config = deps.llm().stage_config(stage)
    thinking = state.options.thinking
    if thinking == "auto" and deep:
        thinking = "on"
    if thinking == "auto":
        return config
    return dataclasses.replace(config, thinking=thinking)
