"""A reminder as the student reads it: its text in the active language and times in their zone."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from taskclasses.reminders.models import Reminder

Kind = Reminder.Kind


def reminder_text(reminder: Reminder, zone: ZoneInfo) -> str:
    """One sentence saying what the reminder is about."""
    params = reminder.params or {}
    title = params.get("title", "")
    if reminder.kind == Kind.BLOCK_STARTING:
        return _("Study block “%(title)s” starts at %(time)s.") % {"title": title,
                                                                  "time": _clock(params["starts_at"], zone)}
    if reminder.kind == Kind.COURSE_STARTING:
        return _("Course “%(title)s” starts at %(time)s.") % {"title": title, "time": _clock(params["starts_at"], zone)}
    if reminder.kind == Kind.DEADLINE_TODAY:
        return _("“%(title)s” is due today at %(time)s.") % {"title": title, "time": _clock(params["deadline"], zone)}
    if reminder.kind == Kind.NOTE_URGENT:
        return _("“%(title)s” is now important and urgent: its deadline is near.") % {"title": title}
    if reminder.kind == Kind.PLAN_ROTTED:
        count = int(params.get("count", 0))
        return ngettext("%(count)s missed study block is waiting to be planned again.",
                        "%(count)s missed study blocks are waiting to be planned again.", count) % {"count": count}
    if reminder.kind == Kind.TOMORROW:
        summary = _("Tomorrow (%(date)s): %(courses)s courses, %(blocks)s study blocks, %(deadlines)s deadlines, "
                    "%(exams)s exams.") % {key: params.get(key, 0) for key in
                                            ("date", "courses", "blocks", "deadlines", "exams")}
        return f"{params['headline']} {summary}" if params.get("headline") else summary
    if reminder.kind == Kind.MEMORY_OUTDATED:
        count = int(params.get("count", 0))
        examples = pgettext("list separator", ", ").join(f"“{text}”" for text in params.get("examples", []))
        return ngettext("The new timetable says otherwise of %(count)s thing the assistant remembered, now kept "
                        "as history: %(examples)s.",
                        "The new timetable says otherwise of %(count)s things the assistant remembered, now kept "
                        "as history: %(examples)s.", count) % {"count": count, "examples": examples}
    return str(params.get("text", ""))


def reminder_json(reminder: Reminder, zone: ZoneInfo) -> dict[str, Any]:
    """The shape the bell, the API and the socket share."""
    return {"id": reminder.pk, "kind": reminder.kind, "text": reminder_text(reminder, zone), "link": reminder.link,
            "created_at": reminder.created_at.isoformat(), "read": reminder.read_at is not None,
            "silent": reminder.silent}


def _clock(moment: str, zone: ZoneInfo) -> str:
    return datetime.fromisoformat(moment).astimezone(zone).strftime("%H:%M")
