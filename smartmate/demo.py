"""Demo data: one student with a realistic semester, built by each app's own seeder.

Each app adds its seeder to ``SEEDERS`` (in order); seeders must be idempotent so that
``manage.py seed_demo`` can run on every start.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from schedule.models import CalendarSettings, default_section_times
from schedule.services.calendar import calendar_settings_update

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "smartmate-demo"
DEMO_SEMESTER_WEEKS = 20
DEMO_CURRENT_WEEK = 13  # the demo student is always mid-semester, whatever the date


def demo_semester_start(today: date) -> date:
    """Return the Monday of week 1 that puts ``today`` in week 13 of the demo semester."""
    return today - timedelta(days=today.weekday(), weeks=DEMO_CURRENT_WEEK - 1)


def seed_demo_account() -> User:
    """Create (or reset) the demo student and their calendar (kept in week 13 of a 20-week term)."""
    user, _created = User.objects.get_or_create(username=DEMO_USERNAME, defaults={"email": "demo@example.edu"})
    user.set_password(DEMO_PASSWORD)
    user.time_zone = "Asia/Shanghai"
    # The demo student is in week 13 with everything set up: no first-run guide.
    user.first_run_dismissed_at = user.first_run_dismissed_at or timezone.now()
    user.save()
    calendar = CalendarSettings.objects.filter(user=user).first()
    start = demo_semester_start(timezone.localdate(timezone.now(), user.zone))
    if calendar is None:
        CalendarSettings.objects.create(user=user, semester_start=start, semester_weeks=DEMO_SEMESTER_WEEKS,
                                        section_times=default_section_times())
    elif calendar.semester_start != start:
        # A later start moves every event with it, keeping the demo's week numbers.
        calendar_settings_update(user=user, semester_start=start, semester_weeks=DEMO_SEMESTER_WEEKS)
    return user


def _seeders() -> list[Callable[[User], str]]:
    # Imported lazily: each app's seeder lives beside its models.
    from schedule.demo import seed_demo_timetable
    from schedule.demo_rules import seed_demo_rules_and_exam
    from schedule.semesters.demo import seed_demo_past_semester
    from taskclasses.demo import seed_demo_quick_notes, seed_demo_task_classes

    return [seed_demo_timetable, seed_demo_rules_and_exam, seed_demo_quick_notes, seed_demo_task_classes,
            seed_demo_past_semester]


@transaction.atomic
def seed_demo() -> tuple[User, list[str]]:
    """Build the whole demo; returns the student and one line of summary per seeder."""
    user = seed_demo_account()
    return user, [seeder(user) for seeder in _seeders()]
