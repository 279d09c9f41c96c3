"""``manage.py load_holidays 2025 [--user NAME]``: add a shipped year's national holidays to students' calendars."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from schedule.services.academic_calendar import UnknownYearError, national_holidays_load, national_years
from smartmate.platform.exceptions import AppError


class Command(BaseCommand):
    help = ("Add the national holidays of a year (from schedule/calendar_data/cn_holidays.json) to every "
            "student's calendar, or one student's; only the days inside each semester; idempotent.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("year", type=int)
        parser.add_argument("--user", dest="username", help="only this student (default: every student)")

    def handle(self, *args, year: int, username: str | None, **options) -> None:
        if year not in national_years():
            known = ", ".join(str(y) for y in national_years()) or "none"
            raise CommandError(f"No official arrangement for {year} ships with SmartMate (known: {known}); "
                               "students enter the days by hand.")
        students = User.objects.filter(username=username) if username else User.objects.filter(is_active=True)
        if username and not students.exists():
            raise CommandError(f"No user named {username!r}.")
        for student in students.order_by("pk"):
            self._load(student, year)

    def _load(self, student: User, year: int) -> None:
        try:
            outcome = national_holidays_load(user=student, year=year)
        except (AppError, UnknownYearError) as exc:  # a student whose board refuses is reported, not half-written
            self.stderr.write(f"{student.username}: {exc.message}")
            return
        names = ", ".join(f"{d.name} {d.first_date}..{d.last_date}" for d in outcome.days) or "none in the semester"
        self.stdout.write(f"{student.username}: {year} holidays: {names}")
        if outcome.workdays:
            self.stdout.write(f"  make-up working days to enter by hand: {', '.join(outcome.workdays)}")
