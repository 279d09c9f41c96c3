"""The semester and the section times a file implies, for a file that does not fit the student's.

A school's section grid shows in its timetable's clock times: an event per section gives it outright,
a two- or three-section block gives its ends. ``infer_grid`` takes the distinct (start, end) spans
with how many meetings use each, accepts them from the most used down while they stay one grid (no
section shorter than ``MIN_SECTION``), and cuts each busy stretch into sections of about 45 minutes.
Spans that do not fit the grid are a course's own times (WakeUp lets a course keep them). Sections
of the student's day that the file never touches are kept, so the numbering stays the school's
where it can.

``infer_semester`` finds the file's term, the densest run of meeting dates (last year's series and a
final exam weeks later fall outside it). When the student's semester holds it but for a stray meeting
or two, it is kept; otherwise week 1 is the Monday of the term's first date, moved back when the file
itself says which week a date is ("第3周"), and the semester runs to the last week the weekly classes
meet: a one-off after them (a final exam) and an endless repetition (office hours) do not stretch it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, time, timedelta

from schedule.core.time_model import DEFAULT_WEEKS, MAX_SECTIONS, MAX_WEEKS, SectionTemplate, Semester

Span = tuple[time, time]

MIN_SECTION = 35  # minutes: a stretch shorter than this between boundaries is no section
SECTION_MINUTES = 52.5  # a section and its break, to count sections in a block (95 min -> 2, 145 -> 3)
INNER_BREAKS = (5, 10, 15, 20, 0)  # minutes between the sections of one block, most common first
UNSEEN_BREAK = 5  # the break assumed before a start (or after an end) the file never shows
_WEEK_HINT = re.compile(r"第\s*(\d{1,2})\s*周")


def _minutes(moment: time) -> int:
    return moment.hour * 60 + moment.minute


def _clock(minutes: float) -> time:
    whole = int(round(minutes))
    return time(whole // 60, whole % 60)


# --- Section grid ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class GridGuess:
    """Proposed sections (with the meetings each holds, 0 = kept from the student's day) and own-time spans."""

    sections: tuple[Span, ...]
    uses: tuple[int, ...]
    own_time_spans: frozenset[Span]


def aligned(span: Span, template: SectionTemplate, tolerance: timedelta) -> tuple[int, int] | None:
    """The sections a span starts and ends on (within ``tolerance``), None when it is off the grid."""
    first = template.section_starting_near(span[0], tolerance)
    last = template.section_ending_near(span[1], tolerance)
    return (first, last) if first is not None and last is not None and first <= last else None


def infer_grid(uses: Mapping[Span, int], current: SectionTemplate, tolerance: timedelta) -> GridGuess | None:
    """The grid the file's spans imply, or None when every span fits the student's sections."""
    misfits = {span for span in uses if aligned(span, current, tolerance) is None}
    if not misfits:
        return None
    accepted: list[Span] = []
    for span in sorted(uses, key=lambda s: (-uses[s], s)):
        if _one_grid([*accepted, span]):
            accepted.append(span)
    own_times = frozenset(span for span in uses if span not in accepted)
    if not misfits - own_times:
        # Every span off the student's grid is a course's own times: the student's sections stay.
        return GridGuess(tuple((s.start, s.end) for s in current.sections), (), own_times)
    sections = _sections_of(accepted)
    merged = _with_unused_kept(sections, current)
    if len(merged) > MAX_SECTIONS:
        merged = sections
    if len(merged) > MAX_SECTIONS:
        return None
    return GridGuess(tuple(merged), section_counts(merged, {s: n for s, n in uses.items() if s in accepted}),
                     own_times)


def section_counts(sections: Sequence[Span], uses: Mapping[Span, int]) -> tuple[int, ...]:
    """How many meetings lie in each section (0: one the file never uses)."""
    return tuple(sum(n for span, n in uses.items() if _inside(span, section)) for section in sections)


@dataclass(frozen=True, slots=True)
class GridSwitch:
    """A file on two grids: the school's day before ``effective`` and from it on (winter or summer hours)."""

    before: GridGuess
    after: GridGuess
    effective: date


def infer_grid_switch(dated: Mapping[Span, Sequence[date]], whole: GridGuess, current: SectionTemplate,
                      tolerance: timedelta) -> GridSwitch | None:
    """Two grids split by a date, when one grid leaves spans as own times but each side of the date is one grid.

    ``whole`` is the one grid of the whole file. Both grids must have the same number of sections (a slot
    names one section all term). Schools switch on a Monday, so those are tried first, then the days an
    off-grid span starts or stops (mid-week).
    """
    if not whole.own_time_spans:
        return None
    days = {day for span_days in dated.values() for day in span_days}
    mondays = sorted({day - timedelta(days=day.weekday()) for day in days})
    edges = sorted({edge for span in whole.own_time_spans
                    for edge in (min(dated[span]), max(dated[span]) + timedelta(days=1))})
    for effective in [*mondays[1:], *edges]:
        switch = _split_at(dated, effective, current, tolerance)
        if switch is not None:
            return switch
    return None


def _split_at(dated: Mapping[Span, Sequence[date]], effective: date, current: SectionTemplate,
              tolerance: timedelta) -> GridSwitch | None:
    before = _whole_grid({span: n for span, days in dated.items() if (n := sum(d < effective for d in days))},
                         current, tolerance)
    after = _whole_grid({span: n for span, days in dated.items() if (n := sum(d >= effective for d in days))},
                        current, tolerance)
    if before is None or after is None or before.sections == after.sections:
        return None
    if len(before.sections) != len(after.sections):
        return None
    return GridSwitch(before, after, effective)


def _whole_grid(uses: Mapping[Span, int], current: SectionTemplate, tolerance: timedelta) -> GridGuess | None:
    """The one grid that takes every span (the student's when they all fit it), None when some stay off it."""
    if not uses:
        return None
    guess = infer_grid(uses, current, tolerance)
    if guess is None:
        sections = tuple((s.start, s.end) for s in current.sections)
        return GridGuess(sections, section_counts(sections, uses), frozenset())
    return guess if guess.uses and not guess.own_time_spans else None


def _inside(span: Span, section: Span) -> bool:
    return span[0] <= section[0] and section[1] <= span[1]


def _one_grid(spans: Sequence[Span]) -> bool:
    """Whether the spans can all be unions of consecutive sections of one grid."""
    return all(b - a >= MIN_SECTION for a, b in _pieces(spans))


def _pieces(spans: Sequence[Span]) -> list[tuple[float, float]]:
    """The sections' stretches: between consecutive boundaries, where some span is busy.

    A boundary seen only as an end is followed by a break before the next section, one seen only as a
    start is preceded by one; a short busy gap from an end to a start is such a break inside a block.
    """
    starts = {_minutes(s) for s, _e in spans}
    ends = {_minutes(e) for _s, e in spans}
    bounds = sorted(starts | ends)
    pieces: list[tuple[float, float]] = []
    for a, b in zip(bounds, bounds[1:]):
        if not any(_minutes(s) <= a and b <= _minutes(e) for s, e in spans):
            continue  # nothing happens here: a break between blocks, lunch, the night
        after_end = a in ends and a not in starts
        before_start = b in starts and b not in ends
        if after_end and before_start and b - a < MIN_SECTION + 2 * UNSEEN_BREAK:
            continue  # the break between two sections of one block
        pieces.append((a + (UNSEEN_BREAK if after_end else 0), b - (UNSEEN_BREAK if before_start else 0)))
    return pieces


def _sections_of(spans: Sequence[Span]) -> list[Span]:
    """Cut every busy stretch into sections of about 45 minutes."""
    sections: list[Span] = []
    for a, b in _pieces(spans):
        sections.extend(_split(a, b))
    return sorted(sections)


def _split(a: float, b: float) -> list[Span]:
    length = b - a
    count = max(1, round(length / SECTION_MINUTES))
    if count == 1:
        return [(_clock(a), _clock(b))]
    gap = min(INNER_BREAKS, key=lambda g: _section_error(length, count, g))
    section = (length - gap * (count - 1)) / count
    return [(_clock(a + i * (section + gap)), _clock(a + i * (section + gap) + section)) for i in range(count)]


def _section_error(length: float, count: int, gap: int) -> float:
    """How unlike a timetable's sections a cut is: 40-50 minutes, whole minutes, a common break."""
    section = (length - gap * (count - 1)) / count
    uneven = 0.0 if section == int(section) else 2.0
    return max(0.0, abs(section - 45) - 5) + uneven + INNER_BREAKS.index(gap)


def _with_unused_kept(sections: list[Span], current: SectionTemplate) -> list[Span]:
    """Add the student's sections that overlap none of the file's, so unused parts of the day stay."""
    kept = [(s.start, s.end) for s in current.sections
            if not any(s.start < end and start < s.end for start, end in sections)]
    return sorted([*sections, *kept])


# --- Semester --------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DatedEvent:
    """What semester inference needs of an event: the dates it meets on (a bounded sample) and its text."""

    dates: tuple[date, ...]
    endless: bool = False
    text: str = ""
    series: str = ""  # the class it meets for (name, weekday, times): events per meeting share it


    @property
    def first(self) -> date:
        return self.dates[0]


# A meeting or two outside the student's semester are strays (a class moved before term): the student's
# semester stands and they are listed; a week of classes outside it, and the term is the file's.
STRAY_MEETINGS = 3
SEMESTER_BREAK = timedelta(days=21)  # a longer gap between meetings separates two semesters
EXAM_WEEK_MEETINGS = 2  # one-offs in the week after the last classes that make it the term's exam week


def infer_semester(events: Iterable[DatedEvent], current: Semester) -> tuple[date, int] | None:
    """(Monday of week 1, weeks) the events imply, or None when the student's semester holds them."""
    dated = [e for e in events if e.dates]
    if not dated:
        return None
    run = _busiest_run(sorted(day for e in dated for day in e.dates))
    first, last = run[0], run[-1]
    if _holds_the_term(current, dated, first, last):
        return None
    cluster = [e for e in dated if first <= e.first <= last]
    monday = _hinted_monday(cluster, first) or first - timedelta(days=first.weekday())
    last_class = _last_class_day(cluster, first, last)
    weeks = DEFAULT_WEEKS if last_class is None else (last_class - monday).days // 7 + 1
    return monday, min(MAX_WEEKS, weeks)


def _last_class_day(cluster: list[DatedEvent], first: date, last: date) -> date | None:
    """The last day of the term's classes within first..last: the last meeting of a class that meets
    more than once and has an end, or the week after it when that week holds an exam week's one-offs.

    A lone one-off in the week after the last classes (a final, a make-up) is a stray the student sees
    listed as outside the term; finals after a week without classes are the exam period; an endless
    rule (office hours) says nothing of when the term ends. None of these lengthens the semester.
    None when the file holds nothing but endless rules: the default length is proposed.
    """
    meetings: dict[str, list[date]] = {}
    for n, event in enumerate(cluster):
        if not event.endless:
            meetings.setdefault(event.series or f"#{n}", []).extend(
                day for day in event.dates if first <= day <= last)
    repeated = [max(days) for days in meetings.values() if len(days) > 1]
    once = sorted(day for days in meetings.values() if len(days) == 1 for day in days)
    if not repeated:
        return once[-1] if once else None
    end = max(repeated)
    next_week = [day for day in once if _monday(day) == _monday(end) + timedelta(weeks=1)]
    return max(next_week) if len(next_week) >= EXAM_WEEK_MEETINGS else end


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _holds_the_term(semester: Semester, dated: list[DatedEvent], first: date, last: date) -> bool:
    """Whether the student's semester holds the file's term (its busiest run of dates, first..last) but
    for a stray meeting or two: a term that begins a week earlier, or runs weeks past the semester's end,
    is the file's own. An endless rule says nothing of when the term ends, so its dates are not asked about."""
    term = [day for event in dated if not event.endless for day in event.dates if first <= day <= last]
    outside = sum(not semester.start_monday <= day <= semester.last_day for day in term)
    return outside < STRAY_MEETINGS


def _busiest_run(days: list[date]) -> list[date]:
    """The longest stretch of meeting dates with no gap over SEMESTER_BREAK (last year's series, a final
    exam weeks later and stray one-offs fall outside it)."""
    runs: list[list[date]] = [[days[0]]]
    for day in days[1:]:
        if day - runs[-1][-1] > SEMESTER_BREAK:
            runs.append([])
        runs[-1].append(day)
    return max(runs, key=len)


def _hinted_monday(cluster: list[DatedEvent], earliest: date) -> date | None:
    """Week 1's Monday as the file's own "第N周" words place it, if most such words agree."""
    # A file with an event per meeting repeats one description ("从第3周到第8周") on every meeting:
    # the words describe the first of them.
    first_of_text: dict[str, date] = {}
    for event in cluster:
        if _WEEK_HINT.search(event.text):
            first_of_text[event.text] = min(event.first, first_of_text.get(event.text, date.max))
    votes: dict[date, int] = {}
    for text, first in first_of_text.items():
        hint = _WEEK_HINT.search(text)
        if hint is None or not 1 <= int(hint[1]) <= MAX_WEEKS:
            continue
        monday = first - timedelta(days=first.weekday(), weeks=int(hint[1]) - 1)
        votes[monday] = votes.get(monday, 0) + 1
    if not votes:
        return None
    monday, count = max(votes.items(), key=lambda item: (item[1], item[0]))
    if count * 2 <= sum(votes.values()) or monday > earliest:
        return None
    return monday
