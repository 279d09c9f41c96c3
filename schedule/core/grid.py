"""An occupancy grid of atomic slots, shared by the planner and the assistant's schedule tools.

A grid covers weeks ``1..weeks``, days 1..7 and sections ``1..sections_per_day``. Each slot is
free or held by one ``Occupant`` (a course, a task, a quick note, ...). A slot held by an
embeddable ("filler") occupant may also carry one guest: a task embedded in the filler course,
recorded on the host's slots just as the database records it on the host's rows.

Grids are immutable: ``place``, ``embed`` and ``remove`` return a new grid or raise a
``GridError`` naming what is in the way; the original is untouched. Iteration and every query
answer in slot order (week, day, section), so results are deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from schedule.core.time_model import DAYS_PER_WEEK, SectionTemplate, Semester, SlotKey

EventId = int | str


class OccupantKind(StrEnum):
    """What holds a slot."""

    COURSE = "course"
    TASK = "task"
    QUICK_NOTE = "quick_note"
    CUSTOM = "custom"


@dataclass(frozen=True, slots=True)
class Occupant:
    """The event holding a slot; ``embeddable`` marks a filler course that may host one task."""

    event_id: EventId
    kind: OccupantKind
    name: str
    embeddable: bool = False
    locked: bool = False

    def describe(self) -> str:
        """Return 'name (kind id)' for messages."""
        return f"{self.name} ({self.kind.value} {self.event_id})"


@dataclass(frozen=True, slots=True)
class Run:
    """A maximal block of consecutive sections of one day held by the same occupant and guest."""

    week: int
    day: int
    first: int
    last: int
    occupant: Occupant
    guest: Occupant | None = None


class GridError(ValueError):
    """Base error of grid operations: a stable ``code``, an English message and detail data."""

    code = "grid_error"

    def __init__(self, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.message = message
        self.detail: dict[str, Any] = detail


class SlotOutsideGridError(GridError):
    """A slot outside the grid's weeks, days or sections."""

    code = "slot_outside_grid"


class SlotTakenError(GridError):
    """The slot is already held; ``detail['occupant']`` names the holder."""

    code = "slot_taken"


class NotHostableError(GridError):
    """An embed target that is free, not embeddable, split between events or already hosting."""

    code = "not_hostable"


class OccupantLockedError(GridError):
    """The event is locked and cannot be removed."""

    code = "occupant_locked"


class HostHasGuestError(GridError):
    """The event hosts an embedded guest; remove the guest first."""

    code = "host_has_guest"


class UnknownEventError(GridError):
    """No slot of the grid holds this event."""

    code = "unknown_event"


