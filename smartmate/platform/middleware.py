"""Request-level middleware: metrics and the student's time zone."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from smartmate.platform.metrics import HTTP_LATENCY, HTTP_REQUESTS


class RequestMetricsMiddleware:
    """Count requests and time them, labelled by route pattern (never by raw path)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        route = self._route(request)
        HTTP_REQUESTS.labels(request.method, route, str(response.status_code)).inc()
        HTTP_LATENCY.labels(request.method, route).observe(elapsed)
        return response

    @staticmethod
    def _route(request: HttpRequest) -> str:
        # Raw paths carry ids and would explode the label space; the pattern does not.
        match = getattr(request, "resolver_match", None)
        if match is None:
            return "static" if request.path.startswith("/static/") else "unmatched"
        return "/" + (match.route or match.view_name or "unknown")


class UserTimezoneMiddleware:
    """Render times in the signed-in student's zone; reset afterwards so nothing leaks to the next request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            timezone.activate(user.zone)
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class NotFoundErrorMiddleware:
    """Render a service's NotFoundError (another student's id, a vanished row) as the 404 page.

    The API's exception handler does this for DRF views; this covers the server-rendered pages, so
    no page view needs its own try/except.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.DEBUG and response.status_code == 404 and not getattr(response, "friendly", False) \
                and response.get("Content-Type", "").startswith("text/html") \
                and not getattr(getattr(request, "user", None), "is_staff", False):
            # Under DEBUG (``make run``) Django answers an unknown address with its English technical
            # page; a student sees ours, in her language. Staff still get the technical one.
            from smartmate.platform.api import not_found_view

            return not_found_view(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from smartmate.platform.api import not_found_view
        from smartmate.platform.exceptions import NotFoundError

        return not_found_view(request, exception) if isinstance(exception, NotFoundError) else None
