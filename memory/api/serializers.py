"""Memory API serializers: separate input and output, explicit fields, nothing writable about ownership."""

from __future__ import annotations

from rest_framework import serializers

from memory.models import MAX_CONTENT_LENGTH, MemoryItem
from smartmate.platform.serializers import ModelSerializer, RFC3339DateTimeField


class MemoryOutputSerializer(ModelSerializer):
    type = serializers.CharField(source="memory_type")
    superseded_by = serializers.IntegerField(source="superseded_by_id", allow_null=True)

    class Meta:
        model = MemoryItem
        fields = ["id", "type", "content", "status", "origin", "importance", "confidence", "valid_from", "valid_to",
                  "superseded_by", "created_at", "updated_at"]
        read_only_fields = fields


class MemoryListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=MemoryItem.Status.choices, required=False, default="active")
    type = serializers.ChoiceField(choices=MemoryItem.Type.choices, required=False)
    q = serializers.CharField(required=False, allow_blank=True, max_length=100)


class MemoryAddInputSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=MemoryItem.Type.choices)
    content = serializers.CharField(max_length=MAX_CONTENT_LENGTH, trim_whitespace=True)


class MemoryEditInputSerializer(serializers.Serializer):
    content = serializers.CharField(max_length=MAX_CONTENT_LENGTH, trim_whitespace=True)
    type = serializers.ChoiceField(choices=MemoryItem.Type.choices, required=False)


class MemorySourceOutputSerializer(serializers.Serializer):
    memory_id = serializers.IntegerField()
    origin = serializers.CharField()
    message_id = serializers.IntegerField(allow_null=True)
    conversation_id = serializers.IntegerField(allow_null=True)
    text = serializers.CharField(allow_blank=True)
    said_at = RFC3339DateTimeField(allow_null=True)
    learned_at = RFC3339DateTimeField()


class MemorySettingsSerializer(serializers.Serializer):
    enabled = serializers.BooleanField()
    sensitive_memory_enabled = serializers.BooleanField(
        required=False, help_text="Keep sensitive facts about the student (health, beliefs …); off by default. "
                                  "Secrets, instructions and other people's sensitive facts are never kept.")


class MemoryForgetInputSerializer(serializers.Serializer):
    confirm = serializers.BooleanField()


class MemoryForgetOutputSerializer(serializers.Serializer):
    memories = serializers.IntegerField()
    jobs = serializers.IntegerField()
    audit = serializers.IntegerField()


class MemoryForgetOneOutputSerializer(serializers.Serializer):
    forgotten = serializers.ListField(child=serializers.IntegerField(),
                                      help_text="Ids of the memory and its versions, removed for good.")
