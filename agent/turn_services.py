"""The Django side of ``agent.flow.deps.TurnServices``: what a running turn may read and write in the app."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.exceptions import TokenQuotaExceededError
from accounts.models import User
from accounts.quota import token_quota_reserve, token_quota_settle
from agent.exceptions import QuotaExceeded
from agent.flow.deps import PromptContext, TimetableEntry
from agent.flow.working import Working, working_for
from agent.models import Conversation, Message
from agent.outbox_topics import CONVERSATION_TITLE, TURN_FINISHED
from agent.services.reservations import turn_reservation_close, turn_reservation_open
from agent.toolbox import RegistryToolbox
from agent.tools.support.board_text import day_index
from agent.tools.support.working_schedule import working_load, working_publish, working_rough_build
from memory.recall import memory_prompt_block, memory_recall_prefetch
from schedule.core.semester_archive import season_of
from schedule.models import CalendarSettings, ScheduleEvent
from schedule.selectors import calendar_settings_get, days_events_list
from schedule.semesters.models import Semester, semester_label
from smartmate.platform.outbox.services import outbox_publish
from taskclasses.models import TaskClass, TaskItem

log = logging.getLogger("agent.turn_services")
ONE_DAY = timedelta(days=1)


class DjangoTurnServices:
    """Side effects of one turn of one student's conversation."""

    def __init__(self, *, user: User, conversation_id: int, turn_id: str,
                 now: Callable[[], datetime] | None = None) -> None:
        self.user = user
        self.conversation_id = conversation_id
        self.turn_id = turn_id
        # Looked up at each call, not bound here: a test's frozen clock then reaches the turn too.
        self._now = now or (lambda: timezone.now())
        self._tools: RegistryToolbox | None = None
        # The day's part of the prompt context, by local date: every execute round builds its prompt
        # afresh, and the timetable only changes when a preview is applied, which a turn never does.
        self._days: dict[date, _Days] = {}
        self._memories: dict[str, str] = {}

    def prompt_context(self, query: str = "") -> PromptContext:
        """Return today's date, semester week, timetable and the memories relevant to ``query``."""
        now = self._now()
        days = self._days_of(now)
        return PromptContext(today=days.today, now=now.astimezone(self.user.zone), week=days.week,
                             weeks=days.weeks, timetable=days.timetable, tomorrow=days.tomorrow,
                             memory=self._memory(query), semester=days.semester, past_semesters=days.past_semesters)

    def _days_of(self, now: datetime) -> _Days:
        """Today's and tomorrow's timetable and the semester week: one settings read, one events query
        (once per local date and turn)."""
        today = now.astimezone(self.user.zone).date()  # as the semester reckons it: the student's zone
        if today not in self._days:
            calendar = calendar_settings_get(user=self.user)
            semester = calendar.semester(self.user.time_zone)
            days = days_events_list(user=self.user, semester=semester, days=[today, today + ONE_DAY])
            timetable, tomorrow = (tuple(self._entry(event) for event in events) for events in days)
            current, past = _semester_names(self.user, calendar)
            self._days[today] = _Days(today=today, week=semester.current_week(now), weeks=calendar.semester_weeks,
                                      timetable=timetable, tomorrow=tomorrow, semester=current, past_semesters=past)
        return self._days[today]

    def _entry(self, event: ScheduleEvent) -> TimetableEntry:
        zone = self.user.zone
        return TimetableEntry(start=f"{event.starts_at.astimezone(zone):%H:%M}",
                              end=f"{event.ends_at.astimezone(zone):%H:%M}", title=event.title, location=event.location)

    def memory_prefetch(self, query: str) -> None:
        """Start embedding the student's message for the recall the first prompt will make."""
        memory_recall_prefetch(user=self.user, query=query)

    def _memory(self, query: str) -> str:
        # Every execute round builds its prompt afresh with the same query: recalled once per turn,
        # again after a write tool ran (it may have changed what is remembered: memory_forget).
        if query not in self._memories:
            self._memories[query] = self._recall(query)
        return self._memories[query]

    def _recall(self, query: str) -> str:
        # Memory helps but never blocks a turn: a failing store means an answer without it.
        try:
            return memory_prompt_block(user=self.user, query=query)
        except Exception:  # logged and counted; the turn goes on
            log.exception("Memory recall failed for user %s; answering without memory", self.user.pk)
            return ""

    def quota_reserve(self, tokens: int) -> int:
        """Hold ``tokens`` for one model call; raise QuotaExceeded when the week's quota is used up."""
        try:
            # One transaction: the hold and its note on the turn are written together (one commit, not four).
            with transaction.atomic():
                held = token_quota_reserve(user=self.user, tokens=tokens, now=self._now())
                turn_reservation_open(conversation_id=self.conversation_id, turn_id=self.turn_id, tokens=held)
        except TokenQuotaExceededError as exc:
            # the reset in the student's own zone (stored in UTC: 20:00 UTC is 04:00 the next day in China)
            resets_at = datetime.fromisoformat(exc.detail["resets_at"]).astimezone(self.user.zone)
            raise QuotaExceeded(_("You have used this week's assistant quota. It resets on %(date)s.") % {
                "date": resets_at.strftime("%Y-%m-%d %H:%M")}, detail=exc.detail) from exc
        return held

    def quota_settle(self, reserved: int, used: int) -> None:
        """Charge one call's real usage in place of its reservation."""
        with transaction.atomic():  # the charge and the reservation's close commit together
            token_quota_settle(user=self.user, reserved=reserved, used=used)
            turn_reservation_close(conversation_id=self.conversation_id, turn_id=self.turn_id, tokens=reserved)

    def cancel_requested(self) -> bool:
        """Tell whether the student asked this turn to stop."""
        return Conversation.objects.filter(pk=self.conversation_id, running_turn_id=self.turn_id,
                                           cancel_requested=True).exists()

    # --- planning and tools ---------------------------------------------------------------------

    @property
    def tools(self) -> RegistryToolbox:
        """The tools, bound to this student (built once per turn, in the turn's language)."""
        if self._tools is None:
            self._tools = RegistryToolbox(user=self.user, conversation_id=self.conversation_id,
                                          language=translation.get_language() or "zh-hans", turn_id=self.turn_id,
                                          on_write=self._memories.clear)
        return self._tools

    def task_classes_describe(self, task_class_ids: Sequence[int]) -> str:
        """One line per task class of the student (names are data, quoted as such)."""
        classes = TaskClass.objects.filter(user=self.user).annotate(
            pending=Count("items", filter=Q(items__status=TaskItem.Status.PENDING))).order_by("start_date", "pk")
        if task_class_ids:
            classes = classes.filter(pk__in=task_class_ids)
        return "\n".join(
            f"- id={task_class.pk} 「{task_class.name}」 {task_class.start_date:%Y-%m-%d}–{task_class.end_date:%Y-%m-%d}，"
            f"待安排 {task_class.pending} 块，策略 {task_class.strategy}" for task_class in classes[:50])

    def task_class_names(self, task_class_ids: Sequence[int]) -> list[str]:
        """The names of the student's own task classes among ``task_class_ids`` (others' ids are skipped)."""
        names = dict(TaskClass.objects.filter(user=self.user, pk__in=list(task_class_ids)).values_list("pk", "name"))
        return [names[pk] for pk in task_class_ids if pk in names]

    def working_load(self, task_class_ids: Sequence[int]) -> Working:
        """Load the working schedule for the classes' window (today on when none is chosen)."""
        return working_load(user=self.user, now=self._now(), task_class_ids=tuple(self._own(task_class_ids)))

    def working_index(self, working: Working) -> str:
        """The working schedule's compact day index."""
        current = working_for(working, user_id=self.user.pk, now=self._now())
        return day_index(current.board) if current is not None else "（还没有加载工作日程）"

    def rough_build(self, task_class_ids: Sequence[int], working: Working) -> tuple[Working, str]:
        """Run the planner for the student's own classes among ``task_class_ids``."""
        current = working_for(working, user_id=self.user.pk, now=self._now())
        return working_rough_build(user=self.user, now=self._now(), working=current,
                                   task_class_ids=tuple(self._own(task_class_ids)))

    def preview_publish(self, working: Working) -> tuple[int, str] | None:
        """Make the working schedule's changes this conversation's one open preview."""
        current = working_for(working, user_id=self.user.pk, now=self._now())
        preview = None if current is None else working_publish(
            user=self.user, working=current, conversation_id=self.conversation_id, now=self._now())
        if preview is None:
            return None
        placed = len(preview.placements) + len(preview.moves) + len(preview.task_placements)
        return preview.pk, ngettext("%(count)s change ready to apply.", "%(count)s changes ready to apply.",
                                    placed) % {"count": placed}

    def _own(self, task_class_ids: Sequence[int]) -> list[int]:
        # The model may name any number; only the student's own classes count.
        return list(TaskClass.objects.filter(user=self.user, pk__in=list(task_class_ids)).values_list("pk", flat=True))

    @transaction.atomic
    def assistant_message_save(self, *, content: str, reasoning: str, prompt_tokens: int,
                               completion_tokens: int, outcome: str = "completed") -> int:
        """Store the turn's answer once (a re-run updates it) with how the turn ended; return its id."""
        message, _created = _answer_store(turn_id=self.turn_id, values={
            "conversation_id": self.conversation_id, "content": content, "reasoning": reasoning,
            "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "outcome": outcome})
        Conversation.objects.filter(pk=self.conversation_id).update(updated_at=self._now())
        if _created:
            question = (Message.objects.filter(turn_id=self.turn_id, role=Message.Role.USER)
                        .values_list("pk", flat=True).first())
            outbox_publish(topic=TURN_FINISHED, aggregate=f"user:{self.user.pk}", payload={
                "user_id": self.user.pk, "conversation_id": self.conversation_id, "turn_id": self.turn_id,
                "user_message_id": question, "assistant_message_id": message.pk})
            earlier = Message.objects.filter(conversation_id=self.conversation_id, role=Message.Role.ASSISTANT).exclude(
                pk=message.pk)
            if not earlier.exists():  # the conversation's first answer
                outbox_publish(topic=CONVERSATION_TITLE, aggregate=f"conversation:{self.conversation_id}",
                               payload={"user_id": self.user.pk, "conversation_id": self.conversation_id,
                                        "turn_id": self.turn_id})
        return message.pk


@dataclass(frozen=True)
class _Days:
    """The part of the prompt context that depends on the local date only."""

    today: date
    week: int | None
    weeks: int
    timetable: tuple[TimetableEntry, ...]
    tomorrow: tuple[TimetableEntry, ...]
    semester: str = ""
    past_semesters: tuple[str, ...] = ()


def _semester_names(user: User, calendar: CalendarSettings) -> tuple[str, tuple[str, ...]]:
    """The current semester's name and the past ones', newest first, in Chinese (the prompt's language)."""
    with translation.override("zh-hans"):
        current = semester_label(*season_of(calendar.semester_start))
        past = tuple(semester_label(year, season) for year, season in Semester.objects.filter(user=user)
                     .order_by("-first_monday").values_list("year", "season"))
    return current, past


def _answer_store(*, turn_id: str, values: dict[str, Any]) -> tuple[Message, bool]:
    """Store the turn's answer: create it, or (a re-run of the deliver node) update it; return it and
    whether it was created. A plain insert when it is new, not update_or_create's SELECT and savepoints."""
    existing = Message.objects.filter(turn_id=turn_id, role=Message.Role.ASSISTANT).first()
    if existing is not None:
        for name, value in values.items():
            setattr(existing, name, value)
        existing.save(update_fields=[*values])
        return existing, False
    return Message.objects.create(turn_id=turn_id, role=Message.Role.ASSISTANT, **values), True

