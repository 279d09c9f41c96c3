"""web_search: off by default; a configured provider's hits come back compact; failures are results."""

from __future__ import annotations

import json

from agent.tools.web_search import TOOL

CALLS: list[tuple] = []


def fake_search(query, *, top_k, timeout):
    CALLS.append((query, top_k, timeout))
    return [{"title": f"hit {n}", "url": f"https://example.org/{n}", "snippet": "s"} for n in range(5)]


def broken_search(query, *, top_k, timeout):
    raise TimeoutError("slow")


def test_search_is_disabled_by_default(ctx, settings):
    settings.WEB_SEARCH_PROVIDER = ""
    result = TOOL.run({"query": "考试时间"}, ctx, None)
    assert (result.status, result.data["code"]) == ("failed", "search_disabled") and "未启用" in result.content


def test_a_configured_provider_answers(ctx, settings):
    settings.WEB_SEARCH_PROVIDER = "agent.tests.tools.test_web_search.fake_search"
    result = json.loads(TOOL.run({"query": "考试时间", "top_k": 2}, ctx, None).content)
    assert result["count"] == 2 and CALLS[-1] == ("考试时间", 2, 10.0)


def test_a_failing_provider_is_a_failed_result(ctx, settings):
    settings.WEB_SEARCH_PROVIDER = "agent.tests.tools.test_web_search.broken_search"
    result = TOOL.run({"query": "x"}, ctx, None)
    assert result.status == "failed" and "TimeoutError" in result.content
