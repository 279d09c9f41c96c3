"""The production topology as a test fixture: nginx, two daphne processes, a worker per queue, beat.

Shared by the websocket-level tests (``test_topology.py``) and the Chromium tests through the proxy
(``test_topology_e2e.py``). One topology per test module; a module's tests share an ``xdist_group``
so they run in one test process. It needs a broker, so it runs in the
MariaDB + Redis CI pass (``.ci/run`` installs nginx); on embedded defaults the tests skip.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bench.fake_model import FakeLLMServer, RecordedRequest
from bench.topology import Topology, topology_running

# A test's figures worth reading in CI's log (the load check's p50/p95): ``record_property(FIGURES, text)``
# puts them in its report, which xdist carries to the main process, and the summary at the end prints them.
FIGURES = "topology figures"
ANSWER = "周三晚上七点到九点没有课，可以复习概率论，记得先把上周的错题过一遍。" * 3
CHUNK_DELAY = 0.15  # seconds between streamed pieces: the answer streams for about 5 s, long enough to press Stop


def streamed_answer(request: RecordedRequest) -> dict[str, Any]:
    """The model of the topology tests: routes every question to a plain reply, then streams ``ANSWER``."""
    if not request.stream:
        return {"text": '{"route": "reply", "reason": "topology test"}'}
    return {"text": ANSWER, "chunk_delay": CHUNK_DELAY, "chunk_size": 4}


@pytest.fixture(scope="module")
def topology_model() -> Iterator[FakeLLMServer]:
    """The scripted model every process of the topology talks to; each test starts with ``streamed_answer``."""
    fake = FakeLLMServer().start()
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture(scope="module")
def running_topology(request, django_db_setup, django_db_blocker, tmp_path_factory,
                     topology_model) -> Iterator[Topology]:
    """Start the topology on the test database, with a door of nginx per process (``pinned_urls``)."""
    from django.conf import settings
    from django.db import connection

    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured: the topology runs in the MariaDB + Redis CI pass")
    if shutil.which("nginx") is None and not shutil.which("/usr/sbin/nginx"):
        pytest.fail("nginx is missing: .ci/run installs it for this pass (apt-get install nginx)")
    var_dir, _env = request.getfixturevalue("production_static")  # only once it runs: collectstatic takes a while
    with django_db_blocker.unblock():
        database = str(connection.settings_dict["NAME"])
    with topology_running(tmp_path_factory.mktemp("topology"), web=2, database_name=database, var_dir=var_dir,
                          llm_url=topology_model.base_url, pinned=True,
                          extra_env={"AGENT_AUTO_TITLES": "false", "MEMORY_ENABLED": "false",
                                     # this process's key, so a session it signs in is one the servers know
                                     "DJANGO_SECRET_KEY": settings.SECRET_KEY}) as running:
        yield running


@pytest.fixture
def topology(running_topology, topology_model, transactional_db) -> Iterator[Topology]:
    """The topology for one test; afterwards its background writers are let finish before the database is
    emptied for the next test (beat's periodic writes and a memory job racing the flush deadlocked it)."""
    topology_model.set_responder(streamed_answer)
    if running_topology.children["beat"].process.poll() is not None:
        running_topology.start_again("beat")
    yield running_topology
    running_topology.stop("beat")
    deadline = time.monotonic() + 60
    while _background_work_left() and time.monotonic() < deadline:
        time.sleep(0.2)


def _background_work_left() -> bool:
    from agent.models import Conversation
    from memory.models import MemoryJob
    from smartmate.platform.models import OutboxEvent

    outbox_done = (OutboxEvent.Status.CONSUMED, OutboxEvent.Status.DEAD)
    jobs_left = (MemoryJob.Status.PENDING, MemoryJob.Status.RUNNING)
    return (OutboxEvent.objects.exclude(status__in=outbox_done).exists()
            or MemoryJob.objects.filter(status__in=jobs_left).exists()
            or Conversation.objects.filter(running_turn_id__isnull=False).exists())


def web_log_counts(topology: Topology, text: str) -> list[int]:
    """How often each web process logged ``text`` (e.g. ``WSCONNECT /ws/agent/``) so far."""
    return [topology.web_log_text(index).count(text) for index in range(len(topology.web_urls))]


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the figures the topology tests recorded (test output is hidden, and under xdist not even captured here)."""
    for report in terminalreporter.stats.get("passed", []) + terminalreporter.stats.get("failed", []):
        for name, text in getattr(report, "user_properties", ()):
            if name == FIGURES and report.when == "call":
                terminalreporter.write_sep("-", f"{FIGURES}: {report.nodeid}")
                terminalreporter.write_line(text)
