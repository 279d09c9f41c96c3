"""The benchmarks still run: tiny versions of both report zero errors and figures that add up.

No timing thresholds here: speed is read by people from the benchmarks' figures, since a timed test
fails on a slow machine for no fault of the code. Only that the numbers are sane.
"""

from __future__ import annotations

import pytest

from bench.topology.processes import fallback_reply
from bench.turns_bench import SCENARIOS, ModelCall, measure, report_lines, rounds_framework
from bench.ws_bench import BenchConfig, run_bench


def test_framework_rounds_add_up_to_the_turn_minus_the_model_time():
    calls = [ModelCall("route", started=1.0, ended=1.5, callbacks=0.0),
             ModelCall("deliver", started=2.0, ended=4.0, callbacks=0.5)]

    rounds = rounds_framework(0.0, 5.0, calls)

    assert rounds == [1.0, 0.5 + 0.5 + 1.0]
    assert sum(rounds) == 5.0 - sum(call.model_seconds for call in calls)


@pytest.mark.django_db(transaction=True)
def test_the_turn_benchmark_runs_every_scenario_without_errors(fake_llm):
    results = measure(SCENARIOS, fake=fake_llm, turns=3)

    for scenario, result in zip(SCENARIOS, results):
        assert (result.name, result.turns, result.errors) == (scenario.name, 3, [])
        assert result.calls == [len(scenario.script) + len(scenario.accept_script or ())] * 3
        # A round is one of the turn's own calls; background calls (title, memory) are counted apart.
        assert len(result.round_ms) == len(result.round_cpu_ms) == sum(result.calls)
        assert all(tokens > 0 for tokens in result.prompt_tokens + result.completion_tokens)
        assert all(0 <= framework <= turn for framework, turn in zip(result.framework_ms, result.turn_ms))
        # The turn's own CPU and statements were seen (its thread, not only this one), and its
        # framework CPU is the turn's CPU without the client's share, split over its rounds.
        assert all(cpu > 0 for cpu in result.turn_cpu_ms) and all(queries > 20 for queries in result.turn_queries)
        assert all(0 < framework <= cpu for framework, cpu in zip(result.framework_cpu_ms, result.turn_cpu_ms))
        assert sum(result.round_cpu_ms) == pytest.approx(sum(result.framework_cpu_ms))
    lines = report_lines(results)
    assert lines[-1].startswith("all scenarios: framework per model round p50 ") and "its CPU p50" in lines[-1]
    assert any("turn CPU p50" in line and "queries/turn" in line for line in lines)


def test_the_fake_models_reply_is_a_route_the_router_accepts_at_the_asked_length():
    import json

    reply = fallback_reply(200)

    assert json.loads(reply["text"])["route"] == "reply"
    assert len(reply["text"]) == 200


@pytest.mark.django_db(transaction=True)
def test_the_websocket_benchmark_completes_every_turn_in_memory_mode(tmp_path):
    from django.db import connection

    config = BenchConfig(connections=5, mode="memory", servers=1, answer_chars=60, timeout=60)

    report = run_bench(config, database_name=str(connection.settings_dict["NAME"]), folder=tmp_path)

    assert (report.connected, report.completed, report.error_count) == (5, 5, 0), report.lines()
    assert report.events >= 5 * 4  # status, at least one delta, usage, turn.done
    assert 0 < report.first_event_ms[0] <= report.first_event_ms[1] <= report.done_ms[1]
    assert report.events_per_second > 0
