"""Measure the quick-add parser against the phrase fixture and print what it got wrong.

    python -m bench.quick_add_report [path/to/quick_add_phrases.json]

Prints the exact-match rate of each field (deadline, ambiguous, title, quadrant) and of all
four together (a date-only expected deadline matches any time on that date; a quadrant the phrase's
``also_accept`` lists, the 48-96 hour judgment call, counts), per language, per fixture set and
overall, then every mismatch. Exits 1 when the deadline rate is
below TARGET_RATE or a phrase the fixture calls ambiguous got a date. A phrase may carry
``semester_start`` (the Monday of week 1), passed to the parser as the student's semester.
``--summary`` prints the figures only (for a held-out set nobody may read the misses of).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from taskclasses.notes.core.quick_add import parse_quick_note

DEFAULT_FIXTURE = (Path(__file__).resolve().parents[1] / "taskclasses" / "tests" / "notes" / "fixtures"
                   / "quick_add_phrases.json")
FIELDS = ("deadline", "ambiguous", "title", "quadrant")
TARGET_RATE = 0.95


@dataclass(frozen=True)
class PhraseOutcome:
    """One fixture phrase: what was expected, what the parser said, and which fields differ."""

    phrase_id: str
    lang: str
    set_name: str
    now: str
    text: str
    expected: dict[str, Any]
    actual: dict[str, Any]
    mismatched: tuple[str, ...]

    @property
    def dated_an_ambiguous_phrase(self) -> bool:
        """The worst failure: the fixture refuses a date and the parser invented one."""
        return bool(self.expected["ambiguous"]) and self.actual["deadline"] is not None

    @property
    def wrong_date(self) -> bool:
        """The parser gave a date and it is not the one the fixture expects (nor a refused phrase's)."""
        return self.actual["deadline"] is not None and "deadline" in self.mismatched


@dataclass(frozen=True)
class FixtureReport:
    outcomes: tuple[PhraseOutcome, ...]

    def rate(self, field: str | None = None, group: str | None = None) -> float:
        """Exact-match rate of one field (None = all four) over a language or set (None = all)."""
        chosen = self.in_group(group)
        if not chosen:
            return 0.0
        hits = sum(1 for outcome in chosen if (field not in outcome.mismatched if field else not outcome.mismatched))
        return hits / len(chosen)

    def in_group(self, group: str | None) -> list[PhraseOutcome]:
        return [outcome for outcome in self.outcomes if group in (None, outcome.lang, outcome.set_name)]

    @property
    def groups(self) -> list[str]:
        """Languages, then fixture sets, in first-seen order."""
        langs = dict.fromkeys(outcome.lang for outcome in self.outcomes)
        sets = dict.fromkeys(outcome.set_name for outcome in self.outcomes)
        return [*langs, *(name for name in sets if name not in langs)]

    @property
    def mismatches(self) -> tuple[PhraseOutcome, ...]:
        return tuple(outcome for outcome in self.outcomes if outcome.mismatched)

    @property
    def ambiguous_phrases_dated(self) -> tuple[PhraseOutcome, ...]:
        return tuple(outcome for outcome in self.outcomes if outcome.dated_an_ambiguous_phrase)

    @property
    def wrong_dates(self) -> tuple[PhraseOutcome, ...]:
        return tuple(outcome for outcome in self.outcomes if outcome.wrong_date)


def load_phrases(path: Path = DEFAULT_FIXTURE) -> list[dict[str, Any]]:
    """The fixture's phrases, in file order."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return list(document["phrases"])


def evaluate(phrases: Sequence[dict[str, Any]], *, tz: str = "Asia/Shanghai") -> FixtureReport:
    """Parse every phrase and compare the four fields with the fixture's expectations."""
    return FixtureReport(tuple(_evaluate_one(phrase, phrase.get("tz", tz)) for phrase in phrases))


def _evaluate_one(phrase: dict[str, Any], tz: str) -> PhraseOutcome:
    semester_start = date.fromisoformat(phrase["semester_start"]) if phrase.get("semester_start") else None
    parsed = parse_quick_note(phrase["text"], now=datetime.fromisoformat(phrase["now"]), tz=tz,
                              semester_start=semester_start)
    actual = {
        "deadline": parsed.deadline.isoformat() if parsed.deadline else None,
        "ambiguous": parsed.ambiguous,
        "title": parsed.title,
        "quadrant": parsed.quadrant,
    }
    expected = phrase["expected"]
    accepted = phrase.get("also_accept", {})
    mismatched = tuple(field for field in FIELDS if not _same(field, expected[field], actual[field])
                       and not (field == "quadrant" and actual[field] in accepted.get("quadrant", ())))
    return PhraseOutcome(
        phrase_id=phrase["id"],
        lang=phrase.get("lang", "?"),
        set_name=phrase.get("set", "all"),
        now=phrase["now"],
        text=phrase["text"],
        expected=expected,
        actual=actual,
        mismatched=mismatched,
    )


def _same(field: str, expected: Any, actual: Any) -> bool:
    if field == "deadline" and expected is not None and actual is not None:
        if len(expected) == len("YYYY-MM-DD"):
            # A date-only deadline (QUICK-ADD.md): any time on that local date matches.
            return bool(actual[:10] == expected)
        # Compare instants, so "+08:00" and an equivalent offset spelling agree.
        return datetime.fromisoformat(expected) == datetime.fromisoformat(actual)
    return bool(expected == actual)


def format_report(report: FixtureReport, *, summary: bool = False) -> str:
    """The rates table followed by one block per mismatching phrase (none with `summary`)."""
    groups: list[str | None] = [*report.groups, None]
    header = f"{'field':<11}" + "".join(f"{group or 'all':>17}" for group in groups)
    lines = [f"quick-add fixture: {len(report.outcomes)} phrases", header]
    for field in (*FIELDS, None):
        cells = [_cell(report, field, group) for group in groups]
        lines.append(f"{field or 'all fields':<11}" + "".join(f"{cell:>17}" for cell in cells))
    total = len(report.outcomes) or 1
    lines.append(f"ambiguous phrases given a date: {len(report.ambiguous_phrases_dated)}"
                 f" ({len(report.ambiguous_phrases_dated) / total:.1%})")
    lines.append(f"wrong dates (incl. those): {len(report.wrong_dates)} ({len(report.wrong_dates) / total:.1%})")
    lines.append(f"mismatches: {len(report.mismatches)}")
    if summary:
        return "\n".join(lines)
    for outcome in report.mismatches:
        lines.append(f"- {outcome.phrase_id} [{outcome.now}] {outcome.text!r}")
        for field in outcome.mismatched:
            lines.append(f"    {field}: expected {outcome.expected[field]!r}, got {outcome.actual[field]!r}")
    return "\n".join(lines)


def _cell(report: FixtureReport, field: str | None, group: str | None) -> str:
    size = len(report.in_group(group))
    rate = report.rate(field, group)
    return f"{round(rate * size)}/{size} {rate:.1%}"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    summary = "--summary" in args
    paths = [arg for arg in args if arg != "--summary"]
    report = evaluate(load_phrases(Path(paths[0]) if paths else DEFAULT_FIXTURE))
    print(format_report(report, summary=summary))
    return 0 if report.rate("deadline") >= TARGET_RATE and not report.ambiguous_phrases_dated else 1


if __name__ == "__main__":
    raise SystemExit(main())
