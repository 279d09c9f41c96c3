"""The assistant's outbox topics: what other parts of the app learn when a turn finishes.

``agent.turn_finished`` (queue ``memory``): published in the same transaction that stores a turn's
answer, so memory extraction sees every finished turn exactly once and never one that rolled back.
Payload: ``user_id``, ``conversation_id``, ``turn_id``, ``user_message_id``, ``assistant_message_id``.
Consumers: ``memory.consumers`` (extraction).

``agent.conversation_title`` (queue ``default``): a conversation's first answer is stored; a
consumer names the conversation. Payload: ``user_id``, ``conversation_id``, ``turn_id``.
"""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.db import transaction

from accounts.exceptions import TokenQuotaExceededError
from accounts.quota import reserved_complete
from agent.flow.prompts import render
from agent.models import Conversation, Message
from agent.titles import TITLE_LENGTH, title_from
from smartmate.llm import ChatMessage, LLMNotConfigured, get_llm_client
from smartmate.platform.exceptions import AppError
from smartmate.platform.outbox.registry import consumes, topic_register
from smartmate.platform.outbox.topics import TURN_FINISHED

log = logging.getLogger("agent.titles")

CONVERSATION_TITLE = "agent.conversation_title"

# Both consumers call the model: on embedded defaults they run beside the turn (background=True),
# never inside it, so a slow title or extraction cannot hold turn.done or the conversation's lock.
topic_register(TURN_FINISHED, queue="memory", ordered=True, background=True)
topic_register(CONVERSATION_TITLE, queue="default", background=True)


@consumes(CONVERSATION_TITLE, name="agent.title")
def conversation_title(event) -> None:
    """Name a conversation after its first exchange, unless the student already renamed it.

    The model is asked once the outbox's transaction has committed: a transaction held open across
    a model call would keep SQLite's write lock (every other writer, the turn included, waiting on
    it). The turn gave the conversation a stand-in title (its first words); only that stand-in is
    replaced. A model that is not configured or fails leaves the stand-in: a title is never worth a
    failed event.
    """
    if settings.AGENT_AUTO_TITLES:
        transaction.on_commit(partial(conversation_title_write, event.payload["conversation_id"]), robust=True)


def conversation_title_write(conversation_id: int) -> None:
    """Ask the model for the conversation's title and store it if the stand-in is still there."""
    conversation = Conversation.objects.select_related("user").filter(pk=conversation_id).first()
    messages = list(Message.objects.filter(conversation=conversation).order_by("created_at", "pk")[:2]) \
        if conversation else []
    if conversation is None or len(messages) < 2 or conversation.title != title_from(messages[0].content):
        return
    title = _model_title(conversation.user, messages)
    if title:
        Conversation.objects.filter(pk=conversation.pk, title=conversation.title).update(title=title)


def _model_title(user, messages) -> str:
    dialogue = "\n".join(f"{message.role}: {message.content[:500]}" for message in messages)
    try:
        # Background calls reserve from the same weekly quota as turns (accounts.quota).
        completion = reserved_complete(get_llm_client(), user, "title",
                                       [ChatMessage.system(render("title")), ChatMessage.user(dialogue)])
    except (LLMNotConfigured, TokenQuotaExceededError):
        return ""
    except AppError as exc:
        log.info("No title for a conversation of user %s: %s", user.pk, exc.code)
        return ""
    title = " ".join((completion.text or "").split()).strip("\"'“”「」《》。.")
    return title[:TITLE_LENGTH]
