"""Why an edit of the board was refused: one typed error per rule, with a stable code and its data.

Every refusal names the entry the edit was about (``entry``, a board id) and what a message needs
(the occupant, the day, the sections, the class, the item). No message text is built here: the
edge renders and translates a message from ``code`` and ``data()`` (docs/editing-rules.md lists
them), so a drag on the week board, an assistant tool and the API say the same thing.

The groups tell the edge how to answer: ``EntryError`` (the entry cannot be edited like that;
``UnknownEntry`` is a not-found), ``SpotError``, ``ClassRuleError`` and ``StudentRuleError`` (the place is not allowed),
``OccupiedError`` (the place is taken: a conflict), ``OrderBroken`` (the class's order).
In a batch, ``edit_index`` says which edit (0-based) was refused.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import date
from typing import Any, ClassVar


@dataclass(eq=False)
class BoardError(Exception):
    """Base of every refusal; ``code`` is stable and ``data()`` is plain JSON."""

    code: ClassVar[str] = "board_error"

    def __post_init__(self) -> None:
        super().__init__(self.code)
        self.edit_index: int | None = None

    def data(self) -> dict[str, Any]:
        """The fields as JSON values (dates as ISO strings, tuples as lists), and the batch index if any."""
        values = {f.name: _plain(getattr(self, f.name)) for f in fields(self)}
        if self.edit_index is not None:
            values["edit_index"] = self.edit_index
        return values

    def __str__(self) -> str:  # for logs and test failures only; users read the edge's message
        return f"{self.code} {self.data()}"


def _plain(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (tuple, list, frozenset, set)):
        return [_plain(v) for v in (sorted(value) if isinstance(value, (set, frozenset)) else value)]
    return value


# --- The entry cannot be edited like that --------------------------------------------------------

@dataclass(eq=False)
class EntryError(BoardError):
    entry: int


@dataclass(eq=False)
class UnknownEntry(EntryError):
    """No entry of the board has this id."""

    code = "unknown_entry"
    entry: Any  # whatever the caller passed


@dataclass(eq=False)
class EntryLocked(EntryError):
    """A course, the student's own event, or a block in the database that has begun."""

    code = "locked"


@dataclass(eq=False)
class EntryPinned(EntryError):
    """The student pinned this block: it is not moved, swapped, resized or taken off until unpinned."""

    code = "pinned"


@dataclass(eq=False)
class NotPending(EntryError):
    """Placing an entry that already has a place (move it instead)."""

    code = "not_pending"


@dataclass(eq=False)
class NotPlaced(EntryError):
    """Moving, swapping or taking off an entry that has no place yet (place it instead)."""

    code = "not_placed"


@dataclass(eq=False)
class NotRemovable(EntryError):
    """Taking off a block that is already in the database; it can only be moved."""

    code = "existing_not_removable"


@dataclass(eq=False)
class SameEntry(EntryError):
    """A swap of an entry with itself."""

    code = "same_entry"


@dataclass(eq=False)
class DuplicateEntry(EntryError):
    """A batch that edits the same entry twice."""

    code = "duplicate_entry"


@dataclass(eq=False)
class DifferentLengths(EntryError):
    """A swap of two blocks of different lengths; ``entry`` is the first, ``other`` the second."""

    code = "different_lengths"
    other: int
    length: int
    other_length: int


@dataclass(eq=False)
class InvalidLength(EntryError):
    """A block length outside 1..``longest`` (the day's number of sections)."""

    code = "invalid_length"
    length: int
    longest: int


# --- The place is not a place this entry may use --------------------------------------------------

@dataclass(eq=False)
class SpotError(EntryError):
    day: date


@dataclass(eq=False)
class NotAPair(SpotError):
    """A block must start on the first section of a pair (1, 3, 5, ...)."""

    code = "not_a_pair"
    start: int


@dataclass(eq=False)
class BeyondLastSection(SpotError):
    """The block would run past the day's last section ``last``."""

    code = "beyond_last_section"
    start: int
    end: int
    last: int


@dataclass(eq=False)
class OutsideWindow(SpotError):
    """The day lies outside the board's planning window ``first..last``."""

    code = "outside_window"
    first: date
    last: date


