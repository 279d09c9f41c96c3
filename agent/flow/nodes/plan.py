"""Plan node: ask the model for a plan (steps with done-conditions), a question, or a replan.

The model answers in JSON (stage ``plan``); malformed output goes back to it with the problem named,
up to ``PLAN_ATTEMPTS`` answers, then a visible ``llm_malformed_output`` error. A question opens an
``ask_user`` interaction (resumed here with the answer); a plan opens a confirmation (the ``confirm``
node builds its card). A rejected plan comes back here with the student's reason, and the model
plans again. Which task classes a rough build may place is checked against the student's own
classes by the services: the model cannot name someone else's.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from agent.flow.contracts import ErrorEvent, StatusEvent, new_interaction_id
from agent.flow.deps import Deps
from agent.flow.nodes import Step
from agent.flow.prompting import conversation_messages, stage_config
from agent.flow.prompts import render, system_prompt
from agent.flow.state import Outcome, PendingInteraction, Plan, PlanConfirmation, PlanQuestion, PlanStep, TurnState
from agent.flow.tool_packs import packs_checked
from smartmate.llm import ChatMessage, Completion, MalformedOutput

PLAN_ATTEMPTS = 3
MAX_STEPS = 8


@dataclass(frozen=True)
class _Question:
    """The model needs the student's answer before it can plan."""

    text: str


def run(state: TurnState, deps: Deps) -> Step:
    """Ask for a plan; open a question or a plan confirmation."""
    deps.emit(StatusEvent(code="planning", message=_("Working out a plan…")))
    scratch = [*state.scratch, *_feedback(state)]
    system = _system(state, deps)
    history = conversation_messages(state, fixed_tokens=len(system) // 2)
    config = stage_config(deps, state, "plan")
    problem = ""
    for attempt in range(PLAN_ATTEMPTS):
        messages = [ChatMessage.system(system), *history, *(_text_only(message) for message in scratch)]
        completion = deps.complete("plan", messages, config=config)
        decision, problem = _parse(completion, state)
        if decision is not None:
            # The packs the plan's execution needs (none named: the route's defaults).
            planned = state.updated(packs=packs_checked(completion.json().get("packs")) or state.packs)
            return _decided(planned, decision, [*scratch, ChatMessage.assistant(completion.text)],
                            corrections=state.corrections + attempt)
        scratch += [ChatMessage.assistant(completion.text or ""),
                    ChatMessage.user(render("plan_correction", problem=problem))]
    message = _("The assistant could not make a usable plan: its answer was malformed %(count)s times in a row. "
                "Please try again.") % {"count": PLAN_ATTEMPTS}
    deps.emit(ErrorEvent(code=MalformedOutput.code, message=message, detail={"problem": problem}))
    return Step("deliver", state.updated(corrections=state.corrections + PLAN_ATTEMPTS, resume=None,
                                         outcome=Outcome("failed", MalformedOutput.code, message)))


def _system(state: TurnState, deps: Deps) -> str:
    context = deps.services.prompt_context(state.user_text)
    picked = ", ".join(str(pk) for pk in state.options.task_class_ids) or "（未勾选）"
    return (system_prompt(context) + "\n\n"
            + render("plan", task_classes=deps.services.task_classes_describe(()) or "（还没有任务类）",
                     picked=picked))


def _feedback(state: TurnState) -> list[ChatMessage]:
    """Turn the student's answer to the last question or plan into a message for the model."""
    if state.resume is None:
        return []
    if state.resume.action == "answer":
        return [ChatMessage.user(f"学生的回答：{state.resume.text}")]
    reason = f"理由：{state.resume.text}" if state.resume.text else "没有说明理由。"
    return [ChatMessage.user(f"学生拒绝了这个计划，{reason}请据此重新制定计划。")]


def _text_only(message: ChatMessage) -> ChatMessage:
    # The planner talks in plain text: its transcript never carries tool calls to the model.
    return ChatMessage(role=message.role, content=message.content)


def _parse(completion: Completion, state: TurnState) -> tuple[Plan | _Question | None, str]:
    """Return (plan or question, "") or (None, what is wrong with the answer, for the model).

    A plan cut at the length limit is malformed, even when a fragment of it parses."""
    try:
        data = completion.json()
    except MalformedOutput as exc:
        return None, exc.problem
    question = data.get("question")
    if isinstance(question, str) and question.strip():
        return _Question(question.strip()[:500]), ""
    steps = data.get("steps")
    if not isinstance(steps, list) or not steps or len(steps) > MAX_STEPS:
        return None, f'"steps" must be a list of 1 to {MAX_STEPS} steps (or ask a "question")'
    if not all(isinstance(step, dict) and str(step.get("title", "")).strip() for step in steps):
        return None, 'every step needs a non-empty "title" and a "done_when"'
    ids = data.get("task_class_ids") or list(state.options.task_class_ids)
    if not isinstance(ids, list) or not all(isinstance(pk, int) and not isinstance(pk, bool) for pk in ids):
        return None, '"task_class_ids" must be a list of task class ids'
    plan = Plan(goal=str(data.get("goal", "")).strip()[:200],
                steps=tuple(PlanStep(title=str(step["title"]).strip()[:200],
                                     done_when=str(step.get("done_when", "")).strip()[:200]) for step in steps),
                rough_build=bool(data.get("rough_build")) and bool(ids), task_class_ids=tuple(ids))
    return plan, ""


def _decided(state: TurnState, decision: Plan | _Question, scratch: list[ChatMessage], *, corrections: int) -> Step:
    if isinstance(decision, _Question):
        pending = PendingInteraction(interaction_id=new_interaction_id(), kind="ask_user", prompt=decision.text,
                                     resume_node="plan", data=PlanQuestion())
        return Step("interrupt", state.updated(pending=pending, scratch=tuple(scratch), resume=None,
                                               corrections=corrections))
    pending = PendingInteraction(interaction_id=new_interaction_id(), kind="confirm", prompt=decision.goal,
                                 resume_node="chat", data=PlanConfirmation(plan=decision))
    return Step("confirm", state.updated(plan=decision, pending=pending, scratch=tuple(scratch), resume=None,
                                         corrections=corrections, plan_confirmed=False))
