"""The production topology on one machine: nginx in front of two daphne processes, a worker per queue, beat.

What one process never showed: a student's two tabs on two processes see the same stream, Stop pressed
on one stops a turn started from the other (run by a worker), the login limits count across processes,
a reminder reaches both processes' sockets once, and the load check passes through nginx with one web
process and with two. The fixtures are in ``topology_fixtures.py``; the same in Chromium is in
``test_topology_e2e.py``. Runs in the MariaDB + Redis CI pass (``.ci/run`` installs nginx).
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from agent.models import Conversation
from agent.services.tickets import ticket_create
from smartmate.tests.topology_fixtures import ANSWER, FIGURES, web_log_counts

pytestmark = [pytest.mark.topology, pytest.mark.worker, pytest.mark.xdist_group("topology")]  # one topology, one process

LOAD_CHECK_STUDENTS = 10  # per run; the full run is `python -m bench.loadcheck --topology --users 300`


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
    # Each tab through nginx's door to one process: the first tab on web-0, the second on web-1.
    doors = [(door.replace("http://", "ws://") + "/ws/agent/?ticket=", Origin(door)) for door in topology.pinned_urls]
    connects_before = web_log_counts(topology, "WSCONNECT /ws/agent/")

    async def scenario() -> tuple[list[dict], list[dict]]:
        first_events: list[dict] = []
        second_events: list[dict] = []
        deadline = time.monotonic() + 90
        (first_url, first_origin), (second_url, second_origin) = doors
        async with connect(first_url + ticket_create(user=student).ticket, origin=first_origin, proxy=None) as first, \
                connect(second_url + ticket_create(user=student).ticket, origin=second_origin, proxy=None) as second:
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

    connects = web_log_counts(topology, "WSCONNECT /ws/agent/")
    assert [after - before for before, after in zip(connects_before, connects, strict=True)] == [1, 1]
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


def test_the_load_check_passes_through_the_proxy_with_one_and_with_two_web_processes(topology, topology_model,
                                                                                     tmp_path, record_property):
    from django.db import connection

    from bench.loadcheck import LoadConfig
    from bench.loadcheck.scaling import scaling_lines, scaling_run
    from bench.topology.processes import fallback_reply

    topology_model.set_responder(lambda request: fallback_reply(200))  # answers at once, as the full run's model
    # Every step through nginx, first to one daphne process, then to both, each followed by the data check
    # on what the processes and the workers wrote. The figures are printed, never asserted: only correctness is.
    runs = scaling_run(LoadConfig(users=LOAD_CHECK_STUDENTS, timeout=240, http_timeout=120), topology=topology,
                       database_name=str(connection.settings_dict["NAME"]), folder=tmp_path,
                       redis_url=topology.env["REDIS_URL"])
    printed = "\n".join(scaling_lines(runs))
    record_property(FIGURES, printed)  # shown in the summary at the end of the run

    assert [run.processes for run in runs] == [1, 2]
    for run in runs:
        assert run.report.error_count == 0, printed
        assert run.report.completed == LOAD_CHECK_STUDENTS, printed
        totals = run.report.data.totals
        assert totals["block events"] == totals["blocks in the preview"] == LOAD_CHECK_STUDENTS * 4, printed
        assert totals["blocks placed twice"] == 0, printed
        assert (totals["conversations"], totals["assistant messages"]) == (LOAD_CHECK_STUDENTS,) * 2, printed


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
    connects_before = web_log_counts(topology, "WSCONNECT /ws/notifications/")

    def a_block_soon() -> None:
        event = place_item(make_task_class(student, name="线代复习", items=1).items.get(), week=13, day=3, start=5)
        starts = timezone.now() + timedelta(minutes=8)
        type(event).objects.filter(pk=event.pk).update(starts_at=starts, ends_at=starts + timedelta(minutes=95))

    async def scenario() -> list[list[dict]]:
        # One tab through each of nginx's doors pinned to a process: web-0, then web-1.
        tabs = [await connect(door.replace("http://", "ws://") + "/ws/notifications/", origin=Origin(door), proxy=None,
                              additional_headers={"Cookie": cookie, "Accept-Language": "zh-hans"})
                for door in topology.pinned_urls]
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

    connects = web_log_counts(topology, "WSCONNECT /ws/notifications/")
    assert [after - before for before, after in zip(connects_before, connects, strict=True)] == [1, 1]
    assert [[frame["type"] for frame in frames] for frames in heard] == [["hello", "reminder"]] * 2
    assert heard[0][1]["reminder"]["text"].startswith("学习块“线代复习 #1”将于")
    assert Reminder.objects.filter(user=student).count() == 1
