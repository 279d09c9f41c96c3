"""Week specifications as timetables write them: ``1-16``, ``1-16单``, ``2-16双``, ``1,3,5-7``.

Accepted forms (combinable, separated by commas, full-width commas, 、, ; or spaces):
a week ``5``; a range ``1-16`` (also ``1~16``, ``1至16``, ``1到16``); a parity suffix ``单``/``双``
(also ``单周``/``双周``, ``(单)``, ``odd``/``even``); decorations ``第``, ``周`` and brackets.
A parity word alone (``单周``) means every odd/even week of the semester and needs ``max_week``.
``format_weeks`` is the inverse: it writes a set of weeks compactly in the same notation.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from schedule.core.time_model import MAX_WEEKS

ODD = "单"
EVEN = "双"

_PARITY_WORDS = {"单": ODD, "单周": ODD, "odd": ODD, "双": EVEN, "双周": EVEN, "even": EVEN}
_PART = re.compile(r"^(\d+)(?:-(\d+))?(单|双|odd|even)?$")
_RANGE_DASHES = re.compile(r"\s*(?:-|~|—|–|至|到)\s*")
_SEPARATORS = re.compile(r"[,、;\s]+")
_DECORATIONS = re.compile(r"[第周()\[\]【】]|weeks?")


class WeekSpecError(ValueError):
    """A week specification that cannot be read: a stable ``code``, a message and detail data."""

    def __init__(self, code: str, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail: dict[str, Any] = detail


def parse_weeks(spec: str, max_week: int | None = None) -> tuple[int, ...]:
    """Return the sorted, distinct weeks a specification names, within 1..max_week (or 1..30)."""
    if not isinstance(spec, str) or not spec.strip():
        raise WeekSpecError(
            "empty_weeks", "No weeks given.", spec=spec if isinstance(spec, str) else ""
        )
    weeks: set[int] = set()
    for part in _split_parts(spec):
        weeks |= _weeks_of_part(part, spec, max_week)
    return tuple(sorted(weeks))


def _normalise(spec: str) -> str:
    # NFKC folds full-width digits, commas, tildes and brackets into ASCII.
    text = unicodedata.normalize("NFKC", spec).lower()
    text = text.replace("单周", ODD).replace("双周", EVEN)
    text = _DECORATIONS.sub(" ", text)
    return _RANGE_DASHES.sub("-", text.strip())


def _split_parts(spec: str) -> list[str]:
    """Split into parts, attaching a detached parity word (``1-16 单``) to the part before it."""
    parts: list[str] = []
    for token in _SEPARATORS.split(_normalise(spec)):
        if not token:
            continue
        if (
            token in _PARITY_WORDS
            and parts
            and (part := _PART.match(parts[-1]))
            and not part[3]
        ):
            parts[-1] += _PARITY_WORDS[token]
        else:
            parts.append(token)
    if not parts:
        raise WeekSpecError("empty_weeks", "No weeks given.", spec=spec)
    return parts


def _weeks_of_part(part: str, spec: str, max_week: int | None) -> set[int]:
    if part in _PARITY_WORDS:
        if max_week is None:
            raise WeekSpecError(
                "invalid_weeks",
                f"{spec!r} names odd or even weeks without a range; write e.g. 1-16单.",
                spec=spec,
            )
        first, last, parity = 1, max_week, _PARITY_WORDS[part]
    else:
        match = _PART.match(part)
        if not match:
            raise WeekSpecError(
                "invalid_weeks",
                f"Cannot read the weeks {spec!r}; use forms like 1-16, 1-16单, 2-16双 or 1,3,5-7.",
                spec=spec,
                part=part,
            )
        first = int(match[1])
        last = int(match[2]) if match[2] else first
        parity = _PARITY_WORDS.get(match[3] or "", "")
    if first > last:
        raise WeekSpecError(
            "reversed_weeks",
            f"The week range {first}-{last} runs backwards.",
            spec=spec,
            first=first,
            last=last,
        )
    _check_range(first, last, spec, max_week)
    weeks = {w for w in range(first, last + 1) if _has_parity(w, parity)}
    if not weeks:
        raise WeekSpecError(
            "no_weeks", f"The week range {part!r} contains no week.", spec=spec, part=part
        )
    return weeks


def _has_parity(week: int, parity: str) -> bool:
    if parity == ODD:
        return week % 2 == 1
    if parity == EVEN:
        return week % 2 == 0
    return True


def _check_range(first: int, last: int, spec: str, max_week: int | None) -> None:
    # Without a semester, the largest semester bounds the range (and the size of the set built).
    limit = MAX_WEEKS if max_week is None else max_week
    outside = first if first < 1 else last if last > limit else None
    if outside is not None:
        raise WeekSpecError(
            "week_out_of_range",
            f"Week {outside} is outside the semester (weeks 1..{limit}).",
            spec=spec,
            week=outside,
            max_week=limit,
        )


def format_weeks(weeks: Iterable[int]) -> str:
    """Write weeks compactly: runs as ``a-b``, lone odd/even weeks as ``a-b单``/``a-b双``."""
    ordered = sorted(set(weeks))
    if not ordered:
        return ""
    runs = _consecutive_runs(ordered)
    parts = [(run[0], f"{run[0]}-{run[-1]}") for run in runs if len(run) > 1]
    singles = [run[0] for run in runs if len(run) == 1]
    parts.extend((group[0], _format_step_two(group)) for group in _step_two_groups(singles))
    return ",".join(text for _, text in sorted(parts))


def _consecutive_runs(ordered: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for week in ordered:
        if runs and runs[-1][-1] == week - 1:
            runs[-1].append(week)
        else:
            runs.append([week])
    return runs


def _step_two_groups(singles: list[int]) -> list[list[int]]:
    groups: list[list[int]] = []
    for week in singles:
        if groups and groups[-1][-1] == week - 2:
            groups[-1].append(week)
        else:
            groups.append([week])
    return groups


def _format_step_two(group: list[int]) -> str:
    # Two lone weeks read better as "1,3" than as "1-3单".
    if len(group) < 3:
        return ",".join(str(w) for w in group)
    return f"{group[0]}-{group[-1]}{ODD if group[0] % 2 else EVEN}"
