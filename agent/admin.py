"""Operators' view of conversations (with their messages), the event timeline and checkpoints."""

from __future__ import annotations

from django.contrib import admin

from agent.models import Checkpoint, Conversation, Message, TimelineEvent


class MessageInline(admin.TabularInline):
    model = Message
    fields = ("role", "content", "prompt_tokens", "completion_tokens", "created_at")
    readonly_fields = fields
    ordering = ("id",)
    extra = 0
    can_delete = False


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "user", "archived", "running_turn_id", "cancel_requested", "updated_at")
    list_filter = ("archived",)
    search_fields = ("title", "user__username")
    raw_id_fields = ("user",)
    readonly_fields = ("created_at", "updated_at")
    inlines = [MessageInline]


@admin.register(TimelineEvent)
class TimelineEventAdmin(admin.ModelAdmin):
    list_display = ("conversation", "seq", "type", "turn_id", "created_at")
    list_filter = ("type",)
    search_fields = ("=conversation__id", "=turn_id")
    ordering = ("-id",)
    raw_id_fields = ("conversation",)

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Checkpoint)
class CheckpointAdmin(admin.ModelAdmin):
    list_display = ("conversation", "turn_id", "phase", "updated_at")
    list_filter = ("phase",)
    raw_id_fields = ("conversation",)
