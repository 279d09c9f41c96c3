"""Cross-cutting views: health, metrics, the dashboard and the language switch."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedHttpRequest
from board.catch_up import catch_up_count
from schedule.exams.selectors import exam_countdowns
from schedule.now_next import now_next_get
from schedule.selectors import calendar_settings_get, semester_week_get, today_events_list
from smartmate.first_run import first_run_get
from smartmate.platform.api import error_body
from smartmate.platform.health import run_checks
from smartmate.platform.metrics import render_metrics
from taskclasses.notes.presenters import quadrant_board_get
from taskclasses.notes.selectors import overdue_count, recently_completed_list
from taskclasses.tomorrow import tomorrow_preview_due


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the vendored icon."""
    return redirect(static("img/favicon.svg"), permanent=True)


class ApiRootView(APIView):
    """The API's entry points, so /api/v1/ answers in the browsable API instead of a 404."""

    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        names = {"me": "v1:me", "courses": "v1:schedule-courses", "semester": "v1:me-calendar",
                 "school_calendar": "v1:school-calendar",
                 "tasks": "v1:tasks", "task_classes": "v1:task-classes", "previews": "v1:previews",
                 "conversations": "v1:agent-conversations", "memories": "v1:memories",
                 "schema": "schema", "docs": "swagger-ui"}
        links = {}
        for key, name in names.items():
            try:
                links[key] = request.build_absolute_uri(reverse(name))
            except NoReverseMatch:  # an app left out of this deployment
                continue
        return Response(links)


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Say up (200) or down (503); each dependency's state only to whoever may read /metrics.

    The details (which dependency is down, its error text, latencies) map the deployment for an
    attacker, and a load balancer needs only the status code.
    """
    results = run_checks()
    healthy = all(result.ok for result in results if result.required)
    status = 200 if healthy else 503
    if metrics_refusal(request) is not None:
        return JsonResponse({"status": "ok" if healthy else "down"}, status=status)
    degraded = healthy and not all(result.ok for result in results)
    body = {
        "status": "ok" if healthy and not degraded else ("degraded" if healthy else "down"),
        "checks": {result.name: result.as_dict() for result in results},
    }
    return JsonResponse(body, status=status)


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """Expose Prometheus metrics to a scraper allowed by ``metrics_refusal``."""
    refusal = metrics_refusal(request)
    if refusal is not None:
        return refusal
    body, content_type = render_metrics()
    return HttpResponse(body, content_type=content_type)


# Headers a reverse proxy adds: a request carrying one came through it, whatever its socket address.
PROXY_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host", "X-Real-IP")


def metrics_refusal(request: HttpRequest) -> JsonResponse | None:
    """Return why this request may not read /metrics, or None when it may.

    With METRICS_TOKEN set, only ``Authorization: Bearer <token>`` (compared in constant time). Without
    one, only a direct loopback connection: a reverse proxy on the same host makes every visitor's
    request arrive from 127.0.0.1, so a request bearing a forwarding header is refused too.
    """
    token = settings.METRICS_TOKEN
    if token:
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        # Digests of equal length, so the comparison's time says nothing about the token's length either.
        if scheme.lower() == "bearer" and hmac.compare_digest(_digest(given.strip()), _digest(token)):
            return None
        return JsonResponse(error_body("not_authenticated", "A valid metrics token is required."), status=401)
    proxied = any(name in request.headers for name in PROXY_HEADERS)
    if _is_loopback(request.META.get("REMOTE_ADDR", "")) and not proxied:
        return None
    return JsonResponse(error_body("permission_denied", "Metrics are served to loopback only; "
                                   "set METRICS_TOKEN to scrape from elsewhere."), status=403)


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def _is_loopback(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)  # ::ffff:127.0.0.1 from a dual-stack socket
    return (mapped or ip).is_loopback


@login_required
def dashboard(request: AuthedHttpRequest) -> HttpResponse:
    """Show the student's overview: where we are in the semester."""
    calendar = calendar_settings_get(user=request.user)
    week = semester_week_get(user=request.user)
    first_run = first_run_get(user=request.user)
    context = {"calendar": calendar, "week": week,
               # The guide's checklist; and without a timetable the day panel points to the import page.
               "first_run": first_run, "no_timetable": not first_run.is_done("timetable"),
               "today_events": today_events_list(user=request.user),
               "now_next": now_next_get(user=request.user),
               "quadrants": quadrant_board_get(user=request.user),
               "recently_completed": recently_completed_list(user=request.user),
               "overdue": overdue_count(user=request.user), "now": timezone.now(),
               # Exams: countdowns, and tomorrow's preview after the student's preview time (taskclasses/tomorrow.py).
               "exam_countdowns": exam_countdowns(user=request.user, today=week.today),
               "tomorrow": tomorrow_preview_due(user=request.user),
               # "补上落下的 3 次复习": blocks gone by and not done (board/catch_up.py).
               "heal": {"catch_up": catch_up_count(user=request.user)},
               # Quick add asks the model about lines its rules were unsure of, when there is one.
               "quick_add_refines": settings.LLM_ENABLED,
               # The page waits for the refinement as long as the server does, plus the network's 2 s.
               "quick_add_refine_wait_ms": round(settings.QUICK_ADD_REFINE_SECONDS * 1000) + 2000}
    return render(request, "dashboard.html", context)
