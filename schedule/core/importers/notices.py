"""What the importer changed on its own while reading a file: each adjustment is a typed notice.

An import never adjusts silently. Each notice is a small frozen record of one adjustment on one
row (CSV line, JSON index, VEVENT position), with the data a message needs as typed fields; the
Django side (``schedule.messages.import_notice_message``) words it in the student's language from
those fields, so a template cannot ask for a value the notice does not carry. ``message`` is the
English fallback for callers without Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from typing import ClassVar

from schedule.core.weekspec import format_weeks


@dataclass(frozen=True, slots=True)
class SnappedToSections:
    """An event's times were off the section grid (within the tolerance) and moved onto sections."""

    code: ClassVar[str] = "snapped_to_sections"
    row: int
    name: str
    start: time
    end: time
    first: int
    last: int
    section_start: time
    section_end: time

    @property
    def message(self) -> str:
        return (
            f"{self.name} ({self.start:%H:%M}-{self.end:%H:%M}) was moved to sections "
            f"{self.first}-{self.last} ({self.section_start:%H:%M}-{self.section_end:%H:%M})."
        )


@dataclass(frozen=True, slots=True)
class RepeatClipped:
    """An endless repetition (RRULE without COUNT or UNTIL) was stopped at the semester's end."""

    code: ClassVar[str] = "repeat_clipped"
    row: int
    name: str
    last_day: date

    @property
    def message(self) -> str:
        return f"{self.name} repeats without end; it was kept up to the semester's last day, {self.last_day}."


@dataclass(frozen=True, slots=True)
class DatesOutsideSemester:
    """Instances of a repeating event that fall outside the semester were left out."""

    code: ClassVar[str] = "dates_outside_semester"
    row: int
    name: str
    count: int
    first_day: date
    last_day: date

    @property
    def message(self) -> str:
        return (
            f"{self.count} meetings of {self.name} fall outside the semester "
            f"({self.first_day} .. {self.last_day}) and were left out."
        )


@dataclass(frozen=True, slots=True)
class WeeksClipped:
    """Weeks after the semester's last week were left out of a course's weeks."""

    code: ClassVar[str] = "weeks_clipped"
    row: int
    name: str
    dropped: tuple[int, ...]
    max_week: int

    @property
    def dropped_text(self) -> str:
        return format_weeks(self.dropped)

    @property
    def message(self) -> str:
        return (
            f"Weeks {self.dropped_text} of {self.name} are after the semester "
            f"(weeks 1..{self.max_week}) and were left out."
        )


@dataclass(frozen=True, slots=True)
class MergedDuplicate:
    """A later row repeated this course at the same time; it was merged in instead of clashing."""

    code: ClassVar[str] = "merged_duplicate"
    row: int
    name: str
    duplicate_row: int
    shared_weeks: tuple[int, ...]

    @property
    def shared_weeks_text(self) -> str:
        return format_weeks(self.shared_weeks)

    @property
    def message(self) -> str:
        return (
            f"Row {self.duplicate_row} repeats {self.name} in weeks {self.shared_weeks_text}; "
            "the two rows were merged."
        )


@dataclass(frozen=True, slots=True)
class BesideAnother:
    """A course meets at the same time as an earlier one in some weeks: those meetings are shown beside it."""

    code: ClassVar[str] = "beside_another"
    row: int
    name: str
    other: str
    day: int
    first: int
    last: int
    weeks: tuple[int, ...]

    @property
    def weeks_text(self) -> str:
        return format_weeks(self.weeks)

    @property
    def message(self) -> str:
        return (f"{self.name} meets at the same time as {self.other} in weeks {self.weeks_text}; "
                "both are kept, side by side.")


ImportNotice = (SnappedToSections | RepeatClipped | DatesOutsideSemester | WeeksClipped | MergedDuplicate
                | BesideAnother)
