"""Build an iCalendar file from schedule events, for download and for phone subscriptions.

Times are written as local times with a TZID and a matching VTIMEZONE, so phone calendars show
them at the right wall-clock time in the user's zone. UIDs come from the caller and must be
stable (see ``make_uid``) so that a re-import or a refreshed subscription updates events instead
of duplicating them. Output is deterministic: events are sorted and DTSTAMP is passed in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from icalendar import Alarm as VAlarm
from icalendar import Calendar, Event, Timezone

from schedule.core.time_model import DEFAULT_TIME_ZONE, load_zone

PRODUCT_ID = "-//SmartMate//Schedule//EN"
UID_DOMAIN = "smartmate"
DEFAULT_REFRESH = timedelta(hours=1)


class IcsExportError(ValueError):
    """An event that cannot be exported: a stable ``code``, a message and detail data."""

    def __init__(self, code: str, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail: dict[str, Any] = detail


@dataclass(frozen=True, slots=True)
class Alarm:
    """A VALARM (RFC 5545 3.6.6): ``before`` the event starts, or ``at`` an aware moment (a deadline's morning)."""

    description: str
    before: timedelta | None = None
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ExportEvent:
    """One block to export, with aware start and end datetimes and the alarms a phone should ring."""

    uid: str
    title: str
    start: datetime
    end: datetime
    location: str = ""
    description: str = ""
    alarms: tuple[Alarm, ...] = ()
    # A whole day (an exam with no time yet): start and end are local midnights, written as DATE values.
    all_day: bool = False


def make_uid(*parts: object, domain: str = UID_DOMAIN) -> str:
    """Return a stable UID such as 'event-42@smartmate' from parts that identify one block."""
    if not parts:
        raise IcsExportError("invalid_uid", "A UID needs at least one part.")
    return "-".join(str(part) for part in parts) + "@" + domain


def build_ics(
    events: Iterable[ExportEvent],
    *,
    generated_at: datetime,
    tz: str = DEFAULT_TIME_ZONE,
    calendar_name: str = "SmartMate",
    refresh: timedelta = DEFAULT_REFRESH,
) -> bytes:
    """Return an .ics file (bytes) holding the events in the given time zone."""
    zone = load_zone(tz)
    stamp = _aware(generated_at, "generated_at").astimezone(ZoneInfo("UTC"))
    ordered = _checked(events)
    calendar = _calendar(tz, calendar_name, refresh)
    # The VTIMEZONE goes before the events that use it; some clients read in one pass.
    if ordered:
        calendar.add_component(_vtimezone(tz, ordered, zone))
    for event in ordered:
        calendar.add_component(_vevent(event, zone, stamp))
    document: bytes = calendar.to_ical()  # icalendar's own annotation is loose (Any)
    return document


def _aware(moment: datetime, what: str) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise IcsExportError(
            "naive_datetime", f"{what} ({moment.isoformat()}) has no time zone.", field=what
        )
    return moment


def _checked(events: Iterable[ExportEvent]) -> list[ExportEvent]:
    """Return the events sorted by time, after checking times and UID uniqueness."""
    ordered = sorted(events, key=lambda e: (_aware(e.start, f"{e.uid} start"), e.end, e.uid))
    seen: set[str] = set()
    for event in ordered:
        _aware(event.end, f"{event.uid} end")
        if event.end <= event.start:
            raise IcsExportError(
                "empty_range", f"Event {event.uid} ends before it starts.", uid=event.uid
            )
        if not event.uid.strip() or event.uid in seen:
            raise IcsExportError(
                "duplicate_uid", f"Event UID {event.uid!r} is empty or used twice.", uid=event.uid
            )
        seen.add(event.uid)
    return ordered


def _calendar(tz: str, name: str, refresh: timedelta) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", tz)
    # Both spellings: REFRESH-INTERVAL is RFC 7986, X-PUBLISHED-TTL is what Outlook and Apple read.
    calendar.add("refresh-interval", refresh, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", _duration_text(refresh))
    return calendar


def _duration_text(span: timedelta) -> str:
    minutes = max(1, int(span.total_seconds() // 60))
    return f"PT{minutes // 60}H" if minutes % 60 == 0 else f"PT{minutes}M"


def _vevent(event: ExportEvent, zone: ZoneInfo, stamp: datetime) -> Event:
    vevent = Event()
    vevent.add("uid", event.uid)
    vevent.add("dtstamp", stamp)
    vevent.add("summary", event.title)
    if event.all_day:
        vevent.add("dtstart", event.start.astimezone(zone).date())
        vevent.add("dtend", event.end.astimezone(zone).date())
    else:
        vevent.add("dtstart", event.start.astimezone(zone))
        vevent.add("dtend", event.end.astimezone(zone))
    if event.location:
        vevent.add("location", event.location)
    if event.description:
        vevent.add("description", event.description)
    for alarm in event.alarms:
        vevent.add_component(_valarm(alarm))
    return vevent


def _valarm(alarm: Alarm) -> VAlarm:
    valarm = VAlarm()
    valarm.add("action", "DISPLAY")  # DISPLAY needs a DESCRIPTION; AUDIO would need an attachment
    valarm.add("description", alarm.description)
    if alarm.at is not None:
        moment = _aware(alarm.at, "alarm time").astimezone(ZoneInfo("UTC"))
        valarm.add("trigger", moment, parameters={"VALUE": "DATE-TIME"})
    elif alarm.before is not None and alarm.before >= timedelta(0):
        valarm.add("trigger", -alarm.before)  # relative to DTSTART: -PT10M
    else:
        raise IcsExportError("invalid_alarm", "An alarm needs a time before the start or a moment.")
    return valarm


def _vtimezone(tz: str, events: list[ExportEvent], zone: ZoneInfo) -> Timezone:
    # Cover only the span of the events (padded) so the VTIMEZONE stays small.
    first = min(e.start.astimezone(zone) for e in events).date() - timedelta(days=1)
    last = max(e.end.astimezone(zone) for e in events).date() + timedelta(days=1)
    return Timezone.from_tzid(tz, first_date=first, last_date=last)
