"""Demo rules and exam: the demo student protects lunch (section 4, 11:10-11:55: she eats before the
canteen's noon rush) and has an exam two weeks ahead.

Lunch is protected on the weekdays the demo timetable leaves section 4 free (a protected time may not
cover a course); the exam is the final of 线性代数, two weeks from today, so the dashboard counts down to it.
Run again, it resets both (same lunch, exam moved to two weeks from the new today).
"""

from __future__ import annotations

from datetime import time, timedelta

from django.utils import timezone

from accounts.models import User
from schedule.core.student_rules import ALL_DAYS
from schedule.exams.models import Exam
from schedule.models import Course, ScheduleEvent
from schedule.student_rules.services import ProtectedInput, study_rules_get, study_rules_update

DEMO_LUNCH = ("午饭", 4, 4)  # by sections: on the default grid no section lies inside 11:40-13:30
DEMO_EXAM_COURSE = "线性代数"
DEMO_EXAM_TITLE = "线性代数期末考试"
DEMO_EXAM_IN_DAYS = 14


def seed_demo_rules_and_exam(user: User) -> str:
    """Protect the demo student's lunch and give them an exam; one line of summary."""
    days = _lunch_free_days(user)
    rules = study_rules_get(user=user)
    name, first, last = DEMO_LUNCH
    study_rules_update(user=user, daily_cap=rules.daily_cap, buffer_sections=rules.buffer_sections,
                       latest_section=rules.latest_section,
                       protected=[ProtectedInput(name=name, days=days, first=first, last=last)] if days else [])
    exam = _exam(user)
    return f"rules: lunch protected on weekdays {list(days)}; exam: {exam.title} on {exam.date.isoformat()}"


def _lunch_free_days(user: User) -> tuple[int, ...]:
    """The weekdays no course meets in lunch's sections."""
    _name, first, last = DEMO_LUNCH
    busy = set(ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.COURSE, start_section__lte=last,
                                            end_section__gte=first).values_list("day", flat=True))
    return tuple(sorted(ALL_DAYS - busy))


def _exam(user: User) -> Exam:
    on = timezone.localdate(timezone.now(), user.zone) + timedelta(days=DEMO_EXAM_IN_DAYS)
    course = Course.objects.filter(user=user, name=DEMO_EXAM_COURSE).first()
    exam, _created = Exam.objects.update_or_create(
        user=user, title=DEMO_EXAM_TITLE,
        defaults={"date": on, "start_time": time(9, 0), "end_time": time(11, 0), "place": "二教2305",
                  "course": course})
    return exam
