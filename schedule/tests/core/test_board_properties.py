"""Properties of the editing core under random boards and random sequences of edits.

Whatever the sequence: no section is ever double-booked (a filler course and its one guest
excepted), a class's placed blocks stay in item order, locked entries never change, a refused
edit leaves the board exactly as it was, and every board reached reads back from JSON.
"""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from schedule.core.board import Board, Calendar, ClassRules, Clock, DateWindow, Entry, Kind, Position, Spot
from schedule.core.board_codec import board_from_json, board_to_json
from schedule.core.board_edits import Edit, Embed, Move, OrderRule, Place, Resize, Swap, Unplace, apply, batch
from schedule.core.board_errors import ERROR_CODES, BoardError
from schedule.core.board_suggest import suggest_places
from schedule.core.time_model import SectionTemplate
from schedule.tests.core.boards import CALENDAR, LAST_WEEK, MON, WINDOW, week_board

FIRST = MON
DAYS = [LAST_WEEK, *(FIRST + timedelta(days=n) for n in range(7)), WINDOW.last + timedelta(days=1)]


# --- Random boards ----------------------------------------------------------------------------------

def template_of(count: int) -> SectionTemplate:
    times = [(f"{8 + (50 * n) // 60:02d}:{(50 * n) % 60:02d}", f"{8 + (50 * n + 45) // 60:02d}:{(50 * n + 45) % 60:02d}")
             for n in range(count)]
    return SectionTemplate.from_hhmm(times)


@st.composite
def fixed_entries(draw, count: int, first_id: int) -> list[Entry]:
    """Courses, filler courses and the student's events, never overlapping, over the week."""
    found, next_id = [], first_id
    for day in (FIRST + timedelta(days=n) for n in range(7)):
        section = 1
        while section <= count:
            length = draw(st.integers(1, 4))
            if draw(st.booleans()) or section + length - 1 > count:
                section += draw(st.integers(1, 3))
                continue
            kind = draw(st.sampled_from([Kind.COURSE, Kind.COURSE, Kind.CUSTOM]))
            where = Position(day, section, section + length - 1)
            filler = kind is Kind.COURSE and draw(st.booleans())
            found.append(Entry(next_id, kind, length, f"fixed {next_id}", place=where, origin=where, filler=filler))
            next_id += 1
            section += length
    return found


