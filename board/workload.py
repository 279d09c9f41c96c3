"""The workload view's figures: how full each day of a week is, and study time per class per week.

Both are read from the editing core's board (``board_load``; with an open preview, the board with
the preview laid over it), and the per-day figures are the analysis core's own (``day_loads``), so
the strip on the week board marks as heavy exactly the days the assistant's ``analyze_health``
calls heavy. The geometry of the plain SVG drawings is computed here too, so templates only place
what they are given (no inline script or style: the CSP forbids both).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.utils.translation import gettext as _

from accounts.models import User
from board.boards import board_load, calendar_get
from board.preview_boards import preview_board
from schedule.core.analysis import DayLoad, day_loads
from schedule.core.board import Board, Calendar, DateWindow, Kind
from schedule.messages import day_label
from schedule.models import PlanPreview
from smartmate.platform.exceptions import AppError

BAR_HEIGHT = 100  # the strip's bars are drawn in a 0..100 box, stretched by CSS
# One colour per class, in the order classes are first seen (readable on white, distinct side by side).
PALETTE = ("#2f6fde", "#2e9e5b", "#d9822b", "#8e44ad", "#c0392b", "#16a2b8", "#7f8c2d", "#e05297")
CHART_WIDTH, CHART_HEIGHT, CHART_TOP, CHART_BOTTOM, CHART_LEFT = 640, 220, 12, 28, 36


@dataclass(frozen=True)
class Segment:
    """One coloured part of a stacked bar: where it starts and how tall it is, in the drawing's units."""

    kind: str
    y: float
    height: float
    sections: int


@dataclass(frozen=True)
class DayStrip:
    day: date
    label: str  # the weekday in the student's language
    sections: int
    load: DayLoad
    segments: tuple[Segment, ...]
    is_today: bool

    @property
    def busy(self) -> int:
        return self.load.busy

    @property
    def heavy(self) -> bool:
        return self.load.heavy


@dataclass(frozen=True)
class WeekStrip:
    days: tuple[DayStrip, ...]
    heavy_count: int


def week_strip(*, user: User, dates: Sequence[date], now: datetime, preview_id: int | None = None) -> WeekStrip:
    """The load of each day of ``dates`` (a week), with the open preview's blocks if one is shown."""
    calendar = calendar_get(user=user)
    week = board_load(user=user, now=now, first=dates[0], last=dates[-1], pending_notes=False, calendar=calendar)
    loads = _loads(week, dates)
    overlay = _preview_overlay(user, now, preview_id)
    if overlay is not None:  # the days the preview's board covers show its blocks too
        loads.update(_loads(overlay, dates))
    today = calendar.semester.local_date(now)
    days = tuple(_day_strip(day, loads.get(day), calendar.sections, today) for day in dates)
    return WeekStrip(days=days, heavy_count=sum(1 for d in days if d.heavy))


def _loads(board: Board, dates: Sequence[date]) -> dict[date, DayLoad]:
    first, last = max(dates[0], board.window.first), min(dates[-1], board.window.last)
    return {load.day: load for load in day_loads(board, DateWindow(first, last))} if first <= last else {}


def _preview_overlay(user: User, now: datetime, preview_id: int | None) -> Board | None:
    preview = PlanPreview.objects.filter(user=user, pk=preview_id, status="open").first() if preview_id else None
    if preview is None:
        return None
    try:
        return preview_board(user=user, preview=preview, now=now)
    except AppError:  # the preview is out of date: the strip shows the timetable as it is
        return None


def _day_strip(day: date, load: DayLoad | None, sections: int, today: date) -> DayStrip:
    load = load or DayLoad(day, 0, 0, 0, 0, sections, False, 0)
    segments, bottom = [], float(BAR_HEIGHT)
    for kind, count in (("course", load.course), ("event", load.event), ("study", load.study), ("note", load.note)):
        if count:
            height = BAR_HEIGHT * count / sections
            bottom -= height
            segments.append(Segment(kind, round(bottom, 2), round(height, 2), count))
    return DayStrip(day=day, label=day_label(day.isoweekday()), sections=sections, load=load,
                    segments=tuple(segments), is_today=day == today)


# --- Study time per class per week (the dashboard's chart) -------------------------------------------


@dataclass(frozen=True)
class ChartBar:
    week: int
    x: float
    width: float
    segments: tuple[tuple[str, float, float, float, str], ...]  # colour, y, height, hours, class name
    hours: float
    current: bool

    @property
    def band_x(self) -> float:
        """Where the shading of the current week starts (a little wider than the bar)."""
        return round(self.x - 2, 2)

    @property
    def band_width(self) -> float:
        return round(self.width + 4, 2)


