"""Quick add learns from the student's own quadrant corrections: per student, visible, forgettable."""

from __future__ import annotations

import pytest

from taskclasses.models import Task
from taskclasses.notes.core.quick_add import QuadrantReason
from taskclasses.notes.lessons import lesson_learn
from taskclasses.notes.models import QuadrantLesson
from taskclasses.notes.services import quick_note_parse, task_create_from_text
from taskclasses.tests.factories import NOW

# 实验 makes the parser call this important; the student files it as an errand (quadrant 3).
ERRAND = "下周五整理实验数据"


@pytest.fixture
def frozen_now(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    return NOW


def correct_on_the_form(client, text: str, quadrant: int, *, edited: bool = True) -> None:
    client.post("/tasks/quick-add/", {"text": text, "quadrant": str(quadrant), "quadrant_edited": "1" if edited else "0"})


def test_a_quadrant_changed_on_the_form_is_learned_and_suggested_next_time(client, user, frozen_now):
    assert quick_note_parse(user=user, text=ERRAND).quadrant == 2
    client.force_login(user)

    correct_on_the_form(client, ERRAND, 3)
    suggestion = quick_note_parse(user=user, text="周日前整理实验数据")

    assert Task.objects.get(user=user).quadrant == 3
    lesson = QuadrantLesson.objects.get(user=user)
    assert (lesson.keyword, lesson.quadrant, lesson.times) == ("整理实验数据", 3, 1)
    assert (suggestion.quadrant, suggestion.quadrant_reason) == (3, QuadrantReason.LEARNED)


def test_another_student_is_unaffected(client, user, other_user, frozen_now):
    client.force_login(user)
    correct_on_the_form(client, ERRAND, 3)

    theirs = quick_note_parse(user=other_user, text=ERRAND)

    assert (theirs.quadrant, theirs.quadrant_reason) == (2, QuadrantReason.IMPORTANT_NOT_URGENT)
    assert not QuadrantLesson.objects.filter(user=other_user).exists()


def test_a_quadrant_the_student_did_not_touch_teaches_nothing(client, user, frozen_now):
    client.force_login(user)

    correct_on_the_form(client, ERRAND, 3, edited=False)  # e.g. saved before the preview arrived
    task_create_from_text(user=user, text="周日前整理房间", quadrant=2)  # the assistant's tool passing a quadrant

    assert Task.objects.filter(user=user).count() == 2
    assert not QuadrantLesson.objects.exists()


def test_keeping_the_suggestion_teaches_nothing(client, user, frozen_now):
    client.force_login(user)

    correct_on_the_form(client, ERRAND, 2)

    assert not QuadrantLesson.objects.exists()


def test_what_is_learned_is_the_kind_of_task_and_the_new_deadline_decides_urgency(user, frozen_now):
    task_create_from_text(user=user, text="周日前取快递", quadrant=2, learn=True)  # suggested 3

    due_tomorrow = quick_note_parse(user=user, text="明天取快递")
    undated = quick_note_parse(user=user, text="取快递")

    assert (due_tomorrow.quadrant, due_tomorrow.quadrant_reason) == (1, QuadrantReason.LEARNED)
    assert (undated.quadrant, undated.quadrant_reason) == (2, QuadrantReason.LEARNED)


def test_correcting_again_updates_the_same_lesson(user, frozen_now):
    lesson_learn(user=user, title="去取快递", quadrant=2)
    lesson_learn(user=user, title="取快递了", quadrant=4)

    lesson = QuadrantLesson.objects.get(user=user)
    assert (lesson.keyword, lesson.quadrant, lesson.times) == ("取快递", 4, 2)


def test_the_longest_matching_keyword_wins(user, frozen_now):
    lesson_learn(user=user, title="实验", quadrant=2)
    lesson_learn(user=user, title="整理实验数据", quadrant=3)

    assert quick_note_parse(user=user, text="整理实验数据和代码").quadrant == 3


def test_lessons_are_listed_and_forgotten_over_the_api(auth_client, user, frozen_now):
    lesson_learn(user=user, title="取快递", quadrant=2)
    lesson_learn(user=user, title="整理实验数据", quadrant=3)

    listed = auth_client.get("/api/v1/tasks/lessons/").json()
    first = listed[0]
    forget_one = auth_client.delete(f"/api/v1/tasks/lessons/{first['id']}/")
    left = auth_client.get("/api/v1/tasks/lessons/").json()
    forget_all = auth_client.delete("/api/v1/tasks/lessons/", HTTP_X_IDEMPOTENCY_KEY="forget-all-1")
    replay = auth_client.delete("/api/v1/tasks/lessons/", HTTP_X_IDEMPOTENCY_KEY="forget-all-1")

    assert [(row["keyword"], row["quadrant"]) for row in listed] == [("整理实验数据", 3), ("取快递", 2)]
    assert set(first) == {"id", "keyword", "quadrant", "quadrant_label", "learned_from", "times", "created_at",
                          "updated_at"}
    assert forget_one.status_code == 204
    assert [row["keyword"] for row in left] == ["取快递"]
    assert (forget_all.status_code, replay.status_code) == (204, 204)
    assert not QuadrantLesson.objects.exists()
    assert quick_note_parse(user=user, text=ERRAND).quadrant_reason is QuadrantReason.IMPORTANT_NOT_URGENT


def test_another_students_lesson_is_404_and_survives(auth_client, other_user, frozen_now):
    theirs = lesson_learn(user=other_user, title="取快递", quadrant=2)
    assert theirs is not None

    response = auth_client.delete(f"/api/v1/tasks/lessons/{theirs.pk}/")
    cleared = auth_client.delete("/api/v1/tasks/lessons/")

    assert response.status_code == 404
    assert response.json()["code"] == "lesson_not_found"
    assert cleared.status_code == 204
    assert QuadrantLesson.objects.filter(user=other_user).count() == 1


def test_a_title_with_no_keyword_left_is_not_learned(user):
    assert lesson_learn(user=user, title="去 123", quadrant=2) is None
    assert not QuadrantLesson.objects.exists()
