"""Benchmark the planner on instances with the student's rules: caps, buffers, protected times, a latest section.

    python -m bench.planner_rules_bench [--seed-base N] [--per-size 10]

The benchmark kit's generator (``gen.py`` in BENCH_DIR, read, never changed) makes the timetables
and classes; this module adds rules to each instance with its own seeded draws (``add_rules``):
lunch (section 5) protected every day or on weekdays, sometimes dinner (section 9) on weekdays,
a latest section (10) or none, a daily cap (2-4) or none, a buffer (0-2 sections), and about one
free pair in twenty already holding a study block (occupied, and listed in ``rules.blocks`` so
the cap and the buffer count it).

For each instance it prints whether the plan is valid (the kit's validator for the contract's
guarantees, plus this module's checks of every rule) and placed against an oracle that respects
the same rules: a maximum flow source -> class -> pair -> day -> sink, where a pair is usable
when the rules leave it (not protected, not after the latest section, clear of the blocks
already there, on a day they do not fill) and a day takes at most what the cap leaves. Without a
buffer that is the true maximum; with a buffer the day's capacity is also bounded by the largest
set of its pairs that keep the buffer, which makes it an upper bound (stated as such in the output).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from types import ModuleType

from schedule.core.planning import instance_from_json, plan, result_to_json

REPO_ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = REPO_ROOT.parent / "shared" / "bench" / "planner"
SIZES = ("small", "medium", "tight", "large")
RULE_EVENT_BASE = 90_000


def kit(name: str) -> ModuleType:
    """A module of the benchmark kit (gen, oracle, validate), imported from BENCH_DIR."""
    if str(BENCH_DIR) not in sys.path:
        sys.path.insert(0, str(BENCH_DIR))
    return importlib.import_module(name)


# --- Rules added to a generated instance ---------------------------------------------------------------

def add_rules(instance: dict, rng: random.Random) -> dict:
    """The instance with drawn rules and a few study blocks already placed (seeded, deterministic)."""
    protected = [{"name": "午饭", "first": 5, "last": 5,
                  "days": rng.choice([[1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5]])}]
    if rng.random() < 0.3:
        protected.append({"name": "晚饭", "first": 9, "last": 9, "days": [1, 2, 3, 4, 5]})
    rules: dict = {"protected": protected, "buffer": rng.choice([0, 0, 1, 2]),
                   "daily_cap": rng.choice([None, 2, 3, 4]), "latest_section": rng.choice([None, 10])}
    blocks, occupied = _existing_blocks(instance, rng)
    rules["blocks"] = blocks
    return {**instance, "occupied": [*instance.get("occupied", []), *occupied], "rules": rules,
            "name": f"{instance.get('name', 'instance')}+rules"}


def _existing_blocks(instance: dict, rng: random.Random) -> tuple[list[dict], list[dict]]:
    taken = {(r["week"], r["day"], r["section"]) for r in instance.get("occupied", [])}
    blocks: list[dict] = []
    occupied: list[dict] = []
    for week in range(1, instance["weeks"] + 1):
        for day in range(1, 8):
            for k in range(1, 7):
                first = 2 * k - 1
                if (week, day, first) in taken or (week, day, first + 1) in taken or rng.random() >= 0.05:
                    continue
                event_id = RULE_EVENT_BASE + len(blocks)
                blocks.append({"week": week, "day": day, "section_start": first, "section_end": first + 1})
                occupied += [{"event_id": event_id, "week": week, "day": day, "section": s, "name": "学习块"}
                             for s in (first, first + 1)]
    return blocks, occupied


# --- Checking a result against the rules ------------------------------------------------------------------

def rule_violations(instance: dict, result: dict) -> list[str]:
    """Every placement that breaks a rule: protected, latest, cap or buffer (the blocks already there count)."""
    rules = instance["rules"]
    found = []
    days: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for block in rules["blocks"]:
        days[(block["week"], block["day"])].append((block["section_start"], block["section_end"]))
    existing = {key: len(spans) for key, spans in days.items()}
    for p in result["placements"]:
        start, end, day = p["section_start"], p["section_end"], p["day"]
        for protected in rules["protected"]:
            if day in protected["days"] and start <= protected["last"] and protected["first"] <= end:
                found.append(f"item {p['item_id']} in protected {protected['name']}")
        if rules["latest_section"] is not None and end > rules["latest_section"]:
            found.append(f"item {p['item_id']} ends after section {rules['latest_section']}")
        days[(p["week"], day)].append((start, end))
    for key, spans in days.items():
        old = spans[:existing.get(key, 0)]
        if len(spans) > len(old) and rules["daily_cap"] is not None and len(spans) > rules["daily_cap"]:
            found.append(f"day {key}: {len(spans)} blocks over the cap {rules['daily_cap']}")
        # Blocks already there may sit close to each other; every new block keeps the buffer to all.
        near = [(a, b) for n, a in enumerate(spans) for b in spans[n + 1:]
                if not (a in old and b in old) and max(a[0], b[0]) - min(a[1], b[1]) - 1 < rules["buffer"]]
        if near:
            found.append(f"day {key}: blocks {near[0]} nearer than {rules['buffer']} sections")
    return found


# --- The oracle that respects the same rules ---------------------------------------------------------------

def rules_oracle(instance: dict) -> tuple[int, bool]:
    """(maximum placeable items under the rules, whether it is exact) - see the module docstring."""
    oracle = kit("oracle")
    rules = instance["rules"]
    existing: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for block in rules["blocks"]:
        existing[(block["week"], block["day"])].append((block["section_start"], block["section_end"]))
    pairs = [p for p in oracle.usable_pairs(instance) if _rules_allow(rules, existing, p)]
    by_day: dict[tuple[int, int], list[int]] = defaultdict(list)
    for p in pairs:
        by_day[(p[0], p[1])].append(p[2])
    classes = instance.get("task_classes", [])
    day_ids = {key: n for n, key in enumerate(sorted(by_day))}
    source, sink = 0, 1
    first_class, first_pair = 2, 2 + len(classes)
    first_day = first_pair + len(pairs)
    flow = oracle.MaxFlow(first_day + len(day_ids))
    for ci, tc in enumerate(classes):
        flow.add_edge(source, first_class + ci, len(tc.get("items", [])))
        for pi, p in enumerate(pairs):
            if oracle.class_may_use(tc, p) and p[1] not in tc.get("excluded_days", []):
                flow.add_edge(first_class + ci, first_pair + pi, 1)
    for pi, p in enumerate(pairs):
        flow.add_edge(first_pair + pi, first_day + day_ids[(p[0], p[1])], 1)
    for key, n in day_ids.items():
        flow.add_edge(first_day + n, sink, _day_capacity(rules, len(existing[key]), by_day[key]))
    return int(flow.run(source, sink)), rules["buffer"] == 0


def _rules_allow(rules: dict, existing: dict, pair: tuple) -> bool:
    week, day, k, _host = pair
    first, last = 2 * k - 1, 2 * k
    if rules["latest_section"] is not None and last > rules["latest_section"]:
        return False
    if any(day in p["days"] and first <= p["last"] and p["first"] <= last for p in rules["protected"]):
        return False
    there = existing[(week, day)]
    if rules["daily_cap"] is not None and len(there) >= rules["daily_cap"]:
        return False
    return all(max(first, s) - min(last, e) - 1 >= rules["buffer"] for s, e in there)


def _day_capacity(rules: dict, already: int, ks: list[int]) -> int:
    """What a day can take: the cap's remainder, and the largest buffer-keeping set of its pairs."""
    keeping, last_end = 0, None
    for k in sorted(ks):  # earliest-first is optimal for spacing intervals on a line
        if last_end is None or (2 * k - 1) - last_end - 1 >= rules["buffer"]:
            keeping, last_end = keeping + 1, 2 * k
    cap = rules["daily_cap"] - already if rules["daily_cap"] is not None else keeping
    return min(cap, keeping)


