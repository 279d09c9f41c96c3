from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.admin import UserAdmin
from accounts.models import User
from schedule.exams.models import Exam
from schedule.models import (
    CalendarDay,
    CalendarFeed,
    CalendarSettings,
    ChangeSet,
    Course,
    PlanPreview,
    ScheduleEvent,
    ScheduleSlot,
    SuspendedMeeting,
)
from schedule.semesters.models import Semester
from schedule.services.academic_calendar import national_holidays_load, national_years
from schedule.student_rules.models import StudyRules
from smartmate.platform.exceptions import AppError


class CalendarSettingsInline(admin.StackedInline):
    model = CalendarSettings
    can_delete = False


# The user page shows the student's calendar too: accounts registers the user admin, the schedule
# re-registers it with its inline (accounts knows nothing of schedule).
admin.site.unregister(User)


@admin.register(User)
class UserWithCalendarAdmin(UserAdmin):
    inlines = [*UserAdmin.inlines, CalendarSettingsInline]


def _national_action(year: int):
    """An admin action adding ``year``'s national holidays to the selected students' calendars."""

    def load(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[CalendarSettings]) -> None:
        loaded, refused = 0, []
        for calendar in queryset.select_related("user"):
            try:
                national_holidays_load(user=calendar.user, year=year)
                loaded += 1
            except AppError as exc:  # one student's refusal (a clash on their board) leaves the others
                refused.append(f"{calendar.user.username}: {exc.message}")
        modeladmin.message_user(request, _("Loaded the %(year)s holidays for %(count)d students.")
                                % {"year": year, "count": loaded})
        for line in refused:
            modeladmin.message_user(request, line, level=messages.WARNING)

    load.__name__ = f"load_national_holidays_{year}"
    description = format_lazy(gettext_lazy("Add the national holidays of {year}"), year=year)
    return admin.action(description=description)(load)


@admin.register(CalendarSettings)
class CalendarSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "semester_start", "semester_weeks", "follows_school_calendar", "updated_at")
    list_filter = ("follows_school_calendar",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    actions = [_national_action(year) for year in national_years()]


@admin.register(CalendarDay)
class CalendarDayAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "kind", "first_date", "last_date", "runs_week", "runs_day", "origin")
    list_filter = ("kind", "origin")
    search_fields = ("name", "user__username")
    raw_id_fields = ("user",)

    # Read only: a day changed here would bypass the checks and leave the board behind (the student's
    # settings page, the API and the services keep both in step).
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=gettext_lazy("name"))
    def name(self, semester: Semester) -> str:
        return semester.label

    def has_change_permission(self, request: HttpRequest, obj: CalendarDay | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: CalendarDay | None = None) -> bool:
        return False


@admin.register(SuspendedMeeting)
class SuspendedMeetingAdmin(admin.ModelAdmin):
    list_display = ("title", "user", "week", "day", "start_section", "end_section", "created_at")
    search_fields = ("title", "user__username")
    raw_id_fields = ("user", "course")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=gettext_lazy("name"))
    def name(self, semester: Semester) -> str:
        return semester.label

    def has_change_permission(self, request: HttpRequest, obj: SuspendedMeeting | None = None) -> bool:
        return False


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

    # Read-only: an event edited here would not move its slots or keep the school calendar in step;
    # students edit through the board, operators through the services (README, the Django shell).
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=gettext_lazy("name"))
    def name(self, semester: Semester) -> str:
        return semester.label

    def has_change_permission(self, request: HttpRequest, obj: ScheduleEvent | None = None) -> bool:
        return False


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


@admin.register(StudyRules)
class StudyRulesAdmin(admin.ModelAdmin):
    list_display = ("user", "daily_cap", "buffer_sections", "latest_section", "updated_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    readonly_fields = ("updated_at",)


@admin.register(Exam)
class ExamAdmin(admin.ModelAdmin):
    list_display = ("title", "user", "date", "start_time", "end_time", "place")
    search_fields = ("title", "user__username")
    raw_id_fields = ("user", "course")
    date_hierarchy = "date"


@admin.register(Semester)
class SemesterAdmin(admin.ModelAdmin):
    """Past semesters are frozen: shown, never edited here (deleting one goes with its student)."""

    list_display = ("name", "user", "first_monday", "weeks", "frozen_at")
    search_fields = ("user__username",)
    list_filter = ("season",)
    raw_id_fields = ("user",)
    readonly_fields = ("user", "year", "season", "first_monday", "weeks", "section_times", "document", "carried",
                       "next_first_monday", "next_weeks", "frozen_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=gettext_lazy("name"))
    def name(self, semester: Semester) -> str:
        return semester.label
