"""The first-run guide over the Django test client: after sign-up a student meets three steps (semester →
timetable → first plan), each known done from their data, skippable for good; the dashboard carries the
checklist and, with no timetable, points to the import page."""

from __future__ import annotations

from datetime import date

import pytest

from accounts.models import User
from schedule.models import CalendarSettings
from schedule.tests.factories import import_csv
from taskclasses.tests.factories import make_task_class, place_item

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
ROW = "高等数学,1,1,2,王老师,二教2305,1-16"


def _steps(html: str) -> dict[str, str]:
    """{step: "1" done / "0" to do} as the page marks them."""
    import re

    return dict(re.findall(r'data-step="(\w+)" data-done="([01])"', html))


@pytest.mark.django_db
def test_registering_lands_on_the_guide_with_three_steps_to_do(client):
    response = client.post("/accounts/register/", {"username": "xiaoming", "password": "kaoyan-2027!",
                                                   "password_again": "kaoyan-2027!"}, follow=True, **ZH)
    html = response.content.decode()
    assert response.redirect_chain == [("/welcome/", 302)]
    assert "欢迎使用时伴！三步就能开始。" in html and "开始使用" in html
    assert _steps(html) == {"semester": "0", "timetable": "0", "plan": "0"}
    assert "跳过引导" in html and 'href="/schedule/import/"' in html


def test_the_guide_saves_the_semester_with_a_time_zone_named_as_students_do(client, user):
    client.force_login(user)
    response = client.post("/welcome/", {"semester_start": "2027-03-01", "semester_weeks": "18",
                                         "time_zone": "北京时间"}, follow=True, **ZH)
    calendar = CalendarSettings.objects.get(user=user)
    user.refresh_from_db()
    assert (calendar.semester_start, calendar.semester_weeks, user.time_zone) == (date(2027, 3, 1), 18,
                                                                                   "Asia/Shanghai")
    assert calendar.semester_confirmed_at is not None
    assert "学期已保存。下一步：导入课表。" in response.content.decode()
    assert _steps(response.content.decode())["semester"] == "1"


def test_the_guide_refuses_a_semester_not_starting_on_monday_and_writes_nothing(client, user):
    client.force_login(user)
    response = client.post("/welcome/", {"semester_start": "2027-03-02", "semester_weeks": "18",
                                         "time_zone": "Asia/Shanghai"}, **ZH)
    assert response.status_code == 400
    assert "第 1 周必须从星期一开始。" in response.content.decode()
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.semester_start, calendar.semester_confirmed_at) == (date(2026, 9, 7), None)


def test_the_steps_are_known_done_from_the_timetable_and_an_applied_plan(client, user):
    client.force_login(user)
    import_csv(user, ROW)
    plan = make_task_class(user)
    assert _steps(client.get("/welcome/", **ZH).content.decode())["plan"] == "0"  # written, not yet placed
    place_item(plan.items.first())
    steps = _steps(client.get("/welcome/", **ZH).content.decode())
    assert steps == {"semester": "0", "timetable": "1", "plan": "1"}


def test_the_dashboard_carries_the_checklist_until_it_is_dismissed_for_good(client, user):
    client.force_login(user)
    html = client.get("/", **ZH).content.decode()
    assert 'data-test="first-run-card"' in html and "开始使用：已完成 0 / 3 步" in html
    response = client.post("/welcome/dismiss/", follow=True, **ZH)
    assert "引导已关闭。" in response.content.decode()
    assert 'data-test="first-run-card"' not in response.content.decode()
    user.refresh_from_db()
    assert user.first_run_dismissed_at is not None
    assert 'data-test="first-run-card"' not in client.get("/", **ZH).content.decode()


def test_dismissing_needs_a_post(client, user):
    client.force_login(user)
    assert client.get("/welcome/dismiss/").status_code == 405
    assert User.objects.get(pk=user.pk).first_run_dismissed_at is None


def test_the_checklist_leaves_the_dashboard_once_every_step_is_done(client, user):
    client.force_login(user)
    client.post("/welcome/", {"semester_start": "2026-09-07", "semester_weeks": "20", "time_zone": "Asia/Shanghai"})
    import_csv(user, ROW)
    place_item(make_task_class(user).items.first())
    assert 'data-test="first-run-card"' not in client.get("/", **ZH).content.decode()
    assert 'data-test="first-run-complete"' in client.get("/welcome/", **ZH).content.decode()


def test_an_empty_dashboard_points_to_the_import_page(client, user):
    client.force_login(user)
    user.first_run_dismissed_at = user.date_joined
    user.save()
    html = client.get("/", **ZH).content.decode()
    assert 'data-test="import-pointer"' in html and "你的课表还没有导入。" in html
    import_csv(user, ROW)
    assert 'data-test="import-pointer"' not in client.get("/", **ZH).content.decode()


def test_the_guide_needs_a_login(client, db):
    assert client.get("/welcome/")["Location"].startswith("/accounts/login/")
    assert client.post("/welcome/dismiss/")["Location"].startswith("/accounts/login/")
