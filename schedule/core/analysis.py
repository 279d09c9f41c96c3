"""How healthy a board is: load per day, capacity, rhythm, and the one change that would help most.

    report = analyze(board)                      # the whole window, or analyze(board, first=..., last=...)
    report.health.capacity_gap, report.rhythm.max_switches, report.decision.candidates

Three parts, all over the days ``first..last`` of a board:

* **Health** — feasibility (the waiting study blocks of the planned classes against the free
  pairs their rules leave; the gap is how many would find no place), tightness (movable study
  blocks against the free pairs they could move to: ``loose`` / ``tight`` / ``locked``),
  fragmentation (the share of free sections no two-section block can use) and heavy days.
* **Rhythm** — context switches per day (neighbouring study blocks of different classes), the
  longest same-class run of a day, and heavy days that follow each other.
* **Decision** — ``{should_continue, primary_problem, recommended_operation, candidates}``: the
  most pressing problem and up to three moves or swaps that ease it. Every candidate has been run
  through the editing core (``board_edits.apply`` with the caller's order rule), so a candidate is
  never one the core would refuse; locked entries are never candidates.

Like the original's tools, a caller may look at some ``dimensions`` only (the decision then weighs
only their problems) and pick how strict the judge is (``THRESHOLDS``: strict / normal / relaxed
set what counts as a heavy day, a choppy day and a long run).

The figures are estimates for a judge (free pairs are counted on a quick occupancy map); the core
decides every actual edit. Pure: no Django, no clock (the board's clock marks the past).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import pairwise
from typing import Any, Literal

from schedule.core.board import Board, DateWindow, Entry, Kind, Spot
from schedule.core.board_edits import Edit, Move, OrderRule, Swap, apply
from schedule.core.board_errors import BoardError
from schedule.core.board_suggest import openings

Operation = Literal["move", "swap", "close", "ask_user"]
Tightness = Literal["loose", "tight", "locked"]

HEAVY_SHARE = 2 / 3  # a day whose busy sections reach two thirds of the day's sections is heavy
TIGHT_RATIO, LOCKED_RATIO = 0.5, 0.85  # movable blocks / (movable blocks + free pairs)
SWITCHES_PER_DAY = 2  # more switches than this in one day is choppy
LONG_RUN = 3  # this many blocks of one class back to back in a day is a long run
MAX_CANDIDATES = 3


@dataclass(frozen=True, slots=True)
class Thresholds:
    """What counts as a problem: a heavy day's share of busy sections, the switches a day may have,
    the blocks of one class back to back that make a long run."""

    heavy_share: float = HEAVY_SHARE
    switches_per_day: int = SWITCHES_PER_DAY
    long_run: int = LONG_RUN


THRESHOLDS = {"strict": Thresholds(0.5, 1, 2), "normal": Thresholds(), "relaxed": Thresholds(0.75, 3, 4)}
NORMAL = THRESHOLDS["normal"]
# What an analysis can look at (the original's dimensions); the decision weighs the problems of those asked.
HEALTH_DIMENSIONS = ("capacity", "tightness", "fragmentation", "heavy_days")
RHYTHM_DIMENSIONS = ("context_switches", "longest_run", "heavy_adjacent")
DIMENSIONS = HEALTH_DIMENSIONS + RHYTHM_DIMENSIONS


class UnknownDimensionError(ValueError):
    """A dimension no analysis knows."""
NEARBY_DAYS = 3  # a heavy day's block moves at most this many days away


class EmptyWindowError(ValueError):
    """The days asked for hold nothing to analyse (outside the board, reversed, or all in the past)."""

    def __init__(self, first: date, last: date) -> None:
        super().__init__(f"no days to analyse between {first} and {last}")
        self.first, self.last = first, last


@dataclass(frozen=True, slots=True)
class DayLoad:
    """How busy one day is, in sections (a block inside a filler course counts as study, once)."""

    day: date
    course: int
    event: int
    study: int
    note: int
    free: int
    heavy: bool
    blocks: int  # study blocks that day
    subjects: tuple[int, ...] = ()  # the day's study blocks' classes, in time order

    @property
    def busy(self) -> int:
        return self.course + self.event + self.study + self.note


@dataclass(frozen=True)
class Health:
    """Feasibility, tightness and fragmentation of the days analysed."""

    feasible: bool
    pending: int  # waiting study blocks of the planned classes
    free_pairs: int  # free two-section places (union over the planned classes' rules; all free pairs if none)
    capacity_gap: int  # waiting blocks that would find no free pair
    movable: int  # placed study blocks and quick notes that may still move
    tightness: float
    tightness_level: Tightness
    fragmentation: float  # free sections no two-section block can use, as a share of free sections
    heavy_days: tuple[date, ...]


@dataclass(frozen=True)
class Rhythm:
    """How the study blocks follow each other, day by day."""

    switches: tuple[tuple[date, int], ...]  # days with at least one switch
    total_switches: int
    max_switches: int
    longest_run: int
    longest_run_day: date | None
    longest_run_class: int | None
    heavy_adjacent: tuple[tuple[date, date], ...]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A change the core accepts: ``move`` entry to ``spot``, or ``swap`` entry with ``other``."""

    operation: Literal["move", "swap"]
    entry: int
    spot: Spot | None = None
    other: int | None = None
    gain: int = 0  # how much the problem's figure drops

    def edit(self) -> Edit:
        if self.operation == "swap":
            assert self.other is not None
            return Swap(self.entry, self.other)
        assert self.spot is not None
        return Move(self.entry, self.spot)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"operation": self.operation, "entry": self.entry, "gain": self.gain}
        if self.spot is not None:
            data.update(date=self.spot.day.isoformat(), start_section=self.spot.start)
        if self.other is not None:
            data["other"] = self.other
        return data


