"""The semester time model: weeks, days and sections, and their conversion to real time.

A slot is ``(week, day, section)``: week 1 starts on the semester's Monday, day 1 is Monday and
day 7 Sunday, sections are numbered from 1 in the user's section template. Everything here is
pure: the current time is always passed in and every datetime that leaves this module is
timezone-aware in the semester's time zone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DAYS_PER_WEEK = 7
MAX_WEEKS = 30
MAX_SECTIONS = 16
DEFAULT_WEEKS = 20
DEFAULT_TIME_ZONE = "Asia/Shanghai"

# English day names used in messages; the Django side shows translated names.
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class TimeModelError(ValueError):
    """Base error of the time model: a stable ``code``, an English message and detail data."""

    code = "time_model_error"

    def __init__(self, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.message = message
        self.detail: dict[str, Any] = detail


class InvalidSemesterError(TimeModelError):
    """The semester settings themselves are wrong (start not a Monday, weeks out of range)."""

    code = "invalid_semester"


class UnknownTimeZoneError(TimeModelError):
    """The time zone name is not a known IANA zone."""

    code = "unknown_time_zone"


class InvalidTemplateError(TimeModelError):
    """The section template is wrong (count, order, overlap)."""

    code = "invalid_template"


class OutsideSemesterError(TimeModelError):
    """A date, week or moment lies outside the semester."""

    code = "outside_semester"


class UnknownSectionError(TimeModelError):
    """A section or pair number the template does not have."""

    code = "unknown_section"


class InvalidDayError(TimeModelError):
    """A day of week outside 1..7."""

    code = "invalid_day"


class InvalidSpanError(TimeModelError):
    """A section span whose first section comes after its last."""

    code = "invalid_span"


class NaiveDatetimeError(TimeModelError):
    """A datetime without a time zone where an aware one is required."""

    code = "naive_datetime"


def load_zone(name: str) -> ZoneInfo:
    """Return the ZoneInfo for an IANA name or raise UnknownTimeZoneError."""
    try:
        return ZoneInfo(name)
    # A region name such as "Asia" is a directory of tzdata, so zoneinfo raises an OSError.
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        raise UnknownTimeZoneError(f"Unknown time zone {name!r}.", tz=name) from None


def require_aware(moment: datetime) -> datetime:
    """Return the datetime unchanged, or raise NaiveDatetimeError if it has no time zone."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise NaiveDatetimeError(
            f"The datetime {moment.isoformat()} has no time zone.", moment=moment.isoformat()
        )
    return moment


def check_day(day: int) -> None:
    """Raise InvalidDayError unless 1 <= day <= 7."""
    if not 1 <= day <= DAYS_PER_WEEK:
        raise InvalidDayError(f"Day of week must be 1..7 (1 = Monday), got {day}.", day=day)


@dataclass(frozen=True, order=True, slots=True)
class SlotKey:
    """One atomic section of one day: ``(week, day 1=Mon..7, section)``."""

    week: int
    day: int
    section: int

    def __str__(self) -> str:
        day = DAY_NAMES[self.day - 1] if 1 <= self.day <= DAYS_PER_WEEK else f"day {self.day}"
        return f"week {self.week}, {day}, section {self.section}"


