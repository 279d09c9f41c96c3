"""Account pages: register, log in, log out, settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from accounts import services
from accounts.exceptions import UsernameTakenError
from accounts.forms import CalendarForm, LoginForm, RegisterForm
from accounts.models import MAX_SECTIONS
from accounts.selectors import calendar_settings_get


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """Log out on POST (Django refuses GET logouts, which would be a CSRF hole)."""


@sensitive_post_parameters("password", "password_again")
def register(request: HttpRequest) -> HttpResponse:
    """Create an account and sign in."""
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_register(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"],
                email=form.cleaned_data["email"],
            )
        except UsernameTakenError as exc:
            form.add_error("username", exc.message)
        except ValidationError as exc:
            form.add_error("password", exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome to SmartMate! Check your semester settings first."))
            return redirect("accounts:settings")
    return render(request, "accounts/register.html", {"form": form})


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
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
                services.calendar_settings_update(
                    user=request.user,
                    semester_start=form.cleaned_data["semester_start"],
                    semester_weeks=form.cleaned_data["semester_weeks"],
                    section_times=[list(pair) for pair in sections],
                )
                services.user_profile_update(user=request.user, time_zone=form.cleaned_data["time_zone"])
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
    }
    return render(request, "accounts/settings.html", context)
