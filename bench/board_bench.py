"""Benchmark the schedule-editing core: edits per second on a 20-week board, and what a board costs.

    python -m bench.board_bench [--repeat 5] [--number 2000] [--seed 7]

Builds a synthetic 20-week board (a full semester window, 12 sections a day, a week's timetable
of 18 course meetings repeated every week, a third of them filler courses, a few events of the
student's own, three study plans of 40 blocks with half of them already suggested, quick notes)
and times, each as the best of ``--repeat`` runs of ``--number`` calls:

* place / move / swap / embed on the 20-week board, each from the same board (independent edits),
* a chain of moves, each on the board the last one returned,
* a refused move (onto a course) and the three places suggested for it,
* building the board, and a 7-day window of the same student; JSON out and back.

The database-to-board cost (the issue's "under 5 ms for the demo student's week") is measured by
``bench.board_load_bench`` (``board.boards.board_load`` on the demo data); the 7-day
figure here is the pure part of it.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import timeit
from datetime import date, timedelta

from schedule.core.board import Board, Calendar, ClassRules, Clock, DateWindow, Entry, Kind, Position, Spot
from schedule.core.board_codec import board_from_json, board_to_json
from schedule.core.board_edits import Move, OrderRule, embed, move, place, swap
from schedule.core.board_errors import BoardError
from schedule.core.board_suggest import suggest_places
from schedule.core.time_model import SectionTemplate, Semester

START = date(2026, 9, 7)
WEEKS = 20
# One week's timetable: (weekday, first section, length, filler?), repeated every week.
TIMETABLE = [(1, 1, 2, False), (1, 5, 2, True), (1, 7, 2, False), (2, 3, 2, False), (2, 1, 2, True),
             (2, 9, 3, False), (3, 1, 4, True), (3, 7, 2, False), (4, 3, 2, False), (4, 5, 2, True),
             (4, 9, 2, False), (5, 1, 2, False), (5, 3, 2, True), (5, 7, 2, False), (1, 9, 2, False),
             (3, 5, 2, False), (2, 7, 2, True), (5, 9, 2, False)]
CLASSES, ITEMS = 3, 40


def build_board(first: date, last: date, seed: int) -> Board:
    """The synthetic board for the window ``first..last`` (deterministic for a seed)."""
    return Board(**board_parts(first, last, seed))


def board_parts(first: date, last: date, seed: int) -> dict:
    """What a board is built from: the values an adapter reads from the database."""
    rng = random.Random(seed)
    calendar = Calendar(Semester(START, WEEKS), SectionTemplate.default_cqupt())
    entries: list[Entry] = []
    for week in range(WEEKS):
        for weekday, start, length, filler in TIMETABLE:
            day = START + timedelta(days=7 * week + weekday - 1)
            if first <= day <= last:
                where = Position(day, start, start + length - 1)
                kind = Kind.CUSTOM if not filler and rng.random() < 0.1 else Kind.COURSE
                entries.append(Entry(len(entries) + 1, kind, length, f"course {len(entries)}", place=where,
                                     origin=where, filler=filler and kind is Kind.COURSE))
    classes = tuple(ClassRules(c, DateWindow(first, last), name=f"plan {c}") for c in range(1, CLASSES + 1))
    taken = {(e.place.day, s) for e in entries if e.place is not None for s in range(e.place.start, e.place.end + 1)}
    for class_id in range(1, CLASSES + 1):
        free = _free_pairs(first, last, taken)
        chosen = sorted(rng.sample(free, min(ITEMS // 2, len(free))))
        for order in range(ITEMS):
            spot: Position | None = None
            if order < len(chosen):
                day, start = chosen[order]
                spot = Position(day, start, start + 1)
                taken.update({(day, start), (day, start + 1)})
            entries.append(Entry(len(entries) + 1, Kind.STUDY, 2, f"plan {class_id} #{order}", place=spot,
                                 class_id=class_id, order=order, item_id=10_000 + len(entries)))
    entries += [Entry(len(entries) + 1 + n, Kind.NOTE, 1, f"note {n}", task_id=n) for n in range(10)]
    return {"calendar": calendar, "window": DateWindow(first, last), "clock": Clock(first),
            "entries": tuple(entries), "classes": classes, "planned_class_ids": tuple(c.id for c in classes)}


def _free_pairs(first: date, last: date, taken: set) -> list[tuple[date, int]]:
    days = [first + timedelta(days=n) for n in range((last - first).days + 1)]
    return [(d, s) for d in days for s in range(1, 12, 2) if (d, s) not in taken and (d, s + 1) not in taken]


def _workload(board: Board, seed: int) -> dict[str, list]:
    """Edits that succeed: places, moves and swaps that keep every class in order."""
    rng = random.Random(seed)
    taken = {(d, s) for d, s, _ in _sections(board)}
    free = _free_pairs(board.window.first, board.window.last, taken)
    pending = [e for e in board.pending() if e.kind is Kind.NOTE]
    placed = [e for e in board.entries if e.suggested]
    waiting = [e for e in board.pending() if e.kind is Kind.STUDY]
    hosts = [e for e in board.entries
             if e.filler and e.place is not None and e.place.length == 2 and not board.guests_of(e.id)]
    return {
        "place": [(rng.choice(pending).id, Spot(*rng.choice(free))) for _ in range(200)],
        "move": [(e.id, Spot(*rng.choice(free))) for e in rng.choices(placed, k=200)],
        "swap": [(a.id, b.id) for a, b in (rng.sample(placed, 2) for _ in range(200))],
        "embed": [(rng.choice(waiting).id, h.id) for h in rng.choices(hosts, k=200)],
    }


def _sections(board: Board):
    for entry in board.entries:
        if entry.place is not None:
            for section in range(entry.place.start, entry.place.end + 1):
                yield entry.place.day, section, entry.id


def _per_second(label: str, call, repeat: int, number: int) -> None:
    _print(label, min(timeit.repeat(call, repeat=repeat, number=number)) / number)


def _print(label: str, seconds: float) -> None:
    print(f"{label:<50} {1 / seconds:>12,.0f} /s   {seconds * 1e6:>9.1f} µs")


def main(argv: list[str] | None = None) -> int:
    """Print the figures; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    semester_last = START + timedelta(days=7 * WEEKS - 1)
    board = build_board(START, semester_last, args.seed)
    work = _workload(board, args.seed)
    print(f"20-week board: {len(board.entries)} entries, {len(board.days())} days, "
          f"{sum(1 for e in board.entries if e.suggested)} suggestions, {len(board.pending())} pending")

    def cycle(edit, key, **options):
        items = itertools.cycle(work[key])
        return lambda: edit(board, *next(items), **options)

    def tolerant(edit, key, **options):  # a random move may break a class's order: count it too
        call = cycle(edit, key, **options)

        def run():
            try:
                call()
            except BoardError:
                pass
        return run

    print("--- edits on the 20-week board (each from the same board)")
    _per_second("place (quick note into free time)", cycle(place, "place"), args.repeat, args.number)
    _per_second("move (a suggested block, order kept or refused)", tolerant(move, "move"),
                args.repeat, args.number)
    _per_second("move (order allowed)", cycle(move, "move", order=OrderRule.ALLOW), args.repeat, args.number)
    _per_second("move (renumbered, as the board's drag)", tolerant(move, "move", order=OrderRule.RENUMBER),
                args.repeat, args.number)
    _per_second("swap (order allowed)", cycle(swap, "swap", order=OrderRule.ALLOW), args.repeat, args.number)
    _per_second("embed (a waiting block into a filler course)", cycle(embed, "embed", order=OrderRule.ALLOW),
                args.repeat, args.number)
    _chain(board, work, args)
    _refusals(board, args)
    _costs(board, args)
    return 0


