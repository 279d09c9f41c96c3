"""A language model's refinement of an uncertain line: the request, the strict reading of its answer, the merge.

The model answers one JSON object and nothing else::

    {"title": "交实习周记", "quadrant": 2, "readings": [{"date": "2026-10-16", "time": null}]}

Its answer is checked strictly (`refinement_read`), and any breach rejects all of it, so the rules'
answer stands: exactly these keys; a title of 1..200 characters on one line; a quadrant 1..4; at most
three readings, each a date the rules found plausible or one written in the text, with an optional
HH:MM. The model never decides a date the rules refused: for an ambiguous line its readings are
choices for the student (`refinement_apply`), as the rules' own are. Pure: no Django, no clock.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

from .calendar_math import weeks_between
from .fragments import END_OF_DAY
from .quadrant import urgency_threshold
from .result import (
    CONFIDENCE_MODEL,
    CONFIDENCE_REFUSED,
    AmbiguityReason,
    NoDeadlineReason,
    QuadrantReason,
    QuickNoteParse,
    Reading,
)
from .text import NUM, normalize, parse_number

MAX_TITLE = 200
MAX_READINGS = 3
_KEYS = {"title", "quadrant", "readings"}
_READING_KEYS = {"date", "time"}
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CLOCK = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")
# Month and day as a student writes them: 2026-10-16, 10月16日, 十月十六号, 10/16, 10.16.
_WRITTEN_DATES = (
    re.compile(r"(?<!\d)\d{4}-(\d{1,2})-(\d{1,2})(?!\d)"),
    re.compile(rf"({NUM})\s?月\s?({NUM})\s?[日号]?"),
    re.compile(r"(?<![\d./])(\d{1,2})[/.](\d{1,2})(?![\d./])"),
)

INSTRUCTIONS = """You help a student's quick-note box where its rules were unsure. You get the note, \
the moment it was written, and what the rules read. Answer with one JSON object and nothing else:
{"title": string, "quadrant": 1|2|3|4, "readings": [{"date": "YYYY-MM-DD", "time": "HH:MM" or null}]}
- title: what the student will do, without the time words, in the note's own language.
- quadrant: 1 important and due within 48 hours; 2 important (coursework, exams, forms, fees, \
applications, obligations to a group); 3 not important and quick (an errand, a meal, an outing, a \
meeting to attend); 4 not important and takes real time (a hobby project, a long game, an instrument).
- readings: the dates the note can mean, at most three. Never guess: when the note can be read two \
ways give both; when it names no date give []. Only dates among the rules' readings or written in \
the note count."""


class RefinementRejected(ValueError):
    """The model's answer breaks the contract; `problem` says how (for the log, never for the student)."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


@dataclass(frozen=True)
class ModelReading:
    day: date
    clock: time | None


@dataclass(frozen=True)
class Refinement:
    """What the model said about a line, already checked."""

    title: str
    quadrant: int
    readings: tuple[ModelReading, ...]


def refinement_request(parsed: QuickNoteParse, *, now: datetime) -> str:
    """The user message: the note, the moment, and the rules' answer, as JSON."""
    rules = {
        "title": parsed.title, "quadrant": parsed.quadrant,
        "deadline": parsed.deadline.isoformat() if parsed.deadline else None,
        "readings": [reading.deadline.date().isoformat() for reading in parsed.readings],
        "unsure_about": [str(doubt) for doubt in parsed.doubts],
    }
    moment = {"now": now.isoformat(timespec="minutes"), "weekday": now.strftime("%A")}
    return json.dumps({"note": parsed.text, **moment, "rules": rules}, ensure_ascii=False)


def refinement_read(answer: object, *, parsed: QuickNoteParse, now: datetime) -> Refinement:
    """Check the model's JSON object against the contract; raise RefinementRejected at the first breach."""
    if not isinstance(answer, Mapping) or set(answer) != _KEYS:
        raise RefinementRejected(f"expected exactly the keys {sorted(_KEYS)}")
    readings = answer["readings"]
    if not isinstance(readings, list) or len(readings) > MAX_READINGS:
        raise RefinementRejected(f"readings must be a list of at most {MAX_READINGS}")
    allowed = plausible_dates(parsed, now=now)
    checked = tuple(_reading(raw, allowed) for raw in readings)
    if len(set(checked)) != len(checked):
        raise RefinementRejected("the same reading twice")
    return Refinement(title=_title(answer["title"]), quadrant=_quadrant(answer["quadrant"]), readings=checked)


def plausible_dates(parsed: QuickNoteParse, *, now: datetime) -> frozenset[date]:
    """The dates a model may name: the rules' deadline and readings, and dates written in the text."""
    dates = {reading.deadline.date() for reading in parsed.readings}
    if parsed.deadline is not None:
        dates.add(parsed.deadline.date())
    return frozenset(dates | _written_dates(parsed.text, now.date()))


