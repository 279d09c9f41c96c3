"""Undoing the start of a semester: every row back under its own id, unless something new was written."""

from __future__ import annotations

import pytest

from schedule.models import CalendarSettings
from schedule.semesters.exceptions import SemesterUndoRefusedError
from schedule.semesters.models import Semester
from schedule.tests.factories import custom_event
from schedule.tests.semesters.helpers import autumn_semester, start_spring
from smartmate.platform.exceptions import NotFoundError
from taskclasses.semesters.rows import semester_rows_dump
from taskclasses.semesters.services import semester_next_start_undo

pytestmark = pytest.mark.django_db


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
