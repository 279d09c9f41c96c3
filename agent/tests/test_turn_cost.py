"""What a turn no longer repeats (framework cost): each cut keeps the result it replaced.

The prompt context reads the timetable once per turn and gives what ``today_events_list`` gives;
a checkpoint after a node is one statement; an event outside a transaction is one insert; the tool
specs' token estimate equals the estimate of their whole JSON list.
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from agent.flow.contracts import StatusEvent
from agent.flow.deps import TimetableEntry
from agent.flow.state import TurnState
from agent.models import Checkpoint, TimelineEvent
from agent.services.conversations import conversation_create
from agent.services.leases import TurnLease
from agent.services.running import _checkpoint_save
from agent.timeline import TimelineEmitter
from agent.tools.support.registry import tool_specs
from agent.turn_services import DjangoTurnServices
from schedule.selectors import today_events_list
from smartmate.demo import seed_demo
from smartmate.llm import ChatMessage, Completion
from smartmate.llm.usage import estimate_tokens, estimate_usage


def _entries(user, moment) -> tuple[TimetableEntry, ...]:
    zone = user.zone
    return tuple(TimetableEntry(start=f"{event.starts_at.astimezone(zone):%H:%M}",
                                end=f"{event.ends_at.astimezone(zone):%H:%M}", title=event.title,
                                location=event.location)
                 for event in today_events_list(user=user, now=moment))


@pytest.mark.django_db
def test_the_prompt_timetable_is_todays_and_tomorrows_events_read_once_per_turn(django_assert_num_queries):
    user, _lines = seed_demo()
    seen_courses = 0
    for days in range(7):  # a week of "now"s: days with courses and days without
        now = timezone.now() + timedelta(days=days)
        services = DjangoTurnServices(user=user, conversation_id=0, turn_id=str(uuid.uuid4()),
                                      now=lambda moment=now: moment)

        context = services.prompt_context("明天有什么课")

        assert context.timetable == _entries(user, now)
        assert context.tomorrow == _entries(user, now + timedelta(days=1))
        seen_courses += len(context.timetable)
        with django_assert_num_queries(0):  # the next round of the same turn: nothing read again
            assert services.prompt_context("明天有什么课") == context
    assert seen_courses > 0


@pytest.mark.django_db
def test_a_checkpoint_is_created_once_then_written_with_one_statement(user, django_assert_num_queries):
    conversation = conversation_create(user=user)
    turn_id = str(uuid.uuid4())
    lease = TurnLease(conversation_id=conversation.pk, turn_id=turn_id, owner="test")
    state = TurnState(conversation_id=conversation.pk, turn_id=turn_id, user_text="你好")

    _checkpoint_save(lease, "chat", state)
    first = Checkpoint.objects.get(conversation=conversation)
    with django_assert_num_queries(1):
        _checkpoint_save(lease, "deliver", state.updated(answer="好的"))

    saved = Checkpoint.objects.get(conversation=conversation)
    assert (saved.pk, saved.phase, str(saved.turn_id)) == (first.pk, "deliver", turn_id)
    assert TurnState.from_json(saved.state, now=timezone.now()).answer == "好的"
    assert saved.updated_at >= first.updated_at


@pytest.mark.django_db(transaction=True)
def test_an_event_is_one_insert_outside_a_transaction_and_a_savepoint_inside_one(user, django_assert_num_queries):
    conversation = conversation_create(user=user)
    sent: list[dict] = []
    emitter = TimelineEmitter(conversation_id=conversation.pk, turn_id=str(uuid.uuid4()),
                              send=lambda _conversation, frame: sent.append(frame))

    with django_assert_num_queries(1):
        emitter(StatusEvent(code="routing", message="…"))
    with transaction.atomic():
        emitter(StatusEvent(code="executing", message="…"))

    stored = list(TimelineEvent.objects.filter(conversation=conversation).values_list("seq", "payload__code"))
    assert stored == [(1, "routing"), (2, "executing")]
    assert [frame["seq"] for frame in sent] == [1, 2]


@pytest.mark.parametrize("names", [None, ["query_range"], ["get_overview", "quick_note_create"]])
def test_the_tool_specs_estimate_is_the_estimate_of_their_whole_json(names):
    tools = tool_specs(names)
    message = [ChatMessage.user("看看我这周的安排")]
    whole = estimate_tokens(json.dumps([tool.to_openai() for tool in tools], ensure_ascii=False))

    with_tools = estimate_usage(message, tools, Completion(text="")).prompt_tokens
    again = estimate_usage(message, tools, Completion(text="")).prompt_tokens  # counted from the cache

    without = estimate_usage(message, None, Completion(text="")).prompt_tokens
    assert with_tools - without == again - without == whole
