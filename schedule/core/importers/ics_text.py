"""Make a damaged iCalendar text readable the way calendar apps do, and remember where each event was.

Calendar apps open files that a strict parser refuses: CR CR LF or bare CR line endings, blank lines,
a file cut off before ``END:VCALENDAR``, lines that are not properties at all. ``repair_ics`` returns
the text a parser accepts, the line in the original file where each VEVENT begins (so a problem can
name it), and what was repaired (``IcsRepair`` codes, each with the lines concerned). A file that
never says ``BEGIN:VCALENDAR`` is not repaired: it is not a calendar.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

# A content line: a property name, optional parameters (quoted values may hold ':' and ';'), a colon.
_CONTENT_LINE = re.compile(r'^[A-Za-z0-9-]+(?:;(?:[^:";]|"[^"]*")*)*:')
# A property with parameters but no value ("ORGANIZER;CN=X"): nothing to read, nothing lost.
_VALUELESS = re.compile(r'^[A-Za-z0-9-]+;[^:]*$')

BLANK_LINES = "blank_lines"
UNREADABLE_LINES = "unreadable_lines"
MISSING_END = "missing_end"
LINE_ENDINGS = "line_endings"


@dataclass(frozen=True, slots=True)
class IcsRepair:
    """One kind of repair and the first lines of the original file it concerned."""

    code: str
    lines: tuple[int, ...]
    count: int


@dataclass(frozen=True, slots=True)
class RepairedIcs:
    """The readable text, the original line of each VEVENT in order, and the repairs made."""

    text: str
    event_lines: tuple[int, ...]
    repairs: tuple[IcsRepair, ...]
    has_calendar: bool


def repair_ics(raw: str) -> RepairedIcs:
    """Return a parser-ready copy of ``raw`` with its events' line numbers and the repairs made."""
    found: dict[str, list[int]] = defaultdict(list)
    if "\r\r" in raw or re.search(r"\r(?!\n)", raw):
        found[LINE_ENDINGS].append(1)
    logical = _unfold(raw.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n").split("\n"), found)
    kept, event_lines, has_calendar = _walk(logical, found)
    repairs = tuple(IcsRepair(code, tuple(lines[:5]), len(lines)) for code, lines in found.items())
    return RepairedIcs("\r\n".join(kept) + "\r\n", tuple(event_lines), repairs, has_calendar)


def _unfold(lines: list[str], found: dict[str, list[int]]) -> list[tuple[int, str]]:
    """Join folded lines (RFC 5545 3.1) into (first line number, logical line); drop blank lines.

    A physical line keeps its trailing spaces until the logical line is whole: a fold may split a
    value right after a space ("Classroom 12 " + " (2.310)"), and that space is the value's."""
    logical: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            if number < len(lines):  # the newline after the last line is not a blank line
                found[BLANK_LINES].append(number)
            continue
        if line[0] in " \t" and logical:
            first, text = logical[-1]
            logical[-1] = (first, text + line[1:])
        else:
            logical.append((number, line))
    return [(number, text.strip()) for number, text in logical]


def _walk(logical: list[tuple[int, str]], found: dict[str, list[int]]) -> tuple[list[str], list[int], bool]:
    """Keep content lines, note where VEVENTs begin, and close components the file left open."""
    kept: list[str] = []
    event_lines: list[int] = []
    open_components: list[str] = []
    has_calendar = False
    for number, line in logical:
        if not _CONTENT_LINE.match(line):
            if not _VALUELESS.match(line):
                found[UNREADABLE_LINES].append(number)
            continue
        name, _, value = line.partition(":")
        keyword = name.upper()
        if keyword == "BEGIN":
            component = value.strip().upper()
            has_calendar = has_calendar or component == "VCALENDAR"
            if component == "VEVENT":
                event_lines.append(number)
            open_components.append(component)
        elif keyword == "END":
            if not _close(open_components, value.strip().upper(), kept):
                found[UNREADABLE_LINES].append(number)  # an END for nothing open
                continue
            if not open_components and has_calendar:
                kept.append(line)
                break  # anything after the calendar's end is not part of it
        kept.append(line)
    if open_components:
        found[MISSING_END].append(logical[-1][0] if logical else 1)
        kept.extend(f"END:{component}" for component in reversed(open_components))
    return kept, event_lines, has_calendar


def _close(open_components: list[str], component: str, kept: list[str]) -> bool:
    """Pop ``component``, closing any component opened inside it that the file never closed.

    False when ``component`` is not open at all.
    """
    if component not in open_components:
        return False
    while open_components[-1] != component:
        kept.append(f"END:{open_components.pop()}")
    open_components.pop()
    return True
