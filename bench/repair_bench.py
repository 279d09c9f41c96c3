"""Benchmark minimum-churn repair against replanning from scratch (#16 part 4).

    python -m bench.repair_bench [--fresh 30] [--perturbations 3] [--seed N]

For each planning instance (the kit's 20 public ones and ``--fresh`` new ones from its ``gen.py``,
seeds drawn at run time and printed), the planner plans it, the plan is laid on an editing-core
board, and ``--perturbations`` times a few random events of the student's own (1-3, each over
one placed block, sometimes over the next pair as well) land on placed blocks. Then:

* **repair**: the displaced blocks wait and ``schedule.core.repair.repair`` places them again;
* **from scratch**: the planner plans the perturbed instance anew.

Figures: blocks moved / blocks displaced (a displaced block placed again counts as moved, as does
every other place a plan newly holds; a plan's items are interchangeable for where they go, as in the
kit; target <= 1.2), the same counted by item (an item handed a neighbour's place counts too), repairs
valid (the kit's ``validate.py`` on
the perturbed instance: every hard constraint), placed count against the kit's oracle for the
perturbed instance, and the time of one repair.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

from schedule.core.board import Board, Calendar, ClassRules, Clock, DateWindow, Entry, Kind, Position
from schedule.core.planning import Placement, instance_from_json, plan
from schedule.core.repair import repair
from schedule.core.time_model import SectionTemplate, Semester

REPO_ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = REPO_ROOT.parent / "shared" / "bench" / "planner"
SIZES = ("small", "medium", "large", "tight")
PERTURB_EVENT_ID = 9_000_000  # the added events' ids, above every generated one


def _kit(name: str) -> ModuleType:
    """A module of the benchmark kit (gen, oracle, validate), imported from its folder."""
    sys.path.insert(0, str(BENCH_DIR))
    try:
        spec = importlib.util.spec_from_file_location(f"kit_{name}", BENCH_DIR / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH_DIR))


# --- The instance as a board ----------------------------------------------------------------------------

def _template(sections: int) -> SectionTemplate:
    times = [(f"{7 + n:02d}:00", f"{7 + n:02d}:45") for n in range(sections)]
    return SectionTemplate.from_hhmm(times)


def board_of(data: dict, placements: list[Placement]) -> tuple[Board, dict[int, int]]:
    """The instance and its plan as a board (the whole semester; the clock before it starts).

    Returns the board and each placed item's entry id.
    """
    start = date.fromisoformat(data.get("semester_start") or "2026-03-02")
    calendar = Calendar(Semester(start, data["weeks"]), _template(data.get("sections_per_day", 12)))
    entries: list[Entry] = []
    hosts: dict[tuple[int, int, int], int] = {}   # (event, week, day) -> entry id
    for (event_id, week, day), rows in sorted(_event_days(data["occupied"]).items()):
        for first, last, embeddable in _runs(rows):
            where = Position(calendar.date_of(week, day), first, last)
            entries.append(Entry(len(entries) + 1, Kind.COURSE, where.length, "", place=where, origin=where,
                                 filler=embeddable, event_id=event_id))
            hosts[(event_id, week, day, first)] = entries[-1].id  # type: ignore[index]
    classes, orders = _classes(data, calendar)
    item_entry: dict[int, int] = {}
    for p in placements:
        host = _host_entry(hosts, p) if p.host_event_id is not None else None
        where = Position(calendar.date_of(p.week, p.day), p.section_start, p.section_end, host)
        entries.append(Entry(len(entries) + 1, Kind.STUDY, 2, "", place=where, origin=where, class_id=p.class_id,
                             order=orders[p.item_id], item_id=p.item_id))
        item_entry[p.item_id] = entries[-1].id
    window = DateWindow(calendar.date_of(1, 1), calendar.date_of(data["weeks"], 7))
    board = Board(calendar, window, Clock(window.first - timedelta(days=1)), entries=tuple(entries),
                  classes=classes)
    return board, item_entry


def _event_days(occupied: list[dict]) -> dict[tuple[int, int, int], list[tuple[int, bool]]]:
    grouped: dict[tuple[int, int, int], list[tuple[int, bool]]] = defaultdict(list)
    for row in occupied:
        grouped[(row["event_id"], row["week"], row["day"])].append((row["section"], bool(row.get("embeddable"))))
    return grouped


def _runs(rows: list[tuple[int, bool]]) -> list[tuple[int, int, bool]]:
    """Contiguous runs of sections of one event on one day."""
    runs: list[tuple[int, int, bool]] = []
    for section, embeddable in sorted(rows):
        if runs and runs[-1][1] == section - 1:
            runs[-1] = (runs[-1][0], section, runs[-1][2] and embeddable)
        else:
            runs.append((section, section, embeddable))
    return runs


def _host_entry(hosts: dict, placement: Placement) -> int:
    for (event_id, week, day, first), entry_id in hosts.items():
        if (event_id, week, day) == (placement.host_event_id, placement.week, placement.day) \
                and first <= placement.section_start:
            found = entry_id
    return found


def _classes(data: dict, calendar: Calendar) -> tuple[tuple[ClassRules, ...], dict[int, int]]:
    classes, orders = [], {}
    for tc in data["task_classes"]:
        first = calendar.date_of(tc["start"]["week"], tc["start"]["day"])
        last = calendar.date_of(tc["end"]["week"], tc["end"]["day"])
        classes.append(ClassRules(tc["id"], DateWindow(first, last), strategy=tc["strategy"],
                                  excluded_days=frozenset(tc.get("excluded_days", ())),
                                  excluded_pairs=frozenset(tc.get("excluded_slots", ())),
                                  allow_filler=bool(tc.get("allow_filler"))))
        orders.update({item["id"]: n for n, item in enumerate(tc["items"], start=1)})
    return tuple(classes), orders


# --- Perturbing: events over placed blocks -------------------------------------------------------------

def perturbed(data: dict, placements: list[Placement], rng: random.Random) -> tuple[dict, set[int]]:
    """The instance with 1-3 new events over placed blocks in free time; and the items they displace."""
    free_blocks = [p for p in placements if p.host_event_id is None]
    if not free_blocks:
        return data, set()
    chosen = rng.sample(free_blocks, min(len(free_blocks), rng.randint(1, 3)))
    taken = {(r["week"], r["day"], r["section"]) for r in data["occupied"]}
    pairs_per_day = data.get("sections_per_day", 12) // 2
    rows = []
    for n, p in enumerate(chosen):
        last = p.section_end
        if rng.random() < 0.3 and (p.section_end + 1) // 2 < pairs_per_day:
            last = p.section_end + 2  # over the next pair too
        for section in range(p.section_start, last + 1):
            if (p.week, p.day, section) not in taken:
                rows.append({"event_id": PERTURB_EVENT_ID + n, "week": p.week, "day": p.day, "section": section,
                             "embeddable": False, "name": "event"})
                taken.add((p.week, p.day, section))
    new = {**data, "occupied": [*data["occupied"], *rows]}
    covered = {(r["week"], r["day"], r["section"]) for r in rows}
    displaced = {p.item_id for p in placements
                 if any((p.week, p.day, s) in covered for s in (p.section_start, p.section_end))}
    return new, displaced


# --- One case ------------------------------------------------------------------------------------------

def run_case(data: dict, rng: random.Random, kit: dict[str, ModuleType]) -> dict[str, Any] | None:
    placements = list(plan(instance_from_json(data)).placements)
    new_data, displaced = perturbed(data, placements, rng)
    if not displaced:
        return None
    kept = [p for p in placements if p.item_id not in displaced]
    board, item_entry = board_of(new_data, kept)
    board = _with_waiting(board, new_data, displaced)
    wanted = [e.id for e in board.entries if e.item_id in displaced]
    was = {p.item_id: (board.calendar.date_of(p.week, p.day), p.section_start) for p in placements}
    anchors = {e.id: was[e.item_id] for e in board.entries if e.item_id in displaced}
    started = time.perf_counter()
    result = repair(board, wanted, anchors=anchors)
    repair_ms = (time.perf_counter() - started) * 1000
    before = _held(placements)
    after = _held_on(result.board)
    replanned = list(plan(instance_from_json(new_data)).placements)
    scratch = _held(replanned)
    by_item = {p.item_id: (p.week, p.day, p.section_start) for p in placements}
    repair_items = sum(1 for item, where in _item_places(result.board).items() if by_item.get(item) != where)
    scratch_items = sum(1 for p in replanned if by_item.get(p.item_id) != (p.week, p.day, p.section_start))
    report = kit["validate"].validate(new_data, _result_json(new_data, result.board))
    return {"displaced": len(displaced), "repair_moved": len(after - before), "scratch_moved": len(scratch - before),
            "repair_items": repair_items, "scratch_items": scratch_items,
            "valid": report["valid"], "violations": report["violations"][:3], "placed": len(after),
            "oracle": kit["oracle"].oracle_max(new_data), "scratch_placed": len(scratch), "ms": repair_ms}


# Blocks are counted by the places each plan holds: a plan's items are interchangeable for where they
# go (the kit's H9 hands the places to the first items in order), so a block "moved" is a place a plan
# holds after the change that it did not hold before.
def _held(placements: list[Placement]) -> set[tuple[int, int, int, int]]:
    return {(p.class_id, p.week, p.day, p.section_start) for p in placements}


def _item_places(board: Board) -> dict[int, tuple[int, int, int]]:
    found = {}
    for entry in board.entries:
        if entry.kind is Kind.STUDY and entry.place is not None and entry.item_id is not None:
            week, day = board.calendar.week_day(entry.place.day)
            found[entry.item_id] = (week, day, entry.place.start)
    return found


def _held_on(board: Board) -> set[tuple[int, int, int, int]]:
    found = set()
    for entry in board.entries:
        if entry.kind is Kind.STUDY and entry.place is not None:
            week, day = board.calendar.week_day(entry.place.day)
            found.add((entry.class_id or 0, week, day, entry.place.start))
    return found


def _with_waiting(board: Board, data: dict, displaced: set[int]) -> Board:
    """Add the displaced items as waiting entries (their events are gone: a repair places them anew)."""
    orders = {item["id"]: (tc["id"], n) for tc in data["task_classes"] for n, item in enumerate(tc["items"], 1)}
    extra = [Entry(board.next_id + n, Kind.STUDY, 2, "", class_id=orders[item][0], order=orders[item][1],
                   item_id=item) for n, item in enumerate(sorted(displaced))]
    return replace(board, entries=board.entries + tuple(extra), next_id=0)


def _result_json(data: dict, board: Board) -> dict:
    """The repaired board as a result of the contract: each plan's places go to its first items in time order."""
    places: dict[int, list[dict]] = defaultdict(list)
    for entry in board.entries:
        if entry.kind is Kind.STUDY and entry.place is not None:
            week, day = board.calendar.week_day(entry.place.day)
            host = board.get(entry.place.host) if entry.place.host is not None else None
            places[entry.class_id].append({"class_id": entry.class_id, "week": week, "day": day,  # type: ignore[index]
                                           "section_start": entry.place.start, "section_end": entry.place.end,
                                           "host_event_id": host.event_id if host is not None else None})
    placed, unplaced = [], []
    for tc in data["task_classes"]:
        held = sorted(places[tc["id"]], key=lambda p: (p["week"], p["day"], p["section_start"]))
        placed += [{"item_id": item["id"], **where} for item, where in zip(tc["items"], held)]
        unplaced += [item["id"] for item in tc["items"][len(held):]]
    return {"placements": placed, "unplaced": unplaced}


