"""Demo timetable: the committed CSV of a second-year student, with filler courses marked."""

from __future__ import annotations

from pathlib import Path

from accounts.models import User
from schedule.models import Course
from schedule.services.imports import timetable_import

DEMO_TIMETABLE = Path(__file__).resolve().parent / "demo_data" / "demo_timetable.csv"
# Courses a student can study through: lecture-style, attendance-only.
DEMO_FILLER_COURSES = ("形势与政策", "大学生心理健康教育", "军事理论")


def seed_demo_timetable(user: User) -> str:
    """Import the demo CSV (meetings already there are skipped) and mark the filler courses."""
    outcome = timetable_import(user=user, data=DEMO_TIMETABLE.read_bytes(), fmt="csv")
    Course.objects.filter(user=user, name__in=DEMO_FILLER_COURSES).update(is_filler=True)
    total = Course.objects.filter(user=user).count()
    return (f"timetable: {total} courses, {outcome.created_events} meetings added, "
            f"{outcome.skipped_existing} already there; filler: {', '.join(DEMO_FILLER_COURSES)}")
