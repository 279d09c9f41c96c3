"""Execute node: one ReAct round per visit — the model picks one tool, the server checks and runs it.

- Read tools run at once; write tools open a confirmation bound to the exact arguments (unless the
  student chose always-execute). On accept, the *stored* call runs — the client only says "accept",
  so a changed argument is a new call and needs a new confirmation.
- ``ask_user`` (offered as a tool) opens a question; the answer comes back as its result.
- Unknown tools, bad arguments or unreadable output go back to the model as the tool's error, up to
  ``CORRECTIONS`` times in a row; then a visible ``llm_malformed_output`` error.
- ``ROUND_BUDGET`` rounds at most; then the turn ends honestly with what was done.
- An answer without a tool call ends the loop: its text (streamed as written) is the answer; one cut
  at the model's length limit ends the turn ``truncated`` (the page says so and offers to continue).
- Several calls in one message: the first is handled as usual (a write still waits for its own
  confirmation); each other call gets a tool result saying it was not run, so the model never
  believes it was done and calls it again on its own round if it still needs it.
- A tool call the model wrote as text (``smartmate.llm.cleaning`` turns it into a real call) that
  could not be read, e.g. cut off mid-JSON, is a malformed call like any other.
The transcript of the rounds lives in ``state.scratch`` (OpenAI-shaped), checkpointed after every
visit, so a crash resumes at the round it was in.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils.translation import gettext as _

from agent.flow.contracts import ErrorEvent, StatusEvent, ToolCallEvent, ToolResultEvent, new_interaction_id
from agent.flow.deps import Deps
from agent.flow.nodes import Step, cut_off
from agent.flow.prompting import conversation_messages, stage_config
from agent.flow.prompts import render, system_prompt
from agent.flow.state import (
    Action,
    Outcome,
    PendingInteraction,
    ToolCallRecord,
    ToolConfirmation,
    ToolQuestion,
    TurnState,
)
from agent.flow.streaming import DeltaBatcher
from agent.flow.tool_packs import PACKS, packs_checked
from smartmate.llm import ChatMessage, Completion, MalformedOutput, ToolCall, ToolSpec
from smartmate.platform.exceptions import AppError

ROUND_BUDGET = 12
REQUEST_TOOLS = "request_tools"
CORRECTIONS = 3
# The model reads this as the result of every call after the first in one message.
NOT_RUN = "未执行：每轮只执行第一个工具调用，这个调用没有运行，也没有产生任何修改。如仍需要，请在下一轮单独调用。"
ASK_USER = ToolSpec(
    name="ask_user",
    description="向学生提一个具体的问题（信息不足、需要学生选择时使用），学生的回答会作为结果返回。",
    parameters={"type": "object", "properties": {"question": {"type": "string", "minLength": 1, "maxLength": 500}},
                "required": ["question"], "additionalProperties": False})


def run(state: TurnState, deps: Deps) -> Step:
    """Take the student's answer to the open card into account (a visit of its own), or run one model round."""
    if state.resume is not None:
        # The accepted call runs in a visit of its own, checkpointed before the model is asked again:
        # the runtime goes on from the state before a node that fails or is stopped, so a Stop, a spent
        # quota or a failing model on the next call cannot drop what the tool did (its result, its
        # action, the working schedule it changed); the turn still delivers it as a preview.
        return Step("execute", _resumed(state, deps))
    return _round(state, deps)


def _round(state: TurnState, deps: Deps) -> Step:
    if state.rounds >= ROUND_BUDGET:
        return _out_of_rounds(state, deps)
    deps.emit(StatusEvent(code="executing", message=_("Working on it…")))
    completion = _ask_model(state, deps)
    answered = state.updated(answer=state.answer + (completion.text or ""),
                             reasoning=state.reasoning + completion.reasoning)
    calls, problem = _calls(completion)
    if not calls and not problem:
        return _final_answer(answered.updated(scratch=(*state.scratch, _assistant(completion, ()))), completion)
    state = answered.updated(scratch=(*state.scratch, _assistant(completion, calls)), rounds=state.rounds + 1)
    if problem:
        return _correct(state, deps, None, problem)
    return _dispatch(_refuse_extra_calls(state, calls[1:]), deps, calls[0])


