"""Reading quick notes writes nothing: the API, the dashboard and the assistant's query_tasks show a due
promotion as made, and only the periodic job writes it."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agent.tools.query_tasks import TOOL as QUERY_TASKS
from agent.tools.support.base import ToolContext
from taskclasses.models import Task
from taskclasses.notes.services import tasks_promote
from taskclasses.tests.factories import NOW, make_task

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@pytest.fixture
def due_note(user, monkeypatch):
    """An important note whose threshold passed 28 hours ago, not yet moved by the periodic job."""
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    return make_task(user, quadrant=2, deadline=NOW + timedelta(hours=20))


def _rows():
    return list(Task.objects.order_by("pk").values())


def _read_writing_nothing(read):
    """Run ``read`` and fail if it sent the database any write; the notes' rows are compared too."""
    before = _rows()
    with CaptureQueriesContext(connection) as queries:
        answer = read()
    writes = [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith(WRITES)]
    assert writes == []
    assert _rows() == before
    return answer


def test_the_list_api_shows_a_due_promotion_and_writes_nothing(auth_client, due_note):
    [task] = _read_writing_nothing(lambda: auth_client.get("/api/v1/tasks/").json())
    assert (task["quadrant"], task["promoted"], task["auto_reason"]) == (1, True, "threshold_reached")
    assert Task.objects.get().quadrant == 2


def test_filtering_by_quadrant_goes_by_where_the_note_stands_now(auth_client, due_note):
    assert [t["id"] for t in auth_client.get("/api/v1/tasks/?quadrant=1").json()] == [due_note.pk]
    assert auth_client.get("/api/v1/tasks/?quadrant=2").json() == []


def test_a_promoted_note_sorts_by_deadline_among_the_urgent_ones(auth_client, user, due_note):
    later = make_task(user, title="交实验报告", quadrant=1, deadline=NOW + timedelta(days=2))
    assert [t["id"] for t in auth_client.get("/api/v1/tasks/").json()] == [due_note.pk, later.pk]


def test_one_note_reads_as_it_stands_now_and_writes_nothing(auth_client, due_note):
    task = _read_writing_nothing(lambda: auth_client.get(f"/api/v1/tasks/{due_note.pk}/").json())
    assert (task["quadrant"], task["promoted"]) == (1, True)


def test_the_dashboard_shows_the_promoted_note_in_quadrant_one_and_writes_nothing(client, user, due_note):
    client.force_login(user)
    html = _read_writing_nothing(lambda: client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    urgent = html.split('data-test="quadrant-1"')[1].split('data-test="quadrant-2"')[0]
    assert "交概率论作业" in urgent and "promoted: due in 48 h" in urgent


def test_query_tasks_shows_the_promoted_quadrant_and_writes_nothing(user, due_note):
    ctx = ToolContext(user_id=user.pk, conversation_id=1, call_id="call-1", now=NOW)
    result = _read_writing_nothing(lambda: QUERY_TASKS.run({"quadrant": 1}, ctx, None))
    [item] = json.loads(result.content)["items"]
    assert (item["id"], item["quadrant"]) == (due_note.pk, 1)


def test_the_periodic_job_then_writes_what_the_reads_showed(auth_client, due_note):
    shown = auth_client.get("/api/v1/tasks/").json()
    assert tasks_promote(now=NOW) == 1
    stored = auth_client.get("/api/v1/tasks/").json()
    assert [(t["quadrant"], t["promoted"]) for t in stored] == [(t["quadrant"], t["promoted"]) for t in shown]
