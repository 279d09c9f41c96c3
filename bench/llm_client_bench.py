"""Measure what the LLM client itself costs per call, against the zero-latency fake server.

    python -m bench.llm_client_bench [--calls 300] [--chars 400] [--chunk 4]

The fake server runs in a child process, so its work does not compete with the client for the
GIL. For each mode (plain and streaming) the same request is timed twice: over a bare
``http.client`` connection (the server's and the loopback's share), and through
``OpenAICompatibleClient.complete`` (the ``openai`` package, httpx, our assembly). The difference
is the client's own overhead per call. Figures are wall-clock milliseconds after a warm-up.
"""

from __future__ import annotations

import argparse
import http.client
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from bench.harness import percentiles
from smartmate.llm.client import ClientSettings, OpenAICompatibleClient
from smartmate.llm.contracts import ChatMessage

MESSAGES = [ChatMessage.system("You are SmartMate, a study planner."),
            ChatMessage.user("What is on my schedule tomorrow afternoon?")]


def _time(call: Callable[[], object], calls: int, warmup: int = 20) -> list[float]:
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def _raw_caller(base_url: str, stream: bool) -> Callable[[], object]:
    parts = urlsplit(base_url)
    assert parts.hostname is not None, base_url
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    body: dict[str, object] = {"model": "fake-model", "messages": [m.to_openai() for m in MESSAGES]}
    if stream:
        body |= {"stream": True, "stream_options": {"include_usage": True}}
    payload = json.dumps(body).encode()

    def call() -> bytes:
        connection.request("POST", f"{parts.path}/chat/completions", body=payload,
                           headers={"Content-Type": "application/json", "Authorization": "Bearer bench"})
        return connection.getresponse().read()

    return call


@contextmanager
def _fake_server_process(chars: int, chunk: int) -> Iterator[str]:
    """Run the fake LLM in a child process answering every request the same; yield its base URL."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "script.json"
        script.write_text(json.dumps({"fallback": {"text": "x" * chars, "chunk_size": chunk}}), encoding="utf-8")
        child = subprocess.Popen([sys.executable, "-m", "bench.fake_model", "--port", "0", "--script",
                                  str(script)], stdout=subprocess.PIPE, text=True)
        try:
            banner = child.stdout.readline() if child.stdout else ""
            yield banner.split(" on ", 1)[1].split(" ", 1)[0]
        finally:
            child.terminate()
            child.wait(timeout=10)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print one line per mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--chars", type=int, default=400, help="answer length in characters")
    parser.add_argument("--chunk", type=int, default=4, help="characters per streamed chunk")
    args = parser.parse_args(argv)

    with _fake_server_process(args.chars, args.chunk) as base_url:
        client = OpenAICompatibleClient(ClientSettings.build(base_url=base_url, api_key="bench",
                                                             default_model="fake-model", max_retries=0))
        chunks = -(-args.chars // args.chunk)
        print(f"{args.calls} calls per row, answer of {args.chars} characters "
              f"({chunks} stream chunks of {args.chunk}); milliseconds")
        for label, stream in (("plain", False), ("streaming", True)):
            on_delta = (lambda delta: None) if stream else None
            raw = _time(_raw_caller(base_url, stream), args.calls)
            ours = _time(partial(client.complete, "deliver", MESSAGES, on_delta=on_delta), args.calls)
            (raw50, raw95), (our50, our95) = percentiles(raw), percentiles(ours)
            print(f"{label:>9}: raw http.client p50 {raw50:6.2f}  p95 {raw95:6.2f} | client p50 {our50:6.2f}  "
                  f"p95 {our95:6.2f} | client overhead p50 {our50 - raw50:6.2f}  p95 {our95 - raw95:6.2f}")
        client.close()


if __name__ == "__main__":
    main()
