"""The demo student has a finished spring semester to look at, made once, and not "undoable"."""

from __future__ import annotations

import pytest

from schedule.core.semester_archive import SemesterArchive, study_blocks_by_plan, workload_of
from schedule.semesters.models import Semester
from smartmate.demo import seed_demo
from smartmate.platform.exceptions import NotFoundError
from taskclasses.semesters.services import semester_next_start_undo

pytestmark = pytest.mark.django_db


def test_the_demo_student_has_a_past_spring_semester_before_the_current_one():
    demo, _lines = seed_demo()

    past = Semester.objects.get(user=demo)
    archive = SemesterArchive.from_json(past.document)

    assert past.season == "spring" and past.next_first_monday == demo.calendar.semester_start
    assert study_blocks_by_plan(archive, "高数")[0].done == 11
    assert workload_of(archive).course_sections == 5 * 16 * 2
    assert [e.title for e in archive.exams] == ["高等数学（下）期末考试", "大学物理期末考试"]


def test_seeding_again_keeps_one_past_semester():
    seed_demo()
    demo, _lines = seed_demo()

    assert Semester.objects.filter(user=demo).count() == 1


def test_the_demo_past_semester_is_not_a_start_to_undo_and_nothing_changes():
    demo, _lines = seed_demo()

    with pytest.raises(NotFoundError, match="no semester start to undo"):
        semester_next_start_undo(user=demo)
    assert Semester.objects.filter(user=demo).exists()
