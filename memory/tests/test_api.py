"""Memory API: list and search, edit as a new version, delete and restore, the source, the switch,
forget everything; another student's memory is a 404; writes take idempotency keys."""

from __future__ import annotations

import pytest

from memory.models import MemoryAudit, MemoryItem
from memory.tests.factories import make_memory, make_message

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_list_shows_active_memories_and_filters_by_status_type_and_text(auth_client, user):
    make_memory(user, "更喜欢早上学数学")
    make_memory(user, "周三晚上要上实验课", "constraint")
    make_memory(user, "喜欢晚上学英语", status="deleted")

    everything = auth_client.get("/api/v1/memories/").json()
    constraints = auth_client.get("/api/v1/memories/?type=constraint").json()
    searched = auth_client.get("/api/v1/memories/?q=数学").json()
    deleted = auth_client.get("/api/v1/memories/?status=deleted").json()

    assert sorted(row["content"] for row in everything) == ["周三晚上要上实验课", "更喜欢早上学数学"]
    assert [row["content"] for row in constraints] == ["周三晚上要上实验课"]
    assert [row["content"] for row in searched] == ["更喜欢早上学数学"]
    assert [row["content"] for row in deleted] == ["喜欢晚上学英语"]
    assert set(everything[0]) == {"id", "type", "content", "status", "origin", "importance", "confidence",
                                  "valid_from", "valid_to", "superseded_by", "created_at", "updated_at"}


def test_an_edit_is_a_new_version_and_the_old_one_stays_as_history(auth_client, user):
    old = make_memory(user, "更喜欢早上学数学")

    response = auth_client.patch(f"/api/v1/memories/{old.pk}/", {"content": "更喜欢下午学数学"}, format="json")

    new = response.json()
    assert response.status_code == 200 and (new["content"], new["origin"], new["status"]) == (
        "更喜欢下午学数学", "user", "active")
    old.refresh_from_db()
    assert (old.status, old.superseded_by_id) == ("archived", new["id"])
    history = auth_client.get("/api/v1/memories/?status=archived").json()
    assert [(row["content"], row["superseded_by"]) for row in history] == [("更喜欢早上学数学", new["id"])]


def test_editing_history_is_refused_with_the_error_shape(auth_client, user):
    old = make_memory(user, "更喜欢早上学数学", status="archived")

    response = auth_client.patch(f"/api/v1/memories/{old.pk}/", {"content": "x"}, format="json")

    assert response.status_code == 409
    assert response.json() == {"code": "memory_state_conflict", "detail": {"id": old.pk},
                               "message": "Only an active memory can be edited; restore it first."}


def test_delete_then_restore_brings_the_memory_back(auth_client, user):
    item = make_memory(user, "更喜欢早上学数学")

    assert auth_client.delete(f"/api/v1/memories/{item.pk}/").status_code == 204
    item.refresh_from_db()
    assert item.status == "deleted"
    restored = auth_client.post(f"/api/v1/memories/{item.pk}/restore/").json()

    assert (restored["status"], restored["valid_to"]) == ("active", None)
    assert list(MemoryAudit.objects.values_list("operation", flat=True).order_by("id")) == ["delete", "restore"]


def test_why_do_you_know_this_returns_the_source_message_and_when(auth_client, user):
    message = make_message(user, "我周三晚上要上实验课")
    item = make_memory(user, "周三晚上要上实验课", "constraint", source=message)

    body = auth_client.get(f"/api/v1/memories/{item.pk}/source/").json()

    assert (body["text"], body["message_id"], body["conversation_id"], body["origin"]) == (
        "我周三晚上要上实验课", message.pk, message.conversation_id, "extracted")
    assert body["said_at"] is not None


def test_memory_can_be_turned_off_and_on(auth_client, user):
    assert auth_client.get("/api/v1/memories/settings/").json() == {"enabled": True, "sensitive_memory_enabled": False}

    turned_off = auth_client.put("/api/v1/memories/settings/", {"enabled": False}, format="json").json()

    assert turned_off == {"enabled": False, "sensitive_memory_enabled": False}
    assert auth_client.get("/api/v1/memories/settings/").json() == turned_off


def test_forget_everything_needs_confirmation(auth_client, user):
    make_memory(user, "更喜欢早上学数学")

    response = auth_client.post("/api/v1/memories/forget/", {"confirm": False}, format="json")

    assert response.status_code == 400 and response.json()["code"] == "memory_forget_not_confirmed"
    assert MemoryItem.objects.filter(user=user).count() == 1


@pytest.mark.parametrize(("method", "suffix"), [("get", ""), ("patch", ""), ("delete", ""), ("post", "restore/"),
                                                ("get", "source/")])
def test_another_students_memory_is_not_found(auth_client, other_user, method, suffix):
    item = make_memory(other_user, "更喜欢早上学数学", status="deleted" if suffix == "restore/" else "active")

    response = getattr(auth_client, method)(f"/api/v1/memories/{item.pk}/{suffix}", {"content": "x"}, format="json")

    assert response.status_code == 404 and response.json()["code"] == "memory_not_found"
    item.refresh_from_db()
    assert item.content == "更喜欢早上学数学" and item.status in ("active", "deleted")


def test_a_retried_edit_with_the_same_key_is_replayed_not_applied_twice(auth_client, user):
    item = make_memory(user, "更喜欢早上学数学")
    headers = {"HTTP_X_IDEMPOTENCY_KEY": "edit-1"}

    first = auth_client.patch(f"/api/v1/memories/{item.pk}/", {"content": "更喜欢下午学数学"}, format="json", **headers)
    second = auth_client.patch(f"/api/v1/memories/{item.pk}/", {"content": "更喜欢下午学数学"}, format="json", **headers)

    assert second.json() == first.json() and second["Idempotent-Replayed"] == "true"
    assert MemoryItem.objects.filter(user=user).count() == 2


def test_the_api_needs_a_login(api_client):
    assert api_client.get("/api/v1/memories/").status_code == 401
