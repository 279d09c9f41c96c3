"""Semesters from the shell: list them, start the next one, undo that start."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.management.base import CommandError, CommandParser

from accounts.management.student_commands import StudentCommand
from schedule.semesters.selectors import semester_current_get, semester_list
from schedule.student_rules.services import study_rules_get
from smartmate.platform.exceptions import AppError
from taskclasses.semesters.services import Carry, semester_next_guess, semester_next_start, semester_next_start_undo


class Command(StudentCommand):
    help = ("A student's semesters: 'list' (default), 'start' the next one (the current one is kept read-only; "
            "dates guessed unless given), or 'undo' the last start while nothing new was written.")

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("action", nargs="?", choices=["list", "start", "undo"], default="list")
        parser.add_argument("--first-monday", type=date.fromisoformat, help="week 1 of the new semester, YYYY-MM-DD")
        parser.add_argument("--weeks", type=int, help="its number of weeks")
        parser.add_argument("--note", type=int, action="append", default=[], help="an unfinished quick note to keep")
        parser.add_argument("--protected", action="append", help="a protected time to keep (default: all)")
        parser.add_argument("--no-rules", action="store_true", help="clear the daily cap, buffer and latest section")
        parser.add_argument("--no-plans", action="store_true", help="archive the plans not finished too")
        parser.add_argument("--no-filler", action="store_true", help="do not mark the new courses as filler by name")

    def handle(self, *args: Any, **options: Any) -> None:
        user = self.student(options["user"])
        try:
            if options["action"] == "start":
                self._start(user, options)
            elif options["action"] == "undo":
                semester_next_start_undo(user=user)
        except AppError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from None
        self._list(user, options)

    def _start(self, user: Any, options: dict[str, Any]) -> None:
        guess = semester_next_guess(user=user)
        protected = options["protected"]
        if protected is None:
            protected = [str(p["name"]) for p in study_rules_get(user=user).protected_times]
        semester_next_start(
            user=user, first_monday=options["first_monday"] or guess.first_monday, weeks=options["weeks"] or guess.weeks,
            carry=Carry(note_ids=tuple(options["note"]), rules=not options["no_rules"], protected=tuple(protected),
                        plans=not options["no_plans"], filler=not options["no_filler"]))

    def _list(self, user: Any, options: dict[str, Any]) -> None:
        current = semester_current_get(user=user)
        past = [{"id": s.pk, "name": s.label, "first_monday": s.first_monday, "weeks": s.weeks}
                for s in semester_list(user=user)]
        lines = [f"current: {current.label} from {current.first_monday} ({current.weeks} weeks)"]
        lines += [f"past #{p['id']}: {p['name']} from {p['first_monday']} ({p['weeks']} weeks)" for p in past]
        self.answer(options, {"current": current.__dict__, "past": past}, "\n".join(lines))
