"""The first-run guide: semester → timetable → first plan, each step known done from the student's data.

A new student used to land on the long settings page with no next step. The guide (its own page after
sign-up, and a checklist card on the dashboard) asks three things in order, links each to where it is
done, and goes away for good when every step is done or the student dismisses it
(``User.first_run_dismissed_at``). It spans apps, so it lives with the dashboard in the project package.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from schedule.models import CalendarSettings, Course, ScheduleEvent


@dataclass(frozen=True)
class FirstRunStep:
    key: str
    title: Promise
    hint: Promise
    url: str
    action: Promise  # the link's words
    done: bool


@dataclass(frozen=True)
class FirstRun:
    steps: list[FirstRunStep]
    dismissed: bool

    @property
    def complete(self) -> bool:
        return all(step.done for step in self.steps)

    @property
    def shown(self) -> bool:
        """Whether the dashboard still offers the guide."""
        return not self.dismissed and not self.complete

    @property
    def next_step(self) -> FirstRunStep | None:
        return next((step for step in self.steps if not step.done), None)

    def is_done(self, key: str) -> bool:
        return any(step.done for step in self.steps if step.key == key)

    @property
    def done_count(self) -> int:
        return sum(step.done for step in self.steps)


def first_run_get(*, user: User) -> FirstRun:
    """What the student has set up so far: the semester, a timetable, a first plan on the board."""
    calendar = CalendarSettings.objects.for_user(user)
    has_courses = Course.objects.filter(user=user).exists()
    # A plan counts once its blocks are on the schedule (applied), not when it is only written.
    has_plan = ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.TASK_ITEM).exists()
    steps = [
        FirstRunStep("semester", _("Set your semester"),
                     _("When week 1 starts and how many weeks it has, so every week number is right."),
                     reverse("first-run") + "#semester", _("Set the semester"),
                     calendar.semester_confirmed_at is not None),
        FirstRunStep("timetable", _("Import your timetable"),
                     _("A WakeUp CSV, an .ics file or your school's export; try the sample file if you have none yet."),
                     reverse("schedule:import"), _("Import the timetable"), has_courses),
        FirstRunStep("plan", _("Make your first plan"),
                     _("Write a task class (e.g. 概率论复习, 8 blocks), let SmartMate place it in your free time, "
                       "then apply it."),
                     reverse("plans:list"), _("Write a task class"), has_plan),
    ]
    return FirstRun(steps=steps, dismissed=user.first_run_dismissed_at is not None)
