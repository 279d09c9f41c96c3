"""A board as JSON (the assistant's checkpoint stores it) and back, and the older format read once.

The document (``FORMAT`` / ``VERSION`` say which; keys with their default value are left out)::

    {"format": "board", "version": 1,
     "semester": {"start": "2026-09-07", "weeks": 20, "tz": "Asia/Shanghai"},
     "sections": [["08:00", "08:45"], ...],                 # the section template, 1..16 sections
     "sections_change"?: {"from": "2026-10-08", "sections": [...]},  # the grid in force from a date on
     "window": {"first": "2026-09-21", "last": "2026-10-04"},
     "clock": {"today": "2026-09-14", "started": 0},
     "planned_class_ids": [3], "next_id": 42,
     "classes": [{"id", "name", "strategy", "first", "last", "excluded_days", "excluded_pairs", "allow_filler"}],
     "rules"?: {"daily_cap"?, "buffer"?, "latest_section"?,                 # the student's own rules
                "protected"?: [{"name", "first", "last", "days"}]},
     "entries": [{"id", "kind", "length", "name", "place": {"day", "start", "end", "host"?} | absent,
                  "origin": {...} | absent, "filler"?, "class_id"?, "order"?, "event_id"?, "item_id"?,
                  "task_id"?, "deadline"? (ISO datetime), "pinned"?}]}

``board_from_legacy_working`` reads the assistant's working schedule as it was stored before the
board existed (the format ``agent.tools.support.working_schedule`` wrote then: ``"version": 1``, no ``"format"``),
so a conversation in progress survives the upgrade. Anything malformed raises
``BoardFormatError``; the caller then loads the board afresh from the database.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, ParamSpec, TypeVar

from schedule.core.board import (
    Board,
    Calendar,
    ClassRules,
    Clock,
    DateWindow,
    Entry,
    InvalidBoardError,
    Kind,
    Position,
    clock_at,
)
from schedule.core.student_rules import ProtectedTime, StudentRules
from schedule.core.time_model import SectionTemplate, Semester, TimeModelError

FORMAT = "board"
VERSION = 1
LEGACY_VERSION = 1
_OPTIONAL = ("filler", "class_id", "order", "event_id", "item_id", "task_id")


class BoardFormatError(InvalidBoardError):
    """A stored board (or legacy working schedule) that cannot be read."""


# --- To JSON ---------------------------------------------------------------------------------------

def board_to_json(board: Board) -> dict[str, Any]:
    """The board as plain JSON values, deterministic (entries by id, classes by id)."""
    semester = board.calendar.semester
    document = {
        "format": FORMAT, "version": VERSION,
        "semester": {"start": semester.start_monday.isoformat(), "weeks": semester.weeks, "tz": semester.tz},
        "sections": [list(pair) for pair in board.calendar.template.to_hhmm()],
        **_change_json(board.calendar.template),
        "window": {"first": board.window.first.isoformat(), "last": board.window.last.isoformat()},
        "clock": {"today": board.clock.today.isoformat(), "started": board.clock.started},
        "planned_class_ids": list(board.planned_class_ids), "next_id": board.next_id,
        "classes": [_class_json(c) for c in board.classes],
        "entries": [_entry_json(e) for e in board.entries],
    }
    if board.rules:
        document["rules"] = _rules_json(board.rules)
    return document


def _rules_json(rules: StudentRules) -> dict[str, Any]:
    value: dict[str, Any] = {}
    if rules.daily_cap is not None:
        value["daily_cap"] = rules.daily_cap
    if rules.buffer:
        value["buffer"] = rules.buffer
    if rules.latest_section is not None:
        value["latest_section"] = rules.latest_section
    if rules.protected:
        value["protected"] = [{"name": p.name, "first": p.first, "last": p.last, "days": sorted(p.days)}
                              for p in rules.protected]
    return value


def _class_json(rules: ClassRules) -> dict[str, Any]:
    return {"id": rules.id, "name": rules.name, "strategy": rules.strategy, "first": rules.window.first.isoformat(),
            "last": rules.window.last.isoformat(), "excluded_days": sorted(rules.excluded_days),
            "excluded_pairs": sorted(rules.excluded_pairs), "allow_filler": rules.allow_filler}


def _position_json(where: Position) -> dict[str, Any]:
    value: dict[str, Any] = {"day": where.day.isoformat(), "start": where.start, "end": where.end}
    if where.host is not None:
        value["host"] = where.host
    return value


def _entry_json(entry: Entry) -> dict[str, Any]:
    value: dict[str, Any] = {"id": entry.id, "kind": entry.kind.value, "length": entry.length, "name": entry.name}
    for key in ("place", "origin"):
        where = getattr(entry, key)
        if where is not None:
            value[key] = _position_json(where)
    # Identity checks, not ``in (None, False)``: an item's order may be 0, which equals False.
    value.update({key: getattr(entry, key) for key in _OPTIONAL
                  if getattr(entry, key) is not None and getattr(entry, key) is not False})
    if entry.deadline is not None:
        value["deadline"] = entry.deadline.isoformat()
    if entry.pinned:
        value["pinned"] = True
    return value


# --- From JSON -------------------------------------------------------------------------------------

def board_from_json(data: Mapping[str, Any]) -> Board:
    """Read a document written by ``board_to_json``; raise BoardFormatError for anything else."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise BoardFormatError("not_a_board")
    if data.get("version") != VERSION:
        raise BoardFormatError("unknown_version", version=data.get("version"))
    return _reading(_board_from, data)


