"""The weekly quota is reserved before every model call, the background ones too: a turn (or a turn
beside a title or memory call) passes the limit by at most one reserved call.

The probe: background calls skipped the check and a turn pushed usage to 100,134 of 100,000.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from datetime import time as dt_time
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone, translation

from accounts.exceptions import TokenQuotaExceededError
from accounts.models import User
from accounts.quota import ReservingClient, token_quota_reserve, token_quota_settle
from agent import embedded_turns
from agent.services.turns import turn_start
from agent.tests.factories import make_conversation, reply, route, run_turn, tool_call
from smartmate.llm import ChatMessage, LLMError, get_llm_client

pytestmark = [pytest.mark.django_db(transaction=True)]


def usage_of(user) -> int:
    return User.objects.values_list("token_usage", flat=True).get(pk=user.pk)


def test_a_reservation_holds_its_tokens_until_settled_with_what_was_used(user):
    User.objects.filter(pk=user.pk).update(token_limit=1000, token_usage=900)

    held = token_quota_reserve(user=user, tokens=2000)
    assert usage_of(user) == 2900
    with pytest.raises(TokenQuotaExceededError) as refused:
        token_quota_reserve(user=user, tokens=10)  # the first call's reservation leaves nothing
    assert refused.value.detail["limit"] == 1000
    token_quota_settle(user=user, reserved=held, used=120)

    assert usage_of(user) == 1020  # 900 + what the call really used: past the limit by one call at most


def test_a_failed_call_releases_its_whole_reservation(fake_llm, user):
    User.objects.filter(pk=user.pk).update(token_limit=1000, token_usage=900)
    fake_llm.script({"status": 400, "text": "bad request"})
    client = ReservingClient(get_llm_client(), user)

    with pytest.raises(LLMError):
        client.complete("title", [ChatMessage.user("你好")])

    assert usage_of(user) == 900


def test_a_turn_on_a_nearly_spent_quota_stops_after_one_call(fake_llm, user):
    User.objects.filter(pk=user.pk).update(token_limit=1000, token_usage=950)
    fake_llm.script(route("execute", prompt_tokens=400, completion_tokens=5),
                    tool_call("get_overview", {}), reply("不该出现"))

    frames = run_turn(user, make_conversation(user), "看看我的日程")

    assert len(fake_llm.requests) == 1  # the route call was admitted (50 tokens were left); nothing after it
    error = next(frame for frame in frames if frame["type"] == "error")
    assert error["code"] == "quota_exceeded" and frames[-1]["outcome"] == "failed"
    assert usage_of(user) == 950 + 405  # past the limit by that one call, not by the whole turn


def test_a_background_call_waits_for_a_running_calls_reservation(fake_llm, user):
    # 300 tokens left: the streaming answer's reservation (its prompt + 1,200 for the reply) takes them
    # all, so a title or memory call started meanwhile is refused before any request.
    User.objects.filter(pk=user.pk).update(token_limit=1000, token_usage=700)
    fake_llm.script(route("reply", prompt_tokens=50, completion_tokens=5),
                    reply("这是一个慢慢说完的回答。" * 4, prompt_tokens=60, completion_tokens=40, chunk_delay=0.05))
    conversation = make_conversation(user)
    turn_start(user=user, conversation_id=conversation.pk, text="讲讲")
    deadline = time.monotonic() + 10
    while len(fake_llm.requests) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)

    with pytest.raises(TokenQuotaExceededError):
        ReservingClient(get_llm_client(), user).complete("title", [ChatMessage.user("起个标题")])
    assert embedded_turns.join(timeout=20)

    assert len(fake_llm.requests) == 2  # route and answer; the title never reached the model
    assert usage_of(user) == 700 + 55 + 100


def test_the_quota_message_gives_the_reset_in_the_students_time_zone(fake_llm, user):
    # the window resets at 20:00 UTC, which is 04:00 the next day in Shanghai
    started = datetime.combine(timezone.now().date() - timedelta(days=1), dt_time(20, 0), tzinfo=UTC)
    User.objects.filter(pk=user.pk).update(token_limit=1000, token_usage=1000, token_window_started_at=started,
                                           time_zone="Asia/Shanghai")
    fake_llm.script(reply("不该出现"))

    with translation.override("zh-hans"):
        frames = run_turn(User.objects.get(pk=user.pk), make_conversation(user), "看看我的日程")

    local = (started + timedelta(days=7)).astimezone(ZoneInfo("Asia/Shanghai"))
    error = next(frame for frame in frames if frame["type"] == "error")
    assert error["code"] == "quota_exceeded" and local.strftime("%Y-%m-%d 04:00") in error["message"]
    assert error["message"].endswith(f"将于 {local:%Y-%m-%d} 04:00 重置。")
