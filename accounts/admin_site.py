"""The admin site, signing operators in through the same login gate as students."""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse

from accounts.forms import AdminLoginForm
from smartmate.platform.ratelimit import RateLimited


class GatedAdminSite(admin.AdminSite):
    """Django's admin with the gated login form; a refused sign-in answers 429 like every other door."""

    login_form = AdminLoginForm

    def login(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        response = super().login(request, extra_context)
        form = (getattr(response, "context_data", None) or {}).get("form")
        if form is not None and form.has_error(NON_FIELD_ERRORS, RateLimited.code):
            response.status_code = 429
        return response