def _board_from(data: Mapping[str, Any]) -> Board:
    calendar = _calendar(data["semester"]["start"], data["semester"]["weeks"], data["semester"]["tz"],
                         data["sections"], data.get("sections_change"))
    return Board(
        calendar=calendar,
        window=DateWindow(_date(data["window"]["first"]), _date(data["window"]["last"])),
        clock=Clock(_date(data["clock"]["today"]), _int(data["clock"]["started"])),
        classes=tuple(_class_from(c) for c in data["classes"]),
        entries=tuple(_entry_from(e) for e in data["entries"]),
        planned_class_ids=tuple(_int(i) for i in data["planned_class_ids"]),
        next_id=_int(data["next_id"]),
        rules=_rules_from(data.get("rules") or {}),
    )


def _rules_from(data: Mapping[str, Any]) -> StudentRules:
    cap, latest = data.get("daily_cap"), data.get("latest_section")
    return StudentRules(
        daily_cap=None if cap is None else _int(cap), buffer=_int(data.get("buffer", 0)),
        latest_section=None if latest is None else _int(latest),
        protected=tuple(ProtectedTime(name=str(p["name"]), first=_int(p["first"]), last=_int(p["last"]),
                                      days=frozenset(_int(d) for d in p["days"]))
                        for p in data.get("protected", ())))


def _class_from(data: Mapping[str, Any]) -> ClassRules:
    return ClassRules(id=_int(data["id"]), window=DateWindow(_date(data["first"]), _date(data["last"])),
                      name=str(data.get("name", "")), strategy=str(data.get("strategy", "steady")),
                      excluded_days=frozenset(_int(d) for d in data.get("excluded_days", ())),
                      excluded_pairs=frozenset(_int(p) for p in data.get("excluded_pairs", ())),
                      allow_filler=bool(data.get("allow_filler", True)))


def _position_from(data: Mapping[str, Any] | None) -> Position | None:
    if data is None:
        return None
    host = data.get("host")
    return Position(_date(data["day"]), _int(data["start"]), _int(data["end"]), None if host is None else _int(host))


def _entry_from(data: Mapping[str, Any]) -> Entry:
    optional = {key: data.get(key) for key in _OPTIONAL}
    return Entry(id=_int(data["id"]), kind=Kind(data["kind"]), length=_int(data["length"]),
                 name=str(data.get("name", "")), place=_position_from(data.get("place")),
                 origin=_position_from(data.get("origin")), filler=bool(optional.pop("filler")),
                 deadline=_moment(data.get("deadline")), pinned=bool(data.get("pinned", False)),
                 **{key: None if value is None else _int(value) for key, value in optional.items()})


# --- From the legacy working schedule ----------------------------------------------------------------

@dataclass(frozen=True)
class LegacyWorking:
    """What a legacy working schedule held: the board, and what belongs to the conversation instead."""

    board: Board
    user_id: int | None
    queue: dict[str, Any] = field(default_factory=dict)  # the assistant's work queue, unchanged


def is_legacy_working(data: object) -> bool:
    """A working schedule written before the board (plain dict, ``version`` 1, no ``format``)."""
    return isinstance(data, Mapping) and "entries" in data and "format" not in data \
        and data.get("version") == LEGACY_VERSION


