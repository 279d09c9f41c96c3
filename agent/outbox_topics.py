"""The assistant's outbox topics: what other parts of the app learn when a turn finishes.

``agent.turn_finished`` (queue ``memory``): published in the same transaction that stores a turn's
answer, so memory extraction sees every finished turn exactly once and never one that rolled back.
Payload: ``user_id``, ``conversation_id``, ``turn_id``, ``user_message_id``, ``assistant_message_id``.
Consumers: ``memory.consumers`` (extraction).

``agent.conversation_title`` (queue ``default``): a conversation's first answer is stored; a
consumer names the conversation. Payload: ``user_id``, ``conversation_id``, ``turn_id``.
"""

from __future__ import annotations

from smartmate.outbox.registry import topic_register

TURN_FINISHED = "agent.turn_finished"
CONVERSATION_TITLE = "agent.conversation_title"

topic_register(TURN_FINISHED, queue="memory", ordered=True)
topic_register(CONVERSATION_TITLE, queue="default")
