"""Chat node: resume the open interaction, or decide how to handle the student's message.

Resume: the student answered a confirmation or question (``state.resume``); the services checked
its ``interaction_id`` before the turn started. No model call: the answer says where to go on.

Route: the model (stage ``route``, JSON mode) answers ``{"route": "reply" | "plan" | "execute" |
"quick_note", "deep": bool}``. Output that is not such an object goes back to the model with the
problem named, up to ``ROUTE_ATTEMPTS`` answers in all; then an ``error`` (``llm_malformed_output``).
A ``reply`` streams the answer (stage ``deliver``) through ``assistant.delta`` / ``reasoning.delta``
as the model writes it; ``deep`` (or the student's thinking toggle) asks the model to reason first.
A reply cut at the model's length limit ends the turn ``truncated``; a cut route answer is malformed.
"""

from __future__ import annotations

import dataclasses

from django.utils.translation import gettext as _

from agent.flow.contracts import ErrorEvent, StatusEvent
from agent.flow.deps import Deps
from agent.flow.nodes import Step, cut_off
from agent.flow.prompting import context_usage, conversation_messages, stage_config
from agent.flow.prompts import render, system_prompt
from agent.flow.state import ROUTES, Outcome, PlanConfirmation, Route, TurnState
from agent.flow.streaming import DeltaBatcher
from agent.flow.tool_packs import packs_checked
from smartmate.llm import ChatMessage, Completion, LLMStreamInterrupted, MalformedOutput

ROUTE_ATTEMPTS = 3


def run(state: TurnState, deps: Deps) -> Step:
    """Resume the open interaction, or route the message and stream a direct reply."""
    if state.resume is not None and state.pending is not None:
        return _resume(state)
    deps.emit(StatusEvent(code="routing", message=_("Reading your message…")))
    context = deps.services.prompt_context(state.user_text)
    system = system_prompt(context)
    history = conversation_messages(state, fixed_tokens=len(system) // 2)
    route, deep, corrections, problem, packs = _route(deps, system, history)
    if route is None:
        message = _("The assistant could not decide how to handle your message: its answer was malformed "
                    "%(count)s times in a row. Please try again.") % {"count": ROUTE_ATTEMPTS}
        deps.emit(ErrorEvent(code=MalformedOutput.code, message=message, detail={"problem": problem}))
        return Step("deliver", state.updated(corrections=corrections,
                                             outcome=Outcome("failed", MalformedOutput.code, message)))
    deps.emit(context_usage(system=system, memory=context.memory, history=history[:-1], tools=(),
                            message=state.user_text))
    # A new request starts afresh: an earlier plan or unanswered card does not carry over.
    fresh = state.updated(route=route, corrections=corrections, pending=None, plan=None, plan_confirmed=False,
                          scratch=(), rounds=0, actions=(), packs=packs)
    if route == "plan":
        return Step("plan", fresh)
    if route in ("execute", "quick_note"):
        return Step("execute", fresh)
    return _reply(fresh, deps, system, history, deep=deep)


def _resume(state: TurnState) -> Step:
    """Go on where the open interaction said, with the student's answer in the state."""
    pending, resume = state.pending, state.resume
    assert pending is not None and resume is not None, "a resumed turn has an open card and an answer"
    if isinstance(pending.data, PlanConfirmation):
        if resume.action == "accept":
            next_node = "rough_build" if pending.data.plan.rough_build else "execute"
            return Step(next_node, state.updated(plan_confirmed=True, pending=None, resume=None))
        return Step("plan", state.updated(pending=None))  # plan sees the rejection in ``resume`` and replans
    return Step(pending.resume_node, state)  # a tool confirmation or a question: its node reads ``resume``


def _route(deps: Deps, system: str,
           history: list[ChatMessage]) -> tuple[Route | None, bool, int, str, tuple[str, ...]]:
    """Return (route or None after too many malformed answers, deep, corrections made, last problem,
    the tool packs it asked for)."""
    config = dataclasses.replace(deps.llm().stage_config("route"), json_mode=True)
    messages = [ChatMessage.system(f"{system}\n\n{render('route')}"), *history]
    problem = ""
    for attempt in range(ROUTE_ATTEMPTS):
        completion = deps.complete("route", messages, config=config)
        route, deep, problem = _parse_route(completion)
        if route is not None:
            return route, deep, attempt, "", _packs_named(completion)
        # The model's own mistake: show it what was wrong and let it try again.
        messages += [ChatMessage.assistant(completion.text or ""),
                     ChatMessage.user(render("correction", problem=problem))]
    return None, False, ROUTE_ATTEMPTS, problem, ()


def _packs_named(completion: Completion) -> tuple[str, ...]:
    """The known tool packs the route answer named (unknown names are dropped, not corrected)."""
    try:
        return packs_checked(completion.json().get("packs"))
    except MalformedOutput:
        return ()


def _parse_route(completion: Completion) -> tuple[Route | None, bool, str]:
    try:
        decision = completion.json()
    except MalformedOutput as exc:
        return None, False, exc.problem
    route = decision.get("route")
    if route in ROUTES:
        return route, decision.get("deep") is True, ""
    return None, False, f'"route" must be one of {", ".join(ROUTES)}; got {route!r}'


def _reply(state: TurnState, deps: Deps, system: str, history: list[ChatMessage], *, deep: bool) -> Step:
    messages = [ChatMessage.system(f"{system}\n\n{render('reply')}"), *history]
    config = stage_config(deps, state, "deliver", deep=deep)
    stream = DeltaBatcher(deps.emit)
    try:
        completion = deps.complete("deliver", messages, on_delta=stream, config=config)
    except LLMStreamInterrupted as exc:
        stream.flush()
        # The student already saw part of the answer: keep it, say it broke off.
        deps.emit(ErrorEvent.from_error(exc))
        partial = (exc.detail or {}).get("partial_text", "")
        return Step("deliver", state.updated(answer=partial, outcome=Outcome("failed", exc.code, str(exc.message))))
    finally:
        stream.flush()  # also when the student cancelled: what was received is shown, then stored
    answered = state.updated(answer=completion.text, reasoning=completion.reasoning)
    if completion.truncated:  # cut at the model's length limit: stored as cut, and the page says so
        return Step("deliver", answered.updated(outcome=cut_off()))
    return Step("deliver", answered)
