"""The notifications socket (``/ws/notifications/``): one per open tab, receive-only.

On connect it sends ``hello`` with the unread reminders, then produces the student's due reminders
(on embedded defaults no beat runs; with beat it is a cheap no-op), and forwards each reminder the
outbox delivers (``reminder``). ``hello`` also names the unread reminders that are still news
(``fresh``: made in the last ``FRESH_FOR``, not silent): one delivered while no page was listening (the
student between two pages, or away when beat made it) is announced by the next page the student opens,
which remembers what it announced so the page after does not announce it again (static/js/bell.js).
While open on embedded defaults the student's reminders are checked again every
``REMINDERS_EMBEDDED_INTERVAL`` seconds by one timer per student, however many sockets are open
(``socket_registry``), and a connect produces when it is the student's only socket here or no other
connect of the student did in the last ``CONNECT_PRODUCE_GAP`` seconds. A student holds at most
``NOTIFICATION_SOCKETS_PER_STUDENT`` sockets per process: one more closes the oldest with
``CLOSE_REPLACED`` (the page does not reconnect).
Signing out closes it (accounts.sockets). A socket that cannot join its groups (Redis away) closes with
``CLOSE_TRY_AGAIN`` rather than stay open and deaf; the bell comes back with backoff (static/js/reconnect.js).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone, translation

from accounts.sockets import user_group
from smartmate.platform.channel_send import server_loop_register
from smartmate.platform.socket_language import socket_language
from taskclasses.reminders import selectors, services
from taskclasses.reminders.live import notifications_group
from taskclasses.reminders.presenters import reminder_json
from taskclasses.reminders.socket_registry import socket_forget, socket_register, sockets_open, timer_ensure

log = logging.getLogger("taskclasses.reminders")

CLOSE_UNAUTHENTICATED = 4401
CLOSE_REPLACED = 4408  # too many sockets of one student: the oldest gives way (static/js/bell.js stays closed)
CLOSE_TRY_AGAIN = 1013  # RFC 6455 "Try Again Later": the channel layer is away; the bell reconnects with backoff
EVICT_MESSAGE_TYPE = "notifications.evict"
# Opening many pages at once (or a script opening sockets) checks the reminders about once a second,
# not once per socket; a student's first socket in this process always checks (a page just opened).
CONNECT_PRODUCE_GAP = 1
HELLO_LIMIT = 10
# Longest a reminder stays news for a page opened after it was made: the longest usual lead (a block
# starting in 10 minutes is still worth a toast 9 minutes later; a tomorrow preview at 20:00 at 20:05).
FRESH_FOR = timedelta(minutes=10)


class NotificationsConsumer(AsyncJsonWebsocketConsumer):
    user: Any = None

    async def connect(self) -> None:
        server_loop_register(asyncio.get_running_loop())
        user = self.scope.get("user")
        await self.accept()  # then close: a close before accepting reaches browsers as a bare 1006
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user  # set first: disconnect() leaves whichever group was joined
        self.language = socket_language(self.scope)
        try:
            await self.channel_layer.group_add(notifications_group(user.pk), self.channel_name)
            await self.channel_layer.group_add(user_group(user.pk), self.channel_name)
        except Exception:  # Redis away: a deaf socket is worth nothing, the page retries later
            log.warning("Notifications socket of user %s could not join its groups", user.pk, exc_info=True)
            await self.close(code=CLOSE_TRY_AGAIN)
            return
        for oldest in socket_register(user.pk, self.channel_name, cap=settings.NOTIFICATION_SOCKETS_PER_STUDENT):
            await self.channel_layer.send(oldest, {"type": EVICT_MESSAGE_TYPE})
        await self.send_json(await database_sync_to_async(self._hello)())
        gap_over = await cache.aadd(f"reminders:connect-produce:{user.pk}", 1, timeout=CONNECT_PRODUCE_GAP)
        if gap_over or sockets_open(user.pk) == 1:
            await _produce(user)
        if settings.CELERY_TASK_ALWAYS_EAGER:
            timer_ensure(user.pk, settings.REMINDERS_EMBEDDED_INTERVAL, lambda: _produce(user))

    async def disconnect(self, code: int) -> None:
        if self.user is not None:
            socket_forget(self.user.pk, self.channel_name)
            await self.channel_layer.group_discard(notifications_group(self.user.pk), self.channel_name)
            await self.channel_layer.group_discard(user_group(self.user.pk), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # receive-only: read state goes through the API

    async def user_close(self, message: dict[str, Any]) -> None:
        """The student signed out or changed the password."""
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def notifications_evict(self, message: dict[str, Any]) -> None:
        """A newer socket of the student pushed this one past the cap."""
        await self.close(code=CLOSE_REPLACED)

    async def reminder_notify(self, message: dict[str, Any]) -> None:
        frame = await database_sync_to_async(self._reminder_frame)(message["reminder_id"])
        if frame is not None:
            await self.send_json(frame)

    def _hello(self) -> dict[str, Any]:
        with translation.override(self.language):
            unread = [r for r in selectors.reminder_list(user=self.user) if r.read_at is None][:HELLO_LIMIT]
            news_since = timezone.now() - FRESH_FOR
            return {"type": "hello", "unread_count": selectors.reminder_unread_count(user=self.user),
                    "reminders": [reminder_json(r, self.user.zone) for r in unread],
                    "fresh": [r.pk for r in unread if not r.silent and r.created_at >= news_since]}

    def _reminder_frame(self, reminder_id: int) -> dict[str, Any] | None:
        reminder = selectors.reminder_get(user=self.user, reminder_id=reminder_id)
        if reminder is None:
            return None
        with translation.override(self.language):
            return {"type": "reminder", "reminder": reminder_json(reminder, self.user.zone),
                    "unread_count": selectors.reminder_unread_count(user=self.user)}


async def _produce(user: Any) -> None:
    """Produce the student's due reminders; a failure is logged and the socket stays open (the bell still
    lists what exists, and the next check, page or beat produces the rest)."""
    try:
        await database_sync_to_async(services.reminders_produce)(user=user)
    except Exception:  # e.g. the account deleted while this socket was connecting
        log.warning("Could not produce reminders for user %s", user.pk, exc_info=True)
