"""Isolation matrix (OWASP API1, broken object-level authorisation) over the whole URL conf.

Every route is enumerated from the URL conf, not listed by hand: a new route that this file does not
know fails ``test_every_route_is_covered``. Alice owns one of everything (each name carries a marker);
then, for every route and every method its view answers:

- Bob, with Alice's ids in the URL, gets 404 and Alice's data is unchanged;
- Bob, on routes without ids, never sees Alice's marker in the body;
- an anonymous client gets 401 (API) or is sent to the login page (pages).

The websocket gets the same treatment for every client frame type (``test_websocket_frames``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from accounts.models import User
from agent.models import Conversation, Message
from board.planning import preview_create
from board.previews import preview_apply
from memory.tests.factories import make_memory
from schedule.models import CalendarDay, Course, ScheduleEvent
from schedule.services.academic_calendar import DayInput, calendar_day_create
from schedule.services.feeds import calendar_feed_ensure
from schedule.tests.factories import custom_event, import_csv, make_task_class
from taskclasses.notes.lessons import lesson_learn
from taskclasses.notes.services import task_create_from_text

MARKER = "ALICESECRET"
NOW = datetime(2026, 9, 14, 7, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
METHODS = ("get", "post", "put", "patch", "delete")

# Routes that are not per-student objects, with the reason.
PUBLIC = {
    "api/v1/": "the API's entry points (links), no data",
    "api/v1/auth/register/": "creates an account",
    "api/v1/auth/token/": "logs in",
    "api/v1/auth/token/refresh/": "exchanges a refresh token",
    "api/schema/": "the public API description",
    "api/schema/swagger/": "the public API description",
    "api/schema/redoc/": "the public API description",
    "api-auth/login/": "the browsable API's login page",
    "api-auth/logout/": "logs out",
    "accounts/login/": "logs in",
    "accounts/logout/": "logs out",
    "accounts/register/": "creates an account",
    "i18n/setlang/": "switches the language",
    "healthz": "liveness probe, no data",
    "favicon.ico": "the site's icon",
    "sw.js": "the service worker script, no data (browsers fetch it without the session)",
    "manifest.webmanifest": "the web app manifest, no data",
    "offline/": "the offline notice the service worker caches for anyone at the device, names nobody",
    "metrics": "operator metrics, no student data",
    "csp-report": "browsers' Content-Security-Policy violation reports, no student data",
    "schedule/": "the week board's first address: a permanent redirect to board/ (which asks for the login), no data",
    # A feed URL is a secret capability by design (calendar apps cannot log in): holding the
    # token is the permission. Revoking and regenerating it are covered below.
    "schedule/feed/<str:token>.ics": "secret-token calendar feed",
}


@dataclass
class Alice:
    """One of everything, owned by Alice; ``ids`` fills the URL parameters."""

    user: User
    ids: dict[str, int]


def walk(patterns, prefix: str = ""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern


def routes() -> list[tuple[str, URLPattern]]:
    return [(route, pattern) for route, pattern in walk(get_resolver().url_patterns)
            if not route.startswith("admin/")]


def view_methods(pattern: URLPattern) -> list[str]:
    view = getattr(pattern.callback, "cls", None) or getattr(pattern.callback, "view_class", None)
    if view is not None:
        return [method for method in METHODS if hasattr(view, method)]
    return ["get", "post"]  # function views: try both; each must refuse what it does not serve


def parameters(route: str) -> list[str]:
    import re

    return re.findall(r"<(?:\w+:)?(\w+)>", route)


def url_for(route: str, ids: dict[str, int]) -> str:
    import re

    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda match: str(ids[match.group(1)]), route)


@pytest.fixture
def alice(db, monkeypatch) -> Alice:
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    user = User.objects.create_user(username="alice", password="pw-alice-123456")
    import_csv(user, f"{MARKER}高数,1,1,2,王老师,二教1101,2-4")
    course = Course.objects.get(user=user)
    event = custom_event(user, title=f"{MARKER}社团", week=3, day=2, start=5, end=6)
    task_class = make_task_class(user, name=f"{MARKER}复习", items=4, start=date(2026, 9, 21), end=date(2026, 10, 4))
    applied = preview_create(user=user, task_class_ids=[task_class.pk])
    changeset = preview_apply(user=user, preview_id=applied.pk)
    other_class = make_task_class(user, name=f"{MARKER}英语", items=2, start=date(2026, 9, 21), end=date(2026, 10, 4))
    preview = preview_create(user=user, task_class_ids=[other_class.pk])
    task = task_create_from_text(user=user, text=f"{MARKER}明天交作业")
    conversation = Conversation.objects.create(user=user, title=f"{MARKER}对话")
    message = Message.objects.create(conversation=conversation, role="user", content=f"{MARKER}你好")
    memory = make_memory(user, f"{MARKER}喜欢早上学习", source=message)
    calendar_feed_ensure(user=user)
    holiday = calendar_day_create(user=user, day=DayInput("holiday", f"{MARKER}假日", date(2026, 10, 1),
                                                          date(2026, 10, 7)))
    ids = {"event_id": event.pk, "course_id": course.pk, "preview_id": preview.pk,
           "item_id": preview.placements[0]["item_id"], "changeset_id": changeset.pk, "task_id": task.pk,
           "task_class_id": other_class.pk, "conversation_id": conversation.pk, "memory_id": memory.pk,
           "day_id": holiday.pk}
    lesson = lesson_learn(user=user, title=f"{MARKER}整理实验数据", quadrant=3)
    assert lesson is not None
    ids["lesson_id"] = lesson.pk
    from schedule.exams.models import Exam
    ids["exam_id"] = Exam.objects.create(user=user, title=f"{MARKER}高等数学", date=date(2026, 11, 20)).pk
    from taskclasses.reminders.models import Reminder
    ids["reminder_id"] = Reminder.objects.create(user=user, kind="deadline_today", key="task:1:x",
                                                 params={"title": f"{MARKER}交作业", "deadline": NOW.isoformat()}).pk
    ids["semester_id"] = _past_semester(user).pk
    return Alice(user=user, ids=ids)


def _past_semester(user: User):
    """A past semester of Alice's, made directly: starting one would clear the live rows the other ids name."""
    from schedule.core.semester_archive import SemesterArchive
    from schedule.semesters.models import Semester

    archive = SemesterArchive(season="spring", year=2026, first_monday=date(2026, 3, 2), weeks=18,
                              time_zone="Asia/Shanghai", section_times=(("08:00", "08:45"),),
                              notes=())
    document = {**archive.to_json(), "plans": [{"name": f"{MARKER}往期计划", "strategy": "steady",
                                               "first_day": "2026-03-02", "last_day": "2026-03-08", "items": []}]}
    return Semester.objects.create(user=user, year=2026, season="spring", first_monday=date(2026, 3, 2), weeks=18,
                                   document=document, next_first_monday=date(2026, 9, 7), next_weeks=20,
                                   after_digest="0" * 64)


