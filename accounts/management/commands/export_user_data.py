from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError, CommandParser

from accounts.data_export import user_data_archive_write
from accounts.management.student_commands import StudentCommand


class Command(StudentCommand):
    help = ("Write a student's data archive (the same ZIP as 'Download my data'; format: docs/own-data.md) "
            "to a file.")

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--out", type=Path, required=True, help="where to write the .zip")
        parser.add_argument("--force", action="store_true", help="overwrite an existing file")

    def handle(self, *args, **options) -> None:
        user = self.student(options["user"])
        out: Path = options["out"]
        if out.exists() and not options["force"]:
            raise CommandError(f"{out} exists; add --force to overwrite it.")
        with out.open("wb") as archive:
            size = user_data_archive_write(user=user, out=archive)
        self.answer(options, {"user": user.username, "path": str(out), "bytes": size},
                    f"Wrote {size} bytes of {user.username}'s data to {out}")
