"""Pytest fixtures for the LLM layer, registered for every app by the root conftest.

- ``fake_llm``: a scripted fake LLM on a free loopback port, with settings pointing at it and the
  client getter reset; yields the ``FakeLLMServer`` (``.script(...)``, ``.requests``,
  ``.set_fallback(...)``, ``.pending``, ``.base_url``).
- ``_titles_off`` (autouse) / ``auto_titles``: automatic titles off unless a test asks for them.
- ``recorded(name)``: a recorded real-model stream from ``tests/transcripts`` as a scripted reply.
- ``_no_real_llm`` (autouse): unless a test uses ``fake_llm``, the LLM is disabled, so a key in a
  developer's environment can never turn a test into a real, paid, non-deterministic call (the
  root conftest's network guard would block it anyway; this makes it fail clearly and early).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.fake_model import FakeLLMServer
from smartmate.llm.provider import reset_llm_client


def _django_active(request: pytest.FixtureRequest) -> bool:
    # Pure-core tests run with `-p no:django`; then there are no settings to touch.
    return request.config.pluginmanager.hasplugin("django")


TRANSCRIPTS = Path(__file__).resolve().parents[1] / "smartmate" / "llm" / "tests" / "transcripts"


def recorded(name: str) -> dict[str, Any]:
    """Return the recorded raw stream ``transcripts/<name>.json`` as a scripted reply for the fake."""
    data = json.loads((TRANSCRIPTS / f"{name}.json").read_text(encoding="utf-8"))
    return {"chunks": data["chunks"]}


@pytest.fixture(autouse=True)
def _no_real_llm(request: pytest.FixtureRequest) -> Iterator[None]:
    """Disable the real LLM for tests that did not ask for the fake one."""
    if not _django_active(request) or "fake_llm" in request.fixturenames:
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.LLM_ENABLED = False
    settings.LLM_BASE_URL = ""
    settings.LLM_API_KEY = ""
    reset_llm_client()
    yield
    reset_llm_client()


@pytest.fixture(autouse=True)
def _titles_off(request: pytest.FixtureRequest) -> Iterator[None]:
    """Automatic titles call the model after a first answer; off unless a test asks (``auto_titles``),
    so they never take a scripted reply meant for the turn."""
    if not _django_active(request):
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.AGENT_AUTO_TITLES = "auto_titles" in request.fixturenames
    yield


@pytest.fixture
def auto_titles(settings: Any) -> None:
    """Switch automatic conversation titles on for a test."""
    settings.AGENT_AUTO_TITLES = True


@pytest.fixture
def fake_llm(settings: Any) -> Iterator[FakeLLMServer]:
    """Run a scripted fake LLM and point the client getter at it."""
    server = FakeLLMServer().start()
    settings.LLM_BASE_URL = server.base_url
    settings.LLM_API_KEY = "test"
    settings.LLM_ENABLED = True
    # Retries stay on (tests exercise them) but wait milliseconds, not seconds.
    settings.LLM_RETRY_BACKOFF_SECONDS = 0.01
    reset_llm_client()
    try:
        yield server
    finally:
        reset_llm_client()
        server.stop()
