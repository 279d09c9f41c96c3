"""The settings page's "我的规则" card posts here: save the numbers, add or delete a protected time.

Each post replaces the rules whole through ``study_rules_update`` (all or nothing) and goes back to
the card with a message: what was saved, or why nothing was.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.requests import AuthedHttpRequest
from schedule.student_rules import services
from schedule.student_rules.models import StudyRules
from schedule.student_rules.services import TYPED_FIELDS, TYPED_KEY
from smartmate.platform.exceptions import AppError
from smartmate.platform.params import digits_int


def _number(raw: str | None, *, default: int | None) -> int | None:
    text = (raw or "").strip()
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise services.StudyRulesError(_("Use whole numbers for the cap, the buffer and the latest section."),
                                       code="invalid_number") from None


def _kept(rules: StudyRules) -> list[services.ProtectedInput]:
    return [services.ProtectedInput(name=p["name"], days=tuple(p["days"]), first=p["first"], last=p["last"],
                                    start=p.get("start"), end=p.get("end")) for p in rules.protected_times]


def _typed_protected(request: AuthedHttpRequest) -> services.ProtectedInput:
    post = request.POST
    days = tuple(day for day in map(digits_int, post.getlist("days")) if day is not None)
    if post.get("by") == "time":
        return services.ProtectedInput(name=post.get("name", ""), days=days, start=post.get("start") or "",
                                       end=post.get("end") or "")
    first = _number(post.get("first"), default=None)
    return services.ProtectedInput(name=post.get("name", ""), days=days, first=first,
                                   last=_number(post.get("last"), default=first))


def _save(request: AuthedHttpRequest, rules: StudyRules, protected: list[services.ProtectedInput], *,
          numbers: bool) -> None:
    post = request.POST
    services.study_rules_update(
        user=request.user,
        daily_cap=_number(post.get("daily_cap"), default=None) if numbers else rules.daily_cap,
        buffer_sections=_number(post.get("buffer_sections"), default=0) if numbers else rules.buffer_sections,  # type: ignore[arg-type]
        latest_section=_number(post.get("latest_section"), default=None) if numbers else rules.latest_section,
        protected=protected)


@login_required
@require_POST
def study_rules_save(request: AuthedHttpRequest) -> HttpResponse:
    """One of: ``rules_save`` (cap, buffer, latest section), ``protected_add``, ``protected_delete`` (index)."""
    action = request.POST.get("action", "")
    rules = services.study_rules_get(user=request.user)
    protected = _kept(rules)
    try:
        if action == "protected_add":
            _save(request, rules, [*protected, _typed_protected(request)], numbers=False)
            messages.success(request, _("Protected time added."))
        elif action == "protected_delete":
            index = _number(request.POST.get("index"), default=-1)
            _save(request, rules, [p for n, p in enumerate(protected) if n != index], numbers=False)
            messages.success(request, _("Protected time deleted."))
        else:
            _save(request, rules, protected, numbers=True)
            messages.success(request, _("Your rules are saved."))
    except AppError as exc:
        between = isinstance(exc.detail, dict) and "between" in exc.detail  # nothing to protect: not an error
        (messages.info if between else messages.error)(request, str(exc.message))
        if action == "protected_add" and not between:  # the form comes back as she typed it
            request.session[TYPED_KEY] = {name: request.POST.getlist(name) if name == "days" else
                                          request.POST.get(name, "") for name in TYPED_FIELDS}
    return redirect(reverse("accounts:settings") + "#study-rules")