@dataclass(eq=False)
class InThePast(SpotError):
    """The day has gone by, or it is today and section ``start`` has begun."""

    code = "in_the_past"
    start: int


@dataclass(eq=False)
class ClassRuleError(SpotError):
    class_id: int


@dataclass(eq=False)
class OutsideClassWindow(ClassRuleError):
    """The day lies outside the class's own dates ``first..last``."""

    code = "outside_class_window"
    first: date
    last: date


@dataclass(eq=False)
class ExcludedDay(ClassRuleError):
    """The class excludes this weekday (``weekday``: 1 = Monday .. 7 = Sunday)."""

    code = "excluded_day"
    weekday: int


@dataclass(eq=False)
class ExcludedBlock(ClassRuleError):
    """The class excludes a pair the block would use; ``sections`` are the excluded sections hit."""

    code = "excluded_block"
    sections: tuple[int, ...]


# --- The student's own rules (schedule/core/student_rules.py) -------------------------------------

@dataclass(eq=False)
class StudentRuleError(SpotError):
    pass


@dataclass(eq=False)
class ProtectedTimeHit(StudentRuleError):
    """The block would use ``sections`` of the protected time named ``protected``."""

    code = "protected_time"
    sections: tuple[int, ...]
    protected: str


@dataclass(eq=False)
class AfterLatestSection(StudentRuleError):
    """The block would end in section ``end``, after the student's latest section ``latest``."""

    code = "after_latest_section"
    end: int
    latest: int


@dataclass(eq=False)
class DailyCapReached(StudentRuleError):
    """The day already holds ``cap`` study blocks, the student's daily cap."""

    code = "daily_cap"
    cap: int


@dataclass(eq=False)
class BufferTooSmall(StudentRuleError):
    """The study block ``other`` is nearer than ``buffer`` free sections on the same day."""

    code = "buffer_too_small"
    other: int
    buffer: int


# --- The place is taken ----------------------------------------------------------------------------

@dataclass(eq=False)
class OccupiedError(SpotError):
    sections: tuple[int, ...]  # the sections of the place that are in the way


@dataclass(eq=False)
class SlotTaken(OccupiedError):
    """Another entry (``occupant``) holds ``sections``."""

    code = "slot_taken"
    occupant: int


@dataclass(eq=False)
class HostHasGuest(OccupiedError):
    """The filler course ``host`` already holds the study block ``guest`` in ``sections``."""

    code = "host_has_guest"
    host: int
    guest: int


@dataclass(eq=False)
class NotInsideHost(OccupiedError):
    """The block would stick out of the filler course ``host`` (which holds ``sections``)."""

    code = "not_inside_host"
    host: int


@dataclass(eq=False)
class NotEmbeddable(OccupiedError):
    """Only study blocks sit inside a filler course; this entry is not one."""

    code = "not_embeddable"
    host: int


@dataclass(eq=False)
class FillerNotAllowed(OccupiedError):
    """The block's class may not use filler courses such as ``host``."""

    code = "filler_not_allowed"
    host: int
    class_id: int


@dataclass(eq=False)
class NotAHost(OccupiedError):
    """An embed into ``host``, which is not a filler course holding the place."""

    code = "not_a_host"
    host: int


# --- Class order -----------------------------------------------------------------------------------

@dataclass(eq=False)
class OrderBroken(EntryError):
    """The edit would put ``later`` (a later item of the class) before ``entry`` (an earlier one)."""

    code = "order_broken"
    later: int
    class_id: int


ERROR_TYPES: tuple[type[BoardError], ...] = (
    UnknownEntry, EntryLocked, EntryPinned, NotPending, NotPlaced, NotRemovable, SameEntry, DuplicateEntry,
    DifferentLengths, InvalidLength, NotAPair, BeyondLastSection, OutsideWindow, InThePast,
    OutsideClassWindow, ExcludedDay, ExcludedBlock, SlotTaken, HostHasGuest, NotInsideHost,
    NotEmbeddable, FillerNotAllowed, NotAHost, OrderBroken, ProtectedTimeHit, AfterLatestSection,
    DailyCapReached, BufferTooSmall,
)
ERROR_CODES: frozenset[str] = frozenset(t.code for t in ERROR_TYPES)
