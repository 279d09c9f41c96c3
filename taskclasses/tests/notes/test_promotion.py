"""Tasks past their urgency threshold move 2 → 1 (and only those), once, with the reason recorded."""

from __future__ import annotations

from datetime import timedelta

from taskclasses.models import Task
from taskclasses.notes.services import tasks_promote
from taskclasses.tasks import promote_due_tasks  # the module the worker autodiscovers
from taskclasses.tests.factories import NOW, make_task


def test_promotion_moves_only_important_tasks_past_their_threshold(user):
    important = make_task(user, quadrant=2, deadline=NOW + timedelta(hours=20))
    complex_ = make_task(user, title="拼完乐高", quadrant=4, deadline=NOW + timedelta(hours=30))
    later = make_task(user, title="写论文", quadrant=2, deadline=NOW + timedelta(days=9))
    assert tasks_promote(now=NOW) == 1
    assert [Task.objects.get(pk=t.pk).quadrant for t in (important, complex_, later)] == [1, 4, 2]
    promoted = Task.objects.get(pk=important.pk)
    assert (promoted.auto_reason, promoted.auto_changed_at) == ("threshold_reached", NOW)
    assert promoted.hours_left_when_promoted == 20


def test_promotion_is_idempotent(user):
    make_task(user, quadrant=2, deadline=NOW + timedelta(hours=20))
    assert tasks_promote(now=NOW) == 1
    assert tasks_promote(now=NOW + timedelta(minutes=1)) == 0
    assert Task.objects.get().auto_changed_at == NOW


def test_completed_tasks_and_tasks_without_threshold_never_move(user):
    make_task(user, quadrant=2, deadline=NOW + timedelta(hours=1), completed=True)
    make_task(user, title="有空整理", quadrant=4)
    assert tasks_promote(now=NOW) == 0


def test_choosing_a_quadrant_by_hand_clears_the_promotion_mark(user):
    from taskclasses.notes.services import task_update

    task = make_task(user, quadrant=2, deadline=NOW + timedelta(hours=20))
    tasks_promote(now=NOW)
    task_update(user=user, task_id=task.pk, quadrant=2)
    task.refresh_from_db()
    assert (task.quadrant, task.auto_reason, task.is_promoted) == (2, "", False)


def test_the_beat_job_promotes_every_students_due_tasks(user, other_user, monkeypatch):
    make_task(user, quadrant=2, deadline=NOW + timedelta(hours=3))
    make_task(other_user, quadrant=4, deadline=NOW + timedelta(hours=3))
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    assert promote_due_tasks.delay().get(timeout=5) == 1
    assert sorted(Task.objects.values_list("quadrant", flat=True)) == [1, 4]


def test_the_beat_schedule_runs_the_job_every_minute():
    from smartmate.celery import app

    entry = app.conf.beat_schedule["promote-quick-notes"]
    assert (entry["task"], entry["schedule"]) == ("taskclasses.promote_due_tasks", 60.0)
    assert "taskclasses.promote_due_tasks" in app.tasks


def test_listing_tasks_shows_due_ones_promoted_without_moving_them(auth_client, user, monkeypatch):
    make_task(user, quadrant=2, deadline=NOW + timedelta(hours=3))
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    [task] = auth_client.get("/api/v1/tasks/").json()
    assert (task["quadrant"], task["promoted"]) == (1, True)
    assert Task.objects.get().quadrant == 2  # the periodic job moves it (test_reads_write_nothing.py)