@dataclass(frozen=True)
class ChartClass:
    name: str
    colour: str
    hours: float


@dataclass(frozen=True)
class StudyChart:
    bars: tuple[ChartBar, ...]
    classes: tuple[ChartClass, ...]
    top_hours: float
    grid: tuple[tuple[float, str], ...]  # (y, label) of the horizontal guide lines
    ticks: tuple[tuple[float, int], ...]  # (x, week) of the week labels under the bars
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    baseline: float = CHART_HEIGHT - CHART_BOTTOM
    left: int = CHART_LEFT

    @property
    def label_x(self) -> int:
        return self.left - 4

    @property
    def tick_y(self) -> int:
        return self.height - 6

    @property
    def empty(self) -> bool:
        return not self.classes


def study_chart(*, user: User, now: datetime) -> StudyChart:
    """Hours of study blocks on the timetable per week of the semester, stacked by class."""
    calendar = calendar_get(user=user)
    semester = calendar.semester
    first = semester.date_of(1, 1)
    board = board_load(user=user, now=now, first=first, last=first + timedelta(days=7 * semester.weeks - 1),
                       pending_notes=False, calendar=calendar)
    minutes = _section_minutes(calendar)
    hours: dict[int, dict[int, float]] = {}
    for entry in board.entries:
        if entry.kind is Kind.STUDY and entry.place is not None and entry.class_id is not None:
            week = calendar.week_day(entry.place.day)[0]
            spent = sum(minutes[s - 1] for s in range(entry.place.start, entry.place.end + 1)) / 60
            per_class = hours.setdefault(week, {})
            per_class[entry.class_id] = per_class.get(entry.class_id, 0.0) + spent
    current = semester.current_week(now, clamp=True)
    return _chart(board, hours, semester.weeks, current)


def _section_minutes(calendar: Calendar) -> list[float]:
    return [(datetime.combine(date.min, s.end) - datetime.combine(date.min, s.start)).seconds / 60
            for s in calendar.template.sections]


def _chart(board: Board, hours: dict[int, dict[int, float]], weeks: int, current: int | None) -> StudyChart:
    class_ids = sorted({cid for per_class in hours.values() for cid in per_class})
    colours = {cid: PALETTE[n % len(PALETTE)] for n, cid in enumerate(class_ids)}
    names = {cid: (rules.name if (rules := board.class_rules(cid)) else _("Study plan")) for cid in class_ids}
    top = _nice_top(max((sum(per.values()) for per in hours.values()), default=0.0))
    plot_height = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
    step = (CHART_WIDTH - CHART_LEFT) / max(1, weeks)
    bars = []
    for week in range(1, weeks + 1):
        bottom, segments = float(CHART_HEIGHT - CHART_BOTTOM), []
        for cid in class_ids:
            spent = hours.get(week, {}).get(cid, 0.0)
            if spent:
                height = plot_height * spent / top
                bottom -= height
                segments.append((colours[cid], round(bottom, 2), round(height, 2), round(spent, 1), names[cid]))
        bars.append(ChartBar(week, round(CHART_LEFT + (week - 1) * step + step * 0.15, 2), round(step * 0.7, 2),
                             tuple(segments), round(sum(hours.get(week, {}).values()), 1), week == current))
    totals = tuple(ChartClass(names[cid], colours[cid], round(sum(per.get(cid, 0.0) for per in hours.values()), 1))
                   for cid in class_ids)
    grid = tuple((round(CHART_HEIGHT - CHART_BOTTOM - plot_height * f, 2), _hours_label(top * f))
                 for f in (0.0, 0.5, 1.0))
    ticks = tuple((round(CHART_LEFT + (w - 0.5) * step, 2), w) for w in range(1, weeks + 1)
                  if w == current or ((w == 1 or w % 4 == 0) and (current is None or abs(w - current) > 1)))
    return StudyChart(tuple(bars), totals, top, grid, ticks)


def _nice_top(value: float) -> float:
    """The chart's top: the smallest of 2, 4, 6, 8, 10, 15, 20, ... hours at or above the tallest bar."""
    for top in (2, 4, 6, 8, 10, 15, 20, 30, 40, 60, 80, 100):
        if value <= top:
            return float(top)
    return float(value)


def _hours_label(value: float) -> str:
    return f"{value:g}h"
