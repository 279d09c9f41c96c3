"""Middleware of the accounts app."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts.login_gate import device_cookie_write


class LoginDeviceCookieMiddleware:
    """Write the trusted-device cookie a successful sign-in asked for (see ``accounts.login_gate``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        device_cookie_write(request, response)
        return response
