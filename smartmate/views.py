"""Cross-cutting views: health, metrics, the dashboard and the language switch."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.selectors import calendar_settings_get, semester_week_get
from schedule.selectors import today_events_list
from taskclasses.selectors import overdue_count, quadrant_board_get, recently_completed_list
from taskclasses.services.tasks import tasks_promote
from smartmate.api import error_body
from smartmate.health import run_checks
from smartmate.metrics import render_metrics


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Report each dependency; 503 when a required one is down."""
    results = run_checks()
    healthy = all(result.ok for result in results if result.required)
    degraded = healthy and not all(result.ok for result in results)
    body = {
        "status": "ok" if healthy and not degraded else ("degraded" if healthy else "down"),
        "checks": {result.name: result.as_dict() for result in results},
    }
    return JsonResponse(body, status=200 if healthy else 503)


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """Expose Prometheus metrics; behind a bearer token when METRICS_TOKEN is set."""
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if not hmac.compare_digest(given.encode(), token.encode()):
            return JsonResponse(error_body("not_authenticated", "A valid metrics token is required."), status=401)
    body, content_type = render_metrics()
    return HttpResponse(body, content_type=content_type)


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """Show the student's overview: where we are in the semester."""
    calendar = calendar_settings_get(user=request.user)
    tasks_promote(user=request.user)
    context = {"calendar": calendar, "week": semester_week_get(user=request.user),
               "today_events": today_events_list(user=request.user),
               "quadrants": quadrant_board_get(user=request.user),
               "recently_completed": recently_completed_list(user=request.user),
               "overdue": overdue_count(user=request.user), "now": timezone.now()}
    return render(request, "dashboard.html", context)