class Grid:
    """An immutable map from SlotKey to Occupant (plus embedded guests) over a fixed size."""

    __slots__ = ("weeks", "sections_per_day", "_cells", "_guests")

    def __init__(
        self,
        weeks: int,
        sections_per_day: int,
        cells: Mapping[SlotKey, Occupant] | None = None,
        guests: Mapping[SlotKey, Occupant] | None = None,
    ) -> None:
        if weeks < 1 or sections_per_day < 1:
            raise ValueError("A grid needs at least one week and one section per day.")
        self.weeks = weeks
        self.sections_per_day = sections_per_day
        self._cells: dict[SlotKey, Occupant] = dict(cells or {})
        self._guests: dict[SlotKey, Occupant] = dict(guests or {})
        for slot in [*self._cells, *self._guests]:
            self.check_slot(slot)
        for slot, guest in self._guests.items():
            host = self._cells.get(slot)
            if host is None or not host.embeddable:
                raise NotHostableError(
                    f"{guest.describe()} cannot be a guest at {slot}: no embeddable host there.",
                    slot=slot,
                    guest=guest,
                )

    @classmethod
    def for_semester(cls, semester: Semester, template: SectionTemplate) -> Grid:
        """Return an empty grid sized for a semester and a section template."""
        return cls(semester.weeks, template.count)

    # Reading

    def contains_slot(self, slot: SlotKey) -> bool:
        """Tell whether the slot lies inside the grid."""
        return (
            1 <= slot.week <= self.weeks
            and 1 <= slot.day <= DAYS_PER_WEEK
            and 1 <= slot.section <= self.sections_per_day
        )

    def check_slot(self, slot: SlotKey) -> None:
        """Raise SlotOutsideGridError unless the slot lies inside the grid."""
        if not self.contains_slot(slot):
            raise SlotOutsideGridError(
                f"{slot} is outside the grid (weeks 1..{self.weeks}, days 1..7, "
                f"sections 1..{self.sections_per_day}).",
                slot=slot,
            )

    def occupant(self, slot: SlotKey) -> Occupant | None:
        """Return who holds a slot, or None if it is free."""
        return self._cells.get(slot)

    def guest(self, slot: SlotKey) -> Occupant | None:
        """Return the task embedded in a slot's host, or None."""
        return self._guests.get(slot)

    def is_free(self, slot: SlotKey) -> bool:
        """Tell whether nobody holds the slot."""
        self.check_slot(slot)
        return slot not in self._cells

    def can_host(self, slot: SlotKey) -> bool:
        """Tell whether the slot is held by an embeddable occupant that has no guest yet."""
        host = self._cells.get(slot)
        return host is not None and host.embeddable and slot not in self._guests

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[tuple[SlotKey, Occupant]]:
        return iter(self.items())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return (self.weeks, self.sections_per_day, self._cells, self._guests) == (
            other.weeks,
            other.sections_per_day,
            other._cells,
            other._guests,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Grid(weeks={self.weeks}, sections_per_day={self.sections_per_day}, "
            f"occupied={len(self._cells)}, guests={len(self._guests)})"
        )

    def items(self) -> tuple[tuple[SlotKey, Occupant], ...]:
        """Return every held slot with its occupant, in slot order."""
        return tuple(sorted(self._cells.items()))

    def guest_items(self) -> tuple[tuple[SlotKey, Occupant], ...]:
        """Return every slot that carries a guest, with the guest, in slot order."""
        return tuple(sorted(self._guests.items()))

    def slots_of(self, event_id: EventId) -> tuple[SlotKey, ...]:
        """Return the slots an event holds as occupant or as guest, in slot order."""
        held = {s for s, o in self._cells.items() if o.event_id == event_id}
        held |= {s for s, g in self._guests.items() if g.event_id == event_id}
        return tuple(sorted(held))

    def day_slots(self, week: int, day: int) -> tuple[SlotKey, ...]:
        """Return all slots of one day, first section first."""
        slots = tuple(SlotKey(week, day, s) for s in range(1, self.sections_per_day + 1))
        self.check_slot(slots[0])
        return slots

    def free_sections(self, week: int, day: int) -> tuple[int, ...]:
        """Return the free sections of one day."""
        return tuple(s.section for s in self.day_slots(week, day) if s not in self._cells)

    def free_pairs(self, week: int, day: int) -> tuple[int, ...]:
        """Return the pairs k (sections 2k-1, 2k) of a day whose two sections are both free."""
        free = set(self.free_sections(week, day))
        return tuple(
            k for k in range(1, self.sections_per_day // 2 + 1) if {2 * k - 1, 2 * k} <= free
        )

    def hostable_pairs(self, week: int, day: int) -> tuple[tuple[int, EventId], ...]:
        """Return (pair, host event id) for pairs held wholly by one embeddable, guest-free host."""
        hostable = []
        for k in range(1, self.sections_per_day // 2 + 1):
            first, second = SlotKey(week, day, 2 * k - 1), SlotKey(week, day, 2 * k)
            self.check_slot(first)
            if not (self.can_host(first) and self.can_host(second)):
                continue
            if self._cells[first].event_id == self._cells[second].event_id:
                hostable.append((k, self._cells[first].event_id))
        return tuple(hostable)

    def day_runs(self, week: int, day: int) -> tuple[Run, ...]:
        """Return the held blocks of a day: consecutive sections with one occupant and guest."""
        runs: list[Run] = []
        for slot in self.day_slots(week, day):
            occupant = self._cells.get(slot)
            if occupant is None:
                continue
            guest = self._guests.get(slot)
            previous = runs[-1] if runs else None
            if (
                previous is not None
                and previous.last == slot.section - 1
                and previous.occupant == occupant
                and previous.guest == guest
            ):
                runs[-1] = Run(week, day, previous.first, slot.section, occupant, guest)
            else:
                runs.append(Run(week, day, slot.section, slot.section, occupant, guest))
        return tuple(runs)

    # Changing (each returns a new grid)

    def copy(self) -> Grid:
        """Return an equal, independent grid."""
        return Grid(self.weeks, self.sections_per_day, self._cells, self._guests)

    def place(self, slots: Iterable[SlotKey], occupant: Occupant) -> Grid:
        """Return a grid where the occupant holds every given slot; all or nothing."""
        targets = sorted(set(slots))
        for slot in targets:
            self.check_slot(slot)
            holder = self._cells.get(slot)
            if holder is not None:
                raise SlotTakenError(
                    f"{slot} is already taken by {holder.describe()}.", slot=slot, occupant=holder
                )
        cells = dict(self._cells)
        cells.update((slot, occupant) for slot in targets)
        return Grid(self.weeks, self.sections_per_day, cells, self._guests)

    def embed(self, slots: Iterable[SlotKey], guest: Occupant) -> Grid:
        """Return a grid where the guest is embedded in one embeddable host covering all slots."""
        targets = sorted(set(slots))
        hosts = set()
        for slot in targets:
            self.check_slot(slot)
            self._check_hostable(slot, guest)
            hosts.add(self._cells[slot].event_id)
        if len(hosts) > 1:
            raise NotHostableError(
                f"{guest.describe()} would straddle several events; a guest needs one host.",
                slots=targets,
                hosts=sorted(hosts, key=str),
            )
        guests = dict(self._guests)
        guests.update((slot, guest) for slot in targets)
        return Grid(self.weeks, self.sections_per_day, self._cells, guests)

    def _check_hostable(self, slot: SlotKey, guest: Occupant) -> None:
        host = self._cells.get(slot)
        if host is None:
            raise NotHostableError(
                f"{slot} is free; {guest.describe()} can only be embedded in a course.",
                slot=slot,
                occupant=None,
            )
        if not host.embeddable:
            raise NotHostableError(
                f"{slot} is held by {host.describe()}, which does not allow embedding.",
                slot=slot,
                occupant=host,
            )
        if slot in self._guests:
            raise SlotTakenError(
                f"{slot} already hosts {self._guests[slot].describe()}.",
                slot=slot,
                occupant=self._guests[slot],
            )

    def remove(self, event_id: EventId) -> Grid:
        """Return a grid without the event, as occupant or guest; locked events and hosts refuse."""
        cells = {s: o for s, o in self._cells.items() if o.event_id != event_id}
        guests = {s: g for s, g in self._guests.items() if g.event_id != event_id}
        if len(cells) == len(self._cells) and len(guests) == len(self._guests):
            raise UnknownEventError(f"No slot holds event {event_id}.", event_id=event_id)
        removed = [
            o for o in (*self._cells.values(), *self._guests.values()) if o.event_id == event_id
        ]
        if any(o.locked for o in removed):
            raise OccupantLockedError(
                f"{removed[0].describe()} is locked and cannot be removed.", event_id=event_id
            )
        orphaned = sorted((s, g) for s, g in guests.items() if s not in cells)
        if orphaned:
            slot, guest = orphaned[0]
            raise HostHasGuestError(
                f"{removed[0].describe()} hosts {guest.describe()} at {slot}; "
                "remove the guest first.",
                event_id=event_id,
                guest=guest,
            )
        return Grid(self.weeks, self.sections_per_day, cells, guests)
