"""The first-run guide's page (/welcome/): the three steps, the semester asked in place, and "skip"."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.requests import AuthedHttpRequest
from accounts.services import user_first_run_dismiss, user_profile_update
from schedule.forms import CalendarForm
from schedule.models import CalendarSettings
from schedule.services.calendar import calendar_settings_update
from smartmate.first_run import first_run_get
from smartmate.platform.exceptions import AppError


@login_required
def first_run_page(request: AuthedHttpRequest) -> HttpResponse:
    """Show the guide; a POST saves its first step, the semester (and time zone), and goes on to the next."""
    calendar = CalendarSettings.objects.for_user(request.user)
    form = CalendarForm(request.POST or None, initial={
        "semester_start": calendar.semester_start, "semester_weeks": calendar.semester_weeks,
        "time_zone": request.user.time_zone})
    if request.method == "POST" and form.is_valid():
        try:
            _semester_save(request, form)
        except ValidationError as exc:
            form.add_error(None, exc.messages)
        except AppError as exc:  # the school calendar could not follow the moved semester
            form.add_error(None, str(exc.message))
        else:
            messages.success(request, _("Semester saved. Next: your timetable."))
            return redirect("first-run")
    guide = first_run_get(user=request.user)
    return render(request, "first_run.html", {"guide": guide, "form": form, "calendar": calendar},
                  status=400 if form.is_bound and form.errors else 200)


@transaction.atomic  # the semester and the time zone are saved together or not at all
def _semester_save(request: AuthedHttpRequest, form: CalendarForm) -> None:
    calendar_settings_update(user=request.user, semester_start=form.cleaned_data["semester_start"],
                             semester_weeks=form.cleaned_data["semester_weeks"])
    user_profile_update(user=request.user, time_zone=form.cleaned_data["time_zone"])


@login_required
@require_POST
def first_run_dismiss(request: AuthedHttpRequest) -> HttpResponse:
    """Hide the guide for good and go to the dashboard; the settings page still has everything."""
    user_first_run_dismiss(user=request.user)
    messages.info(request, _("Guide closed. Everything it offered is in Settings, Schedule and Task classes."))
    return redirect("dashboard")
