"""The settings page (/accounts/settings/): the semester and section times, with the time zone and quota.

It lives with the calendar it edits; the root URLconf serves it as ``accounts:settings``, its address
since the start (accounts imports nothing from the schedule).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.requests import AuthedHttpRequest
from accounts.selectors import token_quota_get
from accounts.services import user_profile_update
from schedule.core.time_model import MAX_SECTIONS
from schedule.forms import CalendarForm
from schedule.selectors import calendar_settings_get
from schedule.services.calendar import calendar_settings_update


@login_required
def settings_page(request: AuthedHttpRequest) -> HttpResponse:
    """Edit the semester, the section-time template and the time zone."""
    calendar = calendar_settings_get(user=request.user)
    initial = {
        "semester_start": calendar.semester_start,
        "semester_weeks": calendar.semester_weeks,
        "time_zone": request.user.time_zone,
    }
    form = CalendarForm(request.POST or None, initial=initial)
    sections = calendar.section_times
    section_error = ""
    if request.method == "POST":
        sections = list(zip(request.POST.getlist("section_start"), request.POST.getlist("section_end")))
        if form.is_valid():
            try:
                calendar_settings_update(
                    user=request.user,
                    semester_start=form.cleaned_data["semester_start"],
                    semester_weeks=form.cleaned_data["semester_weeks"],
                    section_times=[list(pair) for pair in sections],
                )
                user_profile_update(user=request.user, time_zone=form.cleaned_data["time_zone"])
            except ValidationError as exc:
                section_error = " ".join(exc.messages)
            else:
                messages.success(request, _("Settings saved."))
                return redirect("accounts:settings")
    context = {
        "form": form,
        "sections": [{"number": n, "start": s, "end": e} for n, (s, e) in enumerate(sections, start=1)],
        "section_error": section_error,
        "max_sections": MAX_SECTIONS,
        "calendar": calendar,
        "quota": token_quota_get(user=request.user),
    }
    return render(request, "accounts/settings.html", context)
