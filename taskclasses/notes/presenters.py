"""The dashboard's view of the quick notes: the four quadrant columns with their open notes."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from accounts.models import User
from taskclasses.models import Task
from taskclasses.notes.core.quick_add import Reading
from taskclasses.notes.selectors import TaskFilters, task_list


@dataclass(frozen=True)
class QuadrantColumn:
    number: int
    label: str
    tasks: tuple[Task, ...]


# The same msgids as the assistant's cards (agent/tools/support/board_text.py): 周五 / Fri.
_WEEKDAYS_SHORT = (pgettext_lazy("short weekday", "Mon"), pgettext_lazy("short weekday", "Tue"),
                   pgettext_lazy("short weekday", "Wed"), pgettext_lazy("short weekday", "Thu"),
                   pgettext_lazy("short weekday", "Fri"), pgettext_lazy("short weekday", "Sat"),
                   pgettext_lazy("short weekday", "Sun"))


def reading_label(reading: Reading) -> str:
    """A reading as a one-tap choice: 周五 10/9, 下周五 10/16, 上周三 10/7 20:00."""
    day = reading.deadline
    values = {"weekday": str(_WEEKDAYS_SHORT[day.weekday()]), "date": f"{day.month}/{day.day}"}
    if reading.weeks_ahead == 1:
        label = _("next %(weekday)s %(date)s") % values
    elif reading.weeks_ahead == -1:
        label = _("last %(weekday)s %(date)s") % values
    else:
        label = _("%(weekday)s %(date)s") % values
    return f"{label} {day:%H:%M}" if reading.has_time else label


def quadrant_board_get(*, user: User) -> list[QuadrantColumn]:
    """Return the four quadrants with their open tasks, in one query."""
    open_tasks = list(task_list(user=user, filters=TaskFilters(completed=False)))
    return [
        QuadrantColumn(number=value, label=str(label), tasks=tuple(t for t in open_tasks if t.quadrant == value))
        for value, label in Task.Quadrant.choices
    ]
