from __future__ import annotations

from accounts.data_ports import user_data_counts
from accounts.management.student_commands import StudentCommand


class Command(StudentCommand):
    help = "List what a student owns: rows per kind (area.table), across every app."

    def handle(self, *args, **options) -> None:
        user = self.student(options["user"])
        counts = user_data_counts(user=user)
        lines = [f"{kind:<36} {count}" for kind, count in counts.items()]
        self.answer(options, {"user": user.username, "id": user.pk, "counts": counts},
                    "\n".join([f"{user.username} (id {user.pk})", *lines]))
