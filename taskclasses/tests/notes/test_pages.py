"""The dashboard's quadrants and quick-note forms over the Django test client."""

from __future__ import annotations

from datetime import timedelta

from taskclasses.models import Task
from taskclasses.notes.services import tasks_promote
from taskclasses.tests.factories import NOW, make_task

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_quick_add_form_saves_the_parsed_note(client, user):
    client.force_login(user)
    client.post("/tasks/quick-add/", {"text": "有空的时候整理桌面"})
    task = Task.objects.get(user=user)
    assert (task.title, task.quadrant, task.deadline) == ("整理桌面", 3, None)


def test_quick_add_form_takes_the_edited_deadline_in_the_students_zone(client, user):
    client.force_login(user)
    client.post("/tasks/quick-add/", {"text": "明天交作业", "title": "交高数作业", "quadrant": "1",
                                      "deadline": "2026-12-24T18:30", "deadline_edited": "1"})
    task = Task.objects.get(user=user)
    assert (task.title, task.quadrant) == ("交高数作业", 1)
    assert task.deadline.isoformat() == "2026-12-24T10:30:00+00:00"


def test_quick_add_form_reports_an_empty_note(client, user):
    client.force_login(user)
    response = client.post("/tasks/quick-add/", {"text": "  "}, follow=True, **EN)
    assert "Write what the note is about." in response.content.decode()
    assert not Task.objects.exists()


def test_dashboard_shows_quadrants_badge_and_overdue_count(client, user, monkeypatch):
    make_task(user, title="交概率论作业", quadrant=2, deadline=NOW + timedelta(hours=20))
    make_task(user, title="补交实验报告", quadrant=1, deadline=NOW - timedelta(days=1), threshold=NOW - timedelta(days=3))
    tasks_promote(now=NOW)
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    client.force_login(user)
    html = client.get("/", **EN).content.decode()
    assert "promoted: due in 20 h" in html
    assert "1 overdue" in html
    assert "Important and urgent" in html and "Complex, not important" in html


def test_complete_and_restore_buttons(client, user):
    task = make_task(user)
    client.force_login(user)
    client.post(f"/tasks/{task.pk}/complete/")
    task.refresh_from_db()
    assert task.completed
    assert 'data-test="task-restore"' in client.get("/").content.decode()
    client.post(f"/tasks/{task.pk}/restore/")
    task.refresh_from_db()
    assert not task.completed


def test_another_students_task_buttons_are_404(client, user, other_user):
    task = make_task(other_user)
    client.force_login(user)
    for action in ("complete", "restore", "schedule", "unschedule", "delete"):
        assert client.post(f"/tasks/{task.pk}/{action}/").status_code == 404
    assert Task.objects.filter(pk=task.pk, completed=False).exists()


def test_completing_and_restoring_say_so_in_chinese(client, user):
    task = make_task(user, title="交实验报告")
    client.force_login(user)

    done = client.post(f"/tasks/{task.pk}/complete/", follow=True, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    back = client.post(f"/tasks/{task.pk}/restore/", follow=True, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    assert "已完成「交实验报告」。想恢复的话，它在“最近完成”里。" in done
    assert "「交实验报告」已回到原来的象限" in back
