"""Quick add's model path over the API, against the scripted fake LLM (real client, real HTTP on loopback).

Said on Wednesday 2026-12-02 10:15 (factories.NOW): "周三交实习周记" is today's or next week's Wednesday.
"""

from __future__ import annotations

import json

import pytest

from accounts.models import User
from bench.fake_model import Reply
from taskclasses.models import Task
from taskclasses.notes.lessons import lesson_learn
from taskclasses.notes.refine import quick_note_refine
from taskclasses.tests.factories import NOW

URL = "/api/v1/tasks/quick-add/refine/"
WEDNESDAY_NOTE = "周三交实习周记"


@pytest.fixture
def frozen_now(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    return NOW


def model_says(title: str, quadrant: int, readings: list, **reply) -> Reply:
    answer = {"title": title, "quadrant": quadrant, "readings": readings}
    return Reply(text=json.dumps(answer, ensure_ascii=False), **reply)


def refine(client, text: str) -> dict:
    response = client.post(URL, {"text": text}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_the_models_readings_replace_the_rules_choices_but_decide_no_date(auth_client, fake_llm, frozen_now):
    fake_llm.script(model_says("交实习周记", 2, [{"date": "2026-12-09", "time": None}]))
    body = refine(auth_client, WEDNESDAY_NOTE)
    assert (body["outcome"], body["changed"]) == ("refined", ["readings"])
    assert (body["parse"]["deadline"], body["parse"]["ambiguous"]) == (None, True)
    assert [(r["deadline"], r["text"]) for r in body["parse"]["readings"]] == [
        ("2026-12-09T23:59:00+08:00", "next Wed 12/9")]
    assert "周三交实习周记" in fake_llm.requests[0].prompt_text()
    assert fake_llm.requests[0].body["response_format"] == {"type": "json_object"}


def test_a_clock_the_model_reads_on_the_rules_day_becomes_the_deadline(auth_client, fake_llm, frozen_now):
    fake_llm.script(model_says("交第3章作业", 2, [{"date": "2026-12-03", "time": "08:00"}]))
    body = refine(auth_client, "明天交第3章作业")
    assert (body["outcome"], body["changed"]) == ("refined", ["deadline"])
    assert (body["parse"]["deadline"], body["parse"]["quadrant_reason"]) == ("2026-12-03T08:00:00+08:00", "model")
    assert not Task.objects.exists()


@pytest.mark.parametrize(
    "reply",
    [
        Reply(text="好的，这是下周三的任务"),  # not JSON at all
        model_says("交实习周记", 2, [{"date": "2026-12-04", "time": None}]),  # a date nobody said
        Reply(text=json.dumps({"title": "交实习周记", "quadrant": 2, "deadline": "2026-12-09"})),  # a decision
    ],
)
def test_an_answer_outside_the_contract_is_ignored_and_the_rules_stand(auth_client, fake_llm, frozen_now, reply):
    fake_llm.script(reply)
    body = refine(auth_client, WEDNESDAY_NOTE)
    assert (body["outcome"], body["changed"]) == ("malformed", [])
    assert [r["deadline"] for r in body["parse"]["readings"]] == [
        "2026-12-02T23:59:00+08:00", "2026-12-09T23:59:00+08:00"]


def test_a_failing_model_leaves_the_rules_answer(auth_client, fake_llm, frozen_now):
    fake_llm.set_fallback(Reply(status=500, error_message="upstream down"))
    body = refine(auth_client, WEDNESDAY_NOTE)
    assert (body["outcome"], body["parse"]["ambiguous"], len(body["parse"]["readings"])) == ("model_failed", True, 2)


def test_the_call_is_charged_to_the_chat_quota(auth_client, user, fake_llm, frozen_now):
    fake_llm.script(model_says("交实习周记", 2, [], prompt_tokens=120, completion_tokens=30))
    assert refine(auth_client, WEDNESDAY_NOTE)["outcome"] == "unchanged"
    user.refresh_from_db()
    assert user.token_usage == 150


def test_with_the_quota_used_up_the_rules_answer_and_no_call_is_made(auth_client, user, fake_llm, frozen_now):
    User.objects.filter(pk=user.pk).update(token_limit=100, token_usage=100)
    body = refine(auth_client, WEDNESDAY_NOTE)
    assert (body["outcome"], body["parse"]["ambiguous"], len(body["parse"]["readings"])) == ("quota_exceeded", True, 2)
    assert fake_llm.requests == []


def test_a_line_the_rules_are_sure_of_costs_no_call(auth_client, fake_llm, frozen_now):
    body = refine(auth_client, "明天交概率论作业")
    assert (body["outcome"], body["parse"]["deadline"]) == ("sure", "2026-12-03T23:59:00+08:00")
    assert fake_llm.requests == []


def test_a_model_slower_than_the_budget_leaves_the_rules_answer(user, fake_llm, frozen_now):
    fake_llm.script(model_says("交实习周记", 2, [{"date": "2026-12-09", "time": None}], delay=2.0))
    outcome = quick_note_refine(user=user, text=WEDNESDAY_NOTE, budget=0.3)
    assert (outcome.outcome, outcome.parse) == ("timeout", outcome.rules)
    assert outcome.elapsed_ms < 1500


def test_the_budget_is_a_setting_and_the_page_waits_for_it_and_the_networks_share(
        client, user, settings, fake_llm, frozen_now):
    settings.QUICK_ADD_REFINE_SECONDS = 0.3
    fake_llm.script(model_says("交实习周记", 2, [{"date": "2026-12-09", "time": None}], delay=2.0))
    assert quick_note_refine(user=user, text=WEDNESDAY_NOTE).outcome == "timeout"
    client.force_login(user)
    assert 'data-refine-wait-ms="2300"' in client.get("/").content.decode()


def test_without_a_model_the_endpoint_answers_the_rules_and_says_why(auth_client, frozen_now):
    response = auth_client.post(URL, {"text": WEDNESDAY_NOTE}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["outcome"] == "no_model" and body["changed"] == [] and body["parse"]["title"]


def test_an_empty_line_is_refused_with_the_usual_error(auth_client, fake_llm):
    response = auth_client.post(URL, {"text": "   "}, format="json")
    assert response.status_code == 400 and response.json()["code"] in {"invalid", "empty_title"}
    assert fake_llm.requests == []


def test_the_parse_names_its_doubts(auth_client, frozen_now):
    body = auth_client.post("/api/v1/tasks/parse/", {"text": "考完试聚餐"}, format="json").json()
    assert body["doubts"] == ["no_single_reading", "importance_undecided"]


def test_a_quadrant_the_student_taught_leaves_nothing_for_the_model(auth_client, user, fake_llm, frozen_now):
    lesson_learn(user=user, title="看电影", quadrant=4)
    body = refine(auth_client, "看电影")
    assert (body["outcome"], body["parse"]["quadrant"], body["parse"]["doubts"]) == ("sure", 4, [])
    assert fake_llm.requests == []
