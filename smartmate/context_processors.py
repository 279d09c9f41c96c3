"""Template context every page gets: the main navigation and the CSP nonce."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class NavItem:
    key: str
    label: str
    url: str | None  # None: the section is not available yet


# Order and labels of the main navigation; url names that do not resolve yet render disabled.
NAVIGATION = [
    ("dashboard", _("Overview"), "dashboard"),
    ("schedule", _("Schedule"), "board:week"),
    ("exams", _("Exams"), "schedule:exams"),
    ("taskclasses", _("Task classes"), "plans:list"),
    ("assistant", _("Assistant"), "agent:chat"),
    ("memory", _("Memory"), "memory:list"),
    ("settings", _("Settings"), "accounts:settings"),
]


# Sections that also own addresses outside their own: the timetable's pages (import, semesters) under
# /schedule/ belong to Schedule, whose page, the week board, lives at /board/.
ALSO_UNDER = {"schedule": ("/schedule/",)}


def _url(name: str) -> str | None:
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


def navigation(request: HttpRequest) -> dict:
    items = [NavItem(key, str(label), _url(name)) for key, label, name in NAVIGATION]
    # The longest address that starts the path wins: /schedule/exams/ is Exams, not Schedule.
    matches = [(len(prefix), item.key) for item in items if item.url and item.url != "/"
               for prefix in (item.url, *ALSO_UNDER.get(item.key, ())) if request.path.startswith(prefix)]
    current = max(matches)[1] if matches else ("dashboard" if request.path == "/" else "")
    return {"nav_items": items, "nav_current": current}


def csp_nonce(request: HttpRequest) -> dict:
    """Expose this request's Content-Security-Policy nonce as ``{{ csp_nonce }}`` (smartmate/platform/csp.py)."""
    return {"csp_nonce": getattr(request, "csp_nonce", "")}
