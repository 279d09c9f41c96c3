"""Demo quick notes, written the way a student types them."""

from __future__ import annotations

from django.utils import timezone

from accounts.models import User
from taskclasses.models import Task
from taskclasses.services.tasks import task_create_from_text

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
