from __future__ import annotations

from django.core.management.base import CommandError, CommandParser

from accounts.data_erase import account_delete
from accounts.management.student_commands import StudentCommand


class Command(StudentCommand):
    help = ("Delete a student and everything they own (rows in every app, vectors, cached blocks, tokens, "
            "sessions). Cannot be undone: export first (export_user_data). Needs --yes.")

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--yes", action="store_true", help="really delete (without it nothing happens)")

    def handle(self, *args, **options) -> None:
        user = self.student(options["user"])
        if not options["yes"]:
            raise CommandError(f"This deletes {user.username} and everything they own; add --yes to do it.")
        name, user_id = user.username, user.pk
        deleted = account_delete(user=user, by_operator=True)
        self.answer(options, {"user": name, "id": user_id, "deleted": deleted},
                    f"Deleted {name} (id {user_id}): " + ", ".join(f"{k} {v}" for k, v in deleted.items() if v))
