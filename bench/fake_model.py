"""A scripted fake LLM speaking the OpenAI Chat Completions HTTP protocol on loopback.

Tests (and demos without an API key) point ``LLM_BASE_URL`` at it, so the real client, the real
``openai`` package and real HTTP run; only the model is scripted. Endpoints:

- ``POST /v1/chat/completions``: answers with the next scripted reply, as one JSON body or, when
  the request says ``"stream": true``, as SSE chunks (``data: {...}``) ending with ``data: [DONE]``.
  Usage comes in the JSON body, or in a last chunk with empty ``choices`` when the request set
  ``stream_options.include_usage``, as real endpoints do.
- ``GET /v1/models``: lists the configured model names.

Every request is recorded (``server.requests``) so tests can assert what the prompt contained.
When the script runs out the server answers HTTP 400 "fake LLM script exhausted" (a 4xx, so the
client fails at once instead of retrying), unless a fallback reply is set.

A reply (``Reply`` or the same fields as a JSON object) may have:

- ``text``: the answer, streamed in pieces of ``chunk_size`` characters (default 4);
- ``reasoning``: reasoning text sent first as ``reasoning_content`` deltas (DeepSeek style);
- ``tool_calls``: ``[{"name": ..., "arguments": {...} or "json text", "id": optional}]``,
  streamed as an id+name delta, then argument fragments;
- ``finish_reason``: default "tool_calls" when there are tool calls, else "stop";
- ``prompt_tokens`` / ``completion_tokens``: override the computed usage, which is
  deterministic: ceil(characters / 2) of the request's message contents, and of the reply's
  text + reasoning + tool arguments; ``send_usage: false`` leaves usage out entirely;
- failures: ``status`` (e.g. 500, 429, 400) with ``error_message`` and ``retry_after`` (seconds,
  sent as the Retry-After header); ``delay`` seconds to wait before answering (trips a client
  timeout); ``stall_after`` N: stream N text chunks, then wait ``delay`` seconds mid-stream;
  ``malformed: true``: a body that is not JSON; ``chunk_delay`` seconds between stream chunks;
- ``chunks``: a recorded raw stream (a list of ``chat.completion.chunk`` objects, as a real model
  sent them; ``id``, ``object``, ``created`` and ``model`` may be left out) replayed as it is: chunk
  by chunk when streaming, folded into one ``chat.completion`` body otherwise. It replaces
  ``text``, ``reasoning``, ``tool_calls`` and ``finish_reason`` (see ``smartmate/llm/tests/transcripts``).

A plain string in a script is shorthand for ``{"text": "..."}``.

A ``responder`` (``server.set_responder(fn)``) answers requests by rule instead of by script: it
receives each ``RecordedRequest`` first and returns a reply (anything a script accepts) or None to
let the script answer. Memory's evaluation uses one to play a deterministic rule-based model that
reads the prompt it is sent, while the scripted replies keep serving the assistant's own calls.

Standalone, for demos::

    python -m bench.fake_model --port 8011 --script script.json

(``--port 0`` picks a free port; the first line printed names the URL.)

where script.json is a list of replies, or ``{"replies": [...], "fallback": {...}}``; the fallback
answers every request once the list is used up. Then run the app with
``LLM_BASE_URL=http://127.0.0.1:8011/v1 LLM_API_KEY=demo``.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, cast


@dataclass(frozen=True)
class ScriptedToolCall:
    """A tool call the fake model will make; ``arguments`` is JSON text."""

    name: str
    arguments: str = "{}"
    id: str | None = None


@dataclass(frozen=True)
class Reply:
    """One scripted answer (or failure) of the fake model; see the module docstring for fields."""

    text: str = ""
    reasoning: str = ""
    tool_calls: tuple[ScriptedToolCall | Mapping[str, Any], ...] = ()
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    send_usage: bool = True
    chunk_size: int = 4
    chunk_delay: float = 0.0
    status: int = 200
    error_message: str = "scripted failure"
    retry_after: float | None = None
    delay: float = 0.0
    stall_after: int | None = None
    malformed: bool = False
    chunks: tuple[Mapping[str, Any], ...] = ()

    def __post_init__(self) -> None:
        # Accept tool calls as mappings too, so scripts read the same in Python and in JSON files.
        object.__setattr__(self, "tool_calls", tuple(_tool_call(call) for call in self.tool_calls))

    @property
    def calls(self) -> tuple[ScriptedToolCall, ...]:
        """The tool calls, each a ScriptedToolCall once __post_init__ has run."""
        return cast(tuple[ScriptedToolCall, ...], self.tool_calls)

    @classmethod
    def coerce(cls, value: ReplyLike) -> Reply:
        """Accept a Reply, a plain answer text, or a JSON-style mapping of Reply fields."""
        if isinstance(value, Reply):
            return value
        if isinstance(value, str):
            return cls(text=value)
        data = dict(value)
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"Unknown fake LLM reply fields: {', '.join(sorted(unknown))}.")
        return cls(**{**data, "tool_calls": tuple(data.get("tool_calls", ())),
                      "chunks": tuple(data.get("chunks", ()))})


ReplyLike = Reply | str | Mapping[str, Any]


def _tool_call(value: ScriptedToolCall | Mapping[str, Any]) -> ScriptedToolCall:
    if isinstance(value, ScriptedToolCall):
        return value
    arguments = value.get("arguments", {})
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return ScriptedToolCall(name=value["name"], arguments=text, id=value.get("id"))


@dataclass(frozen=True)
class RecordedRequest:
    """One request the fake received: the parsed JSON body and the headers that matter."""

    path: str
    body: dict[str, Any]
    authorization: str = ""

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    @property
    def tools(self) -> list[dict[str, Any]]:
        return list(self.body.get("tools", []) or [])

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))

    def prompt_text(self) -> str:
        """Return all message contents joined, for "the prompt mentions X" assertions."""
        return "\n".join(_content_text(message.get("content")) for message in self.messages)


@dataclass
class _Script:
    replies: deque[Reply] = field(default_factory=deque)
    fallback: Reply | None = None
    requests: list[RecordedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    responder: Callable[[RecordedRequest], ReplyLike | None] | None = None

    def take(self, request: RecordedRequest) -> Reply | None:
        with self.lock:
            self.requests.append(request)
            responder = self.responder
        answer = responder(request) if responder is not None else None  # outside the lock: it may be slow
        if answer is not None:
            return Reply.coerce(answer)
        with self.lock:
            return self.replies.popleft() if self.replies else self.fallback


class FakeLLMServer:
    """Serve scripted replies over the OpenAI protocol from a background thread on loopback."""

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0, models: Iterable[str] = ("fake-model",),
                 api_key: str | None = None) -> None:
        self._state = _Script()
        self._models = tuple(models)
        self._api_key = api_key
        self._stopping = threading.Event()
        self._httpd = _Server((host, port), _Handler)
        self._httpd.fake = self  # type: ignore[attr-defined]
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """Return the URL to use as ``LLM_BASE_URL`` (ends in /v1)."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> FakeLLMServer:
        """Start serving in a daemon thread."""
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01},
                                        name="fake-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; wakes handlers that are sleeping through a scripted delay."""
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def script(self, *replies: ReplyLike) -> None:
        """Queue replies; each request takes the next one."""
        with self._state.lock:
            self._state.replies.extend(Reply.coerce(reply) for reply in replies)

    def set_fallback(self, reply: ReplyLike | None) -> None:
        """Answer with ``reply`` whenever the queue is empty (None: answer 400 instead)."""
        with self._state.lock:
            self._state.fallback = None if reply is None else Reply.coerce(reply)

    def set_responder(self, responder: Callable[[RecordedRequest], ReplyLike | None] | None) -> None:
        """Let ``responder`` answer each request first (None from it: the script answers)."""
        with self._state.lock:
            self._state.responder = responder

    def reset(self) -> None:
        """Forget queued replies, the fallback, the responder and recorded requests."""
        with self._state.lock:
            self._state.replies.clear()
            self._state.fallback = None
            self._state.responder = None
            self._state.requests.clear()

    @property
    def requests(self) -> list[RecordedRequest]:
        """Return a snapshot of the requests received so far, oldest first."""
        with self._state.lock:
            return list(self._state.requests)

    @property
    def pending(self) -> int:
        """Return how many scripted replies have not been used yet."""
        with self._state.lock:
            return len(self._state.replies)

    def _sleep(self, seconds: float) -> None:
        self._stopping.wait(seconds)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients hang up on keep-alive connections and after timeouts; that is not an error.
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, and chunked SSE like real endpoints
    server_version = "FakeLLM/1"

    def setup(self) -> None:
        super().setup()
        # Headers and body go out as separate small writes; without this, Nagle + delayed ACK
        # add ~40 ms to some responses, which would swamp the client overhead we benchmark.
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    @property
    def fake(self) -> FakeLLMServer:
        return cast(FakeLLMServer, self.server.fake)  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - signature from the base class
        pass  # tests and demos don't want an access log on stderr

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            data = [{"id": name, "object": "model", "created": 0, "owned_by": "fake"} for name in self.fake._models]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_error(404, f"No route for GET {self.path}.")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_error(404, f"No route for POST {self.path}.")
            return
        if self.fake._api_key is not None and self.headers.get("Authorization") != f"Bearer {self.fake._api_key}":
            self._send_error(401, "Incorrect API key provided.")
            return
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send_error(400, "The request body is not JSON.")
            return
        request = RecordedRequest(path=self.path, body=body, authorization=self.headers.get("Authorization", ""))
        reply = self.fake._state.take(request)
        try:
            self._answer(request, reply)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (timeout) or closed after [DONE]

    def _answer(self, request: RecordedRequest, reply: Reply | None) -> None:
        if reply is None:
            self._send_error(400, f"fake LLM script exhausted: request #{len(self.fake.requests)} "
                                  "had no scripted reply.")
            return
        if reply.delay and reply.stall_after is None:
            self.fake._sleep(reply.delay)
        if reply.status != 200:
            headers = {"Retry-After": f"{reply.retry_after:g}"} if reply.retry_after is not None else {}
            self._send_error(reply.status, reply.error_message, headers)
        elif request.stream:
            self._stream(request, reply)
        elif reply.malformed:
            self._send_raw(200, b'{"id": "chatcmpl-fake", "choices": [', "application/json")
        elif reply.chunks:
            self._send_json(200, _folded_body(request, reply.chunks))
        else:
            self._send_json(200, _completion_body(request, reply))

    def _stream(self, request: RecordedRequest, reply: Reply) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if reply.malformed:
            self._write_chunk(b'data: {"id": "chatcmpl-fake", "choices": [\n\n')
        else:
            include_usage = bool((request.body.get("stream_options") or {}).get("include_usage"))
            chunks = _replayed_chunks(request, reply.chunks) if reply.chunks else _stream_chunks(
                request, reply, include_usage)
            for count, chunk in enumerate(chunks):
                if reply.stall_after is not None and count == reply.stall_after + 1:  # +1: the role chunk
                    self.fake._sleep(reply.delay)
                elif reply.chunk_delay:
                    self.fake._sleep(reply.chunk_delay)
                self._write_chunk(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
            self._write_chunk(b"data: [DONE]\n\n")
        self._write_chunk(b"")

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _send_json(self, status: int, payload: dict[str, Any], headers: Mapping[str, str] | None = None) -> None:
        self._send_raw(status, json.dumps(payload, ensure_ascii=False).encode(), "application/json", headers)

    def _send_error(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        kind = "server_error" if status >= 500 else "invalid_request_error"
        self._send_json(status, {"error": {"message": message, "type": kind, "code": None}}, headers)

    def _send_raw(self, status: int, data: bytes, content_type: str,
                  headers: Mapping[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


# --- Response bodies ----------------------------------------------------------------------------

_ids = iter(range(1, 1 << 62))
_ids_lock = threading.Lock()


def _next_id() -> str:
    with _ids_lock:
        return f"chatcmpl-fake-{next(_ids)}"


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: [{"type": "text", "text": ...}]
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _half(characters: int) -> int:
    return (characters + 1) // 2


def _usage(request: RecordedRequest, reply: Reply) -> dict[str, int]:
    prompt_chars = sum(len(_content_text(message.get("content"))) for message in request.messages)
    reply_chars = len(reply.text) + len(reply.reasoning) + sum(len(call.arguments) for call in reply.calls)
    prompt = reply.prompt_tokens if reply.prompt_tokens is not None else _half(prompt_chars)
    completion = reply.completion_tokens if reply.completion_tokens is not None else _half(reply_chars)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _finish_reason(reply: Reply) -> str:
    return reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")


def _call_id(index: int, call: ScriptedToolCall) -> str:
    return call.id or f"call_fake_{index}"


def _completion_body(request: RecordedRequest, reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.reasoning:
        message["reasoning_content"] = reply.reasoning
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": _call_id(index, call), "type": "function",
             "function": {"name": call.name, "arguments": call.arguments}}
            for index, call in enumerate(reply.calls)
        ]
    body: dict[str, Any] = {
        "id": _next_id(), "object": "chat.completion", "created": int(time.time()), "model": request.model,
        "choices": [{"index": 0, "message": message, "finish_reason": _finish_reason(reply), "logprobs": None}],
    }
    if reply.send_usage:
        body["usage"] = _usage(request, reply)
    return body


def _pieces(text: str, size: int) -> Iterator[str]:
    size = max(1, size)
    for start in range(0, len(text), size):
        yield text[start:start + size]


def _stream_chunks(request: RecordedRequest, reply: Reply, include_usage: bool) -> Iterator[dict[str, Any]]:
    """Yield the chunk objects of one streamed answer, in the order a real endpoint sends them."""
    shell = {"id": _next_id(), "object": "chat.completion.chunk", "created": int(time.time()),
             "model": request.model}

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        return {**shell, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}

    yield chunk({"role": "assistant", "content": ""})
    for piece in _pieces(reply.reasoning, reply.chunk_size):
        yield chunk({"reasoning_content": piece})
    for piece in _pieces(reply.text, reply.chunk_size):
        yield chunk({"content": piece})
    for index, call in enumerate(reply.calls):
        yield chunk({"tool_calls": [{"index": index, "id": _call_id(index, call), "type": "function",
                                     "function": {"name": call.name, "arguments": ""}}]})
        for piece in _pieces(call.arguments, reply.chunk_size):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, _finish_reason(reply))
    if include_usage and reply.send_usage:
        yield {**shell, "choices": [], "usage": _usage(request, reply)}


def _replayed_chunks(request: RecordedRequest, recorded: Iterable[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield a recorded stream's chunks, filling in the envelope fields a recording may leave out."""
    shell = {"id": _next_id(), "object": "chat.completion.chunk", "created": int(time.time()),
             "model": request.model}
    for chunk in recorded:
        yield {**shell, **chunk}


def _folded_body(request: RecordedRequest, recorded: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Fold a recorded stream into the one ``chat.completion`` body the same model would have sent."""
    content: list[str] = []
    reasoning: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    finish_reason, usage = None, None
    for chunk in recorded:
        usage = chunk.get("usage") or usage
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") or {}
            content.append(delta.get("content") or "")
            reasoning.append(delta.get("reasoning_content") or delta.get("reasoning") or "")
            for fragment in delta.get("tool_calls") or ():
                call = calls.setdefault(int(fragment.get("index", 0)),
                                        {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
                call["id"] = call["id"] or fragment.get("id") or ""
                function = fragment.get("function") or {}
                call["function"]["name"] += function.get("name") or ""
                call["function"]["arguments"] += function.get("arguments") or ""
            finish_reason = choice.get("finish_reason") or finish_reason
    message: dict[str, Any] = {"role": "assistant", "content": "".join(content) or None}
    if any(reasoning):
        message["reasoning_content"] = "".join(reasoning)
    if calls:
        message["tool_calls"] = [calls[index] for index in sorted(calls)]
    body: dict[str, Any] = {"id": _next_id(), "object": "chat.completion", "created": int(time.time()),
                            "model": request.model,
                            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}]}
    if usage:
        body["usage"] = usage
    return body


# --- Standalone --------------------------------------------------------------------------------

def load_script(path: Path) -> tuple[list[Reply], Reply | None]:
    """Read a script file: a list of replies, or {"replies": [...], "fallback": {...}}."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, list):
        return [Reply.coerce(item) for item in data], None
    fallback = data.get("fallback")
    replies = [Reply.coerce(item) for item in data.get("replies", [])]
    return replies, None if fallback is None else Reply.coerce(fallback)


def main(argv: list[str] | None = None) -> None:
    """Run the fake until interrupted."""
    parser = argparse.ArgumentParser(description="Scripted fake LLM speaking the OpenAI protocol.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8011)
    parser.add_argument("--script", type=Path, help="JSON script file (see the module docstring)")
    parser.add_argument("--model", action="append", dest="models", help="model name to list (repeatable)")
    args = parser.parse_args(argv)
    server = FakeLLMServer(host=args.host, port=args.port, models=args.models or ("fake-model",))
    if args.script:
        replies, fallback = load_script(args.script)
        server.script(*replies)
        server.set_fallback(fallback)
    server.start()
    print(f"Fake LLM listening on {server.base_url} ({server.pending} scripted replies). Ctrl-C stops it.",
          flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
