"""Operators can browse conversations, the timeline and checkpoints."""

from __future__ import annotations

import pytest

from accounts.models import User
from agent.models import Message
from agent.tests.factories import make_conversation


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/admin/agent/conversation/", "/admin/agent/timelineevent/",
                                  "/admin/agent/checkpoint/"])
def test_the_assistant_admin_pages_load(client, path):
    client.force_login(User.objects.create_superuser("ops", "ops@example.edu", "ops-password-123"))
    assert client.get(path).status_code == 200


@pytest.mark.django_db
def test_a_conversation_page_shows_its_messages(client, user):
    client.force_login(User.objects.create_superuser("ops", "ops@example.edu", "ops-password-123"))
    conversation = make_conversation(user, title="复习")
    Message.objects.create(conversation=conversation, role="user", content="你好呀")
    assert "你好呀" in client.get(f"/admin/agent/conversation/{conversation.pk}/change/").content.decode()