@dataclass(frozen=True, slots=True)
class Semester:
    """A semester: the Monday of week 1, the number of weeks and the user's time zone."""

    start_monday: date
    weeks: int = DEFAULT_WEEKS
    tz: str = DEFAULT_TIME_ZONE

    def __post_init__(self) -> None:
        if isinstance(self.start_monday, datetime) or not isinstance(self.start_monday, date):
            raise InvalidSemesterError(
                "The semester start must be a date.", start=repr(self.start_monday)
            )
        if self.start_monday.weekday() != 0:
            raise InvalidSemesterError(
                f"The semester must start on a Monday; {self.start_monday.isoformat()} is a "
                f"{DAY_NAMES[self.start_monday.weekday()]}.",
                start=self.start_monday.isoformat(),
            )
        if type(self.weeks) is not int or not 1 <= self.weeks <= MAX_WEEKS:
            raise InvalidSemesterError(
                f"A semester has 1..{MAX_WEEKS} weeks, got {self.weeks}.", weeks=self.weeks
            )
        load_zone(self.tz)

    @property
    def zone(self) -> ZoneInfo:
        """Return the semester's time zone."""
        return load_zone(self.tz)

    @property
    def last_day(self) -> date:
        """Return the Sunday of the last week."""
        return self.start_monday + timedelta(days=self.weeks * DAYS_PER_WEEK - 1)

    def contains(self, day: date) -> bool:
        """Tell whether a date lies inside the semester."""
        return self.start_monday <= day <= self.last_day

    def check_week(self, week: int) -> None:
        """Raise OutsideSemesterError unless 1 <= week <= weeks."""
        if not 1 <= week <= self.weeks:
            raise OutsideSemesterError(
                f"Week {week} is outside the semester (weeks 1..{self.weeks}).",
                week=week,
                weeks=self.weeks,
            )

    def date_of(self, week: int, day: int) -> date:
        """Return the calendar date of (week, day)."""
        self.check_week(week)
        check_day(day)
        return self.start_monday + timedelta(days=(week - 1) * DAYS_PER_WEEK + day - 1)

    def monday_of(self, week: int) -> date:
        """Return the Monday of a week."""
        return self.date_of(week, 1)

    def week_day_of(self, day: date) -> tuple[int, int]:
        """Return (week, day_of_week) of a calendar date inside the semester."""
        if isinstance(day, datetime):
            raise TypeError("week_day_of takes a date; convert datetimes with slot_at or .date().")
        if not self.contains(day):
            raise OutsideSemesterError(
                f"{day.isoformat()} is outside the semester "
                f"({self.start_monday.isoformat()} .. {self.last_day.isoformat()}).",
                date=day.isoformat(),
                first=self.start_monday.isoformat(),
                last=self.last_day.isoformat(),
            )
        offset = (day - self.start_monday).days
        return offset // DAYS_PER_WEEK + 1, offset % DAYS_PER_WEEK + 1

    def local_date(self, moment: datetime) -> date:
        """Return the calendar date of an aware moment in the semester's time zone."""
        return require_aware(moment).astimezone(self.zone).date()

    def current_week(self, now: datetime, *, clamp: bool = False) -> int | None:
        """Return the week containing ``now``: None outside the semester, or the nearest if clamp."""
        today = self.local_date(now)
        if today < self.start_monday:
            return 1 if clamp else None
        if today > self.last_day:
            return self.weeks if clamp else None
        return self.week_day_of(today)[0]


_HHMM = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*$")


def parse_hhmm(text: str) -> time:
    """Parse 'HH:MM' into a time or raise InvalidTemplateError."""
    match = _HHMM.match(text) if isinstance(text, str) else None
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        raise InvalidTemplateError(f"Expected a time as HH:MM, got {text!r}.", value=str(text))
    return time(int(match[1]), int(match[2]))


def minutes_of(moment: time) -> int:
    """Return minutes since midnight."""
    return moment.hour * 60 + moment.minute


@dataclass(frozen=True, slots=True)
class SectionTime:
    """One section of the day: its number and its start and end wall-clock times."""

    index: int
    start: time
    end: time

    def __post_init__(self) -> None:
        if self.start.tzinfo is not None or self.end.tzinfo is not None:
            raise InvalidTemplateError(
                f"Section {self.index}: times are wall-clock times without a time zone.",
                section=self.index,
            )
        if self.start >= self.end:
            raise InvalidTemplateError(
                f"Section {self.index} must end after it starts "
                f"({self.start:%H:%M}-{self.end:%H:%M}).",
                section=self.index,
            )


CQUPT_SECTIONS = (
    ("08:00", "08:45"),
    ("08:55", "09:40"),
    ("10:15", "11:00"),
    ("11:10", "11:55"),
    ("14:00", "14:45"),
    ("14:55", "15:40"),
    ("16:15", "17:00"),
    ("17:10", "17:55"),
    ("19:00", "19:45"),
    ("19:55", "20:40"),
    ("20:50", "21:35"),
    ("21:45", "22:30"),
)


@dataclass(frozen=True, slots=True)
class GridChange:
    """A second section grid in force from a date on (a school's winter or summer hours).

    It has as many sections as the grid it follows, so a slot names the same section before and after.
    """

    effective: date
    template: SectionTemplate