@pytest.fixture
def bob(db) -> User:
    return User.objects.create_user(username="bob", password="pw-bob-123456")


def client_for(route: str, user: User | None):
    client = APIClient() if route.startswith("api/") else Client()
    if user is not None:
        client.force_login(user)
    return client


def alice_state(alice: Alice) -> str:
    """Everything Alice owns, as text: it must not change when Bob calls her ids."""
    from django.core import serializers

    from agent.models import Conversation
    from memory.models import MemoryItem
    from schedule.exams.models import Exam
    from schedule.models import ChangeSet, PlanPreview
    from taskclasses.models import Task, TaskClass, TaskItem
    from taskclasses.notes.models import QuadrantLesson
    from taskclasses.reminders.models import Reminder

    rows = []
    from schedule.semesters.models import Semester

    for model in (Course, ScheduleEvent, TaskClass, TaskItem, Task, PlanPreview, ChangeSet, Conversation, MemoryItem,
                  CalendarDay, QuadrantLesson, Reminder, Exam, Semester):
        rows += json.loads(serializers.serialize("json", model.objects.filter(
            **({"task_class__user": alice.user} if model is TaskItem else {"user": alice.user})).order_by("pk")))
    for row in rows:
        row["fields"].pop("updated_at", None)
    return json.dumps(rows, sort_keys=True, default=str)