def _written_dates(text: str, today: date) -> set[date]:
    # A written month/day may mean this year or the next (1月5日 said in December): both are plausible.
    found = set()
    for pattern in _WRITTEN_DATES:
        for match in pattern.finditer(normalize(text)):
            month, day = parse_number(match.group(1)), parse_number(match.group(2))
            for year in (today.year, today.year + 1):
                try:
                    found.add(date(year, month or 0, day or 0))
                except ValueError:
                    continue
    return found


def _title(value: Any) -> str:
    if not isinstance(value, str) or "\n" in value or not 0 < len(value.strip()) <= MAX_TITLE:
        raise RefinementRejected(f"title must be one line of 1..{MAX_TITLE} characters")
    return value.strip()


def _quadrant(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 4:
        raise RefinementRejected("quadrant must be 1, 2, 3 or 4")
    return value


def _reading(raw: Any, allowed: frozenset[date]) -> ModelReading:
    if not isinstance(raw, Mapping) or set(raw) != _READING_KEYS:
        raise RefinementRejected(f"a reading has exactly the keys {sorted(_READING_KEYS)}")
    if not isinstance(raw["date"], str) or not _ISO_DATE.match(raw["date"]):
        raise RefinementRejected("a reading's date is YYYY-MM-DD")
    try:
        day = date.fromisoformat(raw["date"])
    except ValueError as error:
        raise RefinementRejected("a reading's date does not exist") from error
    if day not in allowed:
        raise RefinementRejected(f"{day} is neither among the rules' readings nor written in the note")
    return ModelReading(day=day, clock=_clock(raw["time"]))


def _clock(value: Any) -> time | None:
    if value is None:
        return None
    match = _CLOCK.match(value) if isinstance(value, str) else None
    if match is None:
        raise RefinementRejected("a reading's time is HH:MM or null")
    return time(int(match.group(1)), int(match.group(2)))


def refinement_apply(parsed: QuickNoteParse, refinement: Refinement, *, now: datetime) -> QuickNoteParse:
    """The rules' parse with the model's title, quadrant and dates, never a decided date for a refused line.

    An ambiguous line stays ambiguous: the model's readings replace the rules' choices. A line the rules
    dated (or found no date in) takes the model's one reading as its deadline; two or more readings make
    it ambiguous (a wrong date is worse than none). No readings leave the dates as the rules read them.
    A quadrant the student taught (LEARNED) stays.
    """
    readings = tuple(_as_reading(reading, parsed, now) for reading in refinement.readings)
    refined = dataclasses.replace(parsed, title=refinement.title)
    if readings and (parsed.ambiguous or len(readings) > 1):
        refined = _as_choices(refined, readings)
    elif readings:
        refined = _as_deadline(refined, readings[0], now)
    if parsed.quadrant_reason is QuadrantReason.LEARNED:
        return refined
    quadrant = refinement.quadrant
    if quadrant in (1, 2):  # important; whether it is urgent stays the rules' (48 h, 尽快)
        quadrant = 1 if refined.urgent else 2
    return dataclasses.replace(refined, quadrant=quadrant, quadrant_reason=QuadrantReason.MODEL)


def _as_reading(model: ModelReading, parsed: QuickNoteParse, now: datetime) -> Reading:
    moment = datetime.combine(model.day, model.clock or END_OF_DAY, tzinfo=now.tzinfo)
    known = next((reading for reading in parsed.readings if reading.deadline == moment), None)
    return known or Reading(deadline=moment, has_time=model.clock is not None, is_past=moment < now,
                            weeks_ahead=weeks_between(now.date(), model.day))


def _as_choices(parsed: QuickNoteParse, readings: tuple[Reading, ...]) -> QuickNoteParse:
    return dataclasses.replace(
        parsed, deadline=None, has_time=False, is_past=False, ambiguous=True,
        # A dated line the model reads two ways: two dates, as 明天或者后天 is for the rules.
        ambiguity_reason=parsed.ambiguity_reason or AmbiguityReason.CONFLICTING_DATES,
        no_deadline_reason=NoDeadlineReason.AMBIGUOUS, urgency_threshold_at=None,
        readings=tuple(sorted(readings, key=lambda reading: reading.deadline)), confidence=CONFIDENCE_REFUSED)


def _as_deadline(parsed: QuickNoteParse, reading: Reading, now: datetime) -> QuickNoteParse:
    threshold = urgency_threshold(reading.deadline, now, parsed.estimated_sections)
    return dataclasses.replace(
        parsed, deadline=reading.deadline, has_time=reading.has_time, is_past=reading.is_past,
        no_deadline_reason=None, urgency_threshold_at=threshold,
        urgent=parsed.urgent or (threshold is not None and threshold <= now), confidence=CONFIDENCE_MODEL)
