"""What a refused edit of the board says: one translated message per refusal code, for every edge.

The editing core (``schedule/core/board_errors.py``) refuses with a code and plain data; the week
board's drag, the assistant's tools and the API all turn that into words here, so the same refusal
reads the same wherever it came from. The English templates are the table of docs/editing-rules.md
(a test keeps them equal); Chinese comes from the catalog.

Placeholders: ``{entry}``, ``{occupant}``, ``{host}``, ``{guest}``, ``{later}``, ``{other}`` are
names of board entries; ``{protected}`` the name of a protected time; ``{day}``, ``{first}``, ``{last}``
dates with their weekday (``{last}`` is a section number in ``beyond_last_section``); ``{sections}`` a
run of sections; ``{weekday}`` a day name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext

from schedule.core.board import Board, Spot
from schedule.core.board_errors import BoardError
from schedule.messages import DAY_LABELS

REFUSAL_TEMPLATES: Mapping[str, Promise] = {
    "unknown_entry": gettext_lazy("There is no item {entry} on this schedule."),
    "locked": gettext_lazy("“{entry}” is fixed: it cannot be moved or removed."),
    "pinned": gettext_lazy("“{entry}” is pinned: unpin it to move or remove it."),
    "not_pending": gettext_lazy("“{entry}” already has a place; move it instead."),
    "not_placed": gettext_lazy("“{entry}” has no place yet; place it first."),
    "existing_not_removable": gettext_lazy("“{entry}” is already on your timetable; it can be moved, "
                                           "not taken off."),
    "same_entry": gettext_lazy("Choose two different items to swap."),
    "duplicate_entry": gettext_lazy("“{entry}” appears twice in this change."),
    "different_lengths": gettext_lazy("Only blocks of the same length can swap: “{entry}” is {length} sections, "
                                      "“{other}” is {other_length}."),
    "invalid_length": gettext_lazy("A block lasts 1 to {longest} sections, not {length}."),
    "not_a_pair": gettext_lazy("A block starts on the first section of a pair (1, 3, 5, …), not on section {start}."),
    "beyond_last_section": gettext_lazy("Sections {start}-{end} run past the day's last section, {last}."),
    "outside_window": gettext_lazy("{day} is outside the planning window ({first} to {last})."),
    "in_the_past": gettext_lazy("{day}, section {start} has already passed."),
    "outside_class_window": gettext_lazy("{day} is outside this plan's dates ({first} to {last})."),
    "excluded_day": gettext_lazy("This plan excludes {weekday}."),
    "excluded_block": gettext_lazy("This plan excludes sections {sections}."),
    "protected_time": gettext_lazy("{day}, sections {sections}: your protected time “{protected}” stays free of study."),
    "after_latest_section": gettext_lazy("You study until section {latest} at the latest; this block would end in "
                                         "section {end}."),
    "daily_cap": gettext_lazy("{day} already has your daily cap of study blocks ({cap})."),
    "buffer_too_small": gettext_lazy("Your rules keep {buffer} free section(s) between study blocks; “{other}” is "
                                     "too close."),
    "slot_taken": gettext_lazy("{day}, sections {sections}: taken by “{occupant}”."),
    "host_has_guest": gettext_lazy("“{host}” already holds “{guest}” in sections {sections}."),
    "not_inside_host": gettext_lazy("“{entry}” would stick out of “{host}”; a block must fit inside the course."),
    "not_embeddable": gettext_lazy("Only study blocks can sit inside “{host}”."),
    "filler_not_allowed": gettext_lazy("This plan may not use filler courses such as “{host}”."),
    "not_a_host": gettext_lazy("“{host}” is not a filler course at that time."),
    "order_broken": gettext_lazy("“{later}” must come after “{entry}” in this plan; choose a later place, "
                                 "or allow reordering."),
}

DAY_TEMPLATE = gettext_lazy("{date} ({weekday})")
PLACE_TEMPLATE = gettext_lazy("{day}, sections {sections}")
SUGGESTIONS_TEMPLATE = gettext_lazy("Places that would work: {places}.")
NO_SUGGESTION = gettext_lazy("No other place in this window would work.")

NAME_FIELDS = ("entry", "occupant", "host", "guest", "later", "other")
DATE_FIELDS = ("day", "first", "last")


def day_text(day: date) -> str:
    """A date with its weekday, in the active language: 2026-09-22 (Tuesday)."""
    return str(DAY_TEMPLATE).format(date=day.isoformat(), weekday=DAY_LABELS[day.weekday()])


def sections_text(sections: Iterable[int]) -> str:
    """A run of sections as people write it: 3-4, or 5 for one section."""
    numbers = sorted(sections)
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"


def refusal_message(error: BoardError, board: Board) -> str:
    """The refusal in the active language, naming entries as the student knows them."""
    return str(REFUSAL_TEMPLATES[error.code]).format(**_values(error, board))


def _values(error: BoardError, board: Board) -> dict[str, Any]:
    values = error.data()
    for key in NAME_FIELDS:
        if key in values and error.code != "unknown_entry":
            entry = board.get(values[key])
            values[key] = entry.name if entry is not None else values[key]
    for key in DATE_FIELDS:
        if isinstance(values.get(key), str):
            values[key] = day_text(date.fromisoformat(values[key]))
    if "sections" in values:
        values["sections"] = sections_text(values["sections"]) if values["sections"] else ""
    if "weekday" in values:
        values["weekday"] = DAY_LABELS[values["weekday"] - 1]
    return values


def place_text(spot: Spot, length: int) -> str:
    """Where a block of ``length`` sections would start: 2026-09-22 (Tuesday), sections 3-4."""
    return str(PLACE_TEMPLATE).format(day=day_text(spot.day),
                                      sections=sections_text(range(spot.start, spot.start + length)))


def suggestions_text(spots: Iterable[Spot], length: int) -> str:
    """One sentence naming the places that would work (or saying there is none)."""
    places = [place_text(spot, length) for spot in spots]
    # The language's own separator: "；" between Chinese places, "; " in English.
    separator = pgettext("list separator", "; ")
    return str(SUGGESTIONS_TEMPLATE).format(places=separator.join(places)) if places else str(NO_SUGGESTION)
