"""The one lazy getter for the LLM client, and the hooks tests use to swap it.

The client is built on first use from Django settings and rebuilt whenever those settings change
(so pytest-django's ``settings`` fixture, or ``override_settings``, just works). Settings read:
LLM_ENABLED, LLM_BASE_URL, LLM_API_KEY, LLM_MODEL, LLM_MODELS, LLM_TIMEOUT_SECONDS,
LLM_MAX_RETRIES, and three optional ones with defaults: LLM_THINKING_PARAM ("none"; see
``stages.py``), LLM_STAGE_OVERRIDES ({}; e.g. {"plan": {"temperature": 0.1}}) and
LLM_RETRY_BACKOFF_SECONDS (0.5: the first retry waits 0.25-0.5 s, doubling after).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from smartmate.llm.errors import LLMNotConfigured

if TYPE_CHECKING:
    from smartmate.llm.client import ClientSettings, LLMClient

_DEFAULT_BASE_URL = "https://api.openai.com/v1"

_lock = threading.Lock()
_override: LLMClient | None = None
_cached: tuple[ClientSettings, LLMClient] | None = None


def get_llm_client() -> LLMClient:
    """Return the configured client; raise LLMNotConfigured when no endpoint is set."""
    global _cached
    if _override is not None:
        return _override
    from smartmate.llm.client import OpenAICompatibleClient

    config = client_settings()
    with _lock:
        if _cached is None or _cached[0] != config:
            _cached = (config, OpenAICompatibleClient(config))
        return _cached[1]


def client_settings() -> ClientSettings:
    """Read the client's settings from Django settings; raise LLMNotConfigured when disabled."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    from smartmate.llm.client import ClientSettings

    if not settings.LLM_ENABLED:
        raise LLMNotConfigured()
    try:
        return _build(settings, ClientSettings)
    except ValueError as exc:
        raise ImproperlyConfigured(str(exc)) from exc


def _build(settings: Any, settings_class: type[ClientSettings]) -> ClientSettings:
    return settings_class.build(
        base_url=settings.LLM_BASE_URL or _DEFAULT_BASE_URL,
        api_key=settings.LLM_API_KEY,
        default_model=settings.LLM_MODEL,
        models=settings.LLM_MODELS,
        timeout_seconds=float(settings.LLM_TIMEOUT_SECONDS),
        max_retries=int(settings.LLM_MAX_RETRIES),
        thinking_param=getattr(settings, "LLM_THINKING_PARAM", "none"),
        template_thinking_models=tuple(getattr(settings, "LLM_TEMPLATE_THINKING_MODELS", ())),
        stage_overrides=getattr(settings, "LLM_STAGE_OVERRIDES", {}),
        backoff_seconds=float(getattr(settings, "LLM_RETRY_BACKOFF_SECONDS", 0.5)),
    )


def set_llm_client_for_tests(client: LLMClient | None) -> None:
    """Make ``get_llm_client()`` return ``client`` (None: go back to the settings)."""
    global _override
    _override = client


def reset_llm_client() -> None:
    """Drop the test override and the cached client, so the next call reads settings afresh."""
    global _override, _cached
    with _lock:
        previous, _override, _cached = _cached, None, None
    close = getattr(previous[1], "close", None) if previous else None
    if close is not None:
        close()  # release its keep-alive connections now rather than at garbage collection
