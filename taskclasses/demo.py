"""Demo quick notes, written the way a student types them, and two demo task classes."""

from __future__ import annotations

from django.utils import timezone

from accounts.models import User
from taskclasses.models import Task, TaskClass
from taskclasses.notes.services import task_create_from_text
from taskclasses.plans.selectors import default_window_get
from taskclasses.plans.services import task_class_create

DEMO_NOTES = (
    "下周日之前交概率论作业",
    "明天下午3点去图书馆还书",
    "周五前提交数据结构实验报告",
    "有空的时候整理桌面",
    "月底之前复习线性代数前三章",
    "tomorrow 8pm call mom",
)


def seed_demo_quick_notes(user: User) -> str:
    """Add the demo notes the student does not have yet (parsed against the current time)."""
    now = timezone.now()
    have = set(Task.objects.filter(user=user).values_list("source_text", flat=True))
    added = [task_create_from_text(user=user, text=text, now=now) for text in DEMO_NOTES if text not in have]
    return f"quick notes: {len(added)} added, {len(DEMO_NOTES) - len(added)} already there"


def seed_demo_task_classes(user: User) -> str:
    """Add the two demo task classes the student does not have yet (matched by name)."""
    have = set(TaskClass.objects.filter(user=user).values_list("name", flat=True))
    added = []
    if "概率论复习" not in have:
        start, end = default_window_get(user=user, weeks=5)
        # Pair 6 is sections 11-12 (20:50 on the default day): no late-evening sessions.
        added.append(task_class_create(user=user, name="概率论复习", strategy=TaskClass.Strategy.STEADY,
                                       start_date=start, end_date=end, excluded_pairs=[6], allow_filler=True,
                                       item_count=16))
    if "数据结构刷题" not in have:
        start, end = default_window_get(user=user, weeks=3, from_today=True)
        added.append(task_class_create(user=user, name="数据结构刷题", strategy=TaskClass.Strategy.RAPID,
                                       start_date=start, end_date=end, excluded_days=[7], item_count=10))
    return f"task classes: {len(added)} added, {2 - len(added)} already there"