@dataclass(frozen=True, slots=True)
class SectionTemplate:
    """The sections of a school day, numbered 1..n, in time order and not overlapping.

    ``change`` is the grid the school switches to on a date; ``in_force`` picks the grid of a day.
    """

    sections: tuple[SectionTime, ...]
    change: GridChange | None = None
    _by_index: Mapping[int, SectionTime] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        sections = tuple(self.sections)
        object.__setattr__(self, "sections", sections)
        self._check_change(len(sections))
        if not 1 <= len(sections) <= MAX_SECTIONS:
            raise InvalidTemplateError(
                f"A day has 1..{MAX_SECTIONS} sections, got {len(sections)}.", count=len(sections)
            )
        for position, section in enumerate(sections, start=1):
            if section.index != position:
                raise InvalidTemplateError(
                    f"Sections must be numbered 1..{len(sections)} in order; "
                    f"position {position} is numbered {section.index}.",
                    section=section.index,
                )
        for earlier, later in zip(sections, sections[1:]):
            if later.start < earlier.end:
                raise InvalidTemplateError(
                    f"Section {later.index} starts at {later.start:%H:%M}, before section "
                    f"{earlier.index} ends at {earlier.end:%H:%M}.",
                    section=later.index,
                )
        object.__setattr__(self, "_by_index", {s.index: s for s in sections})

    def _check_change(self, count: int) -> None:
        if self.change is None:
            return
        if self.change.template.change is not None:
            raise InvalidTemplateError("A grid changes at most once in a semester.")
        if self.change.template.count != count:
            raise InvalidTemplateError(
                f"The grid from {self.change.effective.isoformat()} has {self.change.template.count} "
                f"sections; it needs the same {count} as the grid before it.",
                count=self.change.template.count, expected=count,
            )

    @classmethod
    def from_hhmm(cls, times: Iterable[tuple[str, str]]) -> SectionTemplate:
        """Build a template from ('HH:MM', 'HH:MM') pairs, numbering sections from 1."""
        return cls(
            tuple(
                SectionTime(index, parse_hhmm(start), parse_hhmm(end))
                for index, (start, end) in enumerate(times, start=1)
            )
        )

    def changing_to(self, later: SectionTemplate | None, effective: date | None) -> SectionTemplate:
        """This grid, switching to ``later`` from ``effective`` on (unchanged when either is None)."""
        if later is None or effective is None:
            return SectionTemplate(self.sections)
        return SectionTemplate(self.sections, GridChange(effective, SectionTemplate(later.sections)))

    def in_force(self, day: date) -> SectionTemplate:
        """The grid of a calendar day: the later grid from its date on, else this one."""
        if self.change is not None and day >= self.change.effective:
            return self.change.template
        return self

    @classmethod
    def default_cqupt(cls) -> SectionTemplate:
        """Return the 12-section CQUPT day (1-2 08:00, 3-4 10:15, ... 11-12 20:50)."""
        return cls.from_hhmm(CQUPT_SECTIONS)

    def to_hhmm(self) -> tuple[tuple[str, str], ...]:
        """Return the template as ('HH:MM', 'HH:MM') pairs, the inverse of from_hhmm."""
        return tuple((f"{s.start:%H:%M}", f"{s.end:%H:%M}") for s in self.sections)

    @property
    def count(self) -> int:
        """Return the number of sections in a day."""
        return len(self.sections)

    def section(self, index: int) -> SectionTime:
        """Return one section or raise UnknownSectionError."""
        try:
            return self._by_index[index]
        except (KeyError, TypeError):
            raise UnknownSectionError(
                f"Section {index} does not exist; the day has sections 1..{self.count}.",
                section=index,
                count=self.count,
            ) from None

    def check_span(self, first: int, last: int) -> None:
        """Raise unless first..last is a valid span of sections."""
        self.section(first)
        self.section(last)
        if first > last:
            raise InvalidSpanError(
                f"The span starts at section {first} but ends at section {last}.",
                first=first,
                last=last,
            )

    def pairs(self) -> tuple[tuple[int, int], ...]:
        """Return the aligned section pairs (1, 2), (3, 4), ...; an odd last section has no pair."""
        return tuple((2 * k - 1, 2 * k) for k in range(1, self.count // 2 + 1))

    @property
    def pair_count(self) -> int:
        """Return how many aligned pairs the day has."""
        return self.count // 2

    def pair_sections(self, pair: int) -> tuple[int, int]:
        """Return the two sections of pair k (k = 1 → sections 1 and 2)."""
        if not 1 <= pair <= self.pair_count:
            raise UnknownSectionError(
                f"Pair {pair} does not exist; the day has pairs 1..{self.pair_count}.",
                pair=pair,
                count=self.pair_count,
            )
        return 2 * pair - 1, 2 * pair

    def pair_of(self, section: int) -> int | None:
        """Return the pair a section belongs to, or None for an unpaired last section."""
        self.section(section)
        pair = (section + 1) // 2
        return pair if pair <= self.pair_count else None

    def section_at(self, moment: time) -> int | None:
        """Return the section running at a wall-clock time (start inclusive, end exclusive)."""
        for section in self.sections:
            if section.start <= moment < section.end:
                return section.index
        return None

    def section_starting_near(self, moment: time, tolerance: timedelta) -> int | None:
        """Return the section whose start is nearest to a time, if within the tolerance."""
        return self._nearest(moment, tolerance, lambda s: s.start)

    def section_ending_near(self, moment: time, tolerance: timedelta) -> int | None:
        """Return the section whose end is nearest to a time, if within the tolerance."""
        return self._nearest(moment, tolerance, lambda s: s.end)

    def _nearest(self, moment: time, tolerance: timedelta, boundary: Any) -> int | None:
        limit = tolerance.total_seconds() / 60
        target = minutes_of(moment) + moment.second / 60
        best = min(self.sections, key=lambda s: (abs(minutes_of(boundary(s)) - target), s.index))
        return best.index if abs(minutes_of(boundary(best)) - target) <= limit else None


def _at(semester: Semester, day: date, wall: time) -> datetime:
    return datetime.combine(day, wall, tzinfo=semester.zone)


def span_bounds(
    semester: Semester, template: SectionTemplate, week: int, day: int, first: int, last: int
) -> tuple[datetime, datetime]:
    """Return the aware start and end of sections first..last on (week, day), in the grid of that date."""
    template.check_span(first, last)
    calendar_day = semester.date_of(week, day)
    grid = template.in_force(calendar_day)
    return (
        _at(semester, calendar_day, grid.section(first).start),
        _at(semester, calendar_day, grid.section(last).end),
    )


def meeting_bounds(
    semester: Semester,
    template: SectionTemplate,
    week: int,
    day: int,
    first: int,
    last: int,
    clock: tuple[time, time] | None = None,
) -> tuple[datetime, datetime]:
    """Return the aware start and end of a meeting: its own clock times if it has them, else its sections'."""
    if clock is None:
        return span_bounds(semester, template, week, day, first, last)
    template.check_span(first, last)
    calendar_day = semester.date_of(week, day)
    return _at(semester, calendar_day, clock[0]), _at(semester, calendar_day, clock[1])


def slot_bounds(
    semester: Semester, template: SectionTemplate, slot: SlotKey
) -> tuple[datetime, datetime]:
    """Return the aware start and end of one atomic slot."""
    return span_bounds(semester, template, slot.week, slot.day, slot.section, slot.section)


def slot_at(semester: Semester, template: SectionTemplate, moment: datetime) -> SlotKey | None:
    """Return the slot running at an aware moment, or None between sections."""
    local = require_aware(moment).astimezone(semester.zone)
    week, day = semester.week_day_of(local.date())
    section = template.in_force(local.date()).section_at(local.time().replace(tzinfo=None))
    return None if section is None else SlotKey(week, day, section)


def check_slot(semester: Semester, template: SectionTemplate, slot: SlotKey) -> None:
    """Raise the matching TimeModelError unless the slot lies inside semester and template."""
    semester.check_week(slot.week)
    check_day(slot.day)
    template.section(slot.section)


def guess_semester_start(today: date) -> date:
    """Guess the Monday of week 1 of the semester ``today`` is in.

    Chinese universities start autumn terms in early September and spring terms in late
    February or early March; a student corrects the guess on the settings page.
    """
    if today.month >= 8 or today.month == 1:
        year = today.year if today.month >= 8 else today.year - 1
        anchor = date(year, 9, 1)
    else:
        anchor = date(today.year, 2, 24)
    return anchor + timedelta(days=(7 - anchor.weekday()) % 7)
