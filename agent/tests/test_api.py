"""The assistant's REST API: conversations, their history and timeline, and websocket tickets."""

from __future__ import annotations

import pytest

from agent.models import Conversation, Message, TimelineEvent, WebsocketTicket
from agent.tests.factories import make_conversation

pytestmark = pytest.mark.django_db

API = "/api/v1/agent/conversations/"


def _event(conversation, seq, kind="assistant.delta", **payload):
    return TimelineEvent.objects.create(conversation=conversation, seq=seq, type=kind,
                                        turn_id="00000000-0000-0000-0000-000000000001", payload=payload)


def test_a_student_creates_then_lists_conversations(auth_client):
    created = auth_client.post(API, {"title": "复习计划"}, format="json")
    assert created.status_code == 201
    assert set(created.json()) == {"id", "title", "archived", "running", "created_at", "updated_at"}
    listed = auth_client.get(API).json()
    assert [(row["id"], row["title"], row["running"]) for row in listed] == [(created.json()["id"], "复习计划", False)]


def test_the_list_shows_only_the_students_own_active_conversations(auth_client, user, other_user):
    mine = make_conversation(user, title="mine")
    Conversation.objects.create(user=user, title="old", archived=True)
    make_conversation(other_user, title="theirs")
    assert [row["id"] for row in auth_client.get(API).json()] == [mine.pk]
    assert [row["title"] for row in auth_client.get(API, {"archived": "true"}).json()] == ["old"]


def test_the_detail_has_the_messages_and_the_last_seq(auth_client, user):
    conversation = make_conversation(user, title="t")
    Message.objects.create(conversation=conversation, role="user", content="你好")
    Message.objects.create(conversation=conversation, role="assistant", content="你好！", prompt_tokens=3)
    _event(conversation, 1, text="你好！")

    body = auth_client.get(f"{API}{conversation.pk}/").json()

    assert [(m["role"], m["content"]) for m in body["messages"]] == [("user", "你好"), ("assistant", "你好！")]
    assert (body["last_seq"], body["running_turn"], body["conversation"]["title"]) == (1, None, "t")


def test_the_detail_of_a_running_turn_says_where_to_replay_from(auth_client, user):
    conversation = make_conversation(user)
    _event(conversation, 1)
    turn_id = "00000000-0000-0000-0000-000000000002"
    Conversation.objects.filter(pk=conversation.pk).update(running_turn_id=turn_id)
    TimelineEvent.objects.create(conversation=conversation, seq=2, type="status", turn_id=turn_id, payload={})

    body = auth_client.get(f"{API}{conversation.pk}/").json()

    assert body["running_turn"] == {"turn_id": turn_id, "after_seq": 1} and body["conversation"]["running"]


def test_the_timeline_lists_events_after_a_seq(auth_client, user):
    conversation = make_conversation(user)
    for seq, piece in enumerate(["你", "好", "！"], start=1):
        _event(conversation, seq, text=piece)

    rows = auth_client.get(f"{API}{conversation.pk}/timeline/", {"after_seq": 1, "limit": 1}).json()

    assert [(row["seq"], row["type"], row["data"]) for row in rows] == [(2, "assistant.delta", {"text": "好"})]


def test_rename_archive_and_delete(auth_client, user):
    conversation = make_conversation(user)
    url = f"{API}{conversation.pk}/"

    assert auth_client.patch(url, {"title": "  新标题 "}, format="json").json()["title"] == "新标题"
    assert auth_client.post(f"{url}archive/", {}, format="json").json()["archived"] is True
    assert auth_client.post(f"{url}archive/", {"archived": False}, format="json").json()["archived"] is False
    assert auth_client.delete(url).status_code == 204
    assert not Conversation.objects.filter(pk=conversation.pk).exists()


def test_a_conversation_with_a_running_turn_cannot_be_deleted(auth_client, user):
    conversation = make_conversation(user)
    Conversation.objects.filter(pk=conversation.pk).update(running_turn_id="00000000-0000-0000-0000-000000000003")
    response = auth_client.delete(f"{API}{conversation.pk}/")
    assert (response.status_code, response.json()["code"]) == (409, "busy")


@pytest.mark.parametrize("method, suffix, body", [
    ("get", "", None), ("patch", "", {"title": "x"}), ("delete", "", None),
    ("post", "archive/", {}), ("get", "timeline/", None),
])
def test_another_students_conversation_is_not_found(auth_client, other_user, method, suffix, body):
    theirs = make_conversation(other_user, title="theirs")
    response = getattr(auth_client, method)(f"{API}{theirs.pk}/{suffix}", body, format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "conversation_not_found"
    assert Conversation.objects.get(pk=theirs.pk).title == "theirs"


def test_anonymous_clients_are_refused(api_client):
    assert api_client.get(API).status_code == 401
    assert api_client.post("/api/v1/agent/tickets/").status_code == 401


def test_a_ticket_is_issued_for_sixty_seconds_and_only_its_hash_is_kept(auth_client, user):
    response = auth_client.post("/api/v1/agent/tickets/")
    assert response.status_code == 201
    body = response.json()
    assert body["url"] == f"/ws/agent/?ticket={body['ticket']}"
    stored = WebsocketTicket.objects.get(user=user)
    assert stored.digest != body["ticket"] and len(stored.digest) == 64
    assert 59 <= (stored.expires_at - stored.created_at).total_seconds() <= 61


def test_the_schema_documents_the_assistant_api(client, db):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    assert {f"{API}", f"{API}{{conversation_id}}/", f"{API}{{conversation_id}}/archive/",
            f"{API}{{conversation_id}}/timeline/", "/api/v1/agent/tickets/"} <= set(paths)
    assert "204" in paths[f"{API}{{conversation_id}}/"]["delete"]["responses"]
