"""A new semester's timetable closes what the assistant remembered of the old one, and says so."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.utils import translation

from memory.models import MemoryItem
from memory.tests.factories import make_memory
from schedule.tests.factories import import_csv
from schedule.tests.semesters.helpers import autumn_semester, start_spring
from taskclasses.models import Task
from taskclasses.reminders.models import Reminder
from taskclasses.reminders.presenters import reminder_text
from taskclasses.tests.factories import SHANGHAI

pytestmark = pytest.mark.django_db

IN_AUTUMN = datetime(2026, 10, 8, 21, 0, tzinfo=SHANGHAI)
# Spring: Tuesday starts at eight, Wednesday at ten, Friday stays free.
SPRING_TIMETABLE = ("大学物理,2,1,2,刘老师,三教101,1-16", "线性代数,3,3,4,陈老师,二教2412,1-16")


def _remembered(user, content: str, **fields) -> MemoryItem:
    return make_memory(user, content, "fact", **{"valid_from": IN_AUTUMN, **fields})


def test_the_spring_timetable_closes_the_autumn_early_class_and_tells_the_student(
        user, django_capture_on_commit_callbacks):
    autumn_semester(user)
    early_wednesday = _remembered(user, "我周三有早八")
    early_tuesday = _remembered(user, "周二有早八")
    free_friday = _remembered(user, "周五下午没课")
    likes = _remembered(user, "喜欢在图书馆复习")
    start_spring(user, list(Task.objects.filter(user=user, completed=False).order_by("pk")))

    with django_capture_on_commit_callbacks(execute=True):
        import_csv(user, *SPRING_TIMETABLE)

    statuses = dict(MemoryItem.objects.filter(user=user).values_list("pk", "status"))
    assert statuses[early_wednesday.pk] == MemoryItem.Status.ARCHIVED
    assert {statuses[m.pk] for m in (early_tuesday, free_friday, likes)} == {MemoryItem.Status.ACTIVE}
    notice = Reminder.objects.get(user=user, kind=Reminder.Kind.MEMORY_OUTDATED)
    assert notice.link == "/memory/#history" and notice.params["examples"] == ["我周三有早八"]
    with translation.override("zh-hans"):
        assert reminder_text(notice, SHANGHAI) == "新课表与助手记得的 1 件事不符，它们已归入历史：“我周三有早八”。"


def test_the_starting_semester_alone_closes_nothing_and_a_memory_of_this_semester_is_left_alone(
        user, django_capture_on_commit_callbacks):
    autumn_semester(user)
    early_wednesday = _remembered(user, "我周三有早八")
    start_spring(user, list(Task.objects.filter(user=user, completed=False).order_by("pk")))
    learned_this_spring = _remembered(user, "周一有早八", valid_from=datetime(2027, 3, 2, 9, 0, tzinfo=SHANGHAI))

    assert MemoryItem.objects.get(pk=early_wednesday.pk).status == MemoryItem.Status.ACTIVE  # no timetable yet
    with django_capture_on_commit_callbacks(execute=True):
        import_csv(user, *SPRING_TIMETABLE)

    assert MemoryItem.objects.get(pk=learned_this_spring.pk).status == MemoryItem.Status.ACTIVE
    assert Reminder.objects.filter(user=user, kind=Reminder.Kind.MEMORY_OUTDATED).count() == 1