def _final_answer(state: TurnState, completion: Completion) -> Step:
    if not completion.truncated:
        return Step("deliver", state)
    return Step("deliver", state.updated(outcome=cut_off()))


def _refuse_extra_calls(state: TurnState, extra: tuple[ToolCall, ...]) -> TurnState:
    """Answer every call after the first with a result saying it was not run (one call per round)."""
    refusals = tuple(_tool_message(call.id, call.name, NOT_RUN) for call in extra)
    return state.updated(scratch=(*state.scratch, *refusals))


# --- the student's answer to a card ------------------------------------------------------------------


def _resumed(state: TurnState, deps: Deps) -> TurnState:
    """Run (or not) the confirmed call, or hand over the answer, as the call's tool result."""
    pending, resume = state.pending, state.resume
    assert pending is not None and resume is not None, "a resumed turn has an open card and an answer"
    data = pending.data
    if isinstance(data, ToolQuestion):
        answer = _tool_message(data.call_id, data.name, f"学生的回答：{resume.text}")
        return state.updated(scratch=(*state.scratch, answer), pending=None, resume=None)
    if not isinstance(data, ToolConfirmation):
        raise TypeError(f"The execute node cannot resume a {type(data).__name__}.")
    call = data.call
    if resume.action != "accept" or data.digest != _digest(call.name, call.arguments):
        deps.emit(ToolResultEvent(call_id=call.call_id, name=call.name, status="blocked",
                                  summary=_("You declined this change; nothing was changed."),
                                  label=deps.services.tools.label(call.name)))
        note = f"学生拒绝了这次修改，没有执行。{('学生说：' + resume.text) if resume.text else ''}"
        action = Action(tool=call.name, status="blocked", summary=pending.prompt)
        return state.updated(scratch=(*state.scratch, _tool_message(call.call_id, call.name, note)), pending=None,
                             resume=None, actions=(*state.actions, action))
    return _run_tool(state, deps, call.call_id, call.name, call.arguments, announced=True).updated(
        pending=None, resume=None)


# --- one round ---------------------------------------------------------------------------------------


