"""Undoing the start of a semester: every row back under its own id, unless something new was written."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from schedule.models import CalendarSettings
from schedule.semesters.exceptions import SemesterUndoRefusedError
from schedule.semesters.models import Semester
from schedule.tests.factories import custom_event
from schedule.tests.semesters.helpers import autumn_semester, start_spring
from smartmate.platform.exceptions import NotFoundError
from taskclasses.models import Task
from taskclasses.notes.services import task_update, tasks_promote
from taskclasses.semesters.rows import semester_rows_dump
from taskclasses.semesters.services import semester_next_start_undo

pytestmark = pytest.mark.django_db


def test_undo_puts_times_back_to_the_microsecond(user):
    rows = autumn_semester(user)
    # A time with less than a millisecond past the second: Django's JSON would write it as ".000".
    CalendarSettings.objects.filter(user=user).update(
        updated_at=timezone.now().replace(microsecond=456))
    before = semester_rows_dump(user)
    start_spring(user, rows["notes"])

    semester_next_start_undo(user=user)

    assert CalendarSettings.objects.get(user=user).updated_at.microsecond == 456
    assert semester_rows_dump(user) == before


def test_undo_puts_every_row_back_exactly_under_its_own_id(user):
    rows = autumn_semester(user)
    before = semester_rows_dump(user)
    start_spring(user, rows["notes"])

    semester_next_start_undo(user=user)

    assert semester_rows_dump(user) == before
    assert not Semester.objects.filter(user=user).exists()


def test_undo_after_a_start_that_left_the_rules_behind_restores_them_too(user):
    rows = autumn_semester(user)
    before = semester_rows_dump(user)
    start_spring(user, rows["notes"], rules=False, protected=(), plans=False)

    semester_next_start_undo(user=user)

    assert semester_rows_dump(user) == before


def test_undo_is_refused_once_something_was_written_in_the_new_semester(user):
    rows = autumn_semester(user)
    start_spring(user, rows["notes"])
    custom_event(user, title="社团招新", week=1)

    with pytest.raises(SemesterUndoRefusedError) as refused:
        semester_next_start_undo(user=user)

    assert refused.value.code == "semester_undo_refused"
    assert CalendarSettings.objects.get(user=user).semester_weeks == 18


def test_undo_without_a_start_is_not_found(user):
    with pytest.raises(NotFoundError, match="no semester start to undo"):
        semester_next_start_undo(user=user)


def test_another_students_start_cannot_be_undone_by_me(user, other_user):
    rows = autumn_semester(other_user)
    start_spring(other_user, rows["notes"])

    with pytest.raises(NotFoundError):
        semester_next_start_undo(user=user)
    assert Semester.objects.filter(user=other_user).exists()


def test_a_note_the_promotion_job_moved_meanwhile_does_not_refuse_undo(user):
    rows = autumn_semester(user)
    soon = timezone.now() + timedelta(hours=1)
    note = Task.objects.create(user=user, title="交学期总结", quadrant=2, urgency_threshold_at=soon)
    before = semester_rows_dump(user)
    start_spring(user, [note, rows["notes"][0]])
    tasks_promote(user=user, now=soon + timedelta(hours=1))
    assert Task.objects.get(pk=note.pk).quadrant == 1

    semester_next_start_undo(user=user)

    assert semester_rows_dump(user) == before  # its threshold is still ahead: back in quadrant 2


def test_a_quadrant_the_student_chose_in_the_new_semester_refuses_undo(user):
    rows = autumn_semester(user)
    start_spring(user, rows["notes"])
    task_update(user=user, task_id=rows["notes"][0].pk, quadrant=1)

    with pytest.raises(SemesterUndoRefusedError):
        semester_next_start_undo(user=user)
