"""Operators' view of the outbox (with the re-drive action) and of idempotency records."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from smartmate.platform.models import ConsumerReceipt, IdempotencyRecord, OutboxEvent
from smartmate.platform.outbox.services import outbox_event_redrive


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(OutboxEvent)
class OutboxEventAdmin(ReadOnlyAdmin):
    list_display = ("id", "topic", "aggregate", "status", "attempts", "next_attempt_at", "created_at",
                    "consumed_at", "short_error")
    list_filter = ("status", "topic")
    search_fields = ("=uuid", "aggregate", "last_error")
    ordering = ("-id",)  # no date_hierarchy: on MySQL it needs the server's time zone tables
    actions = ["redrive"]

    @admin.display(description=_("last error"))
    def short_error(self, event: OutboxEvent) -> str:
        return event.last_error[:80]

    @admin.action(description=_("Re-drive the selected dead events"), permissions=["redrive"])
    def redrive(self, request: HttpRequest, queryset: QuerySet[OutboxEvent]) -> None:
        count = outbox_event_redrive(event_ids=queryset.values_list("pk", flat=True))
        skipped = queryset.count() - count
        self.message_user(request, ngettext("Re-drove %(count)d dead event.", "Re-drove %(count)d dead events.",
                                            count) % {"count": count}, messages.SUCCESS)
        if skipped:
            self.message_user(request, ngettext("Left %(count)d event alone: only dead events are re-driven.",
                                                "Left %(count)d events alone: only dead events are re-driven.",
                                                skipped) % {"count": skipped}, messages.WARNING)

    def has_redrive_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("smartmate.change_outboxevent")


@admin.register(ConsumerReceipt)
class ConsumerReceiptAdmin(ReadOnlyAdmin):
    list_display = ("consumer", "event_uuid", "created_at")
    list_filter = ("consumer",)
    search_fields = ("=event_uuid",)


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    list_display = ("user", "key", "method", "path", "status", "response_status", "created_at", "expires_at")
    list_filter = ("status", "method")
    search_fields = ("key", "path", "user__username")
    raw_id_fields = ("user",)
