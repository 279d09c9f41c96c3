from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from schedule.exceptions import ImportRejectedError, ImportTooComplexError
from schedule.services.imports import detect_format, timetable_import


class Command(BaseCommand):
    help = "Import a timetable file (CSV, .ics or JSON) for a user; all or nothing."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("path", type=Path)
        parser.add_argument("--format", dest="fmt", choices=["csv", "ics", "json"], help="default: from the file name")
        parser.add_argument("--dry-run", action="store_true", help="report what would be created; write nothing")
        parser.add_argument("--keep-settings", action="store_true",
                            help="read the file under the user's semester and section times (moved times listed) "
                                 "instead of adopting the file's own")

    def handle(self, *args, username: str, path: Path, fmt: str | None, dry_run: bool, keep_settings: bool,
               **options) -> None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user named {username!r}.")
        if not path.is_file():
            raise CommandError(f"No file at {path}.")
        data = path.read_bytes()
        try:
            # The operator's command is its own confirmation: it adopts the file's frame and leaves out
            # what cannot be taken, printing both (the dry run prints them first).
            outcome = timetable_import(user=user, data=data, fmt=fmt or detect_format(path.name, data),
                                       dry_run=dry_run, fit="mine" if keep_settings else "file", adopt=True,
                                       accept_skips=True)
        except ImportRejectedError as exc:
            lines = [f"  row {p['row'] or '-'}: {p['message']}" for p in exc.detail["problems"]]
            raise CommandError("\n".join([exc.message, *lines])) from exc
        except ImportTooComplexError as exc:
            raise CommandError(exc.message) from exc
        if outcome.frame is not None:
            self.stdout.write(f"  semester/sections from the file: week 1 {outcome.frame.start or 'unchanged'}, "
                              f"{len(outcome.frame.sections) or 'unchanged'} sections")
        for group in outcome.skipped:
            self.stdout.write(f"  left out: {group.summary}")
            for example in group.examples:
                self.stdout.write(f"    {example}")
        for course in outcome.courses:
            self.stdout.write(f"  row {course.row}: {course.name} day {course.day} "
                              f"sections {course.start_section}-{course.end_section} weeks {course.weeks_text} "
                              f"(+{course.new_meetings} new, {course.existing_meetings} already there)")
            for notice in course.notices:
                self.stdout.write(f"    adjusted: {notice}")
        # The dry run's counts come from the same rules as the write, so they match what an import creates.
        verb = "Would create" if dry_run else "Created"
        self.stdout.write(self.style.SUCCESS(
            f"{verb} {outcome.created_courses} courses / {outcome.created_events} meetings; "
            f"{outcome.skipped_existing} meetings were already there."))
