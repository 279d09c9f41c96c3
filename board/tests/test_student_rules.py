"""The student's rules through the database: the rules API, pins on blocks, the loaded board and the planner."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from board.boards import board_load
from board.planning import preview_create
from schedule.models import ScheduleEvent
from schedule.student_rules.models import StudyRules
from schedule.tests.factories import import_csv
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

pytestmark = pytest.mark.usefixtures("before_week_three")

RULES = "/api/v1/rules/"
BLOCKS = "/api/v1/board/blocks"
LUNCH = {"name": "午饭", "first": 5, "last": 5}


@pytest.fixture
def item(user) -> TaskItem:
    item = make_task_class(user, items=1).items.get()
    place_item(item, week=3, day=2, start=5)
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.PLACED)
    return item


def _rules_row(user) -> tuple | None:
    row = StudyRules.objects.filter(user=user).first()
    return None if row is None else (row.daily_cap, row.buffer_sections, row.latest_section, row.protected_times)


# --- The rules API ----------------------------------------------------------------------------------------

def test_rules_are_read_and_replaced_whole(auth_client, user):
    empty = auth_client.get(RULES).json()
    assert empty == {"daily_cap": None, "buffer_sections": 0, "latest_section": None, "protected_times": [],
                     "pinned_items": [], "pinned_notes": []}
    body = {"daily_cap": 3, "buffer_sections": 1, "latest_section": 10,
            "protected_times": [LUNCH, {"name": "晚饭", "start": "17:30", "end": "18:30", "days": [1, 2, 3, 4, 5]}]}
    saved = auth_client.put(RULES, body, format="json")
    assert saved.status_code == 200, saved.json()
    protected = saved.json()["protected_times"]
    assert protected[0] == {"name": "午饭", "days": [1, 2, 3, 4, 5, 6, 7], "first": 5, "last": 5}
    # 17:30-18:30 touches section 8 (17:10-17:55) of the default template.
    assert protected[1] | {} == {"name": "晚饭", "days": [1, 2, 3, 4, 5], "start": "17:30", "end": "18:30",
                                "first": 8, "last": 8}
    assert _rules_row(user)[:3] == (3, 1, 10)


@pytest.mark.parametrize(("body", "code"), [
    ({"daily_cap": 0}, "invalid_cap"),
    ({"daily_cap": 13}, "invalid_cap"),
    ({"buffer_sections": 5}, "invalid_buffer"),
    ({"latest_section": 13}, "invalid_latest_section"),
    ({"protected_times": [LUNCH, {"name": "午休", "first": 4, "last": 6}]}, "protected_overlap"),
    ({"protected_times": [{"name": "午饭", "first": 6, "last": 5}]}, "protected_sections"),
    ({"protected_times": [{"name": "", "first": 5}]}, "protected_name"),
    ({"protected_times": [{"name": "夜里", "start": "23:00", "end": "23:30"}]}, "protected_time_range"),
    ({"protected_times": [{"name": "午饭", "first": 5, "days": []}]}, "protected_days"),
    ({"protected_times": [{"name": "午饭", "start": "25:99", "end": "26:00"}]}, "protected_time_range"),
    ({"protected_times": [{"name": "午饭", "start": "11:00"}]}, "protected_time_range"),
    ({"protected_times": [{"name": "午饭"}]}, "protected_sections"),
])
def test_bad_rules_are_refused_with_a_code_and_nothing_is_written(auth_client, user, body, code):
    auth_client.put(RULES, {"daily_cap": 2}, format="json")
    before = _rules_row(user)
    response = auth_client.put(RULES, body, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400 and response.json()["code"] == code, response.json()
    assert response.json()["message"]
    assert _rules_row(user) == before


@pytest.mark.parametrize("body", [{"daily_cap": "x"}, {"protected_times": "lunch"},
                                  {"protected_times": [{"name": "午饭", "first": 5}] * 13}, [1, 2]])
def test_malformed_rules_are_a_400_not_a_500(auth_client, user, body):
    response = auth_client.put(RULES, body, format="json")
    assert response.status_code == 400 and response.json()["code"]
    assert _rules_row(user) is None


def test_a_protected_time_over_a_course_is_refused_naming_the_course(auth_client, user):
    import_csv(user, "高等数学,3,5,6,王老师,二教1101,1-16")
    response = auth_client.put(RULES, {"protected_times": [LUNCH]}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    body = response.json()
    assert response.status_code == 400 and body["code"] == "protected_covers_course"
    assert body["detail"]["course"] == "高等数学" and "高等数学" in body["message"] and "周三" in body["message"]
    assert _rules_row(user) is None
    # Not on Wednesdays, it is fine.
    ok = auth_client.put(RULES, {"protected_times": [LUNCH | {"days": [1, 2, 4, 5, 6, 7]}]}, format="json")
    assert ok.status_code == 200


def test_a_repeated_put_with_the_same_key_is_replayed(auth_client, user):
    first = auth_client.put(RULES, {"daily_cap": 4}, format="json", HTTP_X_IDEMPOTENCY_KEY="rules-1")
    again = auth_client.put(RULES, {"daily_cap": 4}, format="json", HTTP_X_IDEMPOTENCY_KEY="rules-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()


# --- Pins ---------------------------------------------------------------------------------------------------

def test_a_pinned_block_refuses_a_move_and_a_removal_until_unpinned(auth_client, user, item):
    pinned = auth_client.post(f"{BLOCKS}/item/{item.pk}/pin/")
    assert pinned.status_code == 200 and pinned.json()["pinned"] is True
    assert StudyRules.objects.get(user=user).pinned_items == [item.pk]
    assert auth_client.get(f"{BLOCKS}/item/{item.pk}/").json()["pinned"] is True
    moved = auth_client.post(f"{BLOCKS}/item/{item.pk}/move/", {"week": 3, "day": 4, "start_section": 9},
                             format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert moved.status_code == 400 and moved.json()["code"] == "pinned"
    assert moved.json()["message"] == "“概率论复习 #1”已固定：先取消固定，才能移动或移除。"
    removed = auth_client.post(f"{BLOCKS}/item/{item.pk}/remove/")
    assert removed.status_code == 400 and removed.json()["code"] == "pinned"
    assert ScheduleEvent.objects.get(task_item=item).day == 2
    unpinned = auth_client.delete(f"{BLOCKS}/item/{item.pk}/pin/")
    assert unpinned.status_code == 200 and unpinned.json()["pinned"] is False
    assert auth_client.post(f"{BLOCKS}/item/{item.pk}/move/", {"week": 3, "day": 4, "start_section": 9},
                            format="json").status_code == 200


def test_pinning_another_students_block_is_a_404_and_writes_nothing(auth_client, other_user):
    theirs = make_task_class(other_user, items=1).items.get()
    place_item(theirs, week=3, day=2, start=5)
    assert auth_client.post(f"{BLOCKS}/item/{theirs.pk}/pin/").status_code == 404
    assert not StudyRules.objects.exists()


def test_a_block_without_a_place_cannot_be_pinned(auth_client, user):
    waiting = make_task_class(user, items=1).items.get()
    response = auth_client.post(f"{BLOCKS}/item/{waiting.pk}/pin/")
    assert response.status_code == 409 and response.json()["code"] == "block_not_placed"
    assert not StudyRules.objects.exists()


# --- The loaded board and the planner -------------------------------------------------------------------------

def test_the_board_carries_the_rules_and_the_pins(auth_client, user, item):
    auth_client.put(RULES, {"daily_cap": 2, "protected_times": [LUNCH]}, format="json")
    auth_client.post(f"{BLOCKS}/item/{item.pk}/pin/")
    board = board_load(user=user, now=datetime(2026, 9, 21, 9, tzinfo=ZoneInfo("Asia/Shanghai")))
    assert board.rules.daily_cap == 2 and board.rules.protected[0].name == "午饭"
    assert board.find(item_id=item.pk).pinned  # type: ignore[union-attr]


def test_the_planner_keeps_lunch_free_the_cap_and_the_latest_section(auth_client, user, item):
    auth_client.put(RULES, {"daily_cap": 1, "latest_section": 10, "protected_times": [LUNCH]}, format="json")
    plans = make_task_class(user, name="英语", items=12)
    preview = preview_create(user=user, task_class_ids=[plans.pk])
    assert preview.placements
    days: dict[tuple[int, int], int] = {(3, 2): 1}  # the block already there (week 3, Tuesday)
    for p in preview.placements:
        assert not (p["start_section"] <= 5 <= p["end_section"]) and p["end_section"] <= 10
        days[(p["week"], p["day"])] = days.get((p["week"], p["day"]), 0) + 1
    assert max(days.values()) == 1


def test_a_quick_note_on_the_board_is_pinned_too(auth_client, user):
    from schedule.services.events import Span, event_create
    from taskclasses.tests.factories import make_task

    task = make_task(user, title="交实验报告")
    event_create(user=user, title=task.title, span=Span(3, 3, 3, 4), kind=ScheduleEvent.Kind.QUICK_NOTE, task=task)
    assert auth_client.post(f"{BLOCKS}/note/{task.pk}/pin/").json()["pinned"] is True
    assert StudyRules.objects.get(user=user).pinned_notes == [task.pk]
    moved = auth_client.post(f"{BLOCKS}/note/{task.pk}/move/", {"week": 3, "day": 3, "start_section": 7},
                             format="json")
    assert moved.status_code == 400 and moved.json()["code"] == "pinned"
    suggestions = auth_client.get(f"{BLOCKS}/note/{task.pk}/suggestions/")
    assert suggestions.status_code == 400 and suggestions.json()["code"] == "pinned"
