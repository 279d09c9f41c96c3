"""The heal actions on the pages: catch-up on the dashboard and the board, repair after a change, reasons shown."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from board.repair import event_create_displacing
from schedule.models import PlanPreview
from schedule.services.events import Span
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

NOW = datetime(2026, 9, 23, 12, 0, tzinfo=ZoneInfo("Asia/Shanghai"))  # Wednesday of week 3


@pytest.fixture(autouse=True)
def frozen(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)


@pytest.fixture
def missed_two(user):
    task_class = make_task_class(user, items=3)
    for item, day, status in zip(task_class.items.order_by("order"), (1, 2, 5), ("missed", "placed", "placed")):
        place_item(item, week=3, day=day, start=1)
        TaskItem.objects.filter(pk=item.pk).update(status=status, placement_reason={"v": 1, "kind": "manual"})
    return task_class


def test_the_dashboard_and_the_board_offer_the_catch_up_in_chinese(client, user, missed_two):
    client.force_login(user)
    for path in ("/", reverse("board:week") + "?week=3"):
        page = client.get(path, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        assert "补上落下的 2 次复习" in page, path


def test_the_board_shows_why_each_block_is_there(client, user, missed_two):
    client.force_login(user)
    page = client.get(reverse("board:week") + "?week=3", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert page.count('title="你手动放在这里。"') == 3 and page.count('data-test="agenda-reason"') == 3


def test_the_catch_up_button_opens_its_preview_on_the_board(client, user, missed_two):
    client.force_login(user)
    answer = client.post(reverse("board:catch-up"))
    preview = PlanPreview.objects.get()
    assert answer.status_code == 302 and answer["Location"].endswith(f"?preview={preview.pk}&week=3")
    page = client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "原定在第 3 周周一，没有完成" in page


def test_a_catch_up_of_an_ended_plan_comes_back_as_a_message(client, user):
    ended = make_task_class(user, items=1, start_date=date(2026, 9, 14), end_date=date(2026, 9, 20))
    client.force_login(user)
    answer = client.post(reverse("board:catch-up"), {"task_class_id": ended.pk, "back": "/"},
                         HTTP_ACCEPT_LANGUAGE="zh-hans", follow=True)
    assert "已于 2026-09-20 结束" in answer.content.decode() and not PlanPreview.objects.exists()


def test_after_an_event_over_a_block_the_board_offers_the_repair(client, user):
    task_class = make_task_class(user, items=1)
    place_item(task_class.items.get(), week=4, day=3, start=3)
    TaskItem.objects.filter(task_class=task_class).update(status="placed")
    change = event_create_displacing(user=user, title="社团活动", span=Span(4, 3, 3, 4))
    client.force_login(user)
    page = client.get(reverse("board:week") + "?week=4", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "重新安排被挤开的 1 个学习块（尽量少挪动其他的）" in page
    assert "已在安排了学习块的时间添加「社团活动」" in page
    answer = client.post(reverse("board:repair"), {"changeset_id": change.pk})
    assert answer.status_code == 302 and PlanPreview.objects.count() == 1
