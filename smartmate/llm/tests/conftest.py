"""Fixtures for the LLM layer's own tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def llm(fake_llm):
    """Return the real client, built by the getter from settings pointing at the fake server."""
    from smartmate.llm import get_llm_client

    return get_llm_client()
