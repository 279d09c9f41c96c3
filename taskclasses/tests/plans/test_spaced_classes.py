"""Spaced task classes: tied to the student's own exam inside the window (clear errors otherwise, nothing
saved), through the services, the API and the page, and planned backwards from the exam on the real board."""

from __future__ import annotations

from datetime import date

import pytest

from board.planning import preview_create
from schedule.core.planning.spaced import day_index
from schedule.exams.models import Exam
from schedule.exams.services import exam_delete
from schedule.tests.conftest import before_week_three  # noqa: F401 - a fixture, found by name
from schedule.tests.factories import import_csv
from smartmate.platform.exceptions import AppError, NotFoundError
from taskclasses.exceptions import TaskClassInputError
from taskclasses.models import TaskClass
from taskclasses.plans.services import task_class_create, task_class_update

# The factory semester starts on Monday 2026-09-07: Friday of week 6 is 2026-10-16.
EXAM_DATE = date(2026, 10, 16)


@pytest.fixture
def exam(user) -> Exam:
    return Exam.objects.create(user=user, title="高等数学", date=EXAM_DATE)


def spaced(user, exam_id, **changes) -> TaskClass:
    values = {"name": "高数复习", "start_date": date(2026, 9, 14), "end_date": EXAM_DATE, "strategy": "spaced",
              "exam_id": exam_id, "items": ["极限", "导数", "积分", "级数"], **changes}
    return task_class_create(user=user, **values)


def test_a_spaced_class_keeps_its_exam(user, exam):
    task_class = spaced(user, exam.pk)
    assert task_class.exam == exam and task_class.strategy == "spaced"


@pytest.mark.parametrize(("changes", "code"), [
    ({"exam_id": None}, "spaced_needs_exam"),
    ({"start_date": date(2026, 10, 19), "end_date": date(2026, 10, 30)}, "exam_before_window"),
    ({"end_date": date(2026, 10, 15)}, "exam_after_window"),
])
def test_a_spaced_class_without_a_fitting_exam_is_refused_and_nothing_saved(user, exam, changes, code):
    changes = dict(changes)
    with pytest.raises(TaskClassInputError) as caught:
        spaced(user, changes.pop("exam_id", exam.pk), **changes)
    assert caught.value.code == code and str(caught.value.message)
    assert not TaskClass.objects.exists()


def test_another_students_exam_is_not_found(user, other_user):
    theirs = Exam.objects.create(user=other_user, title="线性代数", date=EXAM_DATE)
    with pytest.raises(NotFoundError):
        spaced(user, theirs.pk)
    assert not TaskClass.objects.exists()


def test_changing_the_window_or_strategy_checks_the_exam_again(user, exam):
    task_class = spaced(user, exam.pk)
    with pytest.raises(TaskClassInputError) as caught:
        task_class_update(user=user, task_class_id=task_class.pk, end_date=date(2026, 10, 10))
    assert caught.value.code == "exam_after_window"
    task_class.refresh_from_db()
    assert task_class.end_date == EXAM_DATE
    steady = task_class_update(user=user, task_class_id=task_class.pk, strategy="steady", exam_id=None)
    assert steady.exam is None and steady.strategy == "steady"


def test_an_exam_a_class_revises_for_cannot_be_deleted(user, exam):
    spaced(user, exam.pk)
    with pytest.raises(AppError) as caught:
        exam_delete(user=user, exam_id=exam.pk)
    assert caught.value.code == "exam_in_use" and Exam.objects.filter(pk=exam.pk).exists()


def test_the_api_creates_a_spaced_class_and_names_the_problem(auth_client, user, exam):
    body = {"name": "高数复习", "start_date": "2026-09-14", "end_date": "2026-10-16", "strategy": "spaced",
            "item_count": 3}
    refused = auth_client.post("/api/v1/task-classes/", body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "spaced_needs_exam"
    made = auth_client.post("/api/v1/task-classes/", {**body, "exam_id": exam.pk}, format="json")
    assert made.status_code == 201 and made.json()["exam_id"] == exam.pk and made.json()["strategy"] == "spaced"


def test_the_class_page_offers_the_exam(client, user, exam):
    client.force_login(user)
    answer = client.post("/plans/", {"name": "高数复习", "strategy": "spaced", "start_date": "2026-09-14",
                                     "end_date": "2026-10-16", "item_count": 2, "exam": exam.pk,
                                     "allow_filler": "on"})
    assert answer.status_code == 302
    assert TaskClass.objects.get().exam == exam
    page = client.get(answer["Location"])
    assert "高等数学 · 2026-10-16" in page.content.decode()


@pytest.mark.usefixtures("before_week_three")
def test_planning_places_the_revision_backwards_from_the_exam(user, exam):
    import_csv(user, "大学物理,4,1,4,李老师,二教1201,1-16")     # Thursdays, sections 1-4
    task_class = spaced(user, exam.pk)
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    exam_day = day_index(6, 5)
    order = {item.pk: item.order for item in task_class.items.all()}
    placed = sorted(preview.placements, key=lambda p: order[p["item_id"]])
    assert [exam_day - day_index(p["week"], p["day"]) for p in placed] == [7, 4, 2, 1]
    # The day before the exam is a Thursday: its course keeps sections 1-4.
    assert placed[-1]["start_section"] >= 5
