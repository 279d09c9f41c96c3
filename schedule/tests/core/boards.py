"""Boards for the editing-core tests: a small calendar, entry builders and one realistic week.

The week: the semester starts 2026-09-07; today is Monday 2026-09-21 (week 3) and sections 1-2
have begun; the board's window runs 2026-09-14 .. 2026-10-04, so the week before is the past.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from schedule.core.board import Board, Calendar, ClassRules, Clock, DateWindow, Entry, Kind, Position
from schedule.core.board_codec import board_to_json
from schedule.core.board_errors import BoardError
from schedule.core.time_model import SectionTemplate, Semester

CALENDAR = Calendar(Semester(date(2026, 9, 7), 20, "Asia/Shanghai"), SectionTemplate.default_cqupt())
MON, TUE, WED, THU, FRI, SAT, SUN = (date(2026, 9, 21) + timedelta(days=n) for n in range(7))
LAST_WEEK = date(2026, 9, 17)
TODAY = Clock(MON, started=2)
WINDOW = DateWindow(date(2026, 9, 14), date(2026, 10, 4))
NOW = datetime(2026, 9, 21, 9, 0, tzinfo=ZoneInfo("Asia/Shanghai"))

# Board ids of the week.
MATH, POLICY, CLUB, ETHICS = 1, 2, 3, 4  # a course, a filler course, the student's event, a 4-section filler
PROB_1, PROB_2, PROB_3, PROB_4, PROB_0 = 5, 6, 7, 8, 12  # class 10; #0 began this morning
ENG_1, ENG_2 = 9, 10  # class 11: no filler, no Sundays, no sections 11-12
NOTE = 11  # a one-section quick note
READ_1, READ_2 = 13, 14  # class 12; #1 sits inside ETHICS
PROB, ENG, READ = 10, 11, 12


def at(day: date, start: int, end: int | None = None, host: int | None = None) -> Position:
    return Position(day, start, start + 1 if end is None else end, host)


def course(entry_id: int, name: str, where: Position, *, filler: bool = False) -> Entry:
    return Entry(entry_id, Kind.COURSE, where.length, name, place=where, origin=where, filler=filler,
                 event_id=100 + entry_id)


def custom(entry_id: int, name: str, where: Position) -> Entry:
    return Entry(entry_id, Kind.CUSTOM, where.length, name, place=where, origin=where, event_id=100 + entry_id)


def study(entry_id: int, class_id: int, order: int, *, place: Position | None = None, saved: bool = False,
          length: int = 2) -> Entry:
    """A study block: pending, suggested (a place), or in the database (``saved``: origin = place)."""
    return Entry(entry_id, Kind.STUDY, length, f"block {class_id}.{order}", place=place,
                 origin=place if saved else None, class_id=class_id, order=order, item_id=1000 + entry_id,
                 event_id=100 + entry_id if saved and place and place.host is None else None)


def note(entry_id: int, *, length: int = 1, place: Position | None = None, saved: bool = False) -> Entry:
    return Entry(entry_id, Kind.NOTE, length, "交实验报告", place=place, origin=place if saved else None,
                 task_id=500 + entry_id, deadline=datetime(2026, 9, 25, 23, 0, tzinfo=ZoneInfo("Asia/Shanghai")))


CLASSES = (
    ClassRules(PROB, DateWindow(MON, date(2026, 10, 4)), name="概率论复习"),
    ClassRules(ENG, DateWindow(TUE, date(2026, 10, 2)), name="英语", strategy="rapid", excluded_days=frozenset({7}),
               excluded_pairs=frozenset({6}), allow_filler=False),
    ClassRules(READ, WINDOW, name="读书"),
)


def week_entries() -> tuple[Entry, ...]:
    return (
        course(MATH, "高等数学", at(TUE, 3)),
        course(POLICY, "形势与政策", at(TUE, 1), filler=True),
        custom(CLUB, "社团活动", at(TUE, 5)),
        course(ETHICS, "思想道德与法治", at(WED, 1, 4), filler=True),
        study(PROB_0, PROB, 0, place=at(MON, 1), saved=True),
        study(PROB_1, PROB, 1, place=at(MON, 5), saved=True),
        study(PROB_2, PROB, 2), study(PROB_3, PROB, 3), study(PROB_4, PROB, 4),
        study(ENG_1, ENG, 1), study(ENG_2, ENG, 2),
        note(NOTE),
        study(READ_1, READ, 1, place=at(WED, 1, host=ETHICS), saved=True),
        study(READ_2, READ, 2),
    )


def make_board(*entries: Entry, clock: Clock = TODAY, window: DateWindow = WINDOW,
               classes: tuple[ClassRules, ...] = CLASSES) -> Board:
    return Board(CALENDAR, window, clock, entries=entries, classes=classes,
                 planned_class_ids=tuple(c.id for c in classes))


def week_board() -> Board:
    return make_board(*week_entries())


def refused(board: Board, edit: Callable[[], Board], error_type: type[BoardError]) -> BoardError:
    """Assert the edit raises exactly ``error_type`` and the board is just as it was."""
    before = board_to_json(board)
    with pytest.raises(BoardError) as caught:
        edit()
    assert type(caught.value) is error_type, caught.value
    assert board_to_json(board) == before
    return caught.value