# --- Running ----------------------------------------------------------------------------------------------

def run(seed_base: int, per_size: int) -> int:
    gen, validate = kit("gen"), kit("validate")
    rows = []
    for size in SIZES:
        for n in range(per_size):
            seed = seed_base + n
            base = gen.generate_tight(seed) if size == "tight" else gen.generate(seed, size)
            instance = add_rules(base, random.Random(f"rules:{size}:{seed}"))
            started = time.perf_counter()
            result = result_to_json(plan(instance_from_json(instance)))
            elapsed = (time.perf_counter() - started) * 1000
            best, exact = rules_oracle(instance)
            report = validate.validate(instance, result, oracle_max=best)
            broken = report["violations"] + rule_violations(instance, result)
            placed = len(result["placements"])
            rows.append({"size": size, "seed": seed, "valid": not broken, "placed": placed, "oracle": best,
                         "exact": exact, "ms": elapsed, "problems": broken[:3]})
    _print(rows, seed_base)
    return 0 if all(r["valid"] for r in rows) else 1


def _print(rows: list[dict], seed_base: int) -> None:
    print(f"planner with the student's rules, seed base {seed_base} (repeat with --seed-base {seed_base})")
    print(f"{'size':<8}{'seed':>10}{'valid':>7}{'placed':>8}{'oracle':>8}{'kind':>13}{'ms':>9}")
    for r in rows:
        kind = "exact" if r["exact"] else "upper bound"
        print(f"{r['size']:<8}{r['seed']:>10}{'yes' if r['valid'] else 'NO':>7}{r['placed']:>8}{r['oracle']:>8}"
              f"{kind:>13}{r['ms']:>9.1f}")
        for problem in r["problems"]:
            print(f"    {problem}")
    print("\nsummary (placed/oracle is against the exact maximum without a buffer, an upper bound with one)")
    for label, chosen in (("all", rows), ("exact oracle", [r for r in rows if r["exact"]]),
                          ("upper bound", [r for r in rows if not r["exact"]]),
                          *((size, [r for r in rows if r["size"] == size]) for size in SIZES)):
        if not chosen:
            continue
        ratio = sum(r["placed"] for r in chosen) / max(1, sum(r["oracle"] for r in chosen))
        worst = min((r["placed"] / r["oracle"] if r["oracle"] else 1.0) for r in chosen)
        print(f"  {label:<13} valid {sum(r['valid'] for r in chosen)}/{len(chosen)}  placed/oracle {ratio:.3f} "
              f"(worst {worst:.3f})  median {statistics.median(r['ms'] for r in chosen):.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed-base", type=int, default=None, help="repeat a batch (default: drawn fresh)")
    parser.add_argument("--per-size", type=int, default=10, help="instances per size (small, medium, tight, large)")
    args = parser.parse_args(argv)
    if not (BENCH_DIR / "gen.py").is_file():
        print(f"benchmark kit not found at {BENCH_DIR}", file=sys.stderr)
        return 2
    base = args.seed_base if args.seed_base is not None else random.SystemRandom().randrange(100_000, 1_000_000_000)
    return run(base, args.per_size)


if __name__ == "__main__":
    sys.exit(main())
