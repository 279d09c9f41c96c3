"""Benchmark the "spaced" strategy on generated instances with exams: validity, placed vs oracle, spacing error.

    python -m bench.spaced_bench [--instances 60] [--seed 2024]

Each instance (made here, not by the shared benchmark kit) is a semester of 16-20 weeks with a random
timetable (some filler courses), 1-3 exams, each with a spaced revision class of 3-9 items ending on its
exam day, and 0-3 steady or rapid classes competing for the same weeks.  Sizes: "roomy" (a light
timetable), "busy" (a dense one) and "tight" (few free pairs, several classes at once).

For every instance it checks, with code of its own (not the planner's):
- validity: each placement on a free pair, or wholly inside a filler course its class may use; inside
  its class's window, off its excluded pairs and days; a spaced item strictly before its exam day; no
  pair used twice; every class's items in order in time;
- placed vs oracle: the planner's placed items against a maximum flow (classes -> the pairs each may use
  -> one item each) over the same rules;
- spacing error: per placed item of a spaced class, |days before the exam - its ideal| (1, 2, 4, 7, 14,
  21, ... days, the last item nearest), averaged over the items; also for the same classes planned
  "steady" over the window ending the day before the exam, the layout a student would get without the
  strategy.
It prints the figures per size and overall, with `plan()`'s median time.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import deque

from schedule.core.planning import instance_from_json, plan
from schedule.core.planning.spaced import day_index, ideal_offsets

PAIRS_PER_DAY = 6
SIZES = {"roomy": 0.25, "busy": 0.5, "tight": 0.75}   # share of course pairs in the timetable


def generate(rng: random.Random, size: str) -> dict:
    """One contract instance: a timetable, spaced classes with exams, and a few competing classes."""
    weeks = rng.randint(16, 20)
    density = SIZES[size]
    occupied, event_id = [], 0
    for day in range(1, 6):
        for pair in range(1, PAIRS_PER_DAY + 1):
            if rng.random() < density:
                event_id += 1
                filler = rng.random() < 0.2
                first, last = sorted(rng.sample(range(1, weeks + 1), 2))
                for week in range(first, last + 1):
                    for section in (2 * pair - 1, 2 * pair):
                        occupied.append({"event_id": event_id, "week": week, "day": day, "section": section,
                                         "embeddable": filler})
    classes, item_id = [], 0
    for class_id in range(1, rng.randint(1, 3) + 1):
        exam = {"week": rng.randint(max(4, weeks - 6), weeks), "day": rng.randint(1, 5)}
        start_week = max(1, exam["week"] - rng.randint(3, 8))
        items = rng.randint(3, 9)
        classes.append({"id": class_id, "strategy": "spaced", "start": {"week": start_week, "day": 1}, "end": exam,
                        "exam": exam, "allow_filler": rng.random() < 0.5,
                        "excluded_slots": rng.sample(range(1, PAIRS_PER_DAY + 1), rng.randint(0, 2)),
                        "items": [{"id": item_id + n} for n in range(1, items + 1)]})
        item_id += items
    competitors = rng.randint(0, 3) + (2 if size == "tight" else 0)
    for class_id in range(10, 10 + competitors):
        start = rng.randint(1, weeks - 3)
        items = rng.randint(5, 30)
        classes.append({"id": class_id, "strategy": rng.choice(["steady", "rapid"]),
                        "start": {"week": start, "day": 1}, "end": {"week": min(weeks, start + rng.randint(2, 8)),
                                                                    "day": 7},
                        "allow_filler": rng.random() < 0.5, "excluded_days": rng.sample(range(1, 8), rng.randint(0, 2)),
                        "items": [{"id": item_id + n} for n in range(1, items + 1)]})
        item_id += items
    return {"weeks": weeks, "sections_per_day": 2 * PAIRS_PER_DAY, "occupied": occupied, "task_classes": classes}


# --------------------------------------------------------------------------- the rules, written again

def _pair_hosts(instance: dict) -> dict[tuple[int, int, int], int | None]:
    """Every usable pair (week, day, k) -> None when free, the filler event id when wholly inside one."""
    sections = {(row["week"], row["day"], row["section"]): row for row in instance["occupied"]}
    usable: dict[tuple[int, int, int], int | None] = {}
    for week in range(1, instance["weeks"] + 1):
        for day in range(1, 8):
            for k in range(1, PAIRS_PER_DAY + 1):
                a, b = sections.get((week, day, 2 * k - 1)), sections.get((week, day, 2 * k))
                if a is None and b is None:
                    usable[(week, day, k)] = None
                elif a and b and a["event_id"] == b["event_id"] and a["embeddable"] and b["embeddable"]:
                    usable[(week, day, k)] = a["event_id"]
    return usable


def _allowed(spec: dict, pair: tuple[int, int, int], host: int | None) -> bool:
    week, day, k = pair
    start, end = spec["start"], spec["end"]
    if not (start["week"], start["day"]) <= (week, day) <= (end["week"], end["day"]):
        return False
    if k in spec.get("excluded_slots", []) or day in spec.get("excluded_days", []):
        return False
    if host is not None and not spec.get("allow_filler"):
        return False
    if spec["strategy"] != "spaced":
        return True
    exam = spec["exam"]
    return day_index(week, day) < day_index(exam["week"], exam["day"])


def valid(instance: dict, placements: list) -> bool:
    """Check a result against the rules above, independently of the planner."""
    hosts = _pair_hosts(instance)
    specs = {spec["id"]: spec for spec in instance["task_classes"]}
    order = {item["id"]: n for spec in instance["task_classes"] for n, item in enumerate(spec["items"])}
    used = set()
    last_seen: dict[int, tuple[int, int]] = {}
    for p in sorted(placements, key=lambda p: order[p.item_id]):
        pair = (p.week, p.day, (p.section_start + 1) // 2)
        if p.section_end != p.section_start + 1 or p.section_start % 2 != 1 or pair not in hosts or pair in used:
            return False
        if hosts[pair] != p.host_event_id or not _allowed(specs[p.class_id], pair, hosts[pair]):
            return False
        moment = (day_index(p.week, p.day), pair[2])
        if p.class_id in last_seen and moment <= last_seen[p.class_id]:
            return False                                   # items out of order in time
        last_seen[p.class_id] = moment
        used.add(pair)
    return True


def oracle(instance: dict) -> int:
    """The most items any plan can place: a maximum flow class -> usable pair -> sink (Edmonds-Karp)."""
    hosts = _pair_hosts(instance)
    pairs = list(hosts)
    specs = instance["task_classes"]
    options = [[i for i, pair in enumerate(pairs) if _allowed(spec, pair, hosts[pair])] for spec in specs]
    left = [len(spec["items"]) for spec in specs]
    holder: dict[int, int] = {}                            # pair index -> class holding it
    total = 0
    for cls in range(len(specs)):
        while left[cls] and _augment(cls, options, holder):
            left[cls] -= 1
            total += 1
    return total


def _augment(source: int, options: list[list[int]], holder: dict[int, int]) -> bool:
    """Find a free pair for one more item of `source`, moving other classes' items along a shortest path."""
    came: dict[int, tuple[int, int | None]] = {}           # pair -> (class taking it, pair that class gives up)
    start: tuple[int, int | None] = (source, None)
    queue = deque([start])
    seen = {start}
    while queue:
        cls, gave = queue.popleft()
        for pair in options[cls]:
            if pair in came:
                continue
            came[pair] = (cls, gave)
            if pair not in holder:
                step: int | None = pair
                while step is not None:                    # unwind: each class takes the pair it reached
                    taker, previous = came[step]
                    holder[step] = taker
                    step = previous
                return True
            # The pair's holder may give it up for another of its options.
            state: tuple[int, int | None] = (holder[pair], pair)
            if state not in seen:
                seen.add(state)
                queue.append(state)
    return False


