"""What the student-data commands share: finding the student, and answering as text or as JSON.

Exit codes: 0 done, 1 refused or failed (CommandError), 2 bad arguments (argparse).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from smartmate.platform.params import digits_int


class StudentCommand(BaseCommand):
    """A command about one student, named by ``--user`` (username or id), with ``--json`` output."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="the student's username or numeric id")
        parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")

    def student(self, named: str) -> User:
        by_name = User.objects.filter(username=named).first()
        pk = digits_int(named)
        user = by_name or (User.objects.filter(pk=pk).first() if pk is not None else None)
        if user is None:
            raise CommandError(f"No student {named!r} (username or id).")
        return user

    def answer(self, options: dict[str, Any], data: dict[str, Any], text: str) -> None:
        self.stdout.write(json.dumps(data, ensure_ascii=False, default=str) if options["json"] else text)
