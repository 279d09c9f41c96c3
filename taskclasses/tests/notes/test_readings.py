"""An ambiguous note's readings: picking one is kept for that student's phrasing, and only theirs."""

from __future__ import annotations

from datetime import datetime

import pytest

from taskclasses.models import Task
from taskclasses.notes.lessons import lessons_forget_all
from taskclasses.notes.models import ReadingChoice
from taskclasses.notes.services import quick_note_parse
from taskclasses.tests.factories import NOW

# NOW is Wednesday 2026-12-02 10:15 in Shanghai: 周三 alone is today or next Wednesday.
NEXT_WEDNESDAY = datetime.fromisoformat("2026-12-09T23:59:00+08:00")


@pytest.fixture
def frozen_now(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    return NOW


def save_on_the_form(client, text: str, deadline: str) -> None:
    client.post("/tasks/quick-add/", {"text": text, "deadline": deadline, "deadline_edited": "1"})


def test_the_parse_offers_labelled_readings_and_no_date(auth_client, frozen_now):
    body = auth_client.post("/api/v1/tasks/parse/", {"text": "周三 交实习周记"}, format="json",
                            HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    english = auth_client.post("/api/v1/tasks/parse/", {"text": "周三 交实习周记"}, format="json",
                               HTTP_ACCEPT_LANGUAGE="en").json()

    assert (body["deadline"], body["ambiguity_reason"]) == (None, "weekday_is_today")
    assert [(r["text"], r["weeks_ahead"], r["remembered"]) for r in body["readings"]] == [
        ("周三 12/2", 0, False), ("下周三 12/9", 1, False)]
    assert [r["text"] for r in english["readings"]] == ["Wed 12/2", "next Wed 12/9"]


def test_a_picked_reading_is_kept_and_offered_first_next_time(client, user, frozen_now):
    client.force_login(user)

    save_on_the_form(client, "周三 交实习周记", "2026-12-09T23:59")
    again = quick_note_parse(user=user, text="周三 交读书笔记")

    assert Task.objects.get(user=user).deadline == NEXT_WEDNESDAY
    choice = ReadingChoice.objects.get(user=user)
    assert (choice.phrasing, choice.weeks_ahead, choice.weekday) == ("weekday_is_today:周三", 1, 3)
    assert again.deadline is None  # still the student's to confirm on the page
    assert [reading.remembered for reading in again.readings] == [False, True]


def test_another_students_notes_learn_nothing(client, user, other_user, frozen_now):
    client.force_login(user)
    save_on_the_form(client, "周三 交实习周记", "2026-12-09T23:59")

    assert not any(reading.remembered for reading in quick_note_parse(user=other_user, text="周三 交周记").readings)


def test_a_typed_date_that_is_no_reading_teaches_nothing(client, user, frozen_now):
    client.force_login(user)

    save_on_the_form(client, "周三 交实习周记", "2026-12-05T18:00")

    assert Task.objects.get(user=user).deadline == datetime.fromisoformat("2026-12-05T18:00:00+08:00")
    assert not ReadingChoice.objects.exists()


def test_forget_all_forgets_the_picked_readings_too(client, user, frozen_now):
    client.force_login(user)
    save_on_the_form(client, "周末 大扫除", "2026-12-06T23:59")

    assert lessons_forget_all(user=user) == 1
    assert not ReadingChoice.objects.exists()
