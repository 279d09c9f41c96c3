"""Content-Security-Policy: a per-request nonce, the policy header, and the violation report endpoint.

Every response carries a strict policy: scripts and styles only from our own origin or an element
bearing this request's nonce (``request.csp_nonce``, ``{{ csp_nonce }}`` in templates); no inline
handlers or ``style=""`` attributes, no plugins, no framing, forms and ``<base>`` only to ourselves.
Browsers POST what they block to ``/csp-report`` (``report-uri``), which logs it at WARNING and
counts it in ``smartmate_csp_reports_total``. Anyone can post there, so each address has a budget
(``RATE_LIMITS["csp_report"]``): every request and every violation in it spends one, and past it the
endpoint answers 429 without counting, so a flood cannot inflate the metric. Only Django's own debug 404/500 pages go without it.

Why ``report-uri`` and not ``report-to``: Chromium ignores ``report-uri`` once ``report-to`` is
present and then batches reports through the Reporting API for up to a minute; ``report-uri`` is
sent at once and understood by every browser. The endpoint accepts both body formats, so adding
``report-to`` later is a header change only.

Third-party pages. Swagger UI and ReDoc (drf-spectacular, assets from drf-spectacular-sidecar) and the
browsable API run under the same policy: their templates are overridden in ``templates/`` to put the
nonce on their inline ``<script>``/``<style>`` and to drop inline handlers and CDN links. ReDoc alone
needs three additions, on its one path only (``VIEW_ADDITIONS``): the hash of the perfect-scrollbar
stylesheet its bundle injects while loading (before a nonce can reach it; the hash changes only with
drf-spectacular-sidecar, and the CSP page test names the new one if it does), ``blob:`` workers (its
search index). Its attribution logo on cdn.redoc.ly stays blocked: nothing is fetched from the internet
(the browser reports that one blocked image whenever someone opens ReDoc).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from smartmate.platform.api import error_body
from smartmate.platform.metrics import CSP_REPORTS
from smartmate.platform.params import digits_int
from smartmate.platform.ratelimit import RateLimited, client_ip, rate_limit_hit

logger = logging.getLogger(__name__)

HEADER = "Content-Security-Policy"
REPORT_MAX_BYTES = 16 * 1024  # a real report is well under 2 KiB; anything bigger is not a browser
REPORT_FIELD_MAX_CHARS = 300
# Logged reports per process per minute; past it they are only counted (a page full of violations,
# or someone posting garbage, must not flood the log).
REPORT_LOG_BUDGET_PER_MINUTE = 60
# The directives a report may name as its metric label; anything else is "other" (bounded labels).
KNOWN_DIRECTIVES = frozenset({
    "default-src", "script-src", "script-src-elem", "script-src-attr", "style-src", "style-src-elem",
    "style-src-attr", "img-src", "font-src", "connect-src", "media-src", "object-src", "frame-src",
    "child-src", "worker-src", "manifest-src", "base-uri", "form-action", "frame-ancestors",
})
# Sources added to the policy of single views (by URL name), each for a reason given in the module docstring.
VIEW_ADDITIONS: dict[str, dict[str, list[str]]] = {
    "redoc": {
        # perfect-scrollbar's CSS, and the empty <style> it is first inserted as
        "style-src": ["'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='",
                      "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"],
        "worker-src": ["blob:"],
    },
}


# --- The policy ------------------------------------------------------------------------------------

def nonce_new() -> str:
    """Return a fresh unguessable nonce (base64url, valid in a CSP nonce-source)."""
    return secrets.token_urlsafe(18)


def policy_for(request: HttpRequest) -> str:
    """Return the policy header value for this request (its nonce, its host's websocket origin)."""
    nonce = f"'nonce-{request.csp_nonce}'"  # type: ignore[attr-defined]  # set by the middleware below
    directives = {
        "default-src": ["'self'"],
        "script-src": ["'self'", nonce],
        "style-src": ["'self'", nonce],
        "img-src": ["'self'", "data:"],
        # 'self' matches same-host ws:/wss: in CSP Level 3 browsers; the explicit origin is for older ones.
        "connect-src": ["'self'", *_websocket_origin(request)],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        # The service worker (/sw.js) and the web app manifest: named, not left to the default-src fallback.
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "report-uri": [reverse("csp-report")],
    }
    view_name = getattr(request.resolver_match, "view_name", "")
    for name, sources in VIEW_ADDITIONS.get(view_name, {}).items():
        directives[name] = [*directives.get(name, ["'self'"]), *sources]
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


def _websocket_origin(request: HttpRequest) -> list[str]:
    try:
        host = request.get_host()
    except DisallowedHost:  # answered with 400 by CommonMiddleware; 'self' still holds
        return []
    return [f"{'wss' if request.is_secure() else 'ws'}://{host}"]


class ContentSecurityPolicyMiddleware:
    """Give each request a nonce and each response the policy (unless a view set its own)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.csp_nonce = nonce_new()  # type: ignore[attr-defined]  # our own attribute; templates read it
        response = self.get_response(request)
        if HEADER not in response and not _is_debug_error_page(response):
            response[HEADER] = policy_for(request)
        return response


def _is_debug_error_page(response: HttpResponse) -> bool:
    # Django's technical 404 and 500 pages (debug only) inline their styles and scripts without a nonce.
    return (settings.DEBUG and response.status_code in (404, 500)
            and response.get("Content-Type", "").startswith("text/html"))


# --- Violation reports -----------------------------------------------------------------------------

class _LogBudget:
    """A per-process fixed window: how many reports may still be logged this minute."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self.window_start = clock()
        self.used = 0
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            now = self.clock()
            if now - self.window_start >= 60:
                self.window_start, self.used = now, 0
            self.used += 1
            return self.used <= self.per_minute


log_budget = _LogBudget(REPORT_LOG_BUDGET_PER_MINUTE)


@csrf_exempt  # browsers send reports without a token; the endpoint changes nothing but a counter
@require_POST
def csp_report(request: HttpRequest) -> HttpResponse:
    """Record the violations a browser reports (report-uri or Reporting API format); 204, or why not."""
    key = f"ip:{client_ip(request)}"
    try:
        rate_limit_hit("csp_report", key)  # garbage costs a request too, not only what gets counted
        size = digits_int(request.META.get("CONTENT_LENGTH") or "0")
        if size is None or size > REPORT_MAX_BYTES:
            return _too_large()
        body = request.read(REPORT_MAX_BYTES + 1)
        if len(body) > REPORT_MAX_BYTES:
            return _too_large()
        for violation in violations_parse(body):
            rate_limit_hit("csp_report", key)
            violation_record(violation)
    except RateLimited as exc:
        response = JsonResponse(error_body(exc.code, exc.message, exc.detail), status=exc.status)
        response["Retry-After"] = str(exc.retry_after)
        return response
    return HttpResponse(status=204)


def _too_large() -> JsonResponse:
    message = _("A violation report may be at most %(limit)s bytes.") % {"limit": REPORT_MAX_BYTES}
    return JsonResponse(error_body("report_too_large", message, {"limit": REPORT_MAX_BYTES}), status=413)


# Where each kept field sits in a report-uri body and in a Reporting API (report-to) body; "violated"
# is the older name of the directive, sent by browsers that predate "effective-directive".
REPORT_URI_FIELDS = {
    "document": "document-uri", "directive": "effective-directive", "violated": "violated-directive",
    "blocked": "blocked-uri", "source": "source-file", "line": "line-number", "sample": "script-sample",
}
REPORTING_API_FIELDS = {
    "document": "documentURL", "directive": "effectiveDirective", "violated": "violatedDirective",
    "blocked": "blockedURL", "source": "sourceFile", "line": "lineNumber", "sample": "sample",
}


def violations_parse(body: bytes) -> list[dict[str, str]]:
    """Return the violations in a report body, each as short plain fields; [] when it is not one."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return []
    if isinstance(data, dict) and isinstance(data.get("csp-report"), dict):  # report-uri: one violation
        return [_fields(data["csp-report"], REPORT_URI_FIELDS)]
    if isinstance(data, list):  # Reporting API: a batch of reports of several types
        return [_fields(item["body"], REPORTING_API_FIELDS) for item in data[:20] if _is_csp_violation(item)]
    return []


def _is_csp_violation(item: Any) -> bool:
    return isinstance(item, dict) and item.get("type") == "csp-violation" and isinstance(item.get("body"), dict)


def _fields(raw: dict[str, Any], names: dict[str, str]) -> dict[str, str]:
    kept = {key: str(raw.get(name) or "")[:REPORT_FIELD_MAX_CHARS] for key, name in names.items()}
    kept["directive"] = kept["directive"] or kept["violated"]
    del kept["violated"]
    return kept


def violation_record(violation: dict[str, str]) -> None:
    """Count one violation by directive and log it (within the per-minute budget)."""
    name = violation["directive"].split(" ", 1)[0].lower()
    CSP_REPORTS.labels(name if name in KNOWN_DIRECTIVES else "other").inc()
    if log_budget.take():
        logger.warning("CSP violation: %s blocked %s on %s", violation["directive"] or "?",
                       violation["blocked"] or "?", violation["document"] or "?",
                       extra={f"csp_{key}": value for key, value in violation.items()})
