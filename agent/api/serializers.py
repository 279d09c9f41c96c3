"""Input and output shapes of the assistant's API. Fields are listed explicitly."""

from __future__ import annotations

from rest_framework import serializers

from agent.models import Conversation, Message, TimelineEvent
from agent.selectors import REPLAY_PAGE
from smartmate.platform.serializers import ModelSerializer, RFC3339DateTimeField


class ConversationCreateInputSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=100, allow_blank=True, required=False, default="")


class ConversationRenameInputSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=100, allow_blank=True)


class ConversationArchiveInputSerializer(serializers.Serializer):
    archived = serializers.BooleanField(default=True, help_text="false moves it back out of the archive.")


class ConversationListQuerySerializer(serializers.Serializer):
    archived = serializers.BooleanField(default=False, required=False)


class TimelineQuerySerializer(serializers.Serializer):
    after_seq = serializers.IntegerField(min_value=0, default=0, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=REPLAY_PAGE, default=REPLAY_PAGE, required=False)


class ConversationOutputSerializer(ModelSerializer):
    running = serializers.BooleanField(source="is_running", read_only=True)

    class Meta:
        model = Conversation
        fields = ["id", "title", "archived", "running", "created_at", "updated_at"]
        read_only_fields = fields


class MessageOutputSerializer(ModelSerializer):
    class Meta:
        model = Message
        fields = ["id", "role", "content", "reasoning", "turn_id", "prompt_tokens", "completion_tokens",
                  "outcome", "created_at"]
        read_only_fields = fields


class RunningTurnOutputSerializer(serializers.Serializer):
    turn_id = serializers.CharField()
    after_seq = serializers.IntegerField(help_text="Replay after this seq to rebuild the running turn's answer.")


class ConversationDetailOutputSerializer(serializers.Serializer):
    conversation = ConversationOutputSerializer()
    messages = MessageOutputSerializer(many=True)
    last_seq = serializers.IntegerField(help_text="The seq of the latest stored event (0: none).")
    running_turn = RunningTurnOutputSerializer(allow_null=True)


class ConversationStateOutputSerializer(serializers.Serializer):
    running = serializers.BooleanField(help_text="Whether a turn runs now (a dead one was ended or resumed first).")
    turn_id = serializers.CharField(allow_null=True, help_text="The running turn, or null.")
    last_seq = serializers.IntegerField(help_text="The seq of the latest stored event (0: none).")


class TimelineEventOutputSerializer(ModelSerializer):
    # A declared field: the serializer's metaclass takes it off the class, so ``.data`` stays the property.
    data = serializers.JSONField(  # type: ignore[assignment]  # see above
        source="payload", help_text="The event's fields, as in the websocket frame.")

    class Meta:
        model = TimelineEvent
        fields = ["seq", "type", "turn_id", "created_at", "data"]
        read_only_fields = fields


class TicketOutputSerializer(serializers.Serializer):
    ticket = serializers.CharField(help_text="Connect with /ws/agent/?ticket=<ticket> within 60 s; usable once.")
    expires_at = RFC3339DateTimeField()
    url = serializers.CharField(help_text="The websocket path with the ticket.")


class TurnStartedOutputSerializer(serializers.Serializer):
    """A turn that was accepted; its events arrive over the websocket."""

    conversation_id = serializers.IntegerField()
    turn_id = serializers.CharField()
    message_id = serializers.IntegerField()
