"""Planning on the week board over the Django test client: preview overlay, apply, undo."""

from __future__ import annotations

import pytest

from board.planning import preview_create
from schedule.models import ChangeSet, Course, PlanPreview, ScheduleEvent
from schedule.tests.factories import import_csv, make_task_class

pytestmark = pytest.mark.usefixtures("before_week_three")

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_plan_button_opens_the_board_on_the_first_suggested_week(client, user):
    task_class = make_task_class(user, items=3)
    client.force_login(user)
    response = client.post("/board/previews/new/", {"task_class_ids": [task_class.pk]})
    preview = PlanPreview.objects.get(user=user)
    assert response["Location"] == f"/board/?preview={preview.pk}&week=3"
    html = client.get(response["Location"], **EN).content.decode()
    assert html.count('data-test="suggestion"') == len([p for p in preview.placements if p["week"] == 3])
    assert "Suggested plan" in html


def test_suggestions_inside_filler_courses_show_in_the_host_cell(client, user):
    import_csv(user, "形势与政策,1,1,2,赵立新,二教1101,3")
    Course.objects.update(is_filler=True)
    task_class = make_task_class(user, items=1, strategy="rapid")
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    client.force_login(user)
    html = client.get(f"/board/?preview={preview.pk}&week=3").content.decode()
    host_cell = html[html.index('data-event-id="'):html.index("</td>", html.index('data-event-id="'))]
    assert "形势与政策" in host_cell and 'data-test="suggestion"' in host_cell


def test_apply_form_writes_the_blocks_and_undo_form_reverts_them(client, user):
    task_class = make_task_class(user, items=2)
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    client.force_login(user)
    client.post(f"/board/previews/{preview.pk}/apply/", {"week": "3"})
    assert ScheduleEvent.objects.filter(kind="task_item").count() == 2
    html = client.get("/board/?week=3", **EN).content.decode()
    assert "Last change: 2 blocks placed (" in html
    client.post(f"/board/changesets/{ChangeSet.objects.get().pk}/undo/")
    assert not ScheduleEvent.objects.filter(kind="task_item").exists()


def test_an_expired_or_foreign_preview_is_simply_not_shown(client, user, other_user):
    theirs = preview_create(user=other_user, task_class_ids=[make_task_class(other_user).pk])
    client.force_login(user)
    html = client.get(f"/board/?preview={theirs.pk}&week=3").content.decode()
    assert 'data-test="suggestion"' not in html
    assert client.post(f"/board/previews/{theirs.pk}/apply/").status_code == 404
    assert client.post(f"/board/previews/{theirs.pk}/discard/").status_code == 404


def test_planning_panel_shows_the_feasibility_line(client, user, rf):
    from django.template import Context, Template
    from django.utils import translation

    task_class = make_task_class(user, items=16, excluded_pairs=[6])
    request = rf.get("/")
    request.user = user
    with translation.override("en"):
        html = Template("{% load planning %}{% planning_panel task_class %}").render(
            Context({"request": request, "task_class": task_class}))
    assert "16 blocks requested, 70 usable slots in the window, slack 54" in html


def test_the_boards_first_address_redirects_for_good_keeping_the_query(client, user):
    client.force_login(user)
    response = client.get("/schedule/?week=4&preview=7")
    assert (response.status_code, response["Location"]) == (301, "/board/?week=4&preview=7")
    assert client.get("/schedule/")["Location"] == "/board/"


def test_the_boards_first_address_takes_no_post(client, user):
    client.force_login(user)
    assert client.post("/schedule/").status_code == 405


def test_a_timetable_page_under_schedule_still_marks_schedule_in_the_navigation(client, user):
    client.force_login(user)
    html = client.get("/schedule/import/", **EN).content.decode()
    assert 'data-nav="schedule" aria-current="page"' in html
