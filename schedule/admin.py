from django.contrib import admin

from accounts.admin import UserAdmin
from accounts.models import User
from schedule.models import (
    CalendarFeed,
    CalendarSettings,
    ChangeSet,
    Course,
    PlanPreview,
    ScheduleEvent,
    ScheduleSlot,
)


class CalendarSettingsInline(admin.StackedInline):
    model = CalendarSettings
    can_delete = False


# The user page shows the student's calendar too: accounts registers the user admin, the schedule
# re-registers it with its inline (accounts knows nothing of schedule).
admin.site.unregister(User)


@admin.register(User)
class UserWithCalendarAdmin(UserAdmin):
    inlines = [*UserAdmin.inlines, CalendarSettingsInline]


@admin.register(CalendarSettings)
class CalendarSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "semester_start", "semester_weeks", "updated_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ("name", "teacher", "user", "is_filler", "updated_at")
    list_filter = ("is_filler",)
    search_fields = ("name", "teacher", "user__username")
    raw_id_fields = ("user",)


class ScheduleSlotInline(admin.TabularInline):
    model = ScheduleSlot
    extra = 0
    readonly_fields = ("week", "day", "section")
    can_delete = False


@admin.register(ScheduleEvent)
class ScheduleEventAdmin(admin.ModelAdmin):
    list_display = ("title", "user", "kind", "week", "day", "start_section", "end_section", "starts_at", "source")
    list_filter = ("kind", "source")
    search_fields = ("title", "user__username")
    raw_id_fields = ("user", "course")
    readonly_fields = ("starts_at", "ends_at")
    inlines = [ScheduleSlotInline]


@admin.register(ScheduleSlot)
class ScheduleSlotAdmin(admin.ModelAdmin):
    list_display = ("user", "week", "day", "section", "event")
    search_fields = ("user__username", "event__title")
    raw_id_fields = ("user", "event")


@admin.register(CalendarFeed)
class CalendarFeedAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at", "last_fetched_at")
    raw_id_fields = ("user",)
    readonly_fields = ("token",)


@admin.register(PlanPreview)
class PlanPreviewAdmin(admin.ModelAdmin):
    list_display = ("pk", "user", "source", "status", "expires_at", "created_at")
    list_filter = ("status", "source")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    readonly_fields = ("placements", "unplaced", "feasibility", "task_class_ids")


@admin.register(ChangeSet)
class ChangeSetAdmin(admin.ModelAdmin):
    list_display = ("pk", "user", "block_count", "applied_at", "undone_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "preview")
    readonly_fields = ("event_ids", "embedded_slot_ids", "item_ids", "applied_at")
