"""Delivery: each reminder reaches every open tab exactly once, through the outbox, whatever redelivers it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client
from django.utils import timezone

from accounts.tests.factories import UserFactory
from smartmate.asgi import application
from smartmate.platform.models import ConsumerReceipt, OutboxEvent
from smartmate.platform.outbox.services import outbox_event_consume, outbox_publish
from taskclasses.reminders import outbox
from taskclasses.reminders.models import Reminder
from taskclasses.reminders.services import reminders_produce
from taskclasses.tests.factories import make_task_class, place_item

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _student_with_a_block_soon():
    """A student whose study block starts in 8 minutes (real time: the socket produces with the real clock)."""
    student = UserFactory()
    _a_block_soon(student)
    return student


def _a_block_soon(student) -> None:
    event = place_item(make_task_class(student, name="线代复习", items=1).items.get(), week=13, day=3, start=5)
    starts = timezone.now() + timedelta(minutes=8)
    type(event).objects.filter(pk=event.pk).update(starts_at=starts, ends_at=starts + timedelta(minutes=95))


def _cookie(student) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(student)
    return b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()


async def _tab(student) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"), (b"accept-language", b"zh-hans"),
               await database_sync_to_async(_cookie)(student)]
    tab = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
    connected, _code = await tab.connect(timeout=10)
    assert connected
    return tab


async def test_two_tabs_each_get_a_reminder_once_even_when_its_event_is_redelivered():
    student = await database_sync_to_async(UserFactory)()
    first, second = await _tab(student), await _tab(student)
    hellos = [await tab.receive_json_from(timeout=5) for tab in (first, second)]
    assert [(hello["type"], hello["unread_count"]) for hello in hellos] == [("hello", 0), ("hello", 0)]
    # Beat runs: a block starts in 8 minutes. Both tabs hear about it once, in Chinese.
    await database_sync_to_async(_a_block_soon)(student)
    assert await database_sync_to_async(reminders_produce)() == 1
    frames = [await tab.receive_json_from(timeout=5) for tab in (first, second)]
    assert [frame["type"] for frame in frames] == ["reminder", "reminder"]
    assert frames[0]["reminder"]["text"].startswith("学习块“线代复习 #1”将于")
    assert frames[0]["unread_count"] == 1

    event = await database_sync_to_async(OutboxEvent.objects.get)(topic=outbox.TOPIC)
    # A worker restart: the event is handed out again after its consumer committed, and a second event
    # about the same reminder (a duplicate publish) is consumed too.
    await database_sync_to_async(OutboxEvent.objects.filter(pk=event.pk).update)(status=OutboxEvent.Status.DISPATCHED)
    assert await database_sync_to_async(outbox_event_consume)(event_uuid=str(event.uuid)) == "consumed"
    await database_sync_to_async(_publish_again)(event.payload["reminder_id"])
    await database_sync_to_async(reminders_produce)(user=student)

    assert await first.receive_nothing(timeout=0.5)
    assert await second.receive_nothing(timeout=0.5)
    assert await database_sync_to_async(Reminder.objects.filter(user=student, delivered_at__isnull=False).count)() == 1
    assert await database_sync_to_async(ConsumerReceipt.objects.filter(consumer="reminders.deliver").count)() == 2
    await first.disconnect()
    await second.disconnect()


def _publish_again(reminder_id: int) -> None:
    with transaction.atomic():
        outbox_publish(topic=outbox.TOPIC, aggregate="user:x", payload={"reminder_id": reminder_id})


async def test_a_new_tab_lists_the_unread_reminders_without_a_second_frame():
    student = await database_sync_to_async(_student_with_a_block_soon)()
    first = await _tab(student)
    await first.receive_json_from(timeout=5)
    reminder = (await first.receive_json_from(timeout=5))["reminder"]
    later = await _tab(student)
    hello = await later.receive_json_from(timeout=5)
    assert (hello["type"], hello["unread_count"], len(hello["reminders"])) == ("hello", 1, 1)
    # Still news (the page announces it only if this device has not yet: static/js/bell.js remembers).
    assert hello["fresh"] == [reminder["id"]]
    assert await later.receive_nothing(timeout=0.5)
    await first.disconnect()
    await later.disconnect()


async def test_a_reminder_made_while_no_page_listened_is_news_for_the_next_page_for_ten_minutes():
    student = await database_sync_to_async(_student_with_a_block_soon)()
    assert await database_sync_to_async(reminders_produce)() == 1  # beat, between two pages
    await database_sync_to_async(_old_and_silent_reminders)(student)
    tab = await _tab(student)
    hello = await tab.receive_json_from(timeout=5)
    kinds = {reminder["id"]: reminder["kind"] for reminder in hello["reminders"]}
    assert (hello["unread_count"], sorted(kinds.values())) == (3, ["block_starting", "course_starting", "deadline_today"])
    assert [kinds[pk] for pk in hello["fresh"]] == ["block_starting"]
    await tab.disconnect()


def _old_and_silent_reminders(student) -> None:
    """An unread reminder from 11 minutes ago (no longer news) and one made in quiet hours (never announced)."""
    old = Reminder.objects.create(user=student, kind=Reminder.Kind.DEADLINE_TODAY, key="old", params={
        "title": "交报告", "deadline": timezone.now().isoformat()}, link="/")
    Reminder.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(minutes=11))
    Reminder.objects.create(user=student, kind=Reminder.Kind.COURSE_STARTING, key="quiet", silent=True, params={
        "title": "高数", "starts_at": timezone.now().isoformat(), "location": ""}, link="/")


async def test_a_socket_without_a_session_is_closed():
    tab = WebsocketCommunicator(application, "/ws/notifications/",
                                headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")])
    connected, _code = await tab.connect(timeout=10)
    assert connected
    assert (await tab.receive_output(timeout=5))["code"] == 4401


async def test_another_students_reminder_never_reaches_a_tab():
    student = await database_sync_to_async(UserFactory)()
    tab = await _tab(student)
    await tab.receive_json_from(timeout=5)
    await database_sync_to_async(_student_with_a_block_soon)()
    await database_sync_to_async(reminders_produce)()
    assert await tab.receive_nothing(timeout=0.5)
    await tab.disconnect()