def spacing_errors(instance: dict, placements: list) -> list[float]:
    """Per placed item of a spaced class: |days before the exam - its ideal days before|."""
    errors = []
    for spec in instance["task_classes"]:
        if spec["strategy"] != "spaced":
            continue
        exam_day = day_index(spec["exam"]["week"], spec["exam"]["day"])
        ideal = dict(zip((item["id"] for item in spec["items"]), ideal_offsets(len(spec["items"]))))
        errors += [abs(exam_day - day_index(p.week, p.day) - ideal[p.item_id])
                   for p in placements if p.class_id == spec["id"]]
    return errors


def as_steady(instance: dict) -> dict:
    """The same instance with every spaced class planned steady up to the day before its exam."""
    classes = []
    for spec in instance["task_classes"]:
        if spec["strategy"] == "spaced":
            before = day_index(spec["exam"]["week"], spec["exam"]["day"]) - 1
            end = {"week": before // 7 + 1, "day": before % 7 + 1}
            spec = {**spec, "strategy": "steady", "end": end, "exam": None}
        classes.append(spec)
    return {**instance, "task_classes": classes}


# --------------------------------------------------------------------------- the run

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=60, help="instances per run, spread over the sizes")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    rows: dict[str, list[tuple]] = {size: [] for size in SIZES}
    for n in range(args.instances):
        size = list(SIZES)[n % len(SIZES)]
        instance = generate(rng, size)
        typed = instance_from_json(instance)
        started = time.perf_counter()
        result = plan(typed)
        elapsed = (time.perf_counter() - started) * 1000
        steady = plan(instance_from_json(as_steady(instance)))
        rows[size].append((valid(instance, list(result.placements)), result.placed_count, oracle(instance),
                           spacing_errors(instance, list(result.placements)),
                           spacing_errors(instance, list(steady.placements)), elapsed))
    print(f"spaced strategy, {args.instances} generated instances (seed {args.seed})")
    everything = [row for size_rows in rows.values() for row in size_rows]
    for label, chosen in [*rows.items(), ("all", everything)]:
        _print_line(label, chosen)
    return 0 if all(row[0] for row in everything) else 1


def _print_line(label: str, rows: list[tuple]) -> None:
    if not rows:
        return
    valid_count = sum(1 for row in rows if row[0])
    placed, best = sum(row[1] for row in rows), sum(row[2] for row in rows)
    spaced = [e for row in rows for e in row[3]]
    steady = [e for row in rows for e in row[4]]
    exact = sum(1 for e in spaced if e == 0)
    print(f"  {label:6} n={len(rows):<3} valid {valid_count}/{len(rows)}  placed/oracle {placed / best:.3f} "
          f"({placed}/{best})  spacing error {statistics.mean(spaced):.2f} d/item "
          f"(on the ideal day: {exact / len(spaced):.0%} of {len(spaced)} items; steady instead: "
          f"{statistics.mean(steady):.2f} d/item)  plan() median {statistics.median(r[5] for r in rows):.1f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
