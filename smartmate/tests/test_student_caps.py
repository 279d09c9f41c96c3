"""Per-student caps on every write a student can repeat without bound: a 429 with a Chinese message.

The probe (L5): no per-student caps on task classes (81,500 rows in 45 s), conversations, exams,
tickets, memories.
"""

from __future__ import annotations

import pytest

from agent.models import Conversation, WebsocketTicket
from memory.models import MemoryItem
from memory.services.items import NewMemory, memory_add
from schedule.exams.models import Exam
from schedule.models import ScheduleEvent
from smartmate.platform.models import IdempotencyRecord
from taskclasses.models import Task, TaskClass

pytestmark = pytest.mark.django_db(transaction=True)

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}

# kind -> (path, a body for the nth row, the table it fills, the student's rows of it)
WRITES = {
    "task_classes": ("/api/v1/task-classes/",
                     lambda n: {"name": f"复习{n}", "start_date": "2026-09-14", "end_date": "2026-10-16",
                                "item_count": 1}, lambda user: TaskClass.objects.filter(user=user)),
    "conversations": ("/api/v1/agent/conversations/", lambda n: {"title": f"对话{n}"},
                      lambda user: Conversation.objects.filter(user=user)),
    "exams": ("/api/v1/exams/", lambda n: {"title": f"考试{n}", "date": "2026-11-21", "start_section": 3,
                                           "end_section": 4}, lambda user: Exam.objects.filter(user=user)),
    "quick_notes": ("/api/v1/tasks/", lambda n: {"text": f"整理笔记{n}"}, lambda user: Task.objects.filter(user=user)),
    "custom_events": ("/api/v1/schedule/events/",
                      lambda n: {"title": f"家教{n}", "week": 3, "day": n + 1, "start_section": 5, "end_section": 6},
                      lambda user: ScheduleEvent.objects.filter(user=user, kind="custom")),
    "ws_tickets": ("/api/v1/agent/tickets/", lambda n: {}, lambda user: WebsocketTicket.objects.filter(user=user)),
}

NAMES = {"task_classes": "任务类", "conversations": "对话", "exams": "考试", "quick_notes": "随口记",
         "custom_events": "自己的日程", "ws_tickets": "未使用的聊天连接凭证"}


@pytest.fixture
def caps_of_two(settings):
    settings.STUDENT_CAPS = {kind: 2 for kind in settings.STUDENT_CAPS}


@pytest.mark.parametrize("kind", sorted(WRITES))
def test_a_write_past_the_cap_is_a_429_that_says_what_to_delete(auth_client, user, caps_of_two, kind):
    path, body, rows = WRITES[kind]
    made = [auth_client.post(path, body(n), format="json").status_code for n in range(2)]
    refused = auth_client.post(path, body(2), format="json", **ZH)
    assert made == [201, 201]
    assert refused.status_code == 429
    assert refused.json() == {"code": "limit_reached",
                              "message": f"已达到上限：最多 2 个{NAMES[kind]}。请先删除一些不再需要的。",
                              "detail": {"kind": kind, "limit": 2, "count": 2}}
    assert rows(user).count() == 2


def test_a_weekly_series_counts_every_meeting(auth_client, user, settings):
    settings.STUDENT_CAPS = {**settings.STUDENT_CAPS, "custom_events": 10}
    refused = auth_client.post("/api/v1/schedule/events/", {"title": "社团例会", "weeks": "1-16", "day": 3,
                                                            "start_section": 9, "end_section": 10}, format="json")
    assert refused.status_code == 429
    assert refused.json()["detail"] == {"kind": "custom_events", "limit": 10, "count": 0}
    assert not ScheduleEvent.objects.filter(user=user).exists()  # all or nothing


def test_memories_by_hand_past_the_cap_are_refused(auth_client, user, memory_on, settings):
    settings.STUDENT_CAPS = {**settings.STUDENT_CAPS, "memories": 1}
    first = auth_client.post("/api/v1/memories/", {"type": "preference", "content": "更喜欢早上学数学"}, format="json")
    second = auth_client.post("/api/v1/memories/", {"type": "preference", "content": "周三晚上有实验课"},
                              format="json", **ZH)
    assert first.status_code == 201
    assert second.status_code == 429 and second.json()["code"] == "limit_reached"
    assert MemoryItem.objects.filter(user=user).count() == 1


def test_extraction_past_the_memory_cap_adds_nothing_and_does_not_fail(user, settings):
    settings.STUDENT_CAPS = {**settings.STUDENT_CAPS, "memories": 1}
    assert memory_add(user=user, new=NewMemory(memory_type="preference", content="喜欢早起")) is not None
    assert memory_add(user=user, new=NewMemory(memory_type="preference", content="喜欢跑步")) is None
    assert MemoryItem.objects.filter(user=user).count() == 1


def test_idempotency_keys_past_the_cap_are_refused(auth_client, user, settings):
    settings.STUDENT_CAPS = {**settings.STUDENT_CAPS, "idempotency_keys": 2}
    answers = [auth_client.post("/api/v1/tasks/", {"text": f"买牛奶{n}"}, format="json",
                                HTTP_X_IDEMPOTENCY_KEY=f"key-{n}").status_code for n in range(3)]
    assert answers == [201, 201, 429]
    assert IdempotencyRecord.objects.filter(user=user).count() == 2
    assert Task.objects.filter(user=user).count() == 2


def test_the_caps_are_settings_with_generous_defaults(settings):
    assert settings.STUDENT_CAPS["task_classes"] >= 100
    assert set(settings.STUDENT_CAPS) == set(WRITES) | {"memories", "idempotency_keys"}