def _ask_model(state: TurnState, deps: Deps) -> Completion:
    system = _system(state, deps)
    history = conversation_messages(state, fixed_tokens=len(system) // 2)
    messages = [ChatMessage.system(system), *history, *state.scratch]
    tools = [*deps.services.tools.specs(state.route or "execute", _packs(state, deps)), ASK_USER,
             *_request_tools_spec(_packs(state, deps))]
    stream = DeltaBatcher(deps.emit)
    try:
        return deps.complete("execute", messages, tools=tools, on_delta=stream,
                             config=stage_config(deps, state, "execute"))
    finally:
        stream.flush()


def _system(state: TurnState, deps: Deps) -> str:
    base = system_prompt(deps.services.prompt_context(state.user_text))
    if state.route == "quick_note":
        return f"{base}\n\n{render('quick_note')}"
    plan = ""
    if state.plan is not None:
        steps = "\n".join(f"{index}. {step.title}（完成条件：{step.done_when or '—'}）"
                          for index, step in enumerate(state.plan.steps, start=1))
        plan = f"\n## 学生已确认的计划\n目标：{state.plan.goal}\n{steps}\n"
    working = deps.services.working_index(state.working) if state.working is not None else "（尚未加载：需要时调用查询工具）"
    if state.dropped:  # the board changed since her last message; the model's earlier words may be out of date
        working += "\n\n## 学生的日程已有变化，之前的这些改动已撤下（不要再说它们已完成）\n" + "\n".join(
            f"- {sentence}" for sentence in state.dropped)
    return f"{base}\n\n{render('execute', plan=plan, working=working)}"


def _calls(completion: Completion) -> tuple[tuple[ToolCall, ...], str]:
    """Return the round's tool calls (none: a final answer), or a problem for the model.

    Tool calls written as text are already real calls here (the LLM layer's cleaning); one it
    could not read leaves ``call_problem``, which counts only when no call could be read.
    """
    if completion.tool_calls:
        return completion.tool_calls, ""
    return (), completion.call_problem


def _dispatch(state: TurnState, deps: Deps, call: ToolCall) -> Step:
    try:
        arguments = call.parsed_arguments()
        if call.name == ASK_USER.name:
            return _question(state, call, arguments)
        if call.name == REQUEST_TOOLS:
            return _packs_added(state, deps, call, arguments)
        arguments = deps.services.tools.check(call.name, arguments)
    except AppError as exc:
        return _correct(state, deps, call, str(exc.message))
    state = state.updated(corrections=0)
    if _waits_for_student(state, deps, call.name, arguments):
        return _confirmation(state, deps, call, arguments)
    return Step("execute", _run_tool(state, deps, call.id, call.name, arguments))


# --- tool packs -------------------------------------------------------------------------------------


def _packs(state: TurnState, deps: Deps) -> tuple[str, ...]:
    """The packs this stage is offered: those asked for, else the route's defaults."""
    return state.packs or deps.services.tools.packs_default(state.route or "execute")


def _request_tools_spec(offered: tuple[str, ...]) -> list[ToolSpec]:
    """The ``request_tools`` pseudo-tool listing the packs not offered yet (none left: not offered)."""
    missing = [pack for pack in PACKS if pack not in offered]
    if not missing:
        return []
    listing = "；".join(f"{pack}：{PACKS[pack]}" for pack in missing)
    return [ToolSpec(name=REQUEST_TOOLS, description=f"需要目前没有的工具时，请求加入工具包（下一轮可用）。可选：{listing}。",
                     parameters={"type": "object", "properties": {"packs": {
                         "type": "array", "items": {"type": "string", "enum": missing}, "minItems": 1}},
                         "required": ["packs"], "additionalProperties": False})]


def _packs_added(state: TurnState, deps: Deps, call: ToolCall, arguments: dict[str, Any]) -> Step:
    """Offer the requested packs from the next round on; the model reads which tools it now has."""
    wanted = packs_checked(arguments.get("packs"))
    if not wanted:
        raise MalformedOutput(f"request_tools needs packs from: {', '.join(PACKS)}")
    packs = tuple(pack for pack in PACKS if pack in {*_packs(state, deps), *wanted})
    added = [spec.name for spec in deps.services.tools.specs(state.route or "execute", wanted)]
    note = f"已加入工具包 {', '.join(wanted)}，现在可以调用：{', '.join(added)}。"
    return Step("execute", state.updated(packs=packs, corrections=0,
                                         scratch=(*state.scratch, _tool_message(call.id, call.name, note))))


def _question(state: TurnState, call: ToolCall, arguments: dict[str, Any]) -> Step:
    """Open the model's ``ask_user`` question; raise MalformedOutput for an empty one."""
    question = str(arguments.get("question", "")).strip()
    if not question:
        raise MalformedOutput("ask_user needs a non-empty question")
    pending = PendingInteraction(interaction_id=new_interaction_id(), kind="ask_user", prompt=question[:500],
                                 resume_node="execute", data=ToolQuestion(call_id=call.id, name=call.name))
    return Step("interrupt", state.updated(pending=pending, corrections=0))


def _confirmation(state: TurnState, deps: Deps, call: ToolCall, arguments: dict[str, Any]) -> Step:
    if state.working is None:
        # The card must name what changes ("概率论复习 #1 to Fri 14:00"), not a bare id: load the board.
        state = state.updated(working=deps.services.working_load(state.options.task_class_ids))
    summary = deps.services.tools.confirmation(call.name, arguments, state.working)
    deps.emit(ToolCallEvent(call_id=call.id, name=call.name, arguments=arguments, summary=summary,
                            label=deps.services.tools.label(call.name)))
    record = ToolCallRecord(call_id=call.id, name=call.name, arguments=arguments)
    pending = PendingInteraction(
        interaction_id=new_interaction_id(), kind="confirm", prompt=summary, resume_node="execute",
        data=ToolConfirmation(call=record, digest=_digest(call.name, arguments)))
    return Step("confirm", state.updated(pending=pending))


def _waits_for_student(state: TurnState, deps: Deps, name: str, arguments: dict[str, Any]) -> bool:
    """A write waits unless the student chose always-execute; a read that asks to (web_fetch of an
    address the model built, which could carry data out) waits even then."""
    tools = deps.services.tools
    if tools.writes(name):
        return not state.options.always_execute
    return tools.needs_confirmation(name, arguments, _seen_texts(state))


def _seen_texts(state: TurnState) -> list[str]:
    """The student's messages and this turn's search results: what a URL may come from unconfirmed."""
    students = [state.user_text, *(message.content for message in state.history if message.role == "user")]
    searched = [message.content or "" for message in state.scratch
                if message.role == "tool" and message.name == "web_search"]
    return students + searched


def _run_tool(state: TurnState, deps: Deps, call_id: str, name: str, arguments: dict[str, Any], *,
              announced: bool = False) -> TurnState:
    """Run one validated call; return the state with its transcript, working schedule and actions.
    ``announced``: its tool.call was already sent with the confirmation card."""
    if not announced:
        summary = deps.services.tools.confirmation(name, arguments, state.working)
        deps.emit(ToolCallEvent(call_id=call_id, name=name, arguments=arguments, summary=summary,
                                label=deps.services.tools.label(name)))
    result = deps.services.tools.run(name, arguments, call_id=call_id, working=state.working, options=state.options)
    deps.emit(ToolResultEvent(call_id=call_id, name=name, status=result.status, summary=result.summary,
                              result=result.data, label=deps.services.tools.label(name)))
    state = state.updated(scratch=(*state.scratch, _tool_message(call_id, name, result.content)))
    if result.working is not None:
        state = state.updated(working=result.working)
    if deps.services.tools.writes(name):
        state = state.updated(actions=(*state.actions, Action(tool=name, status=result.status,
                                                              summary=result.summary)))
    return state


def _correct(state: TurnState, deps: Deps, call: ToolCall | None, problem: str) -> Step:
    """Send the model its mistake as the call's result, or stop after too many in a row."""
    corrections = state.corrections + 1
    if call is not None:
        mistake = _tool_message(call.id, call.name, f"错误：{problem}。请改正后重试。")
    else:
        mistake = ChatMessage.user(f"你上一条回复无法使用：{problem}。请调用一个工具，或直接回答。")
    state = state.updated(scratch=(*state.scratch, mistake), corrections=corrections)
    if corrections < CORRECTIONS:
        return Step("execute", state)
    message = _("The assistant kept making malformed tool calls (%(count)s in a row) and stopped. "
                "Nothing more was changed.") % {"count": CORRECTIONS}
    deps.emit(ErrorEvent(code=MalformedOutput.code, message=message, detail={"problem": problem}))
    return Step("deliver", state.updated(outcome=Outcome("failed", MalformedOutput.code, message)))


def _out_of_rounds(state: TurnState, deps: Deps) -> Step:
    message = _("The assistant used its %(count)s steps for this request and stopped here.") % {"count": ROUND_BUDGET}
    deps.emit(ErrorEvent(code="round_budget_exhausted", message=message, detail={"rounds": state.rounds}))
    return Step("deliver", state.updated(outcome=Outcome("failed", "round_budget_exhausted", message)))


# --- transcript helpers ------------------------------------------------------------------------------


def _assistant(completion: Completion, calls: tuple[ToolCall, ...]) -> ChatMessage:
    # Every call the model made goes into the transcript: each gets a result (run or refused).
    return ChatMessage.assistant(content=completion.text or None, tool_calls=calls)


def _tool_message(call_id: str, name: str, content: str) -> ChatMessage:
    return ChatMessage.tool(call_id, content, name=name)


def _digest(name: str, arguments: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps([name, arguments], sort_keys=True, ensure_ascii=False).encode()).hexdigest()

