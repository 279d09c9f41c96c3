"""The LLM client protocol and its implementation over any OpenAI-compatible endpoint.

``complete()`` makes one Chat Completions call for a named stage. With ``on_delta`` it streams
and hands each text, reasoning or tool-call fragment to the callback as it arrives (raising
``StreamStopped`` from the callback closes the stream and charges what was received: that is how a
turn is cancelled; a callback with a ``poll()`` method is also asked while the endpoint is silent,
so a stop does not wait for the next byte: see ``_StreamReader``); without it, it makes a plain
call. Either way it returns the whole Completion with the usage the API reported, cleaned of
real models' habits (``cleaning.py``: thinking written in the text, tool calls written as text)
the same way on both paths; ``finish_reason`` says whether the answer was cut.

Failures: connection errors, timeouts, 429, 5xx and garbled bodies are retried with exponential
backoff and jitter (honouring Retry-After), at most ``max_retries`` times, and only while nothing
has been passed to ``on_delta`` yet, so a user never sees the same words twice. Other 4xx are not
retried. What is left surfaces as an ``LLMError`` subclass. The ``openai`` package's own retries
are off: one policy, in one place, that tests can see.

Nothing here reads Django settings; ``provider.get_llm_client()`` builds the client from them.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import queue
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from smartmate.llm.assembly import OnDelta, StreamAssembly, completion_from_response
from smartmate.llm.cleaning import template_opens_thinking, template_thinking_seen
from smartmate.llm.contracts import ChatMessage, Completion, StageConfig, ToolSpec, Usage
from smartmate.llm.errors import (
    LLMError,
    LLMRequestRejected,
    LLMStreamInterrupted,
    LLMTimeout,
    LLMUnavailable,
    StreamStopped,
)
from smartmate.llm.stages import THINKING_PARAMS, build_stage_config, thinking_body, validate_overrides
from smartmate.llm.usage import estimate_usage

if TYPE_CHECKING:
    import openai

log = logging.getLogger("smartmate.llm")

UsageRecorder = Callable[[Usage], None]
# Asked while the endpoint is silent and after each chunk; what it raises (a StreamStopped: the student
# pressed Stop) ends the call at once.
Poll = Callable[[], object]


class LLMClient(Protocol):
    """What the agent needs from a language model."""

    def stage_config(self, stage: str) -> StageConfig:
        """Return how ``stage`` calls the model."""
        ...

    def complete(self, stage: str, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] | None = None,
                 on_delta: OnDelta | None = None, *, config: StageConfig | None = None,
                 record_usage: UsageRecorder | None = None, poll: Poll | None = None) -> Completion:
        """Call the model for ``stage`` and return its whole answer; stream through ``on_delta``;
        ``poll`` may stop the call in every phase, streamed or not."""
        ...


@dataclass(frozen=True)
class ClientSettings:
    """Everything the client is built from; equal settings mean the same client can be reused."""

    base_url: str
    api_key: str
    default_model: str
    models: tuple[tuple[str, str], ...] = ()
    timeout_seconds: float = 60.0
    max_retries: int = 2
    thinking_param: str = "none"
    template_thinking_models: tuple[str, ...] = ()  # their template opens <think>: hold the answer's start
    stage_overrides: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    backoff_seconds: float = 0.5
    backoff_max_seconds: float = 8.0

    @classmethod
    def build(cls, *, models: Mapping[str, str] | None = None,
              stage_overrides: Mapping[str, Mapping[str, Any]] | None = None, **fields: Any) -> ClientSettings:
        """Build from plain mappings (frozen into tuples so the settings stay hashable)."""
        overrides = stage_overrides or {}
        validate_overrides(overrides)
        thinking_param = fields.get("thinking_param", "none")
        if thinking_param not in THINKING_PARAMS:
            raise ValueError(f"LLM_THINKING_PARAM must be one of {', '.join(THINKING_PARAMS)}; "
                             f"got {thinking_param!r}.")
        return cls(models=tuple(sorted((models or {}).items())),
                   stage_overrides=tuple(sorted((stage, tuple(sorted(values.items())))
                                                for stage, values in overrides.items())),
                   **fields)


@dataclass(frozen=True)
class _Failure:
    kind: type[LLMError]
    reason: str
    retryable: bool
    detail: dict[str, Any] = field(default_factory=dict)
    retry_after: float | None = None


@dataclass
class _Attempt:
    assembly: StreamAssembly | None = None
    started: float = field(default_factory=time.monotonic)


class OpenAICompatibleClient:
    """Call an OpenAI-compatible Chat Completions endpoint with stage settings, streaming and retries."""

    def __init__(self, config: ClientSettings, *, sleep: Callable[[float], None] = time.sleep,
                 rng: random.Random | None = None, http_client: Any = None) -> None:
        import openai  # here, not at import time: it takes most of a second to load

        self.config = config
        self._models = dict(config.models)
        self._overrides = {stage: dict(values) for stage, values in config.stage_overrides}
        self._sleep = sleep
        self._rng = rng or random.Random()
        if http_client is None and config.base_url.startswith("http://"):
            # Plain HTTP (a local server, the test fake) never does TLS: skip loading the CA
            # bundle, which is most of the ~60 ms it takes to build a client.
            http_client = openai.DefaultHttpxClient(verify=False)
        self._openai: openai.OpenAI = openai.OpenAI(
            base_url=config.base_url,
            # Local servers (Ollama, vLLM) need no key, but the SDK insists on one.
            api_key=config.api_key or "unused",
            timeout=config.timeout_seconds,
            max_retries=0,
            http_client=http_client,
        )

    def stage_config(self, stage: str) -> StageConfig:
        """Return how ``stage`` calls the model; raise ValueError for an unknown stage."""
        return build_stage_config(stage, models=self._models, default_model=self.config.default_model,
                                  overrides=self._overrides)

    def complete(self, stage: str, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] | None = None,
                 on_delta: OnDelta | None = None, *, config: StageConfig | None = None,
                 record_usage: UsageRecorder | None = None, poll: Poll | None = None) -> Completion:
        """Call the model for ``stage`` and return its whole answer; stream through ``on_delta``.

        ``poll`` is asked about every ``_StreamReader.WAKE_EVERY`` seconds while the endpoint is silent,
        for plain calls too (an ``on_delta`` with a ``poll`` of its own is asked when none is given).

        ``config`` replaces the stage's settings for this call. ``record_usage`` is called once with
        the call's usage after a successful answer (the agent passes one that charges the user).
        JSON mode needs the word "json" somewhere in the messages on OpenAI's own endpoint.
        """
        stage_config = config or self.stage_config(stage)
        request = self._request(stage_config, messages, tools)
        try:
            completion, reported = self._call_with_retries(stage, request, on_delta,
                                                           poll or getattr(on_delta, "poll", None))
        except StreamStopped as stopped:
            # What was received was generated and is paid for: charge an estimate of it.
            if record_usage is not None:
                record_usage(estimate_usage(messages, tools, Completion(text=stopped.partial_text)))
            raise
        usage = reported or estimate_usage(messages, tools, completion)
        completion = dataclasses.replace(completion, usage=usage)
        if record_usage is not None:
            record_usage(usage)
        return completion

    def close(self) -> None:
        """Release the HTTP connections."""
        self._openai.close()

    # --- one request -------------------------------------------------------------------------

    def _request(self, config: StageConfig, messages: Sequence[ChatMessage],
                 tools: Sequence[ToolSpec] | None) -> dict[str, Any]:
        request: dict[str, Any] = {"model": config.model, "messages": [message.to_openai() for message in messages]}
        if config.temperature is not None:
            request["temperature"] = config.temperature
        if config.max_tokens is not None:
            request["max_tokens"] = config.max_tokens
        if tools:
            request["tools"] = [tool.to_openai() for tool in tools]
        if config.json_mode:
            request["response_format"] = {"type": "json_object"}
        request.update(thinking_body(config.thinking, self.config.thinking_param))
        return request

    def _call_with_retries(self, stage: str, request: dict[str, Any], on_delta: OnDelta | None,
                           poll: Poll | None) -> tuple[Completion, Usage | None]:
        attempts = self.config.max_retries + 1
        for number in range(1, attempts + 1):
            attempt = _Attempt()
            try:
                result = self._stream(request, on_delta, attempt, poll) if on_delta else self._plain(request, poll)
            except StreamStopped as stopped:
                stopped.partial_text = attempt.assembly.partial_text if attempt.assembly else ""
                raise
            except Exception as exc:  # narrowed at once: only endpoint failures are classified
                failure = self._classify(exc)
                if failure is None:
                    raise
                if not failure.retryable or number == attempts or _emitted(attempt):
                    raise self._final_error(failure, attempt, number) from exc
                delay = self._backoff(number, failure.retry_after)
                log.warning("LLM %s call failed (%s), attempt %d of %d; retrying in %.2f s",
                            stage, failure.reason, number, attempts, delay)
                self._wait_to_retry(delay, poll)
                continue
            completion, usage = result
            log.info("LLM %s call: model=%s attempts=%d %.0f ms tokens=%s", stage, completion.model, number,
                     (time.monotonic() - attempt.started) * 1000, usage.total_tokens if usage else "unreported")
            return result
        raise AssertionError("unreachable: the last attempt either returns or raises")

    def _wait_to_retry(self, delay: float, poll: Poll | None) -> None:
        """Sleep ``delay`` seconds before the next attempt; with ``poll``, in slices that ask it, so a Stop
        during a long backoff (a Retry-After of several seconds) is not held up either."""
        if poll is None:
            self._sleep(delay)
            return
        deadline = time.monotonic() + delay
        while (left := deadline - time.monotonic()) > 0:
            self._sleep(min(left, _StreamReader.WAKE_EVERY))
            poll()

    def _plain(self, request: dict[str, Any], poll: Poll | None) -> tuple[Completion, Usage | None]:
        def post() -> Any:
            return self._openai.post("/chat/completions", body=request, cast_to=object)

        if poll is None:
            body = post()
        else:  # read in the helper thread too, so a silent endpoint cannot hold a Stop up
            with _StreamReader(lambda: _WholeBody(post)) as reader:
                body = next(iter(reader.chunks(poll)), None)
        if not isinstance(body, dict):
            # The SDK hands back raw text when a proxy answers with, say, an HTML error page.
            raise _GarbledResponse(f"expected a JSON completion, got {str(body)[:80]!r}")
        return completion_from_response(body, request["model"], tools_offered=bool(request.get("tools")))

    def _stream(self, request: dict[str, Any], on_delta: OnDelta, attempt: _Attempt,
                poll: Poll | None) -> tuple[Completion, Usage | None]:
        import openai

        model = request["model"]
        hold = model in self.config.template_thinking_models or template_opens_thinking(model)
        attempt.assembly = StreamAssembly(on_delta, tools_offered=bool(request.get("tools")), hold_start=hold)
        body = {**request, "stream": True, "stream_options": {"include_usage": True}}
        # The SDK's generic request: its HTTP, auth, status errors and SSE decoding (error events
        # included), with chunks left as dicts; see assembly.py for why not typed models.
        reader = _StreamReader(lambda: self._openai.post("/chat/completions", body=body, cast_to=object,
                                                         stream=True, stream_cls=openai.Stream[object]))
        with reader:
            for chunk in reader.chunks(poll):
                if not isinstance(chunk, dict):
                    raise _GarbledResponse(f"expected a JSON chunk, got {str(chunk)[:80]!r}")
                attempt.assembly.add(chunk)
        result = attempt.assembly.completion(model)
        if attempt.assembly.template_thinks:
            template_thinking_seen(model)  # its next answers are held until the thought ends
        return result

    # --- failures ----------------------------------------------------------------------------

    def _classify(self, exc: Exception) -> _Failure | None:
        """Map an endpoint failure to our error and say whether retrying may help; None: not ours."""
        import openai

        if isinstance(exc, openai.APITimeoutError):
            reason = f"The language model did not answer within {self.config.timeout_seconds:g} s"
            return _Failure(LLMTimeout, reason, retryable=True)
        if isinstance(exc, openai.APIConnectionError):
            # The SDK says only "Connection error."; the transport's cause says which and why.
            reason = f"Could not reach the language model at {self.config.base_url} ({exc.__cause__ or exc})"
            return _Failure(LLMUnavailable, reason, retryable=True)
        if isinstance(exc, openai.APIStatusError):
            return _classify_status(exc)
        if isinstance(exc, (json.JSONDecodeError, _GarbledResponse, openai.APIError)):
            # A body that is not what the protocol promises: a gateway glitch, like a 5xx.
            reason = f"The language model endpoint sent a malformed response ({exc})"
            return _Failure(LLMUnavailable, reason, retryable=True)
        return None

    def _final_error(self, failure: _Failure, attempt: _Attempt, number: int) -> LLMError:
        if _emitted(attempt):
            partial = attempt.assembly.partial_text if attempt.assembly else ""
            return LLMStreamInterrupted(f"The language model's answer broke off mid-stream: {failure.reason}.",
                                        detail={"cause": failure.kind.code, "partial_text": partial})
        if failure.retryable:
            tries = f"{number} attempt{'s' if number > 1 else ''}"
            return failure.kind(f"{failure.reason} (gave up after {tries}).",
                                detail={**failure.detail, "attempts": number})
        return failure.kind(f"{failure.reason}.", detail=failure.detail)

    def _backoff(self, number: int, retry_after: float | None) -> float:
        """Return the wait before attempt ``number + 1``: exponential, half of it jittered."""
        ceiling = min(self.config.backoff_max_seconds, self.config.backoff_seconds * 2 ** (number - 1))
        delay = ceiling / 2 + self._rng.uniform(0, ceiling / 2)
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.config.backoff_max_seconds))
        return float(delay)


class _StreamReader:
    """Read a streamed response in a helper thread, so the caller's thread can stop at any moment.

    A blocking HTTP read cannot be interrupted: while the endpoint is silent (connecting, a slow
    first token, a reasoning model thinking, a long gap between chunks) the caller would learn of a
    stop only when the next byte arrived. So a daemon thread makes the request and reads it, passing
    each raw chunk (or the error that ended the read) back through a queue; the caller's thread waits
    on the queue at most ``WAKE_EVERY`` seconds at a time and calls ``poll`` each time it wakes (and
    after each chunk), so a ``StreamStopped`` from it ends the call within a fraction of a second.
    Everything else (decoding chunks, ``on_delta``, the database) stays on the caller's thread.

    Leaving the ``with`` block early (a stop, an error from ``on_delta``) sets a stop flag and shuts the
    connection's socket down: that wakes the helper's blocked read, which then closes the response
    and ends. The helper never outlives its connection; when the connection is not reachable yet
    (still waiting for the response's headers) it ends as soon as they come or the read times out.
    Errors raised while reading (timeouts, connection errors, status errors, malformed frames) are
    re-raised on the caller's thread unchanged, so their handling is the same as reading in line.
    """

    WAKE_EVERY = 0.1

    def __init__(self, open_stream: Callable[[], Any]) -> None:
        self._open = open_stream
        self._queue: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._stopped = False
        self._stream: Any = None
        self._thread = threading.Thread(target=self._read, name="llm-stream", daemon=True)

    def __enter__(self) -> _StreamReader:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def chunks(self, poll: Callable[[], object] | None = None) -> Iterator[Any]:
        """Yield the stream's chunks as they come; raise what ended the read or what ``poll`` raised."""
        while True:
            try:
                kind, item = self._queue.get(timeout=self.WAKE_EVERY)
            except queue.Empty:
                if poll is not None:
                    poll()
                continue
            if kind == "end":
                return
            if kind == "error":
                raise item
            yield item
            if poll is not None:
                poll()  # chunks the caller does not pass on (usage, held text) go by without asking

    def stop(self) -> None:
        """Stop reading: wake the helper's blocked read by shutting the connection's socket down."""
        with self._lock:
            if self._stopped or not self._thread.is_alive():
                self._stopped = True
                return
            self._stopped = True
            stream = self._stream
        if stream is not None:
            _shut_down(stream)

    def _read(self) -> None:
        try:
            stream = self._open()
            with self._lock:
                self._stream, stopped = stream, self._stopped
            with stream:
                if stopped:
                    return
                for chunk in stream:
                    if self._stopped:
                        return
                    self._queue.put(("chunk", chunk))
                with self._lock:
                    self._stream = None  # read to its end: the connection goes back to the pool untouched
            self._queue.put(("end", None))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, which raises it
            if not self._stopped:
                self._queue.put(("error", exc))
        finally:
            with self._lock:
                self._stream = None


class _WholeBody:
    """A plain (not streamed) answer read as a stream of one item, so ``_StreamReader`` can wait for it.

    There is no connection to shut down until the body arrives: after a stop, the helper thread ends
    when the body comes or the request times out, and what it read is dropped."""

    def __init__(self, post: Callable[[], Any]) -> None:
        self._post = post

    def __enter__(self) -> _WholeBody:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def __iter__(self) -> Iterator[Any]:
        yield self._post()


def _shut_down(stream: Any) -> None:
    """Shut the socket under a streamed response down (closing it would not wake a blocked read)."""
    response = getattr(stream, "response", None)
    network = getattr(response, "extensions", {}).get("network_stream") if response is not None else None
    sock = network.get_extra_info("socket") if network is not None else None
    if sock is None:
        return  # not over a socket (a test transport): the helper ends when its next chunk comes
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed


class _GarbledResponse(Exception):
    """The endpoint's body could not be read as the protocol promises."""


def _classify_status(exc: Any) -> _Failure:
    status = exc.status_code
    detail = {"status": status, "provider_code": _provider_code(exc)}
    message = _provider_message(exc).rstrip(". ")
    if status == 429 or status >= 500:
        return _Failure(LLMUnavailable, f"The language model endpoint answered HTTP {status}: {message}",
                        retryable=True, detail=detail, retry_after=_retry_after(exc))
    return _Failure(LLMRequestRejected, f"The language model endpoint rejected the request (HTTP {status}): "
                                        f"{message}", retryable=False, detail=detail)


def _emitted(attempt: _Attempt) -> bool:
    return attempt.assembly is not None and attempt.assembly.emitted


def _provider_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    if isinstance(message, str):
        return message
    return str(getattr(exc, "message", exc))


def _provider_code(exc: Any) -> str | None:
    body = getattr(exc, "body", None)
    code = body.get("code") if isinstance(body, dict) else None
    return code if isinstance(code, str) else None


def _retry_after(exc: Any) -> float | None:
    response = getattr(exc, "response", None)
    raw = response.headers.get("retry-after") if response is not None else None
    try:
        return max(0.0, float(raw)) if raw is not None else None
    except ValueError:
        return None  # an HTTP date: rare from LLM endpoints, and our own backoff is a fine substitute