def test_every_route_is_covered():
    unknown = {route for route, _pattern in routes() if route not in PUBLIC
               for name in parameters(route) if name not in {"event_id", "course_id", "preview_id", "item_id",
                                                             "changeset_id", "task_id", "task_class_id",
                                                             "conversation_id", "memory_id", "day_id", "lesson_id",
                                                             "reminder_id", "exam_id", "semester_id"}}
    assert not unknown, f"Routes with parameters this matrix cannot fill: {sorted(unknown)}"
    assert len(routes()) > 60


@pytest.mark.django_db
def test_anothers_ids_get_404_and_change_nothing(alice, bob):
    before = alice_state(alice)
    checked, wrong = [], []
    for route, pattern in routes():
        if route in PUBLIC or not parameters(route):
            continue
        url = url_for(route, alice.ids)
        for method in view_methods(pattern):
            response = getattr(client_for(route, bob), method)(url, data={}, **_json(route, method))
            if response.status_code not in (404, 405) or MARKER in response.content.decode("utf-8", "replace"):
                wrong.append(f"{method.upper()} {url}: {response.status_code}")
            checked.append((method, route))
    assert wrong == []
    assert alice_state(alice) == before
    assert len(checked) >= 50


@pytest.mark.django_db
def test_routes_without_ids_never_show_anothers_data(alice, bob):
    for route, pattern in routes():
        if route in PUBLIC or parameters(route) or "get" not in view_methods(pattern):
            continue
        response = client_for(route, bob).get(url_for(route, {}))
        assert response.status_code < 500, f"GET {route} as Bob: {response.status_code}"
        body = b"".join(response) if getattr(response, "streaming", False) else response.content
        assert MARKER not in body.decode("utf-8", "replace"), f"GET {route} as Bob shows Alice's data"


@pytest.mark.django_db
def test_anonymous_callers_are_refused_everywhere_but_public_routes(alice):
    for route, pattern in routes():
        if route in PUBLIC:
            continue
        url = url_for(route, alice.ids)
        for method in view_methods(pattern):
            response = getattr(client_for(route, None), method)(url, data={}, **_json(route, method))
            body = response.content.decode("utf-8", "replace") if not getattr(response, "streaming", False) else ""
            if route.startswith("api/"):
                assert response.status_code in (401, 405), f"{method.upper()} {url} anonymous: {response.status_code}"
            else:
                assert response.status_code in (302, 404, 405), f"{method.upper()} {url}: {response.status_code}"
                if response.status_code == 302:
                    assert "/accounts/login/" in response["Location"]
            assert MARKER not in body


def _json(route: str, method: str) -> dict:
    return {"format": "json"} if route.startswith("api/") and method != "get" else {}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_websocket_frames_about_anothers_conversation_are_refused(alice, bob):
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from agent.flow.contracts import FRAME_TYPES
    from smartmate.asgi import application

    def cookie() -> tuple[bytes, bytes]:
        client = Client()
        client.force_login(bob)
        return b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()

    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"), (b"accept-language", b"en"),
               await database_sync_to_async(cookie)()]
    communicator = WebsocketCommunicator(application, "/ws/agent/", headers=headers)
    assert (await communicator.connect())[0]
    frames = {
        "chat.send": {"text": "你好"}, "chat.resume": {"interaction_id": "x", "action": "accept"},
        "chat.regenerate": {}, "chat.cancel": {}, "replay": {"after_seq": 0},
    }
    assert set(frames) == set(FRAME_TYPES), "a new frame type needs a row here"
    for kind, fields in frames.items():
        await communicator.send_json_to({"type": kind, "conversation_id": alice.ids["conversation_id"], **fields})
        answer = await communicator.receive_json_from(timeout=5)
        assert (answer["type"], answer["code"]) == ("error", "conversation_not_found"), kind
    await communicator.disconnect()
    assert await database_sync_to_async(Message.objects.filter(conversation__user=bob).count)() == 0
