"""A student adds a memory by hand, on the page and over the API; it is searchable and reaches prompts."""

from __future__ import annotations

import pytest

from memory.models import MemoryAudit, MemoryItem
from memory.recall import memory_recall
from memory.tests.factories import make_memory
from memory.vectorstore import get_vector_store

pytestmark = pytest.mark.django_db(transaction=True)

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_the_api_adds_a_memory_by_hand(auth_client, user, memory_on):
    response = auth_client.post("/api/v1/memories/", {"type": "preference", "content": " 更喜欢 早上学数学 "},
                                format="json")

    body = response.json()
    assert response.status_code == 201
    assert (body["type"], body["content"], body["origin"], body["status"]) == (
        "preference", "更喜欢 早上学数学", "added", "active")
    assert get_vector_store().count(user.pk) == 1
    assert "更喜欢 早上学数学" in memory_recall(user=user, query="数学").block
    assert MemoryAudit.objects.get(user=user).operation == "create"


def test_the_api_refuses_a_duplicate_and_a_missing_type(auth_client, user):
    make_memory(user, "更喜欢早上学数学")

    duplicate = auth_client.post("/api/v1/memories/", {"type": "preference", "content": "更喜欢早上学数学！"},
                                 format="json")
    untyped = auth_client.post("/api/v1/memories/", {"content": "周三晚上要上实验课"}, format="json")

    assert (duplicate.status_code, duplicate.json()["code"]) == (409, "memory_duplicate")
    assert untyped.status_code == 400
    assert MemoryItem.objects.filter(user=user).count() == 1


def test_a_retried_add_with_the_same_key_adds_once(auth_client, user):
    headers = {"HTTP_X_IDEMPOTENCY_KEY": "add-1"}
    body = {"type": "goal", "content": "这学期高数考到85分"}

    first = auth_client.post("/api/v1/memories/", body, format="json", **headers)
    second = auth_client.post("/api/v1/memories/", body, format="json", **headers)

    assert second.json() == first.json() and MemoryItem.objects.filter(user=user).count() == 1


def test_the_page_adds_a_memory_by_hand(client, user):
    client.force_login(user)

    response = client.post("/memory/add/", {"type": "constraint", "content": "周三晚上要上实验课"}, follow=True, **EN)

    html = response.content.decode()
    assert "Memory added." in html and "You added this memory yourself." in html
    assert MemoryItem.objects.get(user=user).origin == "added"


def test_the_page_refuses_an_empty_memory(client, user):
    client.force_login(user)

    response = client.post("/memory/add/", {"type": "fact", "content": "   "}, follow=True, **EN)

    assert "A memory cannot be empty." in response.content.decode()
    assert not MemoryItem.objects.exists()
