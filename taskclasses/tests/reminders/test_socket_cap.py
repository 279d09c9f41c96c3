"""Notifications sockets: a capped number per student (the oldest gives way) and one reminder timer per student.

The probe (M6): 1,200 idle ``/ws/notifications/`` sockets from one session cost 55 % of a core, each
producing reminders on connect and every 30 s.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.tests.factories import UserFactory
from smartmate.asgi import application
from taskclasses.reminders import consumers, services
from taskclasses.reminders.socket_registry import sockets_open, timers_running
from taskclasses.tests.reminders.test_delivery import _cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def produced(monkeypatch) -> list[int]:
    """Records each production of a student's reminders instead of running it."""
    calls: list[int] = []
    monkeypatch.setattr(services, "reminders_produce", lambda *, user: calls.append(user.pk))
    return calls


async def connect_tab(student) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"),
               await database_sync_to_async(_cookie)(student)]
    tab = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
    connected, _code = await tab.connect(timeout=10)
    assert connected
    return tab


async def open_tab(student) -> WebsocketCommunicator:
    tab = await connect_tab(student)
    assert (await tab.receive_json_from(timeout=5))["type"] == "hello"
    return tab


async def test_one_socket_past_the_cap_closes_the_oldest(settings, produced):
    settings.NOTIFICATION_SOCKETS_PER_STUDENT = 3
    student = await database_sync_to_async(UserFactory)()
    tabs = [await open_tab(student) for _ in range(4)]
    closed = await tabs[0].receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_REPLACED}
    assert all([await tab.receive_nothing(timeout=0.1) for tab in tabs[1:]])
    assert sockets_open(student.pk) == 3
    for tab in tabs:
        await tab.disconnect()
    assert sockets_open(student.pk) == 0


async def test_another_students_sockets_are_not_counted(settings, produced):
    settings.NOTIFICATION_SOCKETS_PER_STUDENT = 2
    student, classmate = await database_sync_to_async(UserFactory)(), await database_sync_to_async(UserFactory)()
    mine = [await open_tab(student) for _ in range(2)]
    theirs = await open_tab(classmate)
    assert all([await tab.receive_nothing(timeout=0.1) for tab in [*mine, theirs]])
    for tab in [*mine, theirs]:
        await tab.disconnect()


async def test_many_sockets_of_one_student_share_one_reminder_timer(settings, produced, monkeypatch):
    settings.REMINDERS_EMBEDDED_INTERVAL = 0.2
    monkeypatch.setattr(consumers, "CONNECT_PRODUCE_GAP", 60)  # however slowly this machine opens them
    student = await database_sync_to_async(UserFactory)()
    started = time.monotonic()
    tabs = [await open_tab(student) for _ in range(5)]
    opened_in = time.monotonic() - started
    # The first connect produced and the four after it only listened; the shared timer may have ticked
    # meanwhile on a slow machine (one more per 0.2 s of opening), never once per tab.
    assert produced[0] == student.pk and len(produced) <= 1 + int(opened_in / 0.2)
    assert timers_running() == 1
    await asyncio.sleep(1.1)
    assert 4 <= len(produced) <= 7  # about one check per 0.2 s, not five
    for tab in tabs:
        await tab.disconnect()
    assert timers_running() == 0


async def test_a_socket_that_cannot_join_its_groups_closes_so_the_bell_comes_back_later(settings, produced):
    from agent.tests.flaky_layer import join_fails_once

    settings.CHANNEL_LAYERS = join_fails_once("notifications-")  # Redis away for the first join
    student = await database_sync_to_async(UserFactory)()
    deaf = await connect_tab(student)

    assert await deaf.receive_output(timeout=5) == {"type": "websocket.close", "code": consumers.CLOSE_TRY_AGAIN}
    assert sockets_open(student.pk) == 0
    again = await open_tab(student)  # the next attempt joins and says hello
    await again.disconnect()
