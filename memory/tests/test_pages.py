"""The memory page over the Django test client: three states, edit, delete, restore, switch, forget."""

from __future__ import annotations

import pytest

from memory.models import MemoryItem, MemorySettings
from memory.services.items import NewMemory, memory_supersede
from memory.tests.factories import make_memory, make_message

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def page(client, **params) -> str:
    return client.get("/memory/", params, **EN).content.decode()


def test_the_page_shows_active_history_and_deleted_memories(client, user):
    client.force_login(user)
    source = make_message(user, "我周三晚上要上实验课，而且我更喜欢早上学数学")
    old = make_memory(user, "更喜欢早上学数学", source=source)
    memory_supersede(user=user, old=old, new=NewMemory("preference", "晚上学数学"))
    make_memory(user, "对花生过敏", "fact", status="deleted")

    html = page(client)

    assert 'data-status="active"' in html and "晚上学数学" in html
    assert 'data-status="archived"' in html and "replaced by “晚上学数学”" in html
    assert 'data-status="deleted"' in html and "对花生过敏" in html


def test_why_do_you_know_this_quotes_the_students_message(client, user):
    client.force_login(user)
    make_memory(user, "周三晚上要上实验课", "constraint", source=make_message(user, "我周三晚上要上实验课"))

    html = page(client)

    assert "Why do you know this?" in html and "<blockquote data-test=\"memory-source\">我周三晚上要上实验课</blockquote>" in html


def test_search_and_type_filter_narrow_the_list(client, user):
    client.force_login(user)
    make_memory(user, "更喜欢早上学数学")
    make_memory(user, "周三晚上要上实验课", "constraint")

    html = page(client, q="实验", type="constraint")

    assert "周三晚上要上实验课" in html and "更喜欢早上学数学" not in html


def test_editing_on_the_page_keeps_the_old_version(client, user):
    client.force_login(user)
    item = make_memory(user, "更喜欢早上学数学")

    response = client.post(f"/memory/{item.pk}/edit/", {"content": "更喜欢下午学数学", "type": "preference"},
                           follow=True, **EN)

    assert "the previous version is kept in history" in response.content.decode()
    assert list(MemoryItem.objects.order_by("id").values_list("content", "status")) == [
        ("更喜欢早上学数学", "archived"), ("更喜欢下午学数学", "active")]


def test_delete_and_restore_on_the_page(client, user):
    client.force_login(user)
    item = make_memory(user, "更喜欢早上学数学")

    client.post(f"/memory/{item.pk}/delete/")
    assert MemoryItem.objects.get(pk=item.pk).status == "deleted"
    client.post(f"/memory/{item.pk}/restore/")

    assert MemoryItem.objects.get(pk=item.pk).status == "active"


def test_memory_can_be_switched_off_on_the_page(client, user):
    client.force_login(user)

    response = client.post("/memory/settings/", {"enabled": "0"}, follow=True, **EN)

    assert MemorySettings.objects.get(user=user).enabled is False
    assert "Memory is off" in response.content.decode()


def test_forget_everything_on_the_page_needs_the_box_ticked(client, user):
    client.force_login(user)
    make_memory(user, "更喜欢早上学数学")

    refused = client.post("/memory/forget/", {}, follow=True, **EN)
    assert "Confirm that you want memory to forget everything." in refused.content.decode()
    client.post("/memory/forget/", {"confirm": "1"})

    assert not MemoryItem.objects.filter(user=user).exists()


def test_another_students_memory_is_a_404_on_the_page(client, user, other_user):
    client.force_login(user)
    item = make_memory(other_user, "更喜欢早上学数学")

    assert client.post(f"/memory/{item.pk}/delete/").status_code == 404
    assert MemoryItem.objects.get(pk=item.pk).status == "active"


def test_the_memory_page_is_in_the_navigation(client, user):
    client.force_login(user)

    html = client.get("/", **EN).content.decode()

    assert 'href="/memory/"' in html and 'data-nav="memory"' in html