@st.composite
def random_boards(draw) -> Board:
    count = draw(st.sampled_from([8, 12, 13, 16]))
    fixed = draw(fixed_entries(count, 1))
    classes = tuple(ClassRules(
        id=cid, window=DateWindow(FIRST + timedelta(days=draw(st.integers(0, 2))), FIRST + timedelta(days=6)),
        excluded_days=frozenset(draw(st.sets(st.integers(1, 7), max_size=2))),
        excluded_pairs=frozenset(draw(st.sets(st.integers(1, count // 2), max_size=2))),
        allow_filler=draw(st.booleans())) for cid in (1, 2))
    pending, next_id = [], len(fixed) + 1
    for cid in (1, 2):
        for order in range(draw(st.integers(1, 5))):
            pending.append(Entry(next_id, Kind.STUDY, draw(st.integers(1, 3)), class_id=cid, order=order))
            next_id += 1
    for _ in range(draw(st.integers(0, 2))):
        pending.append(Entry(next_id, Kind.NOTE, draw(st.integers(1, 2))))
        next_id += 1
    clock = Clock(FIRST, draw(st.integers(0, count)))
    calendar = Calendar(CALENDAR.semester, template_of(count))
    return Board(calendar, DateWindow(LAST_WEEK, WINDOW.last), clock, entries=(*fixed, *pending), classes=classes,
                 planned_class_ids=(1, 2))


boards = st.one_of(st.just(week_board()), random_boards())


# --- Random edits -----------------------------------------------------------------------------------

# Mostly odd starts on the days ahead, sometimes anything: the past, an even start, past the window.
spots = st.builds(Spot, st.sampled_from(DAYS[1:-1]) | st.sampled_from(DAYS),
                  st.sampled_from([1, 3, 5, 7, 9, 11]) | st.integers(1, 16))
orders = st.sampled_from([OrderRule.KEEP, OrderRule.KEEP, OrderRule.RENUMBER, OrderRule.ALLOW])


# An edit is drawn as plain numbers and made concrete against the board it is run on (strategies
# built per board would cost more than the edits they test).
raw_edits = st.tuples(st.sampled_from(["place", "place", "move", "move", "swap", "unplace", "embed", "resize"]),
                      st.integers(0, 999), st.integers(0, 999), st.integers(0, 4), spots,
                      st.none() | spots, st.integers(0, 5))
raw_steps = st.lists(raw_edits, min_size=1, max_size=3)


def pick(board: Board, n: int, stranger: bool, *, placed: bool) -> int:
    """A movable entry, placed or pending as the edit wants, or (``stranger``) any id: locked, unknown."""
    movable = [e.id for e in board.entries if not board.is_locked(e) and (e.place is not None) == placed]
    if stranger or not movable:
        return n % board.next_id + 1
    return movable[n % len(movable)]


def edit_from(board: Board, raw: tuple) -> Edit:
    name, a, b, odds, spot, maybe_spot, length = raw
    placed = name in ("move", "swap", "unplace") or (name in ("embed", "resize") and odds % 2 == 0)
    first, second = pick(board, a, odds == 0, placed=placed), pick(board, b, odds == 1, placed=placed)
    hosts = [e.id for e in board.entries if e.filler] or [1]
    return {"place": lambda: Place(first, spot), "move": lambda: Move(first, spot),
            "swap": lambda: Swap(first, second), "unplace": lambda: Unplace(first),
            "embed": lambda: Embed(first, hosts[b % len(hosts)], maybe_spot),
            "resize": lambda: Resize(first, length)}[name]()  # type: ignore[return-value]  # each makes an Edit


def step_from(board: Board, raws: list[tuple], single: bool) -> Edit | list[Edit]:
    return edit_from(board, raws[0]) if single else [edit_from(board, raw) for raw in raws]


def run(board: Board, step: Edit | list[Edit], order: OrderRule) -> Board:
    return batch(board, step, order=order) if isinstance(step, list) else apply(board, step, order=order)


# --- The invariants ---------------------------------------------------------------------------------

def double_booking(board: Board) -> tuple | None:
    """A section held twice, other than by a filler course and the one guest inside it."""
    held: dict[tuple[date, int], list[Entry]] = {}
    for entry in board.entries:
        if entry.place is not None:
            for section in range(entry.place.start, entry.place.end + 1):
                held.setdefault((entry.place.day, section), []).append(entry)
    for key, holders in held.items():
        if len(holders) == 1:
            continue
        hosts = [e for e in holders if e.filler]
        guests = [e for e in holders if not e.filler]
        if len(holders) > 2 or len(hosts) != 1 or guests[0].place.host != hosts[0].id:  # type: ignore[union-attr]  # placed
            return key, [e.id for e in holders]
    return None


def stray_guest(board: Board) -> int | None:
    for entry in board.entries:
        if entry.place is not None and entry.place.host is not None:
            host = board.get(entry.place.host)
            if not (host.filler and host.place.day == entry.place.day  # type: ignore[union-attr]  # no host: fails
                    and host.place.start <= entry.place.start and entry.place.end <= host.place.end):  # type: ignore[union-attr]  # as above
                return entry.id
    return None


def out_of_order(board: Board) -> int | None:
    for rules in board.classes:
        placed = [e for e in board.class_members(rules.id) if e.place is not None]
        times = [(e.place.day, e.place.start) for e in placed]  # type: ignore[union-attr]  # placed, as filtered
        if any(a >= b for a, b in zip(times, times[1:])):
            return rules.id
    return None


def locked_entries(board: Board) -> dict[int, Entry]:
    return {e.id: e for e in board.entries if board.is_locked(e)}


def indexes_agree(board: Board) -> bool:
    fresh = Board(board.calendar, board.window, board.clock, board.entries, board.classes,
                  board.planned_class_ids, board.next_id)
    return fresh == board and all(fresh.on_day(d) == board.on_day(d) for d in DAYS) and all(
        fresh.class_members(c.id) == board.class_members(c.id) for c in board.classes)


# --- The properties ---------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(board=boards, sequence=st.lists(st.tuples(raw_steps, st.booleans(), orders), min_size=1, max_size=20))
def test_random_edits_never_double_book_reorder_or_touch_a_locked_entry(board, sequence):
    locked = locked_entries(board)
    orderly = out_of_order(board) is None
    for raws, single, order in sequence:
        step = step_from(board, raws, single)
        before = board_to_json(board)
        try:
            new = run(board, step, order)
        except BoardError as error:
            assert error.code in ERROR_CODES
            assert board_to_json(board) == before  # a refused edit changes nothing
            continue
        assert double_booking(new) is None and stray_guest(new) is None
        assert {i: new.get(i) for i in locked} == locked
        if orderly and order is not OrderRule.ALLOW:
            assert out_of_order(new) is None
        orderly = out_of_order(new) is None
        board = new
    assert indexes_agree(board)
    assert board_from_json(board_to_json(board)) == board


@settings(max_examples=150, deadline=None)
@given(board=boards, raw=raw_edits, moving=st.booleans())
def test_every_suggested_place_works(board, raw, moving):
    edit = edit_from(board, ("move" if moving else "place", *raw[1:]))
    for spot in suggest_places(board, edit):
        run(board, type(edit)(edit.entry, spot), OrderRule.KEEP)
