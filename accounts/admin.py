from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import CalendarSettings, User


class CalendarSettingsInline(admin.StackedInline):
    model = CalendarSettings
    can_delete = False


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "email", "time_zone", "token_usage", "token_limit", "is_staff", "date_joined")
    fieldsets = BaseUserAdmin.fieldsets + (
        (_("SmartMate"), {"fields": ("time_zone", "token_limit", "token_usage", "token_window_started_at")}),
    )
    inlines = [CalendarSettingsInline]


@admin.register(CalendarSettings)
class CalendarSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "semester_start", "semester_weeks", "updated_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
