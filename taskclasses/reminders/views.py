"""The settings page's reminder section posts here; the page itself is the schedule's (accounts:settings)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.requests import AuthedHttpRequest
from smartmate.platform.exceptions import AppError
from taskclasses.reminders.forms import ReminderSettingsForm
from taskclasses.reminders.services import reminder_settings_update


@login_required
@require_POST
def settings_save(request: AuthedHttpRequest) -> HttpResponse:
    """Save the reminder settings, or say why not (nothing is saved then)."""
    form = ReminderSettingsForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
    else:
        try:
            reminder_settings_update(user=request.user, **form.cleaned_data)
        except AppError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Reminder settings saved."))
    return redirect(reverse("accounts:settings") + "#reminders")
