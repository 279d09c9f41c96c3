"""The virtual students: each walks the product once over HTTP and the websocket, timing every step.

A student stops at its first failed step (the later steps need what it would have returned); the
failure is recorded under that step's name, with the HTTP status and error code or the exception.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx2 as httpx  # the httpx API, installed with openai (which requires it)

from bench.loadcheck.seed import PASSWORD, Student

MESSAGE = "这周哪天晚上适合复习？"
# The steps in the order a student takes them; the report lists them in this order.
STEPS = ("login", "week_board", "plan_preview", "plan_apply", "conversation", "ticket", "ws_connect",
         "chat_first_event", "chat_turn")


class StepFailed(Exception):
    """A step went wrong; ``kind`` is what the report counts (e.g. ``HTTP 500 internal_error``)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass
class StudentResult:
    """What one student saw: seconds per step taken, the failure if any, what the data check expects."""

    student: Student
    seconds: dict[str, float] = field(default_factory=dict)
    failed_step: str | None = None
    failure: str = ""
    failed_after: float | None = None  # seconds from the step's start to its failure
    placements: int | None = None  # blocks in the preview it was shown
    applied_events: int | None = None  # events the apply answer says it wrote
    conversation_id: int | None = None
    turn_outcome: str | None = None
    events: int = 0

    @property
    def ok(self) -> bool:
        return self.failed_step is None


class _Clock:
    """Time the steps of one student into its result."""

    def __init__(self, result: StudentResult) -> None:
        self.result = result

    def step(self, name: str, *, started: float | None = None) -> _Step:
        """Time a step from now (or from ``started``, a ``perf_counter`` reading) to the end of the block."""
        return _Step(self.result, name, started)


class _Step:
    def __init__(self, result: StudentResult, name: str, started: float | None) -> None:
        self.result, self.name, self.given_start = result, name, started

    def __enter__(self) -> _Step:
        self.started = time.perf_counter() if self.given_start is None else self.given_start
        return self

    def __exit__(self, kind: type | None, exc: BaseException | None, _tb: Any) -> Literal[False]:
        if kind is None:
            self.result.seconds[self.name] = time.perf_counter() - self.started
        elif self.result.failed_step is None:
            self.result.failed_step = self.name
            self.result.failure = exc.kind if isinstance(exc, StepFailed) else _exception_kind(exc)
            self.result.failed_after = time.perf_counter() - self.started
        return False


def _exception_kind(exc: BaseException | None) -> str:
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError, httpx.TimeoutException)):
        return "timeout"
    if isinstance(exc, asyncio.CancelledError):
        return "cancelled at the deadline"
    cause = exc.__cause__ or exc.__context__ if exc is not None else None
    return type(exc).__name__ + (f" ({type(cause).__name__}: {str(cause)[:60]})" if cause else "")


def _checked(response: httpx.Response, expected: int) -> dict[str, Any]:
    """Return the JSON body of an answer with the ``expected`` status; raise StepFailed naming the problem."""
    if response.status_code != expected:
        try:
            code = response.json().get("code", "")
        except (ValueError, AttributeError):
            code = ""
        raise StepFailed(f"HTTP {response.status_code} {code}".strip())
    return response.json()


async def student_run(student: Student, *, base_url: str, timeout: float, result: StudentResult) -> None:
    """Walk the product once as ``student``; fill ``result`` (never raises, except cancellation)."""
    clock = _Clock(result)
    headers = {"X-Forwarded-For": student.address, "Accept-Language": "zh-hans"}
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=timeout, trust_env=False) as http:
        try:
            await _http_steps(http, student, clock, result)
            await _chat_steps(http, base_url, clock, result, timeout=timeout)
        except Exception as exc:  # noqa: BLE001 - every failure is a figure of the report
            if result.failed_step is None:  # raised between steps (closing the socket): never hide it
                result.failed_step, result.failure = "between steps", _exception_kind(exc)


def _write_headers() -> dict[str, str]:
    return {"X-Idempotency-Key": uuid.uuid4().hex}