def _chain(board: Board, work: dict, args: argparse.Namespace) -> None:
    moves = work["move"]

    def chain() -> None:
        current = board
        for entry_id, spot in moves:
            try:
                current = move(current, entry_id, spot, order=OrderRule.ALLOW)
            except BoardError:  # the spot a later move wants may be taken by an earlier one
                pass
    rounds = max(1, args.number // len(moves))
    best = min(timeit.repeat(chain, repeat=args.repeat, number=rounds)) / (rounds * len(moves))
    _print("move chain (each on the last board)", best)


def _refusals(board: Board, args: argparse.Namespace) -> None:
    course = next(e for e in board.entries
                  if e.kind is Kind.COURSE and not e.filler and e.place is not None and e.place.day > START)
    block = next(e for e in board.entries if e.suggested)
    assert course.place is not None
    target = Spot(course.place.day, course.place.start)
    print("--- refusals")

    def refused() -> None:
        try:
            move(board, block.id, target)
        except BoardError:
            pass
    _per_second("move onto a course (refused)", refused, args.repeat, args.number)
    _per_second("... and its 3 suggested places", lambda: suggest_places(board, Move(block.id, target)),
                args.repeat, max(1, args.number // 20))


def _costs(board: Board, args: argparse.Namespace) -> None:
    print("--- building and storing")
    number = max(1, args.number // 100)
    week_first = START + timedelta(days=7 * 12)
    semester = board_parts(START, board.window.last, args.seed)
    week = board_parts(week_first, week_first + timedelta(days=6), args.seed)
    print(f"(7-day board: {len(week['entries'])} entries)")
    _per_second("Board(...) for the 20-week window", lambda: Board(**semester), args.repeat, number)
    _per_second("Board(...) for a 7-day window (week 13)", lambda: Board(**week), args.repeat, number * 10)
    document = board_to_json(board)
    _per_second("board_to_json (20 weeks)", lambda: board_to_json(board), args.repeat, number)
    _per_second("board_from_json (20 weeks)", lambda: board_from_json(document), args.repeat, number)


if __name__ == "__main__":
    sys.exit(main())
