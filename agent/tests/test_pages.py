"""The chat page as the server renders it (the streaming itself is in test_chat_e2e.py)."""

from __future__ import annotations

import json

import pytest

from agent.tests.factories import make_conversation

pytestmark = pytest.mark.django_db


def _config(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="chat-config" type="application/json">') + len(
        '<script id="chat-config" type="application/json">')
    return json.loads(html[start:html.index("</script>", start)])


def test_the_chat_page_lists_the_students_conversations(client, user, other_user):
    client.force_login(user)
    mine = make_conversation(user, title="复习")
    make_conversation(other_user, title="theirs")

    response = client.get("/assistant/")

    assert response.status_code == 200
    config = _config(response)
    assert [row["title"] for row in config["conversations"]] == ["复习"]
    assert (config["conversationId"], config["api"], config["socket"]) == (None, "/api/v1/agent/conversations/",
                                                                           "/ws/agent/")
    assert client.get(f"/assistant/{mine.pk}/").status_code == 200


def test_without_a_model_a_student_reads_what_works_and_only_staff_read_the_settings(client, user):
    client.force_login(user)
    html = client.get("/assistant/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'data-test="llm-not-configured"' in html and "这里还没有开通助手" in html
    assert "LLM_BASE_URL" not in html
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    html = client.get("/assistant/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Set LLM_BASE_URL (an OpenAI-compatible endpoint), LLM_API_KEY and LLM_MODEL" in html


def test_with_a_model_configured_there_is_no_banner(client, user, fake_llm):
    client.force_login(user)
    response = client.get("/assistant/")
    assert 'data-test="llm-not-configured"' not in response.content.decode()
    assert _config(response)["llmConfigured"] is True


def test_another_students_conversation_page_is_a_404(client, user, other_user):
    client.force_login(user)
    assert client.get(f"/assistant/{make_conversation(other_user).pk}/").status_code == 404


def test_the_navigation_links_the_assistant(client, user):
    client.force_login(user)
    assert 'href="/assistant/" class="active" data-nav="assistant"' in client.get("/assistant/").content.decode()


def test_the_page_needs_a_login(client):
    assert client.get("/assistant/").status_code == 302
