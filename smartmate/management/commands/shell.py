"""``manage.py shell`` with the project's services at hand, not only its models.

Django 5.2 imports every model into the shell. An operator also needs the functions that change
things the way the pages do (checks, transactions, undo records): they are imported here under their
own names, which say what they do (``timetable_import``, ``preview_apply``, ``memory_source_get``...).
README, "From the Django shell", has recipes; each is run by a test.

The paths are strings, imported when the shell starts: the shared core imports no app.
"""

from __future__ import annotations

from django.core.management.commands import shell

SERVICES = [
    # accounts: students, quota, their own data
    "accounts.services.user_register",
    "accounts.services.token_quota_reset",
    "accounts.selectors.token_quota_get",
    "accounts.data_ports.user_data_counts",
    "accounts.data_export.user_data_archive_write",
    "accounts.data_erase.account_delete",
    # schedule: calendar, timetable, events
    "schedule.selectors.calendar_settings_get",
    "schedule.selectors.time_frame_get",
    "schedule.selectors.course_list",
    "schedule.selectors.week_board_get",
    "schedule.services.imports.timetable_import",
    "board.timetable_edits.course_change",
    "board.timetable_edits.course_remove",
    "schedule.services.events.event_create",
    "schedule.services.events.event_delete",
    "schedule.services.events.Span",
    "schedule.services.feeds.schedule_ics_build",
    # task classes: plans, planning, previews, quick notes
    "taskclasses.plans.services.task_class_create",
    "taskclasses.plans.services.task_item_add",
    "board.planning.preview_create",
    "board.previews.preview_apply",
    "board.previews.changeset_undo",
    "taskclasses.notes.services.task_create_from_text",
    "taskclasses.notes.services.tasks_promote",
    # the assistant
    "agent.selectors.events_after",
    "agent.services.conversations.conversation_create",
    "agent.services.turns.turn_cancel",
    # memory
    "memory.selectors.memory_list",
    "memory.selectors.memory_source_get",
    "memory.services.items.memory_add_by_hand",
    "memory.services.items.memory_forget",
    # shared core
    "smartmate.platform.outbox.services.outbox_event_redrive",
    "smartmate.platform.outbox.services.outbox_sweep",
]


class Command(shell.Command):
    help = shell.Command.help + " The project's services are imported too (README: From the Django shell)."

    def get_auto_imports(self) -> list[str]:
        return [*(super().get_auto_imports() or []), *SERVICES]
