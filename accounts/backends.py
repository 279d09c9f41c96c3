"""The authentication backend every sign-in goes through, with the login gate around the password check."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from accounts.login_gate import login_attempt_of, login_gate_enter, login_gate_succeeded


class GatedModelBackend(ModelBackend):
    """Django's username + password check, behind the login gate (``accounts.login_gate``).

    Pages, the token endpoint, the admin and the browsable API all call ``authenticate(request, ...)``,
    so the gate cannot be skipped by choosing another door. Without a request (the shell, a
    management command) there is nobody to count and the gate stays out of the way.
    """

    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if request is None or username is None or password is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        attempt = login_attempt_of(request, str(username))
        login_gate_enter(attempt)  # raises RateLimited: the password is never checked
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            login_gate_succeeded(request, attempt, user)
        return user
