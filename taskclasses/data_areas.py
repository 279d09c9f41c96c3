"""The student's study plans and quick notes, for "download my data" and "delete my account"."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from accounts.data_ports import DataArea, Tables, data_area_register, rows_with_user_field
from accounts.models import User
from taskclasses.models import TaskItem


def _tables(user: User) -> Tables:
    tables = rows_with_user_field("taskclasses", user)
    tables["taskitem"] = TaskItem.objects.filter(task_class__user=user).order_by("task_class_id", "order", "pk")
    return tables


# The line for this file in the archive's 说明.txt.
SUMMARY = gettext_lazy("Your study plans and their blocks, your quick notes, your reminders and their settings.")
data_area_register(DataArea(name="plans", tables=_tables, order=30, summary=SUMMARY))
