"""Quick add's model path as a student sees it, in Chromium, in Chinese, on a phone.

A daphne child points at a scripted fake LLM in this process. The fake plays a careful model: it reads
the rules' readings from the request and keeps only the last one, so the test does not depend on the
day it runs.
"""

from __future__ import annotations

import json
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bench.fake_model import FakeLLMServer, RecordedRequest
from smartmate.tests.live_server import daphne_serving, log_in
from taskclasses.models import Task

PHONE = {"width": 390, "height": 844}
WEEKDAYS = "一二三四五六日"
MODEL_DELAY = 0.6  # seconds: long enough for the rules' answer to show first


@pytest.fixture(scope="module")
def refining_server(django_db_setup, django_db_blocker, tmp_path_factory):
    """A daphne child whose model is a fake LLM here; yields (base URL, the fake)."""
    from django.db import connection

    with django_db_blocker.unblock():
        database_name = str(connection.settings_dict["NAME"])
    fake = FakeLLMServer().start()
    extra_env = {"LLM_BASE_URL": fake.base_url, "LLM_API_KEY": "test", "REDIS_URL": "", "CELERY_BROKER_URL": "",
                 "AGENT_AUTO_TITLES": "false", "MEMORY_ENABLED": "false",
                 # The product's 2 s budget is for a model's own time; on a machine at load ~10 the fake's
                 # round trip alone can pass it, and this test is about what the page does with an answer.
                 "QUICK_ADD_REFINE_SECONDS": "20"}
    try:
        with daphne_serving(database_name, tmp_path_factory.mktemp("refine") / "daphne.log", extra_env) as base_url:
            urllib.request.urlopen(f"{base_url}/accounts/login/", timeout=60).close()  # warm up
            yield base_url, fake
    finally:
        fake.stop()


def keep_the_last_reading(request: RecordedRequest) -> dict:
    """A model that narrows the rules' choices to the last one (next week's), and names the task."""
    asked = json.loads(request.messages[-1]["content"])
    rules = asked["rules"]
    readings = [{"date": day, "time": None} for day in rules["readings"][-1:]]
    answer = {"title": rules["title"], "quadrant": rules["quadrant"], "readings": readings}
    return {"text": json.dumps(answer, ensure_ascii=False), "delay": MODEL_DELAY}


def _open(page, base_url: str, username: str) -> None:
    page.set_viewport_size(PHONE)
    page.set_default_timeout(30_000)
    page.base_url = base_url
    log_in(page, username)
    page.wait_for_selector("#quick-add-form[data-ready='1']", state="attached")


def _type(page, text: str) -> None:
    page.fill("#quick-add-text", text)
    page.wait_for_selector("#quick-add-form[data-parsed='1']", state="attached")


@pytest.mark.e2e
def test_an_uncertain_line_is_refined_on_the_page_and_a_picked_date_stays(page, refining_server, transactional_db):
    base_url, fake = refining_server
    fake.set_responder(keep_the_last_reading)
    student = UserFactory(username="xiaowen")
    today = timezone.localtime(timezone.now(), student.zone).date()
    _open(page, base_url, student.username)

    # The rules' two readings show at once; the model's narrower answer replaces them, still as a choice.
    _type(page, f"周{WEEKDAYS[today.weekday()]}交实习周记")
    assert page.locator("[data-test=quick-add-reading]").count() == 2
    page.wait_for_selector("[data-test=quick-add-refined]:not([hidden])")
    choices = page.locator("[data-test=quick-add-reading]")
    assert choices.count() == 1 and choices.first.inner_text().startswith("下周")
    assert page.input_value("#qa-deadline") == ""  # a choice, not a decision
    assert page.inner_text("[data-test=quick-add-refined]") == "助手已帮你补充"
    choices.first.click()
    page.click("[data-test=quick-add-save]")
    page.wait_for_selector("[data-test=task] .task-title:text-is('交实习周记')")
    note = Task.objects.get(title="交实习周记")
    assert timezone.localtime(note.deadline, student.zone).date() == today + timedelta(days=7)

    # The student picks a reading before the model answers: the model does not move it.
    _type(page, "周末大扫除")
    page.locator("[data-test=quick-add-reading]").first.click()
    picked = page.input_value("#qa-deadline")
    page.wait_for_selector("#quick-add-form[data-refined='1']", state="attached")
    assert page.input_value("#qa-deadline") == picked != ""
    assert page.locator("[data-test=quick-add-reading]").count() >= 2
    assert page.is_hidden("[data-test=quick-add-refined]")
    assert len(fake.requests) == 2
