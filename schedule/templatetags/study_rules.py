"""The settings page's "我的规则" card (the student's own rules for study blocks)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

from schedule.messages import DAY_LABELS
from schedule.models import CalendarSettings
from schedule.student_rules.services import TYPED_KEY, protected_days_text, study_rules_get

register = template.Library()


@register.inclusion_tag("schedule/_rules_settings.html", takes_context=True)
def study_rules_card(context) -> dict:
    """The card's values: the rules, the protected times as lines, the day's sections to choose from."""
    user = context["request"].user
    rules = study_rules_get(user=user)
    calendar = CalendarSettings.objects.for_user(user)
    protected = [{"index": n, "name": p["name"], "days": protected_days_text(p["days"]),
                  "sections": str(p["first"]) if p["first"] == p["last"] else f"{p['first']}-{p['last']}",
                  "times": f"{p['start']}–{p['end']}" if p.get("start") else ""}
                 for n, p in enumerate(rules.protected_times)]
    typed = context["request"].session.pop(TYPED_KEY, None) or {}
    typed["days"] = [int(day) for day in typed.get("days", []) if str(day).isdigit()] or list(range(1, 8))
    return {"rules": rules, "protected": protected, "sections": range(1, calendar.section_count + 1), "typed": typed,
            "weekdays": [(n, DAY_LABELS[n - 1]) for n in range(1, 8)], "buffers": range(0, 5),
            "pinned": len(rules.pinned_items) + len(rules.pinned_notes),
            "csrf_token": context.get("csrf_token"), "request": context["request"]}


@register.simple_tag(takes_context=True)
def pinned_blocks(context) -> dict[str, frozenset[int]]:
    """The student's pinned study items and quick notes (one query), for ``pin_mark`` on the week board."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"items": frozenset(), "notes": frozenset()}
    rules = study_rules_get(user=user)
    return {"items": frozenset(rules.pinned_items), "notes": frozenset(rules.pinned_notes)}


@register.simple_tag
def pin_mark(pins: dict[str, frozenset[int]] | None, item_id: int | None = None, task_id: int | None = None) -> str:
    """A pin before a pinned block's title (nothing for any other block)."""
    if not pins or not ((item_id is not None and item_id in pins["items"])
                        or (task_id is not None and task_id in pins["notes"])):
        return ""
    return format_html('<span class="pin-mark" data-test="pin-mark" title="{}">📌</span> ', _("Pinned"))