@dataclass(frozen=True)
class Decision:
    should_continue: bool
    primary_problem: str  # capacity_gap, heavy_days, context_switches, long_run, none
    recommended_operation: Operation
    candidates: tuple[Candidate, ...] = ()
    forced_imperfection: bool = False  # a problem remains and no change the core accepts eases it

    def to_json(self) -> dict[str, Any]:
        return {"should_continue": self.should_continue, "primary_problem": self.primary_problem,
                "recommended_operation": self.recommended_operation,
                "candidates": [c.to_json() for c in self.candidates],
                "forced_imperfection": self.forced_imperfection}


@dataclass(frozen=True)
class Analysis:
    window: DateWindow
    days: tuple[DayLoad, ...]
    health: Health
    rhythm: Rhythm
    decision: Decision
    score: int = field(default=0)  # the problems as one number: lower is better (the optimise phase's measure)


# --- Entry point ------------------------------------------------------------------------------------


def analyze(board: Board, *, first: date | None = None, last: date | None = None,
            order: OrderRule = OrderRule.KEEP, only_suggested: bool = False, thresholds: Thresholds = NORMAL,
            dimensions: Iterable[str] = DIMENSIONS) -> Analysis:
    """Analyse the board's days ``first..last`` (default: its window from today on).

    ``only_suggested`` keeps the candidates to entries not yet in the database (the optimise phase
    after a rough build edits only its own suggestions). ``dimensions``: the problems the decision
    weighs (all figures are computed anyway; they are cheap). Raise ``EmptyWindowError`` when no
    day of the board's window from today on lies in ``first..last``, ``UnknownDimensionError`` for
    a dimension not in ``DIMENSIONS``.
    """
    wanted = frozenset(dimensions)
    unknown = sorted(wanted - set(DIMENSIONS))
    if unknown or not wanted:
        raise UnknownDimensionError(f"unknown dimensions {unknown}; known: {', '.join(DIMENSIONS)}")
    window = analysis_window(board, first, last)
    days = day_loads(board, window, thresholds.heavy_share)
    health = _health(board, window, days)
    rhythm = _rhythm(days)
    judge = _Judge(thresholds, wanted)
    decision = _decide(board, window, days, health, rhythm, order, only_suggested, judge)
    return Analysis(window, days, health, rhythm, decision, score=problem_score(health, rhythm, thresholds))


