"""The planner with the student's rules: protected times, latest section, daily cap, buffer, blocks already there."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from schedule.core.planning import instance_from_json, plan, result_to_json
from schedule.core.planning.contract import InstanceError

REPO = Path(__file__).resolve().parents[3]


def instance(rules: dict | None, *, items: int = 10, weeks: int = 2, occupied: list | None = None,
             strategy: str = "steady") -> dict:
    data = {"weeks": weeks, "occupied": occupied or [],
            "task_classes": [{"id": 1, "strategy": strategy, "start": {"week": 1, "day": 1},
                              "end": {"week": weeks, "day": 7},
                              "items": [{"id": 100 + n} for n in range(items)]}]}
    if rules is not None:
        data["rules"] = rules
    return data


def planned(data: dict):
    return plan(instance_from_json(data))


def by_day(result) -> dict[tuple[int, int], list[tuple[int, int]]]:
    days: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for p in result.placements:
        days[(p.week, p.day)].append((p.section_start, p.section_end))
    return days


def test_no_rules_plans_exactly_as_before():
    assert result_to_json(planned(instance(None))) == result_to_json(planned(instance({})))


def test_protected_times_and_the_latest_section_stay_free():
    rules = {"protected": [{"name": "lunch", "first": 5, "last": 5}], "latest_section": 8}
    result = planned(instance(rules, items=30))
    assert len(result.placements) == 30
    assert all(not (p.section_start <= 5 <= p.section_end) and p.section_end <= 8 for p in result.placements)


def test_a_protected_time_keeps_to_its_weekdays():
    rules = {"protected": [{"first": 1, "last": 12, "days": [1, 2, 3, 4, 5]}]}
    result = planned(instance(rules, items=8, weeks=1))
    assert {p.day for p in result.placements} <= {6, 7}
    assert len(result.placements) == 8


def test_the_daily_cap_and_the_buffer_hold_on_every_day():
    rules = {"daily_cap": 2, "buffer": 1}
    result = planned(instance(rules, items=40, weeks=3, strategy="rapid"))
    assert len(result.placements) == 40  # 21 days x 2 fits them
    for blocks in by_day(result).values():
        assert len(blocks) <= 2
        ordered = sorted(blocks)
        assert all(b[0] - a[1] - 1 >= 1 for a, b in zip(ordered, ordered[1:]))


def test_blocks_already_there_count_for_the_cap_and_the_buffer():
    existing = [{"week": 1, "day": d, "section_start": 5, "section_end": 6} for d in range(1, 8)]
    occupied = [{"event_id": 900 + b["day"], "week": 1, "day": b["day"], "section": s}
                for b in existing for s in (5, 6)]
    rules = {"daily_cap": 2, "buffer": 2, "blocks": existing}
    result = planned(instance(rules, items=20, weeks=1, occupied=occupied))
    assert len(result.placements) == 7  # one more per day, away from sections 5-6
    for blocks in by_day(result).values():
        assert len(blocks) == 1
        start, end = blocks[0]
        assert end <= 2 or start >= 9
    assert len(result.unplaced) == 13 and [u.item_id for u in result.unplaced] == list(range(107, 120))


def test_when_too_little_room_is_left_the_last_items_stay_unplaced_in_order():
    rules = {"daily_cap": 1}
    result = planned(instance(rules, items=10, weeks=1))
    assert len(result.placements) == 7
    assert [p.item_id for p in result.placements] == list(range(100, 107))
    days = [(p.week, p.day) for p in result.placements]
    assert days == sorted(days)


def test_bad_rules_make_the_instance_invalid():
    with pytest.raises(InstanceError, match="rules.daily_cap"):
        instance_from_json(instance({"daily_cap": 0}))
    with pytest.raises(InstanceError, match="rules.protected"):
        instance_from_json(instance({"protected": [{"first": 13}]}))


def test_the_command_line_plans_with_rules_like_plan():
    data = instance({"daily_cap": 2, "buffer": 1, "protected": [{"first": 5, "last": 6}]}, items=20)
    out = subprocess.run([sys.executable, "-m", "schedule.core.planner"], input=json.dumps(data), text=True,
                         capture_output=True, cwd=REPO, check=True)
    line = json.loads(out.stdout)
    assert line["placements"] == result_to_json(planned(data))["placements"]


def test_the_rules_benchmark_finds_every_plan_valid_on_a_small_batch(capsys):
    from bench import planner_rules_bench as bench

    if not (bench.BENCH_DIR / "gen.py").is_file():
        pytest.skip("the benchmark kit is not here")
    assert bench.run(7001, 1) == 0
    out = capsys.readouterr().out
    assert "valid 4/4" in out and "placed/oracle" in out
