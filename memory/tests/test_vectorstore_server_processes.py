"""One Milvus server, several processes: a memory a Celery worker writes is recalled by two other processes,
and a forget done in one of them is gone for the other at once (no process keeps a stale copy).

Runs in CI's Milvus pass (``MILVUS_URI=http://...`` with MariaDB + Redis and a real worker)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory.models import MemoryItem
from memory.testing import milvus_server_uri
from memory.tests.factories import make_memory
from memory.vectorstore import MilvusVectorStore

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(milvus_server_uri() is None, reason="needs a Milvus server: MILVUS_URI=http://127.0.0.1:PORT"),
]

REPO_ROOT = Path(__file__).resolve().parents[2]
QUESTION = "我晚饭可以吃花生酱吗"


class RecallProcess:
    """A child Python process that recalls and forgets through the real services (recall_process.py)."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self._log = log.open("wb")
        self.process = subprocess.Popen([sys.executable, "-m", "memory.tests.recall_process"], cwd=REPO_ROOT,
                                        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                        text=True)
        self.pid = self._read()["pid"]

    def ask(self, **command: object) -> dict:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return self._read()

    def _read(self) -> dict:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise AssertionError(f"the recall process died; see {self._log.name}")
        return json.loads(line)

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()


@pytest.fixture
def server_collection(monkeypatch) -> Iterator[str]:
    """A collection of this test on the server, named in the environment every child process inherits."""
    uri = milvus_server_uri()
    assert uri is not None
    name = f"processes_{uuid.uuid4().hex}"
    monkeypatch.setenv("MILVUS_COLLECTION", name)
    yield name
    store = MilvusVectorStore(uri, collection=name, dimensions=384)
    store.drop_collection()
    store.close()


@pytest.fixture
def recall_processes(server_collection, tmp_path) -> Iterator[tuple[RecallProcess, RecallProcess]]:
    import os

    from django.db import connection

    # What is recalled is under test here, not how fast: on a busy CI machine a Strong search may pass recall's
    # 500 ms budget (which then answers from rows only), so the children get a budget that always suffices.
    env = dict(os.environ, DATABASE_NAME_OVERRIDE=str(connection.settings_dict["NAME"]), MEMORY_ENABLED="1",
               MEMORY_RECALL_TIMEOUT_MS="10000")
    first, second = RecallProcess(env, tmp_path / "recall-1.log"), RecallProcess(env, tmp_path / "recall-2.log")
    yield first, second
    first.stop()
    second.stop()


def written_by_the_worker(item: MemoryItem, timeout: float = 120.0) -> None:
    """Have the worker's maintenance task sync the vector this row owes, and wait until it has."""
    from memory.tasks import memory_maintenance

    memory_maintenance.apply_async(queue="memory")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        item.refresh_from_db()
        if item.vector_state == MemoryItem.VectorState.SYNCED:
            return
        time.sleep(0.2)
    raise AssertionError(f"the worker did not sync memory {item.pk} within {timeout:.0f} s ({item.vector_state})")


def test_a_memory_written_by_a_worker_is_recalled_by_two_processes_and_a_forget_in_one_reaches_the_other(
        user, server_collection, request):
    peanuts = make_memory(user, "对花生过敏", "fact", vector_state=MemoryItem.VectorState.FAILED)
    roommate = make_memory(user, "室友叫小李", "fact", vector_state=MemoryItem.VectorState.FAILED)
    worker = request.getfixturevalue("celery_worker_process")
    written_by_the_worker(peanuts)
    roommate.refresh_from_db()
    first, second = request.getfixturevalue("recall_processes")

    before = [process.ask(op="recall", user_id=user.pk, query=QUESTION) for process in (first, second)]
    forgotten = first.ask(op="forget", user_id=user.pk, memory_id=peanuts.pk)
    after = [process.ask(op="recall", user_id=user.pk, query=QUESTION) for process in (second, first)]

    assert len({worker.pid, first.pid, second.pid}) == 3
    assert roommate.vector_state == MemoryItem.VectorState.SYNCED
    for answer in before:
        assert answer["hits"][0] == peanuts.pk and "- 对花生过敏" in answer["block"], answer
    assert forgotten["forgotten"] == [peanuts.pk]
    for answer in after:
        assert peanuts.pk not in answer["hits"] and "对花生过敏" not in answer["block"], answer
        assert answer["hits"] == [roommate.pk]