@dataclass(frozen=True)
class _Judge:
    """How strict the decision is, and which problems it weighs."""

    thresholds: Thresholds
    dimensions: frozenset[str]

    def weighs(self, dimension: str) -> bool:
        return dimension in self.dimensions


def analysis_window(board: Board, first: date | None, last: date | None) -> DateWindow:
    """The days to analyse: ``first..last`` clipped to the board's window and to today onwards."""
    lo = max(first or board.window.first, board.window.first, board.clock.today)
    hi = min(last or board.window.last, board.window.last)
    if lo > hi:
        raise EmptyWindowError(first or board.window.first, last or board.window.last)
    return DateWindow(lo, hi)


def problem_score(health: Health, rhythm: Rhythm, thresholds: Thresholds = NORMAL) -> int:
    """One number for the problems found; the optimise phase stops when it stops falling."""
    heavy_run = len(rhythm.heavy_adjacent)
    choppy = sum(max(0, n - thresholds.switches_per_day) for _, n in rhythm.switches)
    long_run = max(0, rhythm.longest_run - thresholds.long_run + 1)
    return 100 * health.capacity_gap + 10 * heavy_run + 3 * choppy + long_run + rhythm.total_switches


# --- Load per day --------------------------------------------------------------------------------------


def day_loads(board: Board, window: DateWindow, heavy_share: float = HEAVY_SHARE) -> tuple[DayLoad, ...]:
    """Sections of courses, events, study blocks and notes on each day of ``window``."""
    sections = board.calendar.sections
    heavy_at = max(1, round(sections * heavy_share))
    return tuple(_day_load(board, day, sections, heavy_at) for day in window.days())


def _day_load(board: Board, day: date, sections: int, heavy_at: int) -> DayLoad:
    holder: dict[int, Kind] = {}
    study_blocks: list[Entry] = []
    for entry in board.on_day(day):  # hosts come before their guests, so a guest overwrites its host
        place = entry.place
        assert place is not None
        for section in range(place.start, place.end + 1):
            holder[section] = entry.kind
        if entry.kind is Kind.STUDY:
            study_blocks.append(entry)
    counts = {kind: sum(1 for k in holder.values() if k is kind) for kind in Kind}
    busy = len(holder)
    subjects = tuple(_subject(e) for e in study_blocks)  # on_day is in time order already
    return DayLoad(day, course=counts[Kind.COURSE], event=counts[Kind.CUSTOM], study=counts[Kind.STUDY],
                   note=counts[Kind.NOTE], free=sections - busy, heavy=busy >= heavy_at,
                   blocks=len(study_blocks), subjects=subjects)


# --- Health --------------------------------------------------------------------------------------------


def _health(board: Board, window: DateWindow, days: Sequence[DayLoad]) -> Health:
    planned = set(board.planned_class_ids)
    pending = [e for e in board.pending() if e.kind is Kind.STUDY and e.class_id in planned]
    free = _free_pairs(board, window, {e.class_id for e in pending if e.class_id is not None})
    movable = sum(1 for day in window.days() for e in board.on_day(day)
                  if e.kind in (Kind.STUDY, Kind.NOTE) and not board.is_locked(e))
    demand = movable + len(pending)
    tightness = demand / (demand + len(free)) if demand else 0.0
    level: Tightness = ("locked" if demand and (not free or tightness >= LOCKED_RATIO)
                        else "tight" if tightness >= TIGHT_RATIO else "loose")
    gap = max(0, len(pending) - len(free))
    return Health(feasible=gap == 0, pending=len(pending), free_pairs=len(free), capacity_gap=gap,
                  movable=movable, tightness=round(tightness, 3), tightness_level=level,
                  fragmentation=_fragmentation(board, window), heavy_days=tuple(d.day for d in days if d.heavy))


