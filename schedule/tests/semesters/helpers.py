"""An autumn semester worth keeping: courses, a filler course with a block inside, plans done and not,
an exam, a holiday, notes and rules with a protected lunch; and the start of spring 2027."""

from __future__ import annotations

from datetime import date, datetime, time

from accounts.models import User
from schedule.exams.models import Exam
from schedule.models import CalendarDay, Course, ScheduleEvent
from schedule.semesters.models import Semester
from schedule.student_rules.models import StudyRules
from schedule.tests.factories import import_csv
from taskclasses.models import Task, TaskItem
from taskclasses.semesters.services import Carry, semester_next_start
from taskclasses.tests.factories import SHANGHAI, embed_item, make_task, make_task_class, place_item

SPRING = date(2027, 3, 1)
LUNCH = {"name": "午饭", "first": 4, "last": 4, "days": [1, 2, 3, 4, 5]}
EVENING = {"name": "晚自习", "first": 11, "last": 12, "days": [7]}


def autumn_semester(user: User) -> dict[str, object]:
    """Fill the factory semester (week 1 = 2026-09-07) with a little of everything; return the key rows."""
    import_csv(user, "高等数学,1,1,2,王老师,二教2305,1-16", "大学英语,3,3,4,李老师,三教101,1-16")
    calculus = make_task_class(user, name="高数复习", items=3)
    first, second, third = calculus.items.order_by("order")
    place_item(first, week=3, day=2, start=5, status=TaskItem.Status.DONE)
    place_item(second, week=4, day=2, start=5, status=TaskItem.Status.MISSED)
    place_item(third, week=5, day=2, start=5, status=TaskItem.Status.PLACED)
    english = make_task_class(user, name="英语单词", items=1)
    embed_item(english.items.get())
    TaskItem.objects.filter(task_class=english).update(status=TaskItem.Status.DONE)
    exam = Exam.objects.create(user=user, title="高数期末", date=date(2027, 1, 12), start_time=time(9),
                               end_time=time(11), course=Course.objects.get(user=user, name="高等数学"))
    CalendarDay.objects.create(user=user, kind="holiday", name="国庆节", first_date=date(2026, 10, 1),
                               last_date=date(2026, 10, 7))
    notes = [make_task(user, title=title) for title in ("还图书馆的书", "交体检表", "买台灯")]
    make_task(user, title="交概率论作业", completed=True)
    StudyRules.objects.create(user=user, daily_cap=3, buffer_sections=1, protected_times=[LUNCH, EVENING])
    return {"calculus": calculus, "english": english, "exam": exam, "notes": notes}


def start_spring(user: User, notes: list[Task], **carry: object) -> Semester:
    """Start spring 2027 bringing the first two notes and the lunch rule (what the issue's student does)."""
    choice = {"note_ids": (notes[0].pk, notes[1].pk), "protected": ("午饭",), **carry}
    return semester_next_start(user=user, first_monday=SPRING, weeks=18, carry=Carry(**choice))  # type: ignore[arg-type]


def board_count(user: User) -> int:
    return ScheduleEvent.objects.filter(user=user).count()


WHEN = datetime(2027, 2, 20, 10, 0, tzinfo=SHANGHAI)
