"""Reminders in the admin: what was produced for whom, when it was delivered and read (imported by taskclasses/admin.py)."""

from __future__ import annotations

from django.contrib import admin

from taskclasses.reminders.models import Reminder, ReminderSettings


@admin.register(Reminder)
class ReminderAdmin(admin.ModelAdmin):
    list_display = ("kind", "user", "key", "silent", "created_at", "delivered_at", "read_at")
    list_filter = ("kind", "silent")
    search_fields = ("user__username", "key")
    raw_id_fields = ("user",)
    readonly_fields = ("created_at", "delivered_at")


@admin.register(ReminderSettings)
class ReminderSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "blocks_enabled", "block_lead_minutes", "deadlines_enabled", "deadline_time",
                    "courses_enabled", "quiet_start", "quiet_end")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
