"""The installable app: the web app manifest and the service worker, both served from the site root.

The worker must come from ``/sw.js`` (not ``/static/``) so its scope is the whole site; it caches the
page shell and the student's agenda (this week and next) for read-only use offline, and forgets the
agenda at sign-out or when another student signs in on the device (``templates/pwa/sw.js``).
Both are public: the browser fetches them without the student's session.

The kept agenda belongs to one session, not just one student: pages tell the worker an opaque
``offline_scope`` derived from the session, and every HTML page carries it in ``X-Pocket-Scope`` ("-"
when nobody is signed in). A worker that sees another scope pass by (signed out here or on another
device, the session expired, someone else signed in) drops what it kept before it keeps anything new.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import PrefixNode, static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from smartmate.platform.offline_scope import offline_scope

SCOPE_HEADER = "X-Pocket-Scope"
SIGNED_OUT_SCOPE = "-"
THEME_COLOR = "#3b6ef5"
BACKGROUND_COLOR = "#f6f7fb"
# What every page needs to draw itself offline; the agenda pages themselves are kept per student.
SHELL_ASSETS = ("css/app.css", "css/pocket.css", "js/api.js", "js/reconnect.js", "js/base.js", "js/bell.js", "js/pwa.js",
                "js/week.js", "js/week_agenda.js", "js/offline.js", "img/favicon.svg", "img/icon-192.png",
                "img/icon-512.png")


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: name 时伴, icons, theme, and the agenda as the start page."""
    icons = [{"src": static(f"img/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "any"} for size in (192, 512)]
    icons.append({"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"})
    body = {
        "id": "/", "name": "时伴", "short_name": "时伴",
        "description": _("Your timetable, study plans and reminders, also offline."),
        "lang": "zh-CN", "start_url": reverse("board:week"), "scope": "/", "display": "standalone",
        "theme_color": THEME_COLOR, "background_color": BACKGROUND_COLOR, "icons": icons,
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the worker shows offline at an address it kept nothing for: says so, and links what it kept.

    Cached with the shell at install and shown to whoever is at the device later, so it names nobody:
    the template reads nothing of the request's user (the kept agenda is listed by the page's script,
    which asks the worker).
    """
    return render(request, "pwa/offline.html", {"agenda_url": reverse("board:week")})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker script, for the root scope; browsers re-check it on every visit (no-cache)."""
    shell = [static(path) for path in SHELL_ASSETS] + [reverse("offline")]
    context = {
        "shell_json": json.dumps(shell),
        "scope_header": json.dumps(SCOPE_HEADER),
        "logout_json": json.dumps(sorted({reverse("accounts:logout"), reverse("rest_framework:logout")})),
        # The prefix itself, not static(""): the production (manifest) storage refuses a name it never collected.
        "static_prefix": json.dumps(PrefixNode.handle_simple("STATIC_URL")),
        "offline_url": json.dumps(reverse("offline")),
        "moved_json": json.dumps({reverse("board-moved"): reverse("board:week")}),
    }
    # The version changes whenever the shell's addresses do (hashed names in production): a new worker
    # then takes over and drops the old shell cache.
    context["version"] = hashlib.sha256(context["shell_json"].encode()).hexdigest()[:12]
    script = render_to_string("pwa/sw.js", context)
    response = HttpResponse(script, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


class PocketScopeMiddleware:
    """Tell the worker on every HTML page whose session it was served to (see the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method == "GET" and response.get("Content-Type", "").startswith("text/html"):
            response[SCOPE_HEADER] = offline_scope(request) or SIGNED_OUT_SCOPE
        return response
