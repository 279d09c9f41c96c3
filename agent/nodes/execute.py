"""Execute node: one ReAct round per visit — the model picks one tool, the server checks and runs it.

- Read tools run at once; write tools open a confirmation bound to the exact arguments (unless the
  student chose always-execute). On accept, the *stored* call runs — the client only says "accept",
  so a changed argument is a new call and needs a new confirmation.
- ``ask_user`` (offered as a tool) opens a question; the answer comes back as its result.
- Unknown tools, bad arguments or unreadable output go back to the model as the tool's error, up to
  ``CORRECTIONS`` times in a row; then a visible ``llm_malformed_output`` error.
- ``ROUND_BUDGET`` rounds at most; then the turn ends honestly with what was done.
- An answer without a tool call ends the loop: its text (streamed as written) is the answer.
The transcript of the rounds lives in ``state.scratch`` (OpenAI-shaped), checkpointed after every
visit, so a crash resumes at the round it was in.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils.translation import gettext as _

from agent.contracts import ErrorEvent, StatusEvent, ToolCallEvent, ToolResultEvent, new_interaction_id
from agent.deps import Deps
from agent.nodes import Step
from agent.prompting import conversation_messages, stage_config
from agent.prompts import render, system_prompt
from agent.state import (
    Action,
    Outcome,
    PendingInteraction,
    ToolCallRecord,
    ToolConfirmation,
    ToolQuestion,
    TurnState,
)
from agent.streaming import DeltaBatcher
from smartmate.llm import ChatMessage, Completion, MalformedOutput, ToolCall, ToolSpec, extract_json_object
from smartmate.platform.exceptions import AppError

ROUND_BUDGET = 12
CORRECTIONS = 3
ASK_USER = ToolSpec(
    name="ask_user",
    description="向学生提一个具体的问题（信息不足、需要学生选择时使用），学生的回答会作为结果返回。",
    parameters={"type": "object", "properties": {"question": {"type": "string", "minLength": 1, "maxLength": 500}},
                "required": ["question"], "additionalProperties": False})


def run(state: TurnState, deps: Deps) -> Step:
    """Take the student's answer to the open card into account, then run one model round."""
    if state.resume is not None:
        state = _resumed(state, deps)
    return _round(state, deps)


def _round(state: TurnState, deps: Deps) -> Step:
    if state.rounds >= ROUND_BUDGET:
        return _out_of_rounds(state, deps)
    deps.emit(StatusEvent(code="executing", message=_("Working on it…")))
    completion = _ask_model(state, deps)
    answered = state.updated(answer=state.answer + (completion.text or ""),
                             reasoning=state.reasoning + completion.reasoning)
    call, problem = _one_call(completion)
    if call is None and not problem:
        return Step("deliver", answered.updated(scratch=(*state.scratch, _assistant(completion, None))))
    state = answered.updated(scratch=(*state.scratch, _assistant(completion, call)), rounds=state.rounds + 1)
    if problem:
        return _correct(state, deps, call, problem)
    assert call is not None, "no call and no problem went to deliver above"
    return _dispatch(state, deps, call)


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
                                  summary=_("You declined this change; nothing was changed.")))
        note = f"学生拒绝了这次修改，没有执行。{('学生说：' + resume.text) if resume.text else ''}"
        action = Action(tool=call.name, status="blocked", summary=pending.prompt)
        return state.updated(scratch=(*state.scratch, _tool_message(call.call_id, call.name, note)), pending=None,
                             resume=None, actions=(*state.actions, action))
    return _run_tool(state, deps, call.call_id, call.name, call.arguments).updated(pending=None, resume=None)


# --- one round ---------------------------------------------------------------------------------------


def _ask_model(state: TurnState, deps: Deps) -> Completion:
    system = _system(state, deps)
    history = conversation_messages(state, fixed_tokens=len(system) // 2)
    messages = [ChatMessage.system(system), *history, *state.scratch]
    tools = [*deps.services.tools.specs(state.route or "execute"), ASK_USER]
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
    return f"{base}\n\n{render('execute', plan=plan, working=working)}"


def _one_call(completion: Completion) -> tuple[ToolCall | None, str]:
    """Return the round's tool call, or (None, "") for a final answer, or a problem for the model."""
    if completion.tool_calls:
        return completion.tool_calls[0], ""
    text = (completion.text or "").strip()
    if text.startswith("{") and '"tool"' in text:
        # A model without native tool calling may answer {"tool": ..., "arguments": {...}}.
        try:
            data = extract_json_object(text)
        except MalformedOutput as exc:
            return None, exc.problem
        if isinstance(data.get("tool"), str):
            arguments = data.get("arguments", {})
            return ToolCall(id=f"json-{_short_hash(text)}", name=data["tool"],
                            arguments=json.dumps(arguments, ensure_ascii=False)), ""
    return None, ""


def _dispatch(state: TurnState, deps: Deps, call: ToolCall) -> Step:
    try:
        arguments = call.parsed_arguments()
        if call.name == ASK_USER.name:
            return _question(state, call, arguments)
        arguments = deps.services.tools.check(call.name, arguments)
    except AppError as exc:
        return _correct(state, deps, call, str(exc.message))
    state = state.updated(corrections=0)
    if deps.services.tools.writes(call.name) and not state.options.always_execute:
        return _confirmation(state, deps, call, arguments)
    return Step("execute", _run_tool(state, deps, call.id, call.name, arguments))


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
    deps.emit(ToolCallEvent(call_id=call.id, name=call.name, arguments=arguments, summary=summary))
    record = ToolCallRecord(call_id=call.id, name=call.name, arguments=arguments)
    pending = PendingInteraction(
        interaction_id=new_interaction_id(), kind="confirm", prompt=summary, resume_node="execute",
        data=ToolConfirmation(call=record, digest=_digest(call.name, arguments)))
    return Step("confirm", state.updated(pending=pending))


def _run_tool(state: TurnState, deps: Deps, call_id: str, name: str, arguments: dict[str, Any]) -> TurnState:
    """Run one validated call; return the state with its transcript, working schedule and actions."""
    if not deps.services.tools.writes(name) or state.options.always_execute:
        summary = deps.services.tools.confirmation(name, arguments, state.working)
        deps.emit(ToolCallEvent(call_id=call_id, name=name, arguments=arguments, summary=summary))
    result = deps.services.tools.run(name, arguments, call_id=call_id, working=state.working, options=state.options)
    deps.emit(ToolResultEvent(call_id=call_id, name=name, status=result.status, summary=result.summary,
                              result=result.data))
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


def _assistant(completion: Completion, call: ToolCall | None) -> ChatMessage:
    # Only the call we act on goes into the transcript: one tool per round.
    return ChatMessage.assistant(content=completion.text or None, tool_calls=(call,) if call else ())


def _tool_message(call_id: str, name: str, content: str) -> ChatMessage:
    return ChatMessage.tool(call_id, content, name=name)


def _digest(name: str, arguments: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps([name, arguments], sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]
