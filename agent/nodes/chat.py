"""Chat node: decide how to handle the student's message, and answer directly when that is enough.

The router asks the model (stage ``route``, JSON mode) for ``{"route": "reply" | "plan" | "execute" |
"quick_note"}``. Output that is not such an object goes back to the model with the problem named,
up to ``ROUTE_ATTEMPTS`` answers in all; then the turn shows an ``error`` (``llm_malformed_output``).
A ``reply`` streams the answer (stage ``deliver``, the user-facing prose stage) through
``assistant.delta`` / ``reasoning.delta`` as the model writes it. Planning, executing and quick
notes come in the next slice: for now they end with an ``error`` ``not_yet_available``.
"""

from __future__ import annotations

import dataclasses

from django.utils.translation import gettext as _

from agent.contracts import AssistantDelta, ErrorEvent, ReasoningDelta, StatusEvent
from agent.deps import Deps
from agent.llm import ChatMessage, Completion, LLMStreamInterrupted, MalformedOutput, StreamChunk, TextDelta
from agent.llm import ReasoningDelta as ModelReasoning
from agent.nodes import Step
from agent.prompts import render, system_prompt
from agent.state import ROUTES, Outcome, TurnState

ROUTE_ATTEMPTS = 3


def run(state: TurnState, deps: Deps) -> Step:
    """Route the message; stream a direct reply, or say the capability is not available yet."""
    deps.emit(StatusEvent(code="routing", message=_("Reading your message…")))
    system = system_prompt(deps.services.prompt_context(state.user_text))
    route, corrections, problem = _route(state, deps, system)
    if route is None:
        message = _("The assistant could not decide how to handle your message: its answer was malformed "
                    "%(count)s times in a row. Please try again.") % {"count": ROUTE_ATTEMPTS}
        deps.emit(ErrorEvent(code=MalformedOutput.code, message=message, detail={"problem": problem}))
        return Step("deliver", {"corrections": corrections,
                                "outcome": Outcome("failed", MalformedOutput.code, message)})
    if route != "reply":
        message = _not_yet_available(route)
        deps.emit(ErrorEvent(code="not_yet_available", message=message, detail={"route": route}))
        return Step("deliver", {"route": route, "corrections": corrections,
                                "outcome": Outcome("failed", "not_yet_available", message)})
    return _reply(state, deps, system, corrections)


def _conversation(state: TurnState) -> list[ChatMessage]:
    earlier = [ChatMessage(role=message.role, content=message.content) for message in state.history]
    return [*earlier, ChatMessage.user(state.user_text)]


def _route(state: TurnState, deps: Deps, system: str) -> tuple[str | None, int, str]:
    """Return (route or None after too many malformed answers, corrections made, last problem)."""
    config = dataclasses.replace(deps.llm().stage_config("route"), json_mode=True)
    messages = [ChatMessage.system(f"{system}\n\n{render('route')}"), *_conversation(state)]
    problem = ""
    for attempt in range(ROUTE_ATTEMPTS):
        completion = deps.complete("route", messages, config=config)
        route, problem = _parse_route(completion)
        if route is not None:
            return route, attempt, ""
        # The model's own mistake: show it what was wrong and let it try again.
        messages += [ChatMessage.assistant(completion.text or ""),
                     ChatMessage.user(render("correction", problem=problem))]
    return None, ROUTE_ATTEMPTS, problem


def _parse_route(completion: Completion) -> tuple[str | None, str]:
    try:
        decision = completion.json()
    except MalformedOutput as exc:
        return None, exc.problem
    route = decision.get("route")
    if route in ROUTES:
        return route, ""
    return None, f'"route" must be one of {", ".join(ROUTES)}; got {route!r}'


def _reply(state: TurnState, deps: Deps, system: str, corrections: int) -> Step:
    def on_delta(chunk: StreamChunk) -> None:
        if isinstance(chunk, TextDelta) and chunk.text:
            deps.emit(AssistantDelta(text=chunk.text))
        elif isinstance(chunk, ModelReasoning) and chunk.text:
            deps.emit(ReasoningDelta(text=chunk.text))

    messages = [ChatMessage.system(f"{system}\n\n{render('reply')}"), *_conversation(state)]
    try:
        completion = deps.complete("deliver", messages, on_delta=on_delta)
    except LLMStreamInterrupted as exc:
        # The student already saw part of the answer: keep it, say it broke off.
        deps.emit(ErrorEvent.from_error(exc))
        partial = (exc.detail or {}).get("partial_text", "")
        return Step("deliver", {"route": "reply", "answer": partial, "corrections": corrections,
                                "outcome": Outcome("failed", exc.code, str(exc.message))})
    return Step("deliver", {"route": "reply", "answer": completion.text, "reasoning": completion.reasoning,
                            "corrections": corrections})


def _not_yet_available(route: str) -> str:
    messages = {
        "plan": _("Making study plans in the chat is coming soon. For now, plan a task class on the "
                  "Task classes page."),
        "execute": _("Changing your schedule from the chat is coming soon. For now, edit it on the "
                     "Schedule page."),
        "quick_note": _("Saving quick notes from the chat is coming soon. For now, use Quick add on the "
                        "Overview page."),
    }
    return messages[route]
