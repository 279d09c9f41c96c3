"""A working schedule stored in the format written before the board existed, for upgrade tests.

``fixtures/legacy_working.json`` was written by that code itself (``working_load`` and the
``move`` / ``place`` / ``query_target_tasks`` / ``queue_pop_head`` tools of commit 8945490) for the
scene ``legacy_scene`` builds, with every database id replaced by a token: ``@user``, ``@class``,
``@event:<title>``, ``@item:<order>``, ``@task:<title>``. ``legacy_working`` puts the ids of this
test database back. The scene: 高等数学 Mon 1-2 and 形势与政策 (filler) Tue 1-2 in week 3, 社团活动
Tue 5-6; 概率论复习 (weeks 3-4) with block #4 on the timetable (Wed 7-8) moved to Fri 9-10 by the
conversation, #1 suggested inside 形势与政策, #2 suggested Tue 3-4, #3 waiting (the queue's
current entry) and the quick note 交实验报告 waiting.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from schedule.models import Course, ScheduleEvent
from schedule.services.events import Span, event_create
from schedule.tests.factories import custom_event, import_csv, make_task_class
from taskclasses.models import Task, TaskClass

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "legacy_working.json"


def legacy_scene(user) -> TaskClass:
    """The rows the stored working schedule speaks of."""
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,3", "形势与政策,2,1,2,赵立新,二教1102,3")
    Course.objects.filter(user=user, name="形势与政策").update(is_filler=True)
    custom_event(user, title="社团活动", week=3, day=2, start=5, end=6)
    plan = make_task_class(user, name="概率论复习", items=4, start=date(2026, 9, 21), end=date(2026, 10, 4))
    item = plan.items.get(order=4)
    event_create(user=user, title=item.content, span=Span(3, 3, 7, 8), kind=ScheduleEvent.Kind.TASK_ITEM,
                 task_item=item)
    Task.objects.create(user=user, title="交实验报告", quadrant=1, estimated_sections=1)
    return plan


def legacy_working(user, plan: TaskClass) -> dict[str, Any]:
    """The stored dict with this database's ids."""
    ids = {"@user": user.pk, "@class": plan.pk}
    ids.update({f"@event:{title}": pk for pk, title in ScheduleEvent.objects.filter(user=user)
                .values_list("pk", "title")})
    ids.update({f"@item:{order}": pk for pk, order in plan.items.values_list("pk", "order")})
    ids.update({f"@task:{title}": pk for pk, title in Task.objects.filter(user=user).values_list("pk", "title")})

    def filled(value: Any) -> Any:
        if isinstance(value, dict):
            return {str(ids.get(key, key)): filled(item) for key, item in value.items()}
        if isinstance(value, list):
            return [filled(item) for item in value]
        return ids.get(value, value) if isinstance(value, str) else value

    return filled(json.loads(FIXTURE.read_text("utf-8")))
