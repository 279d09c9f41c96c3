"""Admin for memories, their jobs (with dead ones easy to find), audit entries, settings and the write
gate's refusals (which hold no text: who, rule, category, source, when)."""

from django.contrib import admin

from memory.models import MemoryAudit, MemoryItem, MemoryJob, MemoryRefusal, MemorySettings


@admin.register(MemoryItem)
class MemoryItemAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "memory_type", "content", "status", "origin", "vector_state", "valid_from",
                    "valid_to"]
    list_filter = ["status", "memory_type", "origin", "vector_state"]
    search_fields = ["content", "user__username"]
    raw_id_fields = ["user", "source_message", "superseded_by"]
    readonly_fields = ["content_hash", "created_at", "updated_at"]


@admin.register(MemoryJob)
class MemoryJobAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "status", "attempts", "next_attempt_at", "created_at", "finished_at"]
    list_filter = ["status"]
    search_fields = ["user__username", "last_error"]
    raw_id_fields = ["user", "user_message", "assistant_message"]
    readonly_fields = ["event_uuid", "result", "last_error", "locked_at", "locked_by", "created_at", "updated_at"]


@admin.register(MemoryAudit)
class MemoryAuditAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "operation", "operator", "memory", "reason", "created_at"]
    list_filter = ["operation", "operator"]
    search_fields = ["user__username", "reason"]
    raw_id_fields = ["user", "memory", "job"]


@admin.register(MemorySettings)
class MemorySettingsAdmin(admin.ModelAdmin):
    list_display = ["user", "enabled", "sensitive_memory_enabled", "vector_purge_pending", "updated_at"]
    list_filter = ["enabled", "sensitive_memory_enabled", "vector_purge_pending"]
    raw_id_fields = ["user"]


@admin.register(MemoryRefusal)
class MemoryRefusalAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "category", "rule", "source", "job", "created_at"]
    list_filter = ["category", "rule", "source"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "job"]
    readonly_fields = ["user", "category", "rule", "source", "job", "created_at"]

    def has_add_permission(self, request) -> bool:
        return False  # a record of what the gate did, not something to make up
