from django.contrib import admin

from taskclasses.models import Task, TaskClass, TaskItem


@admin.register(Task)
class TaskAdmin(admin.ModelAdmin):
    list_display = ("title", "user", "quadrant", "deadline", "urgency_threshold_at", "completed", "auto_reason")
    list_filter = ("quadrant", "completed", "auto_reason", "deadline_ambiguous")
    search_fields = ("title", "source_text", "user__username")
    raw_id_fields = ("user",)
    readonly_fields = ("created_at", "updated_at", "auto_changed_at")


class TaskItemInline(admin.TabularInline):
    model = TaskItem
    fields = ("order", "content", "sections", "status")
    ordering = ("order",)
    extra = 0


@admin.register(TaskClass)
class TaskClassAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "strategy", "start_date", "end_date", "allow_filler", "created_at")
    list_filter = ("strategy", "allow_filler")
    search_fields = ("name", "user__username")
    raw_id_fields = ("user",)
    readonly_fields = ("created_at", "updated_at")
    inlines = [TaskItemInline]


@admin.register(TaskItem)
class TaskItemAdmin(admin.ModelAdmin):
    list_display = ("content", "task_class", "order", "sections", "status")
    list_filter = ("status",)
    search_fields = ("content", "task_class__name", "task_class__user__username")
    raw_id_fields = ("task_class",)
    readonly_fields = ("created_at", "updated_at")


from taskclasses.reminders.admin import ReminderAdmin, ReminderSettingsAdmin  # noqa: E402, F401 - registers them