def _free_pairs(board: Board, window: DateWindow, class_ids: Iterable[int]) -> set[tuple[date, int]]:
    """Two-section places (day, first section) free of any entry, or inside a filler course with no
    guest when a class allows it, that the classes' dates and exclusions leave open (no class: any)."""
    rules = [board.class_rules(cid) for cid in class_ids]
    found: set[tuple[date, int]] = set()
    for day in window.days():
        for start, filler_only in _open_pairs(board, day):
            if _pair_allowed(board, day, start, filler_only, rules):
                found.add((day, start))
    return found


def _open_pairs(board: Board, day: date) -> Iterable[tuple[int, bool]]:
    """The day's pairs with nothing in them, or only a guest-free filler course (then True)."""
    taken: dict[int, str] = {}
    for entry in board.on_day(day):
        place = entry.place
        assert place is not None
        state = "host" if entry.filler else "busy"
        for section in range(place.start, place.end + 1):
            taken[section] = "busy" if place.host is not None or taken.get(section) == "busy" else state
    for start in range(1, board.calendar.sections, 2):
        if board.clock.has_begun(day, start):
            continue
        states = {taken.get(start), taken.get(start + 1)}
        if states == {None}:
            yield start, False
        elif states == {"host"}:
            yield start, True


def _pair_allowed(board: Board, day: date, start: int, filler_only: bool, rules: Sequence[Any]) -> bool:
    if not rules:
        return not filler_only
    pair = (start + 1) // 2
    return any(r is not None and day in r.window and day.isoweekday() not in r.excluded_days
               and pair not in r.excluded_pairs and (r.allow_filler or not filler_only) for r in rules)


def _fragmentation(board: Board, window: DateWindow) -> float:
    free = stranded = 0
    for day in window.days():
        busy = {s for e in board.on_day(day) for s in range(e.at.start, e.at.end + 1)}
        for start in range(1, board.calendar.sections + 1, 2):
            pair = [s for s in (start, start + 1) if s <= board.calendar.sections]
            open_ = [s for s in pair if s not in busy]
            free += len(open_)
            if len(open_) == 1:
                stranded += 1
    return round(stranded / free, 3) if free else 0.0


# --- Rhythm --------------------------------------------------------------------------------------------


def switches_of(subjects: Sequence[int]) -> int:
    """How often neighbouring blocks of one day change class."""
    return sum(1 for a, b in pairwise(subjects) if a != b)


def longest_run_of(subjects: Sequence[int]) -> tuple[int, int | None]:
    """The longest stretch of one class in a day's blocks, and that class."""
    best, best_subject, run = 0, None, 0
    for index, subject in enumerate(subjects):
        run = run + 1 if index and subjects[index - 1] == subject else 1
        if run > best:
            best, best_subject = run, subject
    return best, best_subject


def _rhythm(days: Sequence[DayLoad]) -> Rhythm:
    per_day = tuple((d.day, n) for d in days if (n := switches_of(d.subjects)))
    longest, longest_day, longest_class = 0, None, None
    for load in days:
        run, subject = longest_run_of(load.subjects)
        if run > longest:
            longest, longest_day, longest_class = run, load.day, subject
    adjacent = tuple((a.day, b.day) for a, b in pairwise(days) if a.heavy and b.heavy)
    return Rhythm(switches=per_day, total_switches=sum(n for _, n in per_day),
                  max_switches=max((n for _, n in per_day), default=0), longest_run=longest,
                  longest_run_day=longest_day, longest_run_class=longest_class, heavy_adjacent=adjacent)


# --- Decision ------------------------------------------------------------------------------------------


# One step of the decision: (dimension, problem, operation, whether the problem is there,
# how to find candidates for it); the finder runs only when the step is reached.
_Step = tuple[str, str, Operation, bool, Callable[[], tuple[Candidate, ...]]]


