"""The Django side of ``agent.deps.TurnServices``: what a running turn may read and write in the app."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import semester_week_get
from accounts.exceptions import TokenQuotaExceededError
from accounts.services import token_quota_check, token_usage_record
from agent.deps import PromptContext, TimetableEntry
from agent.exceptions import QuotaExceeded
from agent.llm import Usage
from agent.models import Conversation, Message
from agent.outbox_topics import TURN_FINISHED
from memory.recall import memory_prompt_block
from schedule.selectors import today_events_list
from smartmate.outbox.services import outbox_publish

log = logging.getLogger("agent.turn_services")


class DjangoTurnServices:
    """Side effects of one turn of one student's conversation."""

    def __init__(self, *, user: User, conversation_id: int, turn_id: str,
                 now: Callable[[], datetime] = timezone.now) -> None:
        self.user = user
        self.conversation_id = conversation_id
        self.turn_id = turn_id
        self._now = now

    def prompt_context(self, query: str = "") -> PromptContext:
        """Return today's date, semester week, timetable and the memories relevant to ``query``."""
        now = self._now()
        week = semester_week_get(user=self.user, now=now)
        zone = self.user.zone
        entries = tuple(
            TimetableEntry(start=f"{event.starts_at.astimezone(zone):%H:%M}",
                           end=f"{event.ends_at.astimezone(zone):%H:%M}", title=event.title,
                           location=event.location)
            for event in today_events_list(user=self.user, now=now))
        return PromptContext(today=week.today, now=now.astimezone(zone), week=week.week, weeks=week.weeks,
                             timetable=entries, memory=self._memory(query))

    def _memory(self, query: str) -> str:
        # Memory helps but never blocks a turn: a failing store means an answer without it.
        try:
            return memory_prompt_block(user=self.user, query=query)
        except Exception:  # noqa: BLE001 - logged and counted; the turn goes on
            log.exception("Memory recall failed for user %s; answering without memory", self.user.pk)
            return ""

    def quota_check(self) -> None:
        """Raise QuotaExceeded when the student has no tokens left this week."""
        try:
            token_quota_check(user=self.user, now=self._now())
        except TokenQuotaExceededError as exc:
            raise QuotaExceeded(_("You have used this week's assistant quota. It resets on %(date)s.") % {
                "date": exc.detail["resets_at"][:10]}, detail=exc.detail) from exc

    def usage_record(self, usage: Usage) -> None:
        """Charge one call's usage to the student."""
        token_usage_record(user=self.user, tokens=usage.total_tokens, now=self._now())

    def cancel_requested(self) -> bool:
        """Tell whether the student asked this turn to stop."""
        return Conversation.objects.filter(pk=self.conversation_id, running_turn_id=self.turn_id,
                                           cancel_requested=True).exists()

    @transaction.atomic
    def assistant_message_save(self, *, content: str, reasoning: str, prompt_tokens: int,
                               completion_tokens: int) -> int:
        """Store the turn's answer once (a re-run updates it) and return its id."""
        message, _created = Message.objects.update_or_create(
            turn_id=self.turn_id, role=Message.Role.ASSISTANT,
            defaults={"conversation_id": self.conversation_id, "content": content, "reasoning": reasoning,
                      "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens})
        Conversation.objects.filter(pk=self.conversation_id).update(updated_at=self._now())
        if _created:
            question = Message.objects.filter(turn_id=self.turn_id, role=Message.Role.USER).first()
            outbox_publish(topic=TURN_FINISHED, aggregate=f"user:{self.user.pk}", payload={
                "user_id": self.user.pk, "conversation_id": self.conversation_id, "turn_id": self.turn_id,
                "user_message_id": question.pk if question else None, "assistant_message_id": message.pk})
        return message.pk
