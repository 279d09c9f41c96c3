from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "email", "time_zone", "token_usage", "token_limit", "is_staff", "date_joined")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("SmartMate"), {"fields": ("time_zone", "token_limit", "token_usage", "token_window_started_at")}),
    )
