"""The semester pages, server-rendered: the list, a past semester read-only, the start flow and its undo."""

from __future__ import annotations

import pytest
from django.test import Client

from schedule.models import CalendarSettings
from schedule.semesters.models import Semester
from schedule.tests.semesters.helpers import autumn_semester, start_spring

pytestmark = pytest.mark.django_db

NEXT = "/schedule/semesters/next/"


@pytest.fixture
def page(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(user)
    return client


def test_a_past_semester_shows_its_week_its_exams_and_its_workload(page, user):
    past = start_spring(user, autumn_semester(user)["notes"])

    html = page.get(f"/schedule/semesters/{past.pk}/?week=3").content.decode()

    assert "2026 秋季学期" in html and "第 3 周" in html
    assert "高数复习 #1" in html and "英语单词 #1" in html
    assert "高数期末" in html and 'data-test="past-plan"' in html


def test_the_start_flow_reviews_then_starts_and_points_to_the_import(page, user):
    rows = autumn_semester(user)
    form = {"first_monday": "2027-03-01", "weeks": "18", "notes": [str(rows["notes"][0].pk)], "protected": ["午饭"],
            "rules": "on", "plans": "on", "filler": "on"}

    review = page.post(NEXT, {**form, "action": "review"}).content.decode()
    assert "还图书馆的书" in review and "午饭" in review and not Semester.objects.filter(user=user).exists()

    started = page.post(NEXT, {**form, "action": "start"}, follow=True).content.decode()

    assert 'data-test="import-new-timetable"' in started and "新学期已开始" in started
    assert CalendarSettings.objects.get(user=user).semester_start.isoformat() == "2027-03-01"


def test_a_refused_start_shows_the_reason_on_the_form_and_changes_nothing(page, user):
    html = page.post(NEXT, {"first_monday": "2027-03-02", "weeks": "18", "action": "start"}).content.decode()

    assert "第 1 周必须从星期一开始。" in html
    assert not Semester.objects.filter(user=user).exists()


def test_undo_from_the_page_brings_autumn_back(page, user):
    start_spring(user, autumn_semester(user)["notes"])

    html = page.post("/schedule/semesters/next/undo/", follow=True).content.decode()

    assert "已撤销" in html and not Semester.objects.filter(user=user).exists()


def test_the_board_header_lists_past_semesters(page, user):
    past = start_spring(user, autumn_semester(user)["notes"])

    html = page.get("/board/").content.decode()

    assert f'href="/schedule/semesters/{past.pk}/"' in html


def test_another_students_past_semester_page_is_not_found(page, other_user):
    theirs = start_spring(other_user, autumn_semester(other_user)["notes"])

    assert page.get(f"/schedule/semesters/{theirs.pk}/").status_code == 404
