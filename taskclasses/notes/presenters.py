"""The dashboard's view of the quick notes: the four quadrant columns with their open notes."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import User
from taskclasses.models import Task
from taskclasses.notes.selectors import TaskFilters, task_list


@dataclass(frozen=True)
class QuadrantColumn:
    number: int
    label: str
    tasks: tuple[Task, ...]


def quadrant_board_get(*, user: User) -> list[QuadrantColumn]:
    """Return the four quadrants with their open tasks, in one query."""
    open_tasks = list(task_list(user=user, filters=TaskFilters(completed=False)))
    return [
        QuadrantColumn(number=value, label=str(label), tasks=tuple(t for t in open_tasks if t.quadrant == value))
        for value, label in Task.Quadrant.choices
    ]
