"""Admin for memories, their jobs (with dead ones easy to find), audit entries, settings and the write
gate's refusals (which hold no text: who, rule, category, source, when)."""

from django.contrib import admin, messages
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from memory.models import MemoryAudit, MemoryItem, MemoryJob, MemoryRefusal, MemorySettings
from memory.services.jobs import memory_jobs_rerun

TEXT_PERMISSION = "memory.view_memory_text"


def reads_memory_text(request: HttpRequest) -> bool:
    return request.user.has_perm(TEXT_PERMISSION)


class HidesMemoryText(admin.ModelAdmin):
    """Fields that quote what a student said are shown only with ``memory.view_memory_text``."""

    text_fields: tuple[str, ...] = ()

    def get_list_display(self, request):
        shown = super().get_list_display(request)
        return shown if reads_memory_text(request) else [f for f in shown if f not in self.text_fields]

    def get_search_fields(self, request):
        fields = super().get_search_fields(request)
        return fields if reads_memory_text(request) else [f for f in fields if f not in self.text_fields]

    def get_exclude(self, request, obj=None):
        excluded = list(super().get_exclude(request, obj) or [])
        return excluded if reads_memory_text(request) else [*excluded, *self.text_fields]

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        return fields if reads_memory_text(request) else [f for f in fields if f not in self.text_fields]


@admin.register(MemoryItem)
class MemoryItemAdmin(HidesMemoryText):
    list_display = ["id", "user", "memory_type", "content", "status", "origin", "vector_state", "valid_from",
                    "valid_to"]
    list_filter = ["status", "memory_type", "origin", "vector_state", "created_at"]
    search_fields = ["content", "user__username"]
    raw_id_fields = ["user", "source_message", "superseded_by"]
    readonly_fields = ["content_hash", "created_at", "updated_at"]
    text_fields = ("content",)


@admin.register(MemoryJob)
class MemoryJobAdmin(HidesMemoryText):
    list_display = ["id", "user", "status", "attempts", "next_attempt_at", "created_at", "finished_at"]
    list_filter = ["status", "created_at"]
    search_fields = ["user__username", "last_error"]
    raw_id_fields = ["user", "user_message", "assistant_message"]
    readonly_fields = ["event_uuid", "result", "last_error", "locked_at", "locked_by", "created_at", "updated_at"]
    text_fields = ("result", "last_error", "user_message", "assistant_message")
    actions = ["rerun_dead_jobs"]

    @admin.action(description=_("Run the selected dead jobs again"))
    def rerun_dead_jobs(self, request, queryset) -> None:
        count = memory_jobs_rerun(job_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(request, ngettext("%(count)d dead job queued again.", "%(count)d dead jobs queued again.",
                                            count) % {"count": count}, messages.SUCCESS)


@admin.register(MemoryAudit)
class MemoryAuditAdmin(HidesMemoryText):
    list_display = ["id", "user", "operation", "operator", "memory", "reason", "created_at"]
    list_filter = ["operation", "operator", "created_at"]
    search_fields = ["user__username", "reason"]
    raw_id_fields = ["user", "memory", "job"]
    text_fields = ("before", "after", "reason")


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