def _decide(board: Board, window: DateWindow, days: Sequence[DayLoad], health: Health, rhythm: Rhythm,
            order: OrderRule, only_suggested: bool, judge: _Judge) -> Decision:
    if not health.feasible and judge.weighs("capacity"):
        return Decision(False, "capacity_gap", "ask_user")
    movable = _movable(board, window, only_suggested)
    heavy = [d for d in days if d.heavy and any(e.at.day == d.day for e in movable)]
    in_runs = {day for pair in rhythm.heavy_adjacent for day in pair}
    limits = judge.thresholds
    steps: tuple[_Step, ...] = (  # most pressing first
        ("heavy_adjacent", "heavy_days", "move", bool(in_runs),
         lambda: _lighten_moves(board, days, [d for d in heavy if d.day in in_runs], movable, order)),
        ("context_switches", "context_switches", "swap", rhythm.max_switches > limits.switches_per_day,
         lambda: _switch_swaps(board, days, movable, order)),
        ("heavy_days", "heavy_days", "move", bool(heavy), lambda: _lighten_moves(board, days, heavy, movable, order)),
        ("context_switches", "context_switches", "swap", _any_reducible(days),
         lambda: _switch_swaps(board, days, movable, order)),
        ("longest_run", "long_run", "move", rhythm.longest_run >= limits.long_run,
         lambda: _run_moves(board, days, rhythm, movable, order)),
    )
    for dimension, problem, operation, present, find in steps:
        found = find() if present and judge.weighs(dimension) else ()
        if found:
            return Decision(True, problem, operation, found)
    problem = _remaining_problem(rhythm, judge)
    return Decision(False, problem, "close", forced_imperfection=problem != "none")


def _remaining_problem(rhythm: Rhythm, judge: _Judge) -> str:
    if rhythm.heavy_adjacent and judge.weighs("heavy_adjacent"):
        return "heavy_days"
    if rhythm.max_switches > judge.thresholds.switches_per_day and judge.weighs("context_switches"):
        return "context_switches"
    if rhythm.longest_run >= judge.thresholds.long_run and judge.weighs("longest_run"):
        return "long_run"
    return "none"


def _movable(board: Board, window: DateWindow, only_suggested: bool) -> list[Entry]:
    """Placed study blocks of the window that may move (not locked; not in the database if asked)."""
    return [e for day in window.days() for e in board.on_day(day)
            if e.kind is Kind.STUDY and not board.is_locked(e) and not (only_suggested and e.in_database)]


def _accepted(board: Board, candidate: Candidate, order: OrderRule) -> bool:
    try:
        apply(board, candidate.edit(), order=order)
    except BoardError:
        return False
    return True


def _lighten_moves(board: Board, days: Sequence[DayLoad], heavy: Sequence[DayLoad], movable: Sequence[Entry],
                   order: OrderRule) -> tuple[Candidate, ...]:
    """Moves of a study block from the heaviest days to the lightest nearby day that takes it."""
    load = {d.day: d for d in days}
    found: list[Candidate] = []
    for source in sorted(heavy, key=lambda d: (-d.busy, d.day)):
        nearby = [d for d in days if not d.heavy and abs((d.day - source.day).days) <= NEARBY_DAYS]
        targets = [d.day for d in sorted(nearby, key=lambda d: (d.busy, abs((d.day - source.day).days), d.day))]
        for entry in (e for e in movable if e.at.day == source.day):
            spot = _first_opening(board, entry, targets, order)
            if spot is not None:
                found.append(Candidate("move", entry.id, spot=spot, gain=source.busy - load[spot.day].busy))
                break
        if len(found) >= MAX_CANDIDATES:
            break
    return tuple(found)


