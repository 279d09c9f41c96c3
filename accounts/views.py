"""Account pages: register, log in, log out, change the password. (Settings: schedule.calendar_views.)"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from accounts import services
from accounts.exceptions import UsernameTakenError
from accounts.forms import LoginForm, PasswordChangeForm, RegisterForm
from accounts.login_gate import device_trust, login_attempt_of
from accounts.requests import AuthedHttpRequest
from smartmate.platform.ratelimit import RateLimited, client_network, rate_limit_hit


class LoginView(auth_views.LoginView):
    """Sign in; the login gate (accounts/login_gate.py) may refuse an attempt with 429."""

    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, RateLimited.code):
            response.status_code = 429
        return response


class LogoutView(auth_views.LogoutView):
    """Log out on POST (Django refuses GET logouts, which would be a CSRF hole) and close the student's sockets."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        user = request.user if request.user.is_authenticated else None
        response = super().post(request, *args, **kwargs)
        if user is not None:
            services.user_logout(user=user)
        return response


@login_required
@sensitive_post_parameters("old_password", "new_password1", "new_password2")
def password_change(request: AuthedHttpRequest) -> HttpResponse:
    """Change the password; this browser stays signed in, every other session, token and socket ends."""
    form = PasswordChangeForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_password_change(user=request.user, old_password=form.cleaned_data["old_password"],
                                                 new_password=form.cleaned_data["new_password1"],
                                                 attempt=login_attempt_of(request, request.user.get_username()))
        except RateLimited as exc:
            form.add_error(None, exc.message)
            return render(request, "accounts/password_change.html", {"form": form}, status=429)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            update_session_auth_hash(request, user)
            device_trust(request, user)
            messages.success(request, _("Password changed. You were signed out everywhere else."))
            for notice in getattr(user, "revocation_notices", []):
                messages.warning(request, notice)
            return redirect("accounts:settings")
    return render(request, "accounts/password_change.html", {"form": form})


@sensitive_post_parameters("password", "password_again")
def register(request: HttpRequest) -> HttpResponse:
    """Create an account and sign in."""
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = RegisterForm(request.POST or None)
    if request.method == "POST":
        try:
            rate_limit_hit("register", f"ip:{client_network(request)}")
        except RateLimited as exc:
            form.add_error(None, exc.message)
            return render(request, "accounts/register.html", {"form": form}, status=429)
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
            login(request, user, backend="accounts.backends.GatedModelBackend")
            # Three short steps (smartmate/first_run.py) rather than the long settings page.
            messages.success(request, _("Welcome to SmartMate! Three steps get you started."))
            return redirect("first-run")
    return render(request, "accounts/register.html", {"form": form})
