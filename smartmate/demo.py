"""Demo data: one student with a realistic semester, built by each app's own seeder.

Each app adds its seeder to ``SEEDERS`` (in order); seeders must be idempotent so that
``manage.py seed_demo`` can run on every start.
"""

from __future__ import annotations

from datetime import date
from typing import Callable

from django.db import transaction

from accounts.models import CalendarSettings, User, default_section_times

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "smartmate-demo"
# Autumn 2026: week 1 starts on Monday 7 September; 20 weeks.
DEMO_SEMESTER_START = date(2026, 9, 7)
DEMO_SEMESTER_WEEKS = 20


def seed_demo_account() -> User:
    """Create (or reset) the demo student and their calendar."""
    user, _created = User.objects.get_or_create(username=DEMO_USERNAME, defaults={"email": "demo@example.edu"})
    user.set_password(DEMO_PASSWORD)
    user.time_zone = "Asia/Shanghai"
    user.save()
    CalendarSettings.objects.update_or_create(
        user=user,
        defaults={"semester_start": DEMO_SEMESTER_START, "semester_weeks": DEMO_SEMESTER_WEEKS,
                  "section_times": default_section_times()},
    )
    return user


def _seeders() -> list[Callable[[User], str]]:
    # Imported lazily: each app's seeder lives beside its models.
    from schedule.demo import seed_demo_timetable
    from taskclasses.demo import seed_demo_quick_notes, seed_demo_task_classes

    return [seed_demo_timetable, seed_demo_quick_notes, seed_demo_task_classes]


@transaction.atomic
def seed_demo() -> tuple[User, list[str]]:
    """Build the whole demo; returns the student and one line of summary per seeder."""
    user = seed_demo_account()
    return user, [seeder(user) for seeder in _seeders()]
