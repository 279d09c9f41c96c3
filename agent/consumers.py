"""The assistant's websocket (``/ws/agent/``): authenticate, follow a conversation, turn frames into services.

The protocol is documented in docs/event-protocol.md (typed in ``agent.flow.contracts``). This consumer
never crashes on input: any refused frame gets an ``error`` frame ``{code, message, detail}`` and
the socket stays open. A ``chat.send`` is acknowledged (``chat.ack``) only once its message is stored.
A socket that cannot follow (its group join or its replay failed: Redis or the database blinked) is
closed with ``CLOSE_TRY_AGAIN``, so the page reconnects and replays, instead of staying open and deaf.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.sockets import user_group
from agent import selectors
from agent.broadcast import conversation_group
from agent.exceptions import TicketInvalid
from agent.flow.contracts import (
    MAX_FRAME_BYTES,
    ChatCancel,
    ChatRegenerate,
    ChatResume,
    ChatSend,
    ClientFrame,
    FrameError,
    Replay,
    error_frame,
    frame_from_json,
    send_ack,
)
from agent.flow.state import TurnOptions
from agent.services.recovery import turn_recover
from agent.services.tickets import ticket_redeem
from agent.services.turns import turn_cancel, turn_regenerate, turn_resume, turn_start
from smartmate.platform.channel_send import server_loop_register
from smartmate.platform.exceptions import AppError
from smartmate.platform.ratelimit import FrameBudget, rate_limit_hit, user_key
from smartmate.platform.safe_json import JSONTooDeep, json_loads_bounded
from smartmate.platform.socket_language import socket_language

log = logging.getLogger("agent.consumers")

CLOSE_UNAUTHENTICATED = 4401
CLOSE_TRY_AGAIN = 1013  # RFC 6455 "Try Again Later": the page reconnects (with backoff) and replays
# A join that has not answered by then is taken as failed: a Redis that stopped answering (not refusing)
# would otherwise hold the socket open and deaf for as long as its connection takes to give up.
JOIN_TIMEOUT = 5.0


class FollowFailed(Exception):
    """The socket could not join its groups or replay its conversation: it would stay deaf if kept open."""


class AgentConsumer(AsyncJsonWebsocketConsumer):
    """One student's socket; it follows one conversation at a time and forwards that conversation's events."""

    user: Any = None
    conversation_id: int | None = None
    last_seq: int = 0

    async def connect(self) -> None:
        server_loop_register(asyncio.get_running_loop())
        self.language = socket_language(self.scope)
        user = await self._identify()
        # Accept first, then close: a close before accepting reaches browsers as a bare 1006/403.
        await self.accept()
        if user is None:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.frames = FrameBudget()
        # Signing out or changing the password closes every socket of the student (accounts.sockets).
        try:
            await self._join(user_group(user.pk))
        except FollowFailed as exc:
            await self._close_to_retry(exc)

    async def user_close(self, message: dict[str, Any]) -> None:
        """Close this socket: its student signed out or changed the password."""
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def disconnect(self, code: int) -> None:
        if self.user is not None:
            await self.channel_layer.group_discard(user_group(self.user.pk), self.channel_name)
        if self.conversation_id is not None:
            await self.channel_layer.group_discard(conversation_group(self.conversation_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.user is None:
            return
        with translation.override(self.language):
            frame: ClientFrame | None = None
            try:
                self.frames.take()
                frame = _decode(text_data)
                await self._handle(frame)
            except FollowFailed as exc:
                await self._close_to_retry(exc)
            except AppError as exc:
                await self.send_json(error_frame(exc, **_answering(frame)))
            except Exception:  # the process edge: log it, answer, keep the socket
                log.exception("Agent socket of user %s failed on a frame", getattr(self.user, "pk", None))
                await self.send_json(error_frame(AppError(
                    _("Something went wrong on our side. Please try again in a moment."), code="internal_error"),
                    **_answering(frame)))

    async def agent_event(self, message: dict[str, Any]) -> None:
        """Forward a live event of the followed conversation, filling any gap from the stored timeline."""
        frame = message["frame"]
        if frame.get("conversation_id") != self.conversation_id or frame["seq"] <= self.last_seq:
            return  # left that conversation meanwhile, or already sent by a replay
        if frame["seq"] > self.last_seq + 1:
            try:
                await self._send_stored(until=frame["seq"] - 1)
            except Exception as exc:  # noqa: BLE001 - the gap cannot be filled now: a reconnect replays it
                await self._close_to_retry(exc)
                return
        await self.send_json(frame)
        self.last_seq = frame["seq"]

    # --- frames ------------------------------------------------------------------------------------

    async def _handle(self, frame: ClientFrame) -> None:
        if isinstance(frame, (ChatSend, ChatRegenerate, ChatResume)):
            await database_sync_to_async(rate_limit_hit)("chat", user_key(self.user))
        if isinstance(frame, Replay):
            await self._replay(frame)
        elif isinstance(frame, ChatSend):
            await self._follow(frame.conversation_id)
            started = await database_sync_to_async(turn_start)(
                user=self.user, conversation_id=frame.conversation_id, text=frame.text, language=self.language,
                options=TurnOptions(task_class_ids=frame.task_class_ids, thinking=frame.thinking,
                                    always_execute=frame.always_execute),
                client_message_id=frame.client_message_id)
            if frame.client_message_id:  # a client that gives no id never resends: it needs no ack
                # Only now, with the message committed: a page that never gets this offers to send it again.
                await self.send_json(send_ack(conversation_id=started.conversation_id,
                                              client_message_id=frame.client_message_id,
                                              message_id=started.message_id, turn_id=started.turn_id))
        elif isinstance(frame, ChatRegenerate):
            await self._follow(frame.conversation_id)
            await database_sync_to_async(turn_regenerate)(
                user=self.user, conversation_id=frame.conversation_id, language=self.language)
        elif isinstance(frame, ChatCancel):
            await self._follow(frame.conversation_id)
            await database_sync_to_async(turn_cancel)(user=self.user, conversation_id=frame.conversation_id)
        elif isinstance(frame, ChatResume):
            await self._follow(frame.conversation_id)
            await database_sync_to_async(turn_resume)(
                user=self.user, conversation_id=frame.conversation_id, interaction_id=frame.interaction_id,
                action=frame.action, text=frame.text, language=self.language)

    async def _replay(self, frame: Replay) -> None:
        """Follow the conversation and send what the client missed; raise FollowFailed if that cannot be done."""
        try:
            await self._follow(frame.conversation_id, after_seq=frame.after_seq)
            # A reconnect: a turn whose worker died is ended (or resumed) now, so the replay shows how.
            await database_sync_to_async(turn_recover)(conversation_id=frame.conversation_id)
            await self._send_stored()
        except (AppError, FollowFailed):
            raise  # a refusal (not the student's conversation) is answered; FollowFailed closes
        except Exception as exc:  # the database blinked mid-replay: the client must ask again
            raise FollowFailed from exc

    async def _follow(self, conversation_id: int, *, after_seq: int | None = None) -> None:
        """Check the student owns the conversation and switch the socket's group to it."""
        conversation = await database_sync_to_async(selectors.conversation_get)(
            user=self.user, conversation_id=conversation_id)
        if conversation_id != self.conversation_id:
            if self.conversation_id is not None:
                await self.channel_layer.group_discard(conversation_group(self.conversation_id), self.channel_name)
            # Join before reading the timeline, so nothing stored after the read can be missed.
            await self._join(conversation_group(conversation_id))
            self.conversation_id = conversation_id
            if after_seq is None:
                after_seq = await database_sync_to_async(selectors.last_seq_get)(conversation=conversation)
        if after_seq is not None:
            self.last_seq = after_seq
        self._conversation = conversation

    async def _join(self, group: str) -> None:
        """Join ``group``; raise FollowFailed when the channel layer cannot (its Redis is away)."""
        try:
            await asyncio.wait_for(self.channel_layer.group_add(group, self.channel_name), timeout=JOIN_TIMEOUT)
        except Exception as exc:
            raise FollowFailed from exc

    async def _close_to_retry(self, exc: BaseException) -> None:
        log.warning("Agent socket of user %s could not follow its conversation; closing it so the page "
                    "reconnects", getattr(self.user, "pk", None), exc_info=exc)
        await self.close(code=CLOSE_TRY_AGAIN)

    async def _send_stored(self, until: int | None = None) -> None:
        """Send the stored events after ``last_seq`` (up to ``until``), page by page."""
        while True:
            envelopes = await database_sync_to_async(selectors.events_after)(
                conversation=self._conversation, after_seq=self.last_seq)
            for envelope in envelopes:
                if until is not None and envelope.seq > until:
                    return
                await self.send_json(envelope.to_json())
                self.last_seq = envelope.seq
            if len(envelopes) < selectors.REPLAY_PAGE:
                return

    async def _identify(self) -> Any:
        """Return the student: from a ticket when one is given (API clients), else from the session."""
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        ticket = (query.get("ticket") or [""])[0]
        if ticket:
            try:
                return await database_sync_to_async(ticket_redeem)(ticket=ticket)
            except TicketInvalid:
                return None
        user = self.scope.get("user")
        return user if user is not None and user.is_authenticated else None


