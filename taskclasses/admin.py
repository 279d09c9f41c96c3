from django.contrib import admin

from taskclasses.models import Task


@admin.register(Task)
class TaskAdmin(admin.ModelAdmin):
    list_display = ("title", "user", "quadrant", "deadline", "urgency_threshold_at", "completed", "auto_reason")
    list_filter = ("quadrant", "completed", "auto_reason", "deadline_ambiguous")
    search_fields = ("title", "source_text", "user__username")
    raw_id_fields = ("user",)
    readonly_fields = ("created_at", "updated_at", "auto_changed_at")
