"""analyze_rhythm: switches per day, the longest run, heavy days in a row."""

from __future__ import annotations

from agent.tests.tools.test_analyze_health import alternating_thursday
from agent.tools.analyze_rhythm import TOOL


def test_switches_on_a_choppy_day_are_counted(ctx, plan):
    working = alternating_thursday(ctx, plan)
    result = TOOL.run({}, ctx, working)
    assert result.status == "done"
    assert result.data["switches"] == [{"date": "2026-09-24", "count": 3}] and result.data["max_switches"] == 3
    assert "科目切换：共 3 次，单日最多 3 次（2026-09-24(周四) 3 次）" in result.content
    assert result.data["decision"]["recommended_operation"] == "swap"


def test_a_bad_date_is_sent_back_and_nothing_changes(ctx, working):
    result = TOOL.run({"date_from": "2026-09-40"}, ctx, working)
    assert result.status == "failed" and result.data["code"] == "invalid_date" and result.working is None


def test_rhythm_dimensions_narrow_the_report_and_the_decision(ctx, plan):
    working = alternating_thursday(ctx, plan)
    result = TOOL.run({"dimensions": ["longest_run"]}, ctx, working)
    assert "同一科目一天内最长连续 1 块" in result.content and "科目切换" not in result.content
    assert result.data["decision"]["primary_problem"] == "none" and result.data["dimensions"] == ["longest_run"]
    strict = TOOL.run({"dimensions": ["context_switches"], "threshold": "strict"}, ctx, working)
    assert strict.data["decision"]["recommended_operation"] == "swap" and strict.data["threshold"] == "strict"
