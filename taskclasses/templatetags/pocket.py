"""The pocket features' template tags: the bell's data (with what the service worker keeps offline) and
the reminder settings card of the settings page."""

from __future__ import annotations

import json

from django import template
from django.urls import reverse
from django.utils import timezone

from schedule.selectors import time_frame_get
from smartmate.platform.offline_scope import offline_scope
from taskclasses.reminders.forms import ReminderSettingsForm
from taskclasses.reminders.services import SETTINGS_FIELDS, reminder_settings_get

register = template.Library()


@register.simple_tag(takes_context=True)
def pocket_bell_data(context) -> dict:
    """What the bell and the service worker need: which session is signed in (an opaque scope, so a worker
    holding another session's pages wipes them) and the agenda pages to keep offline (this week and next)."""
    request = context.get("request")
    scope = offline_scope(request) if request is not None else ""
    if not scope:
        return {"scope": "", "offline_urls": "[]"}
    return {"scope": scope, "offline_urls": json.dumps(_agenda_urls(request.user))}


def _agenda_urls(user) -> list[str]:
    week_url = reverse("board:week")
    semester, _template = time_frame_get(user=user)
    week = semester.current_week(timezone.now(), clamp=True) or 1
    return [week_url] + ([f"{week_url}?week={week + 1}"] if week < semester.weeks else [])


@register.inclusion_tag("reminders/_settings.html", takes_context=True)
def reminder_settings_card(context) -> dict:
    """The reminder section of the settings page (its own form, posting to reminders:settings-save)."""
    saved = reminder_settings_get(user=context["request"].user)
    form = ReminderSettingsForm(initial={name: getattr(saved, name) for name in SETTINGS_FIELDS})
    return {"form": form, "csrf_token": context.get("csrf_token"), "request": context["request"]}
