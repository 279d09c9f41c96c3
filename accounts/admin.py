"""Admin for students: their profile and quota, and the operator's actions on a student's data
(download it, reset the weekly quota, delete the account after a confirmation page)."""

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.http import HttpResponseBase
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.data_erase import account_delete
from accounts.data_export import user_data_archive
from accounts.data_ports import user_data_counts
from accounts.data_views import archive_response
from accounts.models import User
from accounts.services import token_quota_reset


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "email", "time_zone", "token_usage", "token_limit", "is_staff", "date_joined")
    list_filter = (*BaseUserAdmin.list_filter, "date_joined", "last_login")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("SmartMate"), {"fields": ("time_zone", "token_limit", "token_usage", "token_window_started_at")}),
    )
    actions = ["export_data", "reset_quota", "delete_accounts"]

    @admin.action(description=_("Download the selected student's data (ZIP)"))
    def export_data(self, request, queryset) -> HttpResponseBase | None:
        if queryset.count() != 1:
            self.message_user(request, _("Select exactly one student to download their data."), messages.WARNING)
            return None
        student = queryset.get()
        return archive_response(user_data_archive(user=student), student.username)

    @admin.action(description=_("Reset the weekly assistant quota"))
    def reset_quota(self, request, queryset) -> None:
        for student in queryset:
            token_quota_reset(user=student)
        count = queryset.count()
        self.message_user(request, ngettext("Quota reset for %(count)d student.", "Quota reset for %(count)d students.",
                                            count) % {"count": count}, messages.SUCCESS)

    @admin.action(description=_("Delete the selected accounts and everything in them"), permissions=["delete"])
    def delete_accounts(self, request, queryset) -> TemplateResponse | None:
        """A confirmation page listing what each student owns; the second POST deletes."""
        if request.POST.get("confirmed") == "yes":
            count = 0
            for student in list(queryset):
                account_delete(user=student, by_operator=True)
                count += 1
            self.message_user(request, ngettext("%(count)d account deleted.", "%(count)d accounts deleted.",
                                                count) % {"count": count}, messages.SUCCESS)
            return None
        students = [(student, {kind: n for kind, n in user_data_counts(user=student).items() if n})
                    for student in queryset]
        return TemplateResponse(request, "admin/accounts/delete_accounts.html", {
            **self.admin_site.each_context(request), "title": _("Delete accounts?"), "students": students,
            "opts": self.model._meta, "action_checkbox_name": ACTION_CHECKBOX_NAME,
        })
