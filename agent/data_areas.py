"""The student's conversations with the assistant, for "download my data" and "delete my account"."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from accounts.data_ports import DataArea, Tables, data_area_register, rows_with_user_field
from accounts.models import User
from agent.models import Checkpoint, Message, TimelineEvent


def _tables(user: User) -> Tables:
    tables = rows_with_user_field("agent", user)
    tables["message"] = Message.objects.filter(conversation__user=user).order_by("conversation_id", "pk")
    tables["timelineevent"] = TimelineEvent.objects.filter(conversation__user=user).order_by("conversation_id",
                                                                                             "seq")
    tables["checkpoint"] = Checkpoint.objects.filter(conversation__user=user).order_by("pk")
    return tables


# The line for this file in the archive's 说明.txt.
SUMMARY = gettext_lazy("Your conversations with the assistant: each message, and what each turn did (its events).")
# A turn's checkpoint is the assistant's working state and a websocket ticket a one-time secret.
data_area_register(DataArea(name="conversations", tables=_tables, order=40,
                            summary=SUMMARY,
                            counted_only=frozenset({"checkpoint", "websocketticket"})))