# --- Running ---------------------------------------------------------------------------------------------

def instances(fresh: int, seed_base: int, kit: dict[str, ModuleType]) -> list[tuple[str, dict]]:
    public = sorted((BENCH_DIR / "public").glob("*.json"))
    found = [(f"public/{path.stem}", json.loads(path.read_text())) for path in public]
    for n in range(fresh):
        size = SIZES[n % len(SIZES)]
        found.append((f"gen {size} {seed_base + n}", kit["gen"].generate(seed_base + n, size)))
    return found


def summary(label: str, cases: list[dict]) -> None:
    displaced = sum(c["displaced"] for c in cases)
    moved = sum(c["repair_moved"] for c in cases)
    scratch = sum(c["scratch_moved"] for c in cases)
    per_case = [c["repair_moved"] / c["displaced"] for c in cases]
    print(f"{label}: {len(cases)} perturbations, {displaced} blocks displaced")
    print(f"  repair:       moved/displaced {moved / displaced:.3f} (worst case {max(per_case):.2f}), "
          f"valid {sum(c['valid'] for c in cases)}/{len(cases)}, "
          f"placed = oracle {sum(c['placed'] == c['oracle'] for c in cases)}/{len(cases)}, "
          f"placed/oracle {sum(c['placed'] for c in cases) / max(1, sum(c['oracle'] for c in cases)):.4f}")
    print(f"  blocks whose item changed place / displaced: repair "
          f"{sum(c['repair_items'] for c in cases) / displaced:.3f}, "
          f"from scratch {sum(c['scratch_items'] for c in cases) / displaced:.3f}")
    print(f"  from scratch: moved/displaced {scratch / displaced:.3f}, "
          f"placed = oracle {sum(c['scratch_placed'] == c['oracle'] for c in cases)}/{len(cases)}")
    times = sorted(c["ms"] for c in cases)
    print(f"  repair time:  p50 {statistics.median(times):.1f} ms, max {times[-1]:.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fresh", type=int, default=30, help="generated instances besides the public ones")
    parser.add_argument("--perturbations", type=int, default=3, help="random perturbations per instance")
    parser.add_argument("--seed", type=int, default=None, help="seed base (default: drawn now, printed)")
    args = parser.parse_args(argv)
    if not BENCH_DIR.exists():
        print(f"benchmark kit not found at {BENCH_DIR}", file=sys.stderr)
        return 2
    kit = {name: _kit(name) for name in ("gen", "oracle", "validate")}
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(100_000, 1_000_000_000)
    print(f"seed base {seed} (repeat with --seed {seed})")
    rng = random.Random(seed)
    by_group: dict[str, list[dict]] = defaultdict(list)
    failures = []
    for name, data in instances(args.fresh, seed, kit):
        for _ in range(args.perturbations):
            case = run_case(data, rng, kit)
            if case is None:
                continue
            by_group["public" if name.startswith("public") else "fresh"].append(case)
            if not case["valid"] or case["placed"] != case["oracle"]:
                failures.append((name, case))
    for group, cases in by_group.items():
        summary(group, cases)
    summary("all", [c for cases in by_group.values() for c in cases])
    for name, case in failures[:10]:
        print(f"  short of the oracle or invalid: {name}: placed {case['placed']} / oracle {case['oracle']}, "
              f"valid {case['valid']} {case['violations']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
