"""A student opens the memory page in Chromium, asks why it knows something, deletes and restores."""

from __future__ import annotations

import pytest

from accounts.tests.factories import UserFactory
from memory.services.items import NewMemory, memory_supersede
from memory.tests.factories import make_memory, make_message
from smartmate.tests.live_server import log_in


@pytest.mark.e2e
def test_the_memory_page_shows_three_states_and_deletes_and_restores(live_page, transactional_db):
    student = UserFactory(username="xiaoming")
    source = make_message(student, "我周三晚上要上实验课，而且我更喜欢早上学数学")
    lab = make_memory(student, "周三晚上要上实验课", "constraint", source=source)
    old = make_memory(student, "更喜欢早上学数学", source=source)
    memory_supersede(user=student, old=old, new=NewMemory("preference", "晚上学数学", source_message_id=source.pk))
    make_memory(student, "对花生过敏", "fact", status="deleted")
    page = live_page
    log_in(page, student.username)

    page.click("nav >> text=记忆")
    page.wait_for_url(f"{page.base_url}/memory/")
    active = page.locator("[data-test=memory-active] [data-test=memory-content]").all_inner_texts()
    assert sorted(active) == ["周三晚上要上实验课", "晚上学数学"]
    assert page.inner_text("[data-test=memory-history] [data-test=memory-content]") == "更喜欢早上学数学"
    assert "晚上学数学" in page.inner_text("[data-test=memory-replaced-by]")
    assert page.inner_text("[data-test=memory-deleted] [data-test=memory-content]") == "对花生过敏"

    item = page.locator(f"[data-test=memory-active] [data-memory-id='{lab.pk}']")
    item.locator("[data-test=memory-why] summary").click()
    assert item.locator("[data-test=memory-source]").inner_text() == "我周三晚上要上实验课，而且我更喜欢早上学数学"

    item.locator("[data-test=memory-delete]").click()
    page.wait_for_selector("[data-test=memory-deleted] >> text=周三晚上要上实验课")
    page.locator(f"[data-test=memory-deleted] [data-memory-id='{lab.pk}'] [data-test=memory-restore]").click()
    page.wait_for_selector("[data-test=memory-active] >> text=周三晚上要上实验课")
    assert page.locator("[data-test=memory-deleted] [data-test=memory]").count() == 1