def _first_opening(board: Board, entry: Entry, days: Sequence[date], order: OrderRule) -> Spot | None:
    """The first opening on ``days`` (in their order) the core lets ``entry`` move to."""
    earliest, latest = _order_bounds(board, entry) if order is OrderRule.KEEP else (None, None)
    allowed = [d for d in days if (earliest is None or d >= earliest) and (latest is None or d <= latest)]
    for opening in openings(board, entry, days=allowed):
        candidate = Candidate("move", entry.id, spot=Spot(opening.day, opening.start))
        if _accepted(board, candidate, order):
            return candidate.spot
    return None


def _order_bounds(board: Board, entry: Entry) -> tuple[date | None, date | None]:
    """The days between which a block keeps its class order (its placed neighbours' days)."""
    if not entry.ordered:
        return None, None
    members = [e for e in board.class_members(entry.study_class) if e.place is not None]
    before = [e.at.day for e in members if (e.study_order, e.id) < (entry.study_order, entry.id)]
    after = [e.at.day for e in members if (e.study_order, e.id) > (entry.study_order, entry.id)]
    return (max(before) if before else None), (min(after) if after else None)


def _any_reducible(days: Sequence[DayLoad]) -> bool:
    """A day whose blocks could be grouped with fewer switches (some class appears twice apart)."""
    return any(switches_of(d.subjects) > len(set(d.subjects)) - 1 for d in days)


def _switch_swaps(board: Board, days: Sequence[DayLoad], movable: Sequence[Entry],
                  order: OrderRule) -> tuple[Candidate, ...]:
    """Swaps of two same-length blocks of different classes that cut the switches of their days."""
    choppy = {d.day for d in days if switches_of(d.subjects) > len(set(d.subjects)) - 1}
    scored: list[Candidate] = []
    for a in (e for e in movable if e.at.day in choppy):
        for b in movable:
            if b.id == a.id or b.length != a.length or b.class_id == a.class_id:
                continue
            gain = _swap_gain(board, a, b)
            if gain > 0:
                scored.append(Candidate("swap", min(a.id, b.id), other=max(a.id, b.id), gain=gain))
    unique = {(c.entry, c.other): c for c in scored}.values()
    ranked = sorted(unique, key=lambda c: (-c.gain, c.entry, c.other))
    return _first_accepted(board, ranked, order)


def _swap_gain(board: Board, a: Entry, b: Entry) -> int:
    """How many switches fewer the days of ``a`` and ``b`` have once the two trade places."""
    pa, pb = a.place, b.place
    assert pa is not None and pb is not None
    traded = {a.id: _subject(b), b.id: _subject(a)}
    before = after = 0
    for day in {pa.day, pb.day}:
        blocks = [e for e in board.on_day(day) if e.kind is Kind.STUDY]
        before += switches_of([_subject(e) for e in blocks])
        after += switches_of([traded.get(e.id, _subject(e)) for e in blocks])
    return before - after


def _subject(entry: Entry) -> int:
    return entry.class_id or -entry.id


def _first_accepted(board: Board, ranked: Iterable[Candidate], order: OrderRule) -> tuple[Candidate, ...]:
    found: list[Candidate] = []
    for candidate in ranked:
        if _accepted(board, candidate, order):
            found.append(candidate)
            if len(found) >= MAX_CANDIDATES:
                break
    return tuple(found)


def _run_moves(board: Board, days: Sequence[DayLoad], rhythm: Rhythm, movable: Sequence[Entry],
               order: OrderRule) -> tuple[Candidate, ...]:
    """Moves of the last block of the longest same-class run to the lightest other day."""
    day = rhythm.longest_run_day
    run = [e for e in movable if e.at.day == day and e.class_id == rhythm.longest_run_class]
    others = [d.day for d in sorted(days, key=lambda d: (d.busy, d.day)) if d.day != day and not d.heavy]
    found: list[Candidate] = []
    for entry in sorted(run, key=lambda e: -e.at.start):
        spot = _first_opening(board, entry, others, order)
        if spot is not None:
            found.append(Candidate("move", entry.id, spot=spot, gain=1))
        if len(found) >= MAX_CANDIDATES:
            break
    return tuple(found)
