"""The production topology on one machine: nginx in front of two daphne processes, a worker per queue, beat.

What one process never showed: a student's two tabs on two processes see the same stream, Stop pressed
on one stops a turn started from the other (run by a worker), and the login limits count across
processes. Runs in the MariaDB + Redis CI pass (``.ci/run`` installs nginx).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from agent.models import Conversation
from agent.services.tickets import ticket_create
from smartmate.llm.fake_server import FakeLLMServer, RecordedRequest
from smartmate.topology import Topology, topology_running

pytestmark = [pytest.mark.worker, pytest.mark.xdist_group("topology")]  # one topology, one test process

ANSWER = "周三晚上七点到九点没有课，可以复习概率论，记得先把上周的错题过一遍。" * 3
CHUNK_DELAY = 0.15  # seconds between streamed pieces: the answer streams for about 5 s, long enough to press Stop


def _answer(request: RecordedRequest) -> dict[str, Any]:
    if not request.stream:
        return {"text": '{"route": "reply", "reason": "topology test"}'}
    return {"text": ANSWER, "chunk_delay": CHUNK_DELAY, "chunk_size": 4}


@pytest.fixture(scope="module")
def running_topology(request, django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Topology]:
    from django.conf import settings
    from django.db import connection

    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured: the topology runs in the MariaDB + Redis CI pass")
    if shutil.which("nginx") is None and not shutil.which("/usr/sbin/nginx"):
        pytest.fail("nginx is missing: .ci/run installs it for this pass (apt-get install nginx)")
    var_dir, _env = request.getfixturevalue("production_static")  # only once it runs: collectstatic takes a while
    fake = FakeLLMServer().start()
    fake.set_responder(_answer)
    try:
        with django_db_blocker.unblock():
            database = str(connection.settings_dict["NAME"])
        with topology_running(tmp_path_factory.mktemp("topology"), web=2, database_name=database, var_dir=var_dir,
                              llm_url=fake.base_url,
                              extra_env={"AGENT_AUTO_TITLES": "false", "MEMORY_ENABLED": "false",
                                         # this process's key, so a session it signs in is one the servers know
                                         "DJANGO_SECRET_KEY": settings.SECRET_KEY}) as running:
            yield running
    finally:
        fake.stop()


@pytest.fixture
def topology(running_topology, transactional_db) -> Iterator[Topology]:
    """The topology for one test; afterwards its background writers are let finish before the database is
    emptied for the next test (beat's periodic writes and a memory job racing the flush deadlocked it)."""
    if running_topology.children["beat"].process.poll() is not None:
        running_topology.start_again("beat")
    yield running_topology
    running_topology.stop("beat")
    deadline = time.monotonic() + 60
    while _background_work_left() and time.monotonic() < deadline:
        time.sleep(0.2)


def _background_work_left() -> bool:
    from memory.models import MemoryJob
    from smartmate.platform.models import OutboxEvent

    outbox_done = (OutboxEvent.Status.CONSUMED, OutboxEvent.Status.DEAD)
    jobs_left = (MemoryJob.Status.PENDING, MemoryJob.Status.RUNNING)
    return (OutboxEvent.objects.exclude(status__in=outbox_done).exists()
            or MemoryJob.objects.filter(status__in=jobs_left).exists()
            or Conversation.objects.filter(running_turn_id__isnull=False).exists())


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def _post_json(url: str, body: dict, headers: dict[str, str]) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _ws_connects(topology: Topology) -> list[int]:
    return [text.count("WSCONNECT /ws/agent/") for text in map(topology.web_log_text, range(len(topology.web_urls)))]


def test_pages_static_files_and_healthz_answer_through_the_proxy(topology):
    before = [len(topology.web_log_text(index)) for index in range(2)]
    for _ in range(6):
        assert _get(f"{topology.url}/accounts/login/") == 200
    assert _get(f"{topology.url}/healthz") == 200
    assert _get(f"{topology.url}/static/js/offline.js") in {200, 404}  # hashed names only in production
    served = [len(topology.web_log_text(index)) > before[index] for index in range(2)]
    assert served == [True, True], "nginx should spread requests over both processes"


async def _follow(socket: Any, events: list[dict], deadline: float) -> dict:
    """Read one tab's events until ``turn.done``; return it."""
    while True:
        frame = json.loads(await asyncio.wait_for(socket.recv(), timeout=max(0.1, deadline - time.monotonic())))
        events.append(frame)
        if frame.get("type") == "turn.done":
            return frame


def test_two_tabs_on_two_processes_follow_one_stream_and_stop_from_either(topology):
    student = UserFactory()
    conversation = Conversation.objects.create(user=student)
    ws_url = topology.url.replace("http://", "ws://") + "/ws/agent/?ticket="
    connects_before = _ws_connects(topology)

    async def scenario() -> tuple[list[dict], list[dict]]:
        first_events: list[dict] = []
        second_events: list[dict] = []
        deadline = time.monotonic() + 90
        async with connect(ws_url + ticket_create(user=student).ticket, origin=Origin(topology.url),
                           proxy=None) as first, \
                connect(ws_url + ticket_create(user=student).ticket, origin=Origin(topology.url), proxy=None) as second:
            await second.send(json.dumps({"type": "replay", "conversation_id": conversation.pk, "after_seq": 0}))
            await first.send(json.dumps({"type": "chat.send", "conversation_id": conversation.pk,
                                         "text": "周三晚上有空吗？"}, ensure_ascii=False))
            while not any(event.get("type") == "assistant.delta" for event in second_events):
                second_events.append(json.loads(await asyncio.wait_for(second.recv(), timeout=60)))
            await second.send(json.dumps({"type": "chat.cancel", "conversation_id": conversation.pk}))
            done_first, done_second = await asyncio.gather(_follow(first, first_events, deadline),
                                                           _follow(second, second_events, deadline))
            assert done_first["outcome"] == done_second["outcome"] == "cancelled"
        return first_events, second_events

    first_events, second_events = asyncio.run(scenario())

    assert [after - before for before, after in zip(connects_before, _ws_connects(topology), strict=True)] == [1, 1]
    stored = {(event["seq"], event["type"]) for event in first_events if "seq" in event}
    followed = {(event["seq"], event["type"]) for event in second_events if "seq" in event}
    assert any(kind == "assistant.delta" for _, kind in followed)
    # The second tab saw every stored event the first one saw from the moment it followed.
    assert {item for item in stored if item[0] >= min(seq for seq, _ in followed)} <= followed
    streamed = "".join(event.get("text", "") for event in first_events if event.get("type") == "assistant.delta")
    assert 0 < len(streamed) < len(ANSWER), "Stop from the other process cut the answer short"


def test_the_login_limit_counts_across_processes(topology):
    student = UserFactory()
    address = {"X-Forwarded-For": "198.51.100.23"}  # one student's address, through the one trusted proxy hop
    answers = []
    for attempt in range(6):  # login_pair allows 5 failures per account and address in 15 minutes
        web = topology.web_urls[attempt % 2]
        answers.append(_post_json(f"{web}/api/v1/auth/token/", {"username": student.username, "password": "wrong"},
                                  address)[0])
    status, body = _post_json(f"{topology.web_urls[1]}/api/v1/auth/token/",
                              {"username": student.username, "password": DEFAULT_PASSWORD}, address)
    assert answers[:5] == [401] * 5
    assert (answers[5], status, body["code"]) == (429, 429, "rate_limited")


def test_the_load_check_passes_through_the_proxy(topology, tmp_path):
    from django.db import connection

    from smartmate.loadcheck import LoadConfig
    from smartmate.loadcheck.run import loadcheck_run

    # Few students (the full run is `python -m smartmate.loadcheck --server <proxy>`, figures in the README):
    # every step through nginx, then the data check on what the two processes and the workers wrote.
    report = loadcheck_run(LoadConfig(users=12, timeout=240, http_timeout=120),
                           database_name=str(connection.settings_dict["NAME"]), folder=tmp_path,
                           redis_url=topology.env["REDIS_URL"], urls=[topology.url])
    print("\n".join(report.lines()))
    assert report.error_count == 0
    assert report.completed == 12



def test_a_reminder_reaches_two_tabs_on_two_processes_once_each_and_is_stored_once(topology):
    from datetime import timedelta

    from django.test import Client
    from django.utils import timezone

    from taskclasses.reminders.models import Reminder
    from taskclasses.reminders.services import reminders_produce
    from taskclasses.tests.factories import make_task_class, place_item

    student = UserFactory()
    client = Client()
    client.force_login(student)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    ws_url = topology.url.replace("http://", "ws://") + "/ws/notifications/"
    connects_before = [text.count("WSCONNECT /ws/notifications/") for text in
                       map(topology.web_log_text, range(len(topology.web_urls)))]

    def a_block_soon() -> None:
        event = place_item(make_task_class(student, name="线代复习", items=1).items.get(), week=13, day=3, start=5)
        starts = timezone.now() + timedelta(minutes=8)
        type(event).objects.filter(pk=event.pk).update(starts_at=starts, ends_at=starts + timedelta(minutes=95))

    async def scenario() -> list[list[dict]]:
        tabs = [await connect(ws_url, origin=Origin(topology.url), proxy=None,
                              additional_headers={"Cookie": cookie, "Accept-Language": "zh-hans"}) for _ in range(2)]
        heard: list[list[dict]] = [[json.loads(await asyncio.wait_for(tab.recv(), 30))] for tab in tabs]
        # A block starts in 8 minutes; the reminder goes out through the outbox to the topology's worker.
        await asyncio.to_thread(a_block_soon)
        await asyncio.to_thread(reminders_produce, user=student)
        for tab, frames in zip(tabs, heard, strict=True):
            frames.append(json.loads(await asyncio.wait_for(tab.recv(), 60)))
        await asyncio.sleep(2)  # nothing more comes: not a second copy from the other process
        for tab, frames in zip(tabs, heard, strict=True):
            try:
                frames.append(json.loads(await asyncio.wait_for(tab.recv(), 0.5)))
            except TimeoutError:
                pass
            await tab.close()
        return heard

    heard = asyncio.run(scenario())

    connects = [text.count("WSCONNECT /ws/notifications/") for text in
                map(topology.web_log_text, range(len(topology.web_urls)))]
    assert [after - before for before, after in zip(connects_before, connects, strict=True)] == [1, 1]
    assert [[frame["type"] for frame in frames] for frames in heard] == [["hello", "reminder"]] * 2
    assert heard[0][1]["reminder"]["text"].startswith("学习块“线代复习 #1”将于")
    assert Reminder.objects.filter(user=student).count() == 1
