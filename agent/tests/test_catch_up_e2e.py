"""The assistant offers "补上落下的 2 次复习" in Chromium, on a phone, in Chinese, with the scripted model:
the catch-up waits for the student's confirmation, becomes the chat's preview, and applying it plans the
missed reviews again from now on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.tests.factories import reply, route, tool_call
from agent.tests.test_chat_e2e import _open_chat
from schedule.models import CalendarSettings, ScheduleEvent
from schedule.tests.factories import make_task_class
from smartmate.tests.live_server import wait_until
from taskclasses.models import TaskItem
from taskclasses.tests.factories import place_item

PHONE = {"width": 390, "height": 844}


def _two_reviews_behind(student) -> list[TaskItem]:
    """Week 3 of the term is under way: #1 (placed) and #2 (marked missed) were due on the two days
    before today, #3 waits five days on."""
    today = timezone.localdate(timezone.now(), student.zone)
    start = today - timedelta(days=today.weekday() + 14)
    CalendarSettings.objects.filter(user=student).update(semester_start=start)
    task_class = make_task_class(student, name="概率论复习", items=3, start=today - timedelta(days=3),
                                 end=today + timedelta(days=10))
    items = list(task_class.items.order_by("order"))
    for item, offset, status in zip(items, (-2, -1, 5), ("placed", "missed", "placed")):
        day = today + timedelta(days=offset)
        place_item(item, week=(day - start).days // 7 + 1, day=day.isoweekday(), start=1, status=status)
    return items


@pytest.mark.e2e
def test_the_assistant_offers_the_catch_up_and_it_is_applied_after_confirmation(page, chat_server, transactional_db):
    base_url, fake = chat_server
    student = UserFactory()
    first, second, third = _two_reviews_behind(student)
    was = {item.pk: ScheduleEvent.objects.get(task_item=item).starts_at for item in (first, second)}
    fake.script(route("execute"), tool_call("catch_up", {}, text="你有 2 次复习落下了，可以帮你补上。"))

    page.set_viewport_size(PHONE)
    _open_chat(page, base_url, student.username)
    page.fill("[data-test=chat-input]", "我前两天好像漏了复习")
    page.click("[data-test=chat-send]")
    confirm = page.locator("[data-test=chat-confirm-card]").last
    expect(confirm).to_contain_text("补上落下的 2 次复习", timeout=30_000)
    assert ScheduleEvent.objects.get(task_item=second).starts_at == was[second.pk]  # nothing moved yet
    wait_until(page, "() => document.documentElement.scrollWidth <= window.innerWidth")

    fake.script(reply("补好了：两次复习都排在了下一次之前。"))
    confirm.locator("[data-test=chat-accept]").click()
    preview_card = page.locator("[data-test=chat-preview-card]").last
    expect(preview_card).to_be_visible(timeout=30_000)
    expect(page.locator("[data-test=chat-tool]").filter(has_text="补上落下的复习").first).to_be_visible()
    preview_card.locator("[data-test=chat-preview-apply]").click()
    expect(preview_card.locator("[data-test=chat-card-note]")).to_have_class("chat-card-note ok")

    now = timezone.now()
    for item in (first, second):
        assert ScheduleEvent.objects.get(task_item=item).starts_at >= now - timedelta(minutes=5)
    assert TaskItem.objects.get(pk=second.pk).status == "placed"
    wait_until(page, "() => document.documentElement.scrollWidth <= window.innerWidth")
