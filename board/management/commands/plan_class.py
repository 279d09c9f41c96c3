from __future__ import annotations

from django.core.management.base import CommandError, CommandParser

from accounts.management.student_commands import StudentCommand
from board.planning import preview_create
from board.previews import preview_apply
from smartmate.platform.exceptions import AppError
from smartmate.platform.params import digits_int
from taskclasses.models import TaskClass, TaskItem


class Command(StudentCommand):
    help = ("Plan a student's study plan (task class) into their free time and filler courses and print the "
            "preview; --apply writes it (undo from the board or with changeset_undo).")

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--class", dest="task_class", required=True, help="the plan's id or exact name")
        parser.add_argument("--apply", action="store_true", help="write the preview to the schedule")

    def handle(self, *args, **options) -> None:
        user = self.student(options["user"])
        task_class = self._task_class(user, options["task_class"])
        try:
            preview = preview_create(user=user, task_class_ids=[task_class.pk])
            changes = preview_apply(user=user, preview_id=preview.pk) if options["apply"] else None
        except AppError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        contents = TaskItem.objects.in_bulk([p["item_id"] for p in preview.placements])
        blocks = [{**p, "content": contents[p["item_id"]].content} for p in preview.placements]
        lines = [f'week {b["week"]:>2} day {b["day"]} sections {b["start_section"]}-{b["end_section"]} '
                 f'{"(filler course) " if b["host_event_id"] else ""}{b["content"]}' for b in blocks]
        lines.append(f"{len(blocks)} placed, {len(preview.unplaced)} without a place; "
                     + (f"applied (change set {changes.pk})" if changes else f"preview {preview.pk}, not applied"))
        self.answer(options, {"preview": preview.pk, "placed": blocks, "unplaced": preview.unplaced,
                              "changeset": changes.pk if changes else None}, "\n".join(lines))

    def _task_class(self, user, named: str) -> TaskClass:
        mine = TaskClass.objects.filter(user=user)
        pk = digits_int(named)
        found = (mine.filter(pk=pk).first() if pk is not None else None) or mine.filter(name=named).first()
        if found is None:
            raise CommandError(f"{user.username} has no study plan {named!r} (id or exact name).")
        return found