def _answering(frame: ClientFrame | None) -> dict[str, Any]:
    """Name the message an error frame refuses, so the page can offer to send it again."""
    if isinstance(frame, ChatSend) and frame.client_message_id:
        return {"client_message_id": frame.client_message_id}
    return {}


def _decode(text_data: str | None) -> ClientFrame:
    """Parse one text frame; anything that is not a JSON object of the contract is ``malformed_frame``."""
    if text_data is None:
        raise _malformed(_("Send frames as JSON text."))
    try:
        size = len(text_data.encode("utf-8"))
    except UnicodeEncodeError:  # lone surrogates: not UTF-8 text at all
        raise _malformed(_("The frame is not valid UTF-8 text.")) from None
    if size > MAX_FRAME_BYTES:
        raise FrameError(_("The frame is too large: at most %(max)s bytes.") % {"max": MAX_FRAME_BYTES},
                         code="frame_too_large", detail={"max": MAX_FRAME_BYTES, "size": size})
    try:
        data = json_loads_bounded(text_data)
    except JSONTooDeep as exc:
        raise _malformed(_("The frame nests too deeply: at most %(max)s levels.") % {"max": exc.max_depth},
                         {"max_depth": exc.max_depth}) from None
    except ValueError as exc:
        raise _malformed(_("The frame is not valid JSON."), {"error": str(exc)}) from None
    if not isinstance(data, dict):
        raise _malformed(_("A frame must be a JSON object."))
    if not _is_utf8_clean(data):
        # "\ud800" escapes decode to lone surrogates, which no database or socket can carry further.
        raise _malformed(_("The frame is not valid UTF-8 text."))
    return frame_from_json(data)


def _malformed(message: str, detail: dict[str, Any] | None = None) -> FrameError:
    return FrameError(message, code="malformed_frame", detail=detail or {})


def _is_utf8_clean(data: dict[str, Any]) -> bool:
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, ValueError):
        return False
    return True