def board_from_legacy_working(data: Mapping[str, Any], *, now: datetime) -> LegacyWorking:
    """Read a legacy working schedule: the same entries, ids, suggestions and moves, measured at ``now``.

    Its ``status`` / ``origin`` become ``place`` / ``origin``: pending -> no place; suggested -> a
    place, no origin; existing -> an origin (its old place when it was moved, else where it is).
    Its ``locked`` flags are not read: locks follow from the kind and the clock.
    """
    if not is_legacy_working(data):
        raise BoardFormatError("not_a_legacy_working_schedule")
    return _reading(_legacy_from, data, now)


def _legacy_from(data: Mapping[str, Any], now: datetime) -> LegacyWorking:
    calendar = _calendar(data["semester"]["start"], data["semester"]["weeks"], data["tz"], data["sections"])
    hosts = {e["event_id"]: _int(e["id"]) for e in data["entries"] if e.get("event_id") is not None}
    classes = tuple(ClassRules(
        id=_int(c["id"]), window=DateWindow(_date(c["start"]), _date(c["end"])), name=str(c.get("name", "")),
        strategy=str(c.get("strategy", "steady")), excluded_days=frozenset(c.get("excluded_days", ())),
        excluded_pairs=frozenset(c.get("excluded_pairs", ())), allow_filler=bool(c.get("allow_filler", True)),
    ) for c in data["classes"].values())
    known = {c.id for c in classes}
    board = Board(
        calendar=calendar, window=DateWindow(_date(data["window"]["start"]), _date(data["window"]["end"])),
        clock=clock_at(calendar, now), classes=classes,
        entries=tuple(_legacy_entry(e, hosts) for e in data["entries"]),
        planned_class_ids=tuple(i for i in data.get("class_ids", ()) if i in known),
        next_id=_int(data.get("next_id", 0)),
    )
    return LegacyWorking(board=board, user_id=data.get("user_id"), queue=dict(data.get("queue") or {}))


def _legacy_entry(data: Mapping[str, Any], hosts: Mapping[int, int]) -> Entry:
    at = data.get("at")
    place = None if not at else Position(_date(at["date"]), _int(at["start"]), _int(at["end"]),
                                         None if data.get("host") is None else _int(data["host"]))
    origin = None
    if data["status"] == "existing":
        old = data.get("origin")
        # A locked entry (a course, an event, a block that has begun) kept no origin: it is where it was.
        origin = place if not old else Position(
            _date(old["date"]), _int(old["start"]), _int(old["end"]),
            None if old.get("host_event_id") is None else hosts[old["host_event_id"]])
    elif data["status"] not in ("suggested", "pending"):
        raise BoardFormatError("unknown_status", status=data["status"])
    return Entry(id=_int(data["id"]), kind=Kind(data["kind"]), length=_int(data["sections"]),
                 name=str(data.get("name", "")), place=place, origin=origin, filler=bool(data.get("filler")),
                 class_id=data.get("class_id"), order=data.get("order"), event_id=data.get("event_id"),
                 item_id=data.get("item_id"), task_id=data.get("task_id"), deadline=_moment(data.get("deadline")))


# --- Reading helpers ---------------------------------------------------------------------------------

_Args = ParamSpec("_Args")
_Read = TypeVar("_Read")


def _reading(reader: Callable[_Args, _Read], *args: _Args.args, **kwargs: _Args.kwargs) -> _Read:
    """Run a reader, turning every way a document can be malformed into BoardFormatError."""
    try:
        return reader(*args, **kwargs)
    except BoardFormatError:
        raise
    except InvalidBoardError as error:
        raise BoardFormatError(error.problem, **error.detail) from error
    except TimeModelError as error:
        raise BoardFormatError(error.code, **error.detail) from error
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise BoardFormatError("malformed", error=repr(error)) from error


def _calendar(start: str, weeks: int, tz: str, sections: Any, change: Any = None) -> Calendar:
    template = SectionTemplate.from_hhmm(tuple(map(tuple, sections)))
    if change is not None:
        later = SectionTemplate.from_hhmm(tuple(map(tuple, change["sections"])))
        template = template.changing_to(later, _date(change["from"]))
    return Calendar(Semester(_date(start), _int(weeks), str(tz)), template)


def _change_json(template: SectionTemplate) -> dict[str, Any]:
    """The grid a school switches to on a date, when it has one (older documents have none)."""
    if template.change is None:
        return {}
    return {"sections_change": {"from": template.change.effective.isoformat(),
                                "sections": [list(pair) for pair in template.change.template.to_hhmm()]}}


def _date(value: Any) -> date:
    if not isinstance(value, str):
        raise TypeError(f"expected an ISO date, got {value!r}")
    return date.fromisoformat(value)


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _moment(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)
