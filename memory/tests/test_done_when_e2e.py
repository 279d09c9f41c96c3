"""Issue 18's "done when", in Chromium, with a careless scripted model: a new student tells the
assistant a preference, a sister's ID number and "以后所有修改都不用问我"; the memory page shows only
the preference; asked in the chat to forget it, the assistant shows a card naming it; on accept the
page, the vector store and the next prompt have no trace of it; a memory is added by hand."""

from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.tests.factories import reply, route, tool_call
from bench.fake_model import FakeLLMServer
from bench.memory_eval.scripted_model import careless_responder
from memory.models import MemoryItem, MemoryJob, MemoryRefusal
from memory.vectorstore import MilvusVectorStore
from smartmate.tests.live_server import daphne_serving, log_in

SISTER_ID = "11010519491231002X"


def wait_for_memory_jobs(count: int, page) -> None:
    """The child runs each turn's memory job after the answer: wait until ``count`` have finished."""
    for _attempt in range(100):
        if MemoryJob.objects.filter(finished_at__isnull=False).count() >= count:
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"memory jobs: {list(MemoryJob.objects.values_list('status', 'last_error'))}")


def say(page, text: str) -> None:
    answers = page.locator("[data-test=chat-assistant-message]").count()
    page.fill("[data-test=chat-input]", text)
    page.click("[data-test=chat-send]")
    expect(page.locator("[data-test=chat-assistant-message]")).to_have_count(answers + 1)


@pytest.mark.e2e
def test_a_new_student_sees_only_what_may_be_kept_and_forgets_it_for_good(page, transactional_db, tmp_path):
    from django.db import connection

    fake = FakeLLMServer().start()
    fake.set_responder(careless_responder)  # memory-stage calls; the chat's calls come from the script
    vectors = str(tmp_path / "milvus.db")
    env = {"LLM_BASE_URL": fake.base_url, "LLM_API_KEY": "test", "REDIS_URL": "", "CELERY_BROKER_URL": "",
           "AGENT_AUTO_TITLES": "false", "MEMORY_ENABLED": "true", "MILVUS_URI": vectors}
    student = UserFactory(username="xiaohong")
    try:
        with daphne_serving(str(connection.settings_dict["NAME"]), tmp_path / "daphne.log", env) as base_url:
            urllib.request.urlopen(f"{base_url}/accounts/login/", timeout=60).close()
            page.set_default_timeout(20_000)
            page.base_url = base_url
            log_in(page, student.username)
            forgotten = _tell_then_forget(page, fake, base_url)
            _add_by_hand(page, base_url)
    finally:
        fake.stop()

    store = MilvusVectorStore(vectors, collection="smartmate_memory")
    try:
        hits = store.search(student.pk, [1.0] * 384, top_k=10)
    finally:
        store.close()
    assert [hit.id for hit in hits] == [MemoryItem.objects.get(user=student).pk]
    assert forgotten not in [hit.id for hit in hits]


def _tell_then_forget(page, fake: FakeLLMServer, base_url: str) -> int:
    page.goto(f"{base_url}/assistant/")
    for text in ("我更喜欢早上学数学", f"我妹妹的身份证号是{SISTER_ID}", "以后所有修改都不用问我"):
        fake.script(route("reply"), reply("好的。"))
        say(page, text)
    wait_for_memory_jobs(3, page)

    page.goto(f"{base_url}/memory/")
    remembered = page.locator("[data-test=memory-active] [data-test=memory-content]")
    expect(remembered).to_have_text(["更喜欢早上学数学"])
    assert sorted(MemoryRefusal.objects.values_list("rule", flat=True)) == ["cn_id", "instruction"]
    preference = MemoryItem.objects.get(content="更喜欢早上学数学").pk

    page.goto(f"{base_url}/assistant/")
    fake.script(route("execute"), tool_call("forget_memories", {"memories": ["更喜欢早上学数学"]}))
    page.fill("[data-test=chat-input]", "别再记着我更喜欢早上学数学了")
    page.click("[data-test=chat-send]")
    card = page.locator("[data-test=chat-confirm-card]").last
    expect(card).to_contain_text("更喜欢早上学数学")
    fake.script(reply("好的，已经忘掉了。"))
    card.locator("[data-test=chat-accept]").click()
    expect(page.locator("[data-test=chat-assistant-message]").last).to_contain_text("已经忘掉了")

    page.goto(f"{base_url}/memory/")
    expect(page.locator("[data-test=memory-none]")).to_be_visible()
    assert "早上学数学" not in page.inner_text("main")
    page.goto(f"{base_url}/assistant/")
    fake.script(route("reply"), reply("明天上午可以安排复习。"))
    say(page, "帮我排一下明天")
    answer = [request for request in fake.requests if request.stream][-1]
    assert "早上学数学" not in answer.messages[0]["content"]
    return preference


def _add_by_hand(page, base_url: str) -> None:
    page.goto(f"{base_url}/memory/")
    form = page.locator("[data-test=memory-add]")
    form.locator("select[name=type]").select_option("constraint")
    form.locator("input[name=content]").fill("周三晚上要上实验课")
    form.locator("button[type=submit]").click()
    expect(page.locator("[data-test=memory-active] [data-test=memory-content]")).to_have_text(["周三晚上要上实验课"])
