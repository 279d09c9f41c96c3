"""Benchmark the academic calendar: the resolved calendar of a 20-week semester, p50.

    python -m bench.calendar_bench [--runs 2000] [--checks]

The semester (2026-09-07, 20 weeks) carries what an autumn term at a Chinese university has: the
Mid-Autumn Festival (1 day), National Day (7 days), two make-up days (调休), New Year's Day and a
two-week exam period; one more run adds a year's worth of days (every national holiday, 8 make-up
days) to see how it grows. Timed, each ``--runs`` times: ``calendar_resolve`` (the pure resolver
every reader's labels and every sync start from), and with ``--checks`` also ``calendar_problems``
(what a write runs before saving).

``--database`` adds the database side on a fresh migrated database with the demo student (the demo
timetable, 20 weeks): the same autumn days entered, then p50 of switching the school calendar on (the
sync suspends the holidays' meetings and copies the make-up days') and off again, and of
``school_calendar_get`` (what the week board, the agenda and now/next read for their labels).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date, timedelta
from functools import partial

from schedule.core.academic_calendar import CalendarDay, DayKind, calendar_problems, calendar_resolve, week_range
from schedule.core.time_model import Semester

SEMESTER = Semester(date(2026, 9, 7), 20)


def autumn_term() -> list[CalendarDay]:
    """A realistic autumn term: 4 holidays (10 days), 2 make-up days, 2 exam weeks."""
    return [
        CalendarDay(DayKind.HOLIDAY, "中秋节", date(2026, 9, 25), date(2026, 9, 25)),
        CalendarDay(DayKind.HOLIDAY, "国庆节", date(2026, 10, 1), date(2026, 10, 7)),
        CalendarDay(DayKind.MAKEUP, "调休", date(2026, 9, 27), date(2026, 9, 27), runs_week=4, runs_day=1),
        CalendarDay(DayKind.MAKEUP, "调休", date(2026, 10, 10), date(2026, 10, 10), runs_week=5, runs_day=5),
        CalendarDay(DayKind.HOLIDAY, "元旦", date(2027, 1, 1), date(2027, 1, 3)),
        CalendarDay(DayKind.EXAM, "期末考试", *week_range(SEMESTER, 19, 20)),
    ]


def crowded_term() -> list[CalendarDay]:
    """Many more days than any school has: a holiday each fortnight, 8 make-up days, exams."""
    days = [CalendarDay(DayKind.HOLIDAY, f"假日{n}", SEMESTER.start_monday + timedelta(days=14 * n + 4),
                        SEMESTER.start_monday + timedelta(days=14 * n + 6)) for n in range(10)]
    days += [CalendarDay(DayKind.MAKEUP, f"调休{n}", SEMESTER.date_of(2 * n + 2, 7), SEMESTER.date_of(2 * n + 2, 7),
                         runs_week=2 * n + 2, runs_day=3) for n in range(8)]
    return [*days, CalendarDay(DayKind.EXAM, "期末考试", *week_range(SEMESTER, 19, 20))]


def p50_ms(work: Callable[[], object], runs: int) -> tuple[float, float]:
    timings = []
    for _run in range(runs):
        started = time.perf_counter()
        work()
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings), min(timings)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--checks", action="store_true", help="also time the checks a write runs")
    parser.add_argument("--database", action="store_true", help="also time the sync on a fresh database")
    parser.add_argument("--cycles", type=int, default=20, help="switch on/off cycles with --database")
    args = parser.parse_args(argv)
    print(f"Academic calendar, {SEMESTER.weeks}-week semester from {SEMESTER.start_monday}, {args.runs} runs each")
    for label, days in (("autumn term", autumn_term()), ("crowded term", crowded_term())):
        assert not calendar_problems(SEMESTER, days), label
        resolved = calendar_resolve(SEMESTER, days)
        p50, best = p50_ms(partial(calendar_resolve, SEMESTER, days), args.runs)
        print(f"  {label}: {len(days)} entries, {len(resolved.days)} dates changed, "
              f"{len(resolved.suspended_positions())} without their own courses, "
              f"{len(resolved.makeup_positions())} make-up days -> resolve p50 {p50:.3f} ms (best {best:.3f} ms)")
        if args.checks:
            p50, best = p50_ms(partial(calendar_problems, SEMESTER, days), args.runs)
            print(f"    checks p50 {p50:.3f} ms (best {best:.3f} ms)")
    if args.database:
        for line in database_report(args.cycles):
            print(line)
    return 0


def database_report(cycles: int) -> list[str]:
    """Switch the demo student's school calendar on and off ``cycles`` times on a fresh database."""
    from bench.harness import bench_database, django_setup_for_bench

    django_setup_for_bench()
    from django.db import connection

    from schedule.models import CalendarDay, ScheduleEvent
    from schedule.selectors import calendar_settings_get, school_calendar_get
    from schedule.services.academic_calendar import DayInput, calendar_days_add, school_calendar_switch
    from smartmate.demo import seed_demo

    with bench_database():
        user, _summary = seed_demo()
        semester = calendar_settings_get(user=user).semester(user.time_zone)
        days = [DayInput(CalendarDay.Kind(d.kind), d.name, d.first, d.last, d.runs_week, d.runs_day)
                for d in _shifted(autumn_term(), semester.start_monday - SEMESTER.start_monday)]
        calendar_days_add(user=user, days=days)
        on, off, read = [], [], []
        for _cycle in range(cycles):
            on.append(p50_ms(lambda: school_calendar_switch(user=user, follows=True), 1)[0])
            read.append(p50_ms(lambda: school_calendar_get(user=user), 1)[0])
            off.append(p50_ms(lambda: school_calendar_switch(user=user, follows=False), 1)[0])
        school_calendar_switch(user=user, follows=True)
        courses = ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.COURSE).count()
        copies = ScheduleEvent.objects.filter(user=user, source=ScheduleEvent.Source.CALENDAR).count()
        return [f"Database ({connection.vendor}), the demo student ({courses} course meetings with the calendar on, "
                f"{copies} make-up copies), {cycles} cycles:",
                f"  switch on (sync) p50 {statistics.median(on):.1f} ms, switch off p50 {statistics.median(off):.1f} ms, "
                f"school_calendar_get p50 {statistics.median(read):.2f} ms"]


def _shifted(days: list[CalendarDay], by: timedelta) -> list[CalendarDay]:
    return [CalendarDay(d.kind, d.name, d.first + by, d.last + by, d.runs_week, d.runs_day) for d in days]


if __name__ == "__main__":
    sys.exit(main())