async def _http_steps(http: httpx.AsyncClient, student: Student, clock: _Clock, result: StudentResult) -> None:
    with clock.step("login"):
        tokens = _checked(await http.post("/api/v1/auth/token/", json={"username": student.username,
                                                                        "password": PASSWORD}), 200)
    http.headers["Authorization"] = f"Bearer {tokens['access']}"
    with clock.step("week_board"):
        board = _checked(await http.get("/api/v1/schedule/week/"), 200)
        if not board.get("events"):
            raise StepFailed("week board without the timetable's courses")
    with clock.step("plan_preview"):
        preview = _checked(await http.post("/api/v1/previews/", json={"task_class_ids": [student.task_class_id]},
                                           headers=_write_headers()), 201)
    result.placements = len(preview["placements"])
    with clock.step("plan_apply"):
        changes = _checked(await http.post(f"/api/v1/previews/{preview['id']}/apply/", headers=_write_headers()), 201)
    result.applied_events = int(changes["events"])
    with clock.step("conversation"):
        conversation = _checked(await http.post("/api/v1/agent/conversations/", json={},
                                                headers=_write_headers()), 201)
    result.conversation_id = int(conversation["id"])


async def _chat_steps(http: httpx.AsyncClient, base_url: str, clock: _Clock, result: StudentResult, *,
                      timeout: float) -> None:
    from websockets.asyncio.client import connect

    with clock.step("ticket"):
        ticket = _checked(await http.post("/api/v1/agent/tickets/"), 201)
    ws_base = "ws://" + base_url.split("://", 1)[1]
    with clock.step("ws_connect"):
        socket_ = await connect(f"{ws_base}{ticket['url']}", origin=base_url, proxy=None,  # type: ignore[arg-type]
                                open_timeout=timeout, ping_interval=None, close_timeout=5, max_size=2 ** 20)
    async with socket_:
        await _converse(socket_, clock, result, timeout=timeout)


async def _converse(socket_: Any, clock: _Clock, result: StudentResult, *, timeout: float) -> None:
    """Send one chat message and read the streamed events up to ``turn.done``, checking their order."""
    frame = {"type": "chat.send", "conversation_id": result.conversation_id, "text": MESSAGE}
    sent = time.perf_counter()
    await socket_.send(json.dumps(frame, ensure_ascii=False))
    with clock.step("chat_first_event", started=sent):
        first = await _receive(socket_, timeout)
    with clock.step("chat_turn", started=sent):
        await _read_turn(socket_, first, result, timeout=timeout)


async def _receive(socket_: Any, timeout: float) -> dict[str, Any]:
    from websockets.exceptions import ConnectionClosed

    try:
        frame = json.loads(await asyncio.wait_for(socket_.recv(), timeout=timeout))
    except ConnectionClosed as exc:
        raise StepFailed(f"closed by the server ({exc.rcvd.code if exc.rcvd else 'no close frame'})") from exc
    if "seq" not in frame:  # an unstored error frame: the server refused the frame
        raise StepFailed(f"error frame {frame.get('code')}")
    return frame


async def _read_turn(socket_: Any, frame: dict[str, Any], result: StudentResult, *, timeout: float) -> None:
    last_seq = None
    while True:
        if last_seq is not None and frame["seq"] != last_seq + 1:
            raise StepFailed("seq gap")
        last_seq = frame["seq"]
        result.events += 1
        if frame["type"] == "error":
            raise StepFailed(f"error event {frame.get('code')}")
        if frame["type"] == "turn.done":
            result.turn_outcome = frame.get("outcome")
            if result.turn_outcome != "completed":
                raise StepFailed(f"turn {result.turn_outcome}")
            return
        frame = await _receive(socket_, timeout)


async def load_run(students: Sequence[Student], urls: Sequence[str], *, timeout: float,
                   http_timeout: float) -> tuple[list[StudentResult], float]:
    """Run every student at once (dealt round-robin over ``urls``) within ``timeout`` seconds.

    Returns the results and the wall time from the start to the last student's end. Students still
    running at the deadline are cancelled and counted as failed at the step they were in.
    """
    results = [StudentResult(student=student) for student in students]
    started = time.perf_counter()
    tasks = [asyncio.create_task(student_run(student, base_url=urls[index % len(urls)], timeout=http_timeout,
                                             result=results[index]))
             for index, student in enumerate(students)]
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if result.failed_step is None and result.turn_outcome is None:
            result.failed_step = _step_reached(result)
            result.failure = "not finished by the deadline"
    return results, time.perf_counter() - started


def _step_reached(result: StudentResult) -> str:
    return next((step for step in STEPS if step not in result.seconds), STEPS[-1])
