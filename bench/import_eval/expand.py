"""An independent expansion of timetable files into meetings, for evaluating SmartMate's importer.

Written from RFC 5545 (iCalendar) and from what WakeUp 课程表 CSVs look like -- deliberately NOT
from the project's importer, so the two can be compared. Standard library only (``zoneinfo``).

``expand_ics(data, zone, until=None)`` returns an :class:`Expansion`:

* ``timed``    -- :class:`Meeting` s, one per occurrence, in local wall time of ``zone``;
* ``all_day``  -- :class:`AllDayEvent` s (DATE-valued DTSTART), one per occurrence;
* ``skipped``  -- :class:`Problem` s: events that could not be read (damaged), cancelled masters,
                  unsupported rules;
* ``notes``    -- file-level remarks (missing END:VCALENDAR, ignored non-property lines, ...).

``timed, all_day = expand_ics(...)`` also works (an Expansion unpacks to those two).

Reading rules (how a tolerant calendar app reads a file):

* bytes are decoded as UTF-8 (BOM allowed), else GB18030; CR CR LF, CR LF, LF and lone-CR line ends
  are all accepted; blank lines are dropped; folded lines (leading space/tab) are unfolded;
* lines that are not ``NAME[;params]:value`` are ignored (noted); unknown properties such as the
  ``RULE:FREQ=WEEKLY`` typo are ignored too (noted);
* a missing ``END:VEVENT`` / ``END:VCALENDAR`` at end of file closes what is open (noted);
* floating times are read in ``zone``; ``...Z`` times are UTC; ``TZID=`` is honoured when it names
  an IANA zone (with or without a VTIMEZONE), else via the VTIMEZONE's X-LIC-LOCATION, else via a
  fixed-offset VTIMEZONE, else it is read as ``zone`` (noted);
* a DTSTART/DTEND/DURATION that cannot be parsed (e.g. a truncated ``20191028T00``) makes the event
  ``damaged``: it is reported and skipped;
* no DTEND and no DURATION: a timed event lasts zero minutes, an all-day event one day (RFC 5545
  3.6.1); a DTEND before DTSTART is damaged.

Recurrence (RFC 5545 3.8.5): the recurrence set is computed in the event's own time zone (wall-clock
weeks), DTSTART always counts as the first instance (also for COUNT), then RRULE instances, plus
RDATE, minus EXDATE; RECURRENCE-ID overrides (same UID) replace their instance, an override with
STATUS:CANCELLED removes it. RRULE FREQ=WEEKLY and FREQ=DAILY are expanded with INTERVAL, COUNT,
UNTIL (DATE, floating or UTC DATE-TIME; inclusive), BYDAY and WKST; other FREQs only yield DTSTART
and are reported (``unsupported_rule``). An RRULE with neither COUNT nor UNTIL stops at ``until``
(inclusive, a local date); without ``until`` it stops 366 days after DTSTART (noted).
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

Date = date  # for annotations inside classes that have a field named ``date``

__all__ = ["AllDayEvent", "Expansion", "Meeting", "Problem", "expand_csv_wakeup", "expand_ics",
           "parse_week_spec"]


@dataclass(frozen=True, order=True)
class Meeting:
    date: date
    start: time
    end: time
    summary: str
    location: str = ""
    description: str = ""


@dataclass(frozen=True, order=True)
class AllDayEvent:
    date: Date
    end: Date  # exclusive, as DTEND;VALUE=DATE
    summary: str
    location: str = ""
    description: str = ""


@dataclass(frozen=True)
class Problem:
    summary: str
    why: str  # damaged | cancelled | unsupported_rule | crosses_midnight | ...
    detail: str = ""


@dataclass
class Expansion:
    timed: list[Meeting] = field(default_factory=list)
    all_day: list[AllDayEvent] = field(default_factory=list)
    skipped: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    events: int = 0  # VEVENTs read (masters, overrides and damaged ones)

    def __iter__(self) -> Iterator[list]:
        yield self.timed
        yield self.all_day


# --------------------------------------------------------------------------- content lines

_NAME = re.compile(r"^[A-Za-z0-9-]+$")


@dataclass
class Prop:
    name: str
    params: dict[str, str]
    value: str


@dataclass
class Component:
    name: str
    props: list[Prop] = field(default_factory=list)
    children: list[Component] = field(default_factory=list)

    def get(self, name: str) -> Prop | None:
        for p in self.props:
            if p.name == name:
                return p
        return None

    def all(self, name: str) -> list[Prop]:
        return [p for p in self.props if p.name == name]


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    for enc in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    return data.decode("utf-8", errors="replace")


def _physical_lines(text: str) -> list[str]:
    if "\n" not in text:  # classic-Mac lone CR
        return text.split("\r")
    return [line.rstrip("\r") for line in text.split("\n")]


def _unfold(lines: Iterable[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        if line[0] in " \t" and out:
            out[-1] += line[1:]
        else:
            out.append(line)
    return out


def _split_params(head: str) -> tuple[str, dict[str, str]] | None:
    parts: list[str] = []
    buf, quoted = "", False
    for ch in head:
        if ch == '"':
            quoted = not quoted
            continue
        if ch == ";" and not quoted:
            parts.append(buf)
            buf = ""
        else:
            buf += ch
    parts.append(buf)
    name = parts[0].strip().upper()
    if not _NAME.match(name):
        return None
    params: dict[str, str] = {}
    for p in parts[1:]:
        if "=" in p:
            k, v = p.split("=", 1)
            params[k.strip().upper()] = v.strip()
    return name, params


def _content_line(line: str) -> Prop | None:
    # the first ':' outside a quoted parameter value separates name/params from the value
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == ":" and not quoted:
            head = _split_params(line[:i])
            if head is None:
                return None
            return Prop(head[0], head[1], line[i + 1:])
    return None


def parse_components(data: bytes | str, notes: list[str]) -> Component:
    root = Component("ROOT")
    stack = [root]
    ignored = 0
    for line in _unfold(_physical_lines(_decode(data))):
        prop = _content_line(line)
        if prop is None:
            ignored += 1
            continue
        if prop.name == "BEGIN":
            comp = Component(prop.value.strip().upper())
            stack[-1].children.append(comp)
            stack.append(comp)
        elif prop.name == "END":
            name = prop.value.strip().upper()
            # close up to the matching component; an END with no matching BEGIN is ignored
            for depth in range(len(stack) - 1, 0, -1):
                if stack[depth].name == name:
                    if depth != len(stack) - 1:
                        notes.append(f"END:{name} closed unterminated {[c.name for c in stack[depth + 1:]]}")
                    del stack[depth:]
                    break
            else:
                notes.append(f"END:{name} without BEGIN ignored")
        else:
            stack[-1].props.append(prop)
    if len(stack) > 1:
        notes.append("file ends inside " + " > ".join(c.name for c in stack[1:]) + " (closed at end of file)")
    if ignored:
        notes.append(f"{ignored} line(s) that are not properties ignored")
    return root


def unescape_text(value: str) -> str:
    out, i = [], 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            out.append("\n" if nxt in "nN" else nxt)
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


# --------------------------------------------------------------------------- values

class BadValueError(ValueError):
    pass


_DT = re.compile(r"^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$")
_D = re.compile(r"^(\d{4})(\d{2})(\d{2})$")
_DUR = re.compile(r"^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$")


def parse_duration(text: str) -> timedelta:
    m = _DUR.match(text.strip())
    if not m or text.strip() in ("P", "PT", "+P", "-P"):
        raise BadValueError(f"bad DURATION {text!r}")
    sign, w, d, h, mi, s = m.groups()
    td = timedelta(weeks=int(w or 0), days=int(d or 0), hours=int(h or 0), minutes=int(mi or 0),
                   seconds=int(s or 0))
    return -td if sign == "-" else td


class Zones:
    """Resolves TZID parameters to tzinfo objects."""

    def __init__(self, default: tzinfo, vtimezones: list[Component], notes: list[str]):
        self.default = default
        self.notes = notes
        self.by_id: dict[str, tzinfo] = {}
        self.vtz: dict[str, Component] = {}
        for c in vtimezones:
            tzid_p = c.get("TZID")
            self.vtz[tzid_p.value.strip() if tzid_p is not None else ""] = c

    def get(self, tzid: str) -> tzinfo:
        tzid = tzid.strip().strip('"')
        if tzid in self.by_id:
            return self.by_id[tzid]
        tz = self._resolve(tzid)
        self.by_id[tzid] = tz
        return tz

    def _resolve(self, tzid: str) -> tzinfo:
        candidates = [tzid]
        if "/" in tzid:  # e.g. /mozilla.org/20050126_1/Asia/Shanghai
            bits = [b for b in tzid.split("/") if b]
            candidates += ["/".join(bits[-2:]), "/".join(bits[-3:])]
        vt = self.vtz.get(tzid)
        loc = vt.get("X-LIC-LOCATION") if vt is not None else None
        if loc is not None:
            candidates.append(loc.value.strip())
        for c in candidates:
            try:
                return ZoneInfo(c)
            except (ZoneInfoNotFoundError, ValueError):
                continue
        if vt is not None:
            offsets = {p.value.strip() for sub in vt.children for p in sub.all("TZOFFSETTO")}
            if len(offsets) == 1:
                off = offsets.pop()
                m = re.match(r"^([+-])(\d{2})(\d{2})$", off)
                if m:
                    delta = timedelta(hours=int(m.group(2)), minutes=int(m.group(3)))
                    self.notes.append(f"TZID {tzid!r} read as fixed offset {off}")
                    return timezone(-delta if m.group(1) == "-" else delta)
        self.notes.append(f"TZID {tzid!r} unknown: read as the caller's zone")
        return self.default


@dataclass(frozen=True)
class When:
    """A DTSTART-like value: either a date (all-day) or an aware datetime plus the zone it lives in."""
    day: date | None
    at: datetime | None  # aware
    tz: tzinfo | None    # wall-clock zone for recurrence arithmetic (UTC for Z values)


def parse_when(prop: Prop, zones: Zones) -> When:
    value = prop.value.strip()
    if prop.params.get("VALUE", "").upper() == "DATE" or _D.match(value):
        m = _D.match(value)
        if not m:
            raise BadValueError(f"bad DATE {value!r}")
        return When(date(int(m[1]), int(m[2]), int(m[3])), None, None)
    m = _DT.match(value)
    if not m:
        raise BadValueError(f"bad DATE-TIME {value!r}")
    naive = datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5]), int(m[6]))
    if m[7] == "Z":
        tz: tzinfo = UTC
    elif "TZID" in prop.params:
        tz = zones.get(prop.params["TZID"])
    else:
        tz = zones.default
    return When(None, naive.replace(tzinfo=tz), tz)


def parse_when_list(prop: Prop, zones: Zones) -> list[When]:
    out = []
    for part in prop.value.split(","):
        part = part.strip()
        if not part:
            continue
        if "/" in part:  # PERIOD: keep its start
            part = part.split("/", 1)[0]
        out.append(parse_when(Prop(prop.name, prop.params, part), zones))
    return out


# --------------------------------------------------------------------------- recurrence

_DAYS = {"MO": 0, "TU": 1, "WE": 2, "TH": 3, "FR": 4, "SA": 5, "SU": 6}


def _wall(dt: datetime, tz: tzinfo) -> datetime:
    return dt.astimezone(tz).replace(tzinfo=None)


def _localize(naive: datetime, tz: tzinfo) -> datetime:
    return naive.replace(tzinfo=tz)


def rrule_starts(rule: str, start: When, until_default: date, zones: Zones,
                 problems: list[str]) -> list[When]:
    """Instances of ``rule`` from ``start`` (DTSTART included as the first one)."""
    parts = {}
    for bit in rule.strip().split(";"):
        if "=" in bit:
            key, val = bit.split("=", 1)
            parts[key.strip().upper()] = val.strip()
    freq = parts.get("FREQ", "").upper()
    if freq not in ("WEEKLY", "DAILY"):
        problems.append(f"unsupported FREQ={freq or '?'}: only DTSTART kept")
        return [start]
    interval = max(1, int(parts.get("INTERVAL", "1") or 1))
    count = int(parts["COUNT"]) if parts.get("COUNT", "").isdigit() else None
    until_raw = parts.get("UNTIL")
    wkst = _DAYS.get(parts.get("WKST", "MO").upper()[:2], 0)
    byday: list[int] = []
    for code in parts.get("BYDAY", "").split(","):
        code = code.strip().upper()
        if code:
            byday.append(_DAYS[code[-2:]])

    tz = start.tz
    if start.at is not None:
        base = start.at.replace(tzinfo=None)
    else:
        assert start.day is not None  # a When holds either a day or an aware datetime
        base = datetime.combine(start.day, time())
    # UNTIL as a bound on the wall-clock start in the event's zone (inclusive)
    limit_wall: datetime | None = None
    limit_day: date | None = None
    if until_raw:
        u = until_raw.strip()
        if _D.match(u):
            limit_day = date(int(u[:4]), int(u[4:6]), int(u[6:8]))
        else:
            m = _DT.match(u)
            if not m:
                problems.append(f"bad UNTIL {u!r}: treated as unbounded")
            else:
                naive = datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5]), int(m[6]))
                if start.at is None:
                    limit_day = naive.date()
                elif m[7] == "Z":
                    assert tz is not None  # timed Whens always carry their zone
                    limit_wall = _wall(naive.replace(tzinfo=UTC), tz)
                else:
                    limit_wall = naive
    unbounded = count is None and limit_wall is None and limit_day is None
    if unbounded:
        limit_day = until_default

    def within(w: datetime) -> bool:
        if limit_wall is not None and w > limit_wall:
            return False
        if limit_day is not None and w.date() > limit_day:
            return False
        return True

    out = [start]
    cap = 2000
    if freq == "DAILY":
        step = timedelta(days=interval)
        w = base + step
        days = set(byday)
        while len(out) < cap and within(w) and (count is None or len(out) < count):
            if not days or w.weekday() in days:
                out.append(_mk(w, start, tz))
            w += step
        return out if count is None else out[:count]
    if not byday:
        byday = [base.weekday()]
    order = sorted(set(byday), key=lambda d: (d - wkst) % 7)
    week_start = base.date() - timedelta(days=(base.weekday() - wkst) % 7)
    k = 0
    while len(out) < cap:
        ws = week_start + timedelta(weeks=k * interval)
        stop = False
        for d in order:
            day = ws + timedelta(days=(d - wkst) % 7)
            w = datetime.combine(day, base.time())
            if w <= base:
                continue
            if not within(w) or (count is not None and len(out) >= count):
                stop = True
                break
            out.append(_mk(w, start, tz))
        if stop:
            break
        k += 1
        if datetime.combine(ws, time()) > base + timedelta(days=3700):
            break
    return out


def _mk(wall: datetime, start: When, tz: tzinfo | None) -> When:
    if start.at is None:
        return When(wall.date(), None, None)
    assert tz is not None  # timed Whens always carry their zone
    return When(None, _localize(wall, tz), tz)


def _start_day(w: When) -> date:
    if w.day is not None:
        return w.day
    assert w.at is not None  # a When holds either a day or an aware datetime
    return w.at.date()


def _key(w: When, zone: tzinfo) -> tuple:
    if w.at is None:
        return ("d", w.day)
    return ("t", w.at.astimezone(UTC))


# --------------------------------------------------------------------------- events

@dataclass
class _Ev:
    comp: Component
    summary: str
    location: str
    description: str
    start: When
    length: timedelta
    uid: str
    rid: When | None
    cancelled: bool


def _text(comp: Component, name: str) -> str:
    p = comp.get(name)
    return unescape_text(p.value).strip() if p else ""


def _read_event(comp: Component, zones: Zones) -> _Ev:
    summary = _text(comp, "SUMMARY")
    ds = comp.get("DTSTART")
    if ds is None:
        raise BadValueError("no DTSTART")
    start = parse_when(ds, zones)
    de, du = comp.get("DTEND"), comp.get("DURATION")
    if de is not None:
        end = parse_when(de, zones)
        if start.at is not None and end.at is not None:
            length = end.at - start.at
        elif start.day is not None and end.day is not None:
            length = end.day - start.day
        else:
            raise BadValueError("DTSTART and DTEND of different value types")
        if length < timedelta(0):
            raise BadValueError(f"DTEND {de.value!r} before DTSTART")
    elif du is not None:
        length = parse_duration(du.value)
    else:
        length = timedelta(days=1) if start.at is None else timedelta(0)
    rid_p = comp.get("RECURRENCE-ID")
    rid = parse_when(rid_p, zones) if rid_p is not None else None
    return _Ev(comp, summary, _text(comp, "LOCATION"), _text(comp, "DESCRIPTION"), start, length,
               _text(comp, "UID"), rid, _text(comp, "STATUS").upper() == "CANCELLED")


def _emit(out: Expansion, ev: _Ev, at: When, zone: tzinfo) -> None:
    if at.at is None:
        assert at.day is not None  # a When holds either a day or an aware datetime
        out.all_day.append(AllDayEvent(at.day, at.day + timedelta(days=max(1, ev.length.days)),
                                       ev.summary, ev.location, ev.description))
        return
    s = at.at.astimezone(zone)
    e = (at.at + ev.length).astimezone(zone)
    if e.date() != s.date() and not (e.date() == s.date() + timedelta(days=1) and e.time() == time()):
        out.skipped.append(Problem(ev.summary, "crosses_midnight", s.isoformat()))
        return
    end_t = e.time() if e.date() == s.date() else time(23, 59, 59)
    out.timed.append(Meeting(s.date(), s.time().replace(tzinfo=None), end_t.replace(tzinfo=None),
                             ev.summary, ev.location, ev.description))


def expand_ics(data: bytes | str, zone: str, until: date | None = None) -> Expansion:
    out = Expansion()
    tz = ZoneInfo(zone)
    root = parse_components(data, out.notes)
    cals = [c for c in root.children if c.name == "VCALENDAR"] or [root]
    vevents: list[Component] = []
    vtimezones: list[Component] = []
    for cal in cals:
        vevents += [c for c in cal.children if c.name == "VEVENT"]
        vtimezones += [c for c in cal.children if c.name == "VTIMEZONE"]
    # VEVENTs outside any VCALENDAR (no BEGIN:VCALENDAR at all)
    if cals[0] is not root:
        vevents += [c for c in root.children if c.name == "VEVENT"]
    zones = Zones(tz, vtimezones, out.notes)
    known = {"RULE"}
    odd = sorted({p.name for c in vevents for p in c.props if p.name in known})
    if odd:
        out.notes.append(f"ignored non-standard properties: {', '.join(odd)}")

    masters: list[_Ev] = []
    overrides: dict[str, list[_Ev]] = {}
    for comp in vevents:
        out.events += 1
        try:
            ev = _read_event(comp, zones)
        except (ValueError, KeyError) as exc:
            out.skipped.append(Problem(_text(comp, "SUMMARY"), "damaged", str(exc)))
            continue
        if ev.rid is not None:
            overrides.setdefault(ev.uid, []).append(ev)
        else:
            masters.append(ev)

    master_uids = {m.uid for m in masters}
    for m in masters:
        if m.cancelled:
            out.skipped.append(Problem(m.summary, "cancelled", "STATUS:CANCELLED on the event"))
            continue
        problems: list[str] = []
        starts: list[When] = [m.start]
        default_until = until or (_start_day(m.start) + timedelta(days=366))
        rules = m.comp.all("RRULE")
        if rules:
            if until is None and all("COUNT=" not in r.value.upper() and "UNTIL=" not in r.value.upper()
                                     for r in rules):
                out.notes.append(f"{m.summary!r}: unbounded RRULE cut at {default_until}")
            starts = []
        try:
            for r in rules:
                starts += rrule_starts(r.value, m.start, default_until, zones, problems)
            for r in m.comp.all("RDATE"):
                starts += parse_when_list(r, zones)
            ex = {_key(w, tz) for p in m.comp.all("EXDATE") for w in parse_when_list(p, zones)}
        except (ValueError, KeyError) as exc:
            out.skipped.append(Problem(m.summary, "damaged", f"recurrence: {exc}"))
            continue
        ex_days = {k[1] for k in ex if k[0] == "d"}
        seen: set = set()
        # every override has a RECURRENCE-ID (that is how it got into ``overrides``)
        ovr = {_key(o.rid, tz): o for o in overrides.get(m.uid, []) if o.rid is not None} if m.uid else {}
        for s in starts:
            k = _key(s, tz)
            if k in seen or k in ex:
                continue
            if s.at is not None and s.tz is not None and ex_days and _wall(s.at, s.tz).date() in ex_days:
                continue
            seen.add(k)
            o = ovr.pop(k, None)
            if o is not None:
                if not o.cancelled:
                    _emit(out, o, o.start, tz)
                continue
            _emit(out, m, s, tz)
        for p in problems:
            out.skipped.append(Problem(m.summary, "unsupported_rule", p))
        for o in ovr.values():  # overrides that match no instance: show them as they are (RFC allows)
            if not o.cancelled:
                _emit(out, o, o.start, tz)
    for uid, lst in overrides.items():
        if uid in master_uids and uid:
            continue
        for o in lst:  # orphan override: a plain event
            if not o.cancelled:
                _emit(out, o, o.start, tz)
    out.timed.sort()
    out.all_day.sort()
    return out


# --------------------------------------------------------------------------- WakeUp CSV

_CN_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7, "七": 7}


def parse_weekday(text: str) -> int:
    t = text.strip()
    if t.isdigit():
        return int(t)
    for prefix in ("星期", "周", "礼拜"):
        if t.startswith(prefix) and t[len(prefix):] in _CN_DIGITS:
            return _CN_DIGITS[t[len(prefix):]]
    raise ValueError(f"bad weekday {text!r}")


_SPEC = re.compile(r"^(\d+)(?:\s*[-–~至到]\s*(\d+))?\s*周?\s*[(（]?\s*([单双])?\s*周?\s*[)）]?$")


def parse_week_spec(spec: str) -> list[int]:
    """``1-16``, ``1-16单``, ``2-16双``, ``1,3,5-7``, ``1-5、7-11单、12-16双``, ``2、5、8`` -> week numbers."""
    weeks: set[int] = set()
    s = spec.strip().strip("第").replace("周数", "")
    for token in re.split(r"[,，、;；\s]+", s):
        token = token.strip().strip("第")
        if not token:
            continue
        m = _SPEC.match(token)
        if not m:
            raise ValueError(f"bad week spec {token!r} in {spec!r}")
        a = int(m.group(1))
        b = int(m.group(2) or a)
        parity = m.group(3)
        for w in range(a, b + 1):
            if parity == "单" and w % 2 == 0:
                continue
            if parity == "双" and w % 2 == 1:
                continue
            weeks.add(w)
    return sorted(weeks)


def _hm(s: str) -> time:
    h, m = s.strip().split(":")
    return time(int(h), int(m))


def expand_csv_wakeup(data: bytes | str, week1_monday: date,
                      sections: list[tuple[str, str]] | list[list[str]]) -> list[Meeting]:
    """WakeUp-style CSV rows -> one Meeting per row per week (the row's sections merged).

    Columns (by header name): 课程名称, 星期, 开始节数, 结束节数, 老师, 地点 and either 周数 (a week
    spec) or 开始周, 结束周, 单双周 (0 all, 1 odd, 2 even). Meeting.description holds the teacher.
    """
    text = _decode(data)
    rows = list(csv.reader(io.StringIO(text.replace("\r\n", "\n").replace("\r", "\n"))))
    rows = [r for r in rows if any(c.strip() for c in r)]
    header = [h.strip() for h in rows[0]]

    def col(*names: str) -> int | None:
        for i, h in enumerate(header):
            if any(h.startswith(n) for n in names):
                return i
        return None

    i_name, i_day = col("课程名称", "课程名", "课程"), col("星期")
    i_s, i_e = col("开始节数", "开始节"), col("结束节数", "结束节")
    i_t, i_l = col("老师", "教师"), col("地点", "教室")
    i_w, i_ws, i_we, i_p = col("周数"), col("开始周"), col("结束周"), col("单双周")

    def cell(r: list[str], i: int | None) -> str:
        if i is None:  # a required column is missing: fail as indexing with None does
            raise TypeError("list indices must be integers or slices, not NoneType")
        return r[i]

    grid = [(_hm(a), _hm(b)) for a, b in sections]
    out: list[Meeting] = []
    for r in rows[1:]:
        r = r + [""] * (len(header) - len(r))
        name = cell(r, i_name).strip()
        if not name:
            continue
        day = parse_weekday(cell(r, i_day))
        s, e = int(cell(r, i_s)), int(cell(r, i_e))
        if i_w is not None:
            weeks = parse_week_spec(r[i_w])
        else:
            a, b = int(cell(r, i_ws)), int(cell(r, i_we))
            parity = int(r[i_p] or 0) if i_p is not None else 0
            weeks = [w for w in range(a, b + 1) if parity == 0 or (w % 2 == 1) == (parity == 1)]
        teacher = r[i_t].strip() if i_t is not None else ""
        loc = r[i_l].strip() if i_l is not None else ""
        for w in weeks:
            d = week1_monday + timedelta(weeks=w - 1, days=day - 1)
            out.append(Meeting(d, grid[s - 1][0], grid[e - 1][1], name, loc, teacher))
    out.sort()
    return out


# --------------------------------------------------------------------------- other CSV shapes

def _csv_rows(data: bytes | str) -> list[list[str]]:
    text = _decode(data).replace("\r\n", "\n").replace("\r", "\n")
    return [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]


def expand_csv_clock(data: bytes | str, week1_monday: date, weeks: int) -> list[Meeting]:
    """课程名,星期几,开始时间,结束时间 (星期一, 9:00, 10:30): every week 1..weeks, no rooms/teachers."""
    rows = _csv_rows(data)
    out = []
    for r in rows[1:]:
        name, day, s, e = (c.strip() for c in r[:4])
        for w in range(1, weeks + 1):
            d = week1_monday + timedelta(weeks=w - 1, days=parse_weekday(day) - 1)
            out.append(Meeting(d, _hm(s), _hm(e), name))
    out.sort()
    return out


_GRID_ROW = re.compile(r"^(\d+)\s*[(（]\s*(\d{1,2}:\d{2})\s*[-–~]\s*(\d{1,2}:\d{2})\s*[)）]$")
_GRID_CELL = re.compile(r"^(?P<title>.+?)\s+(?P<teacher>\S*)\s*[(（](?P<weeks>[^\s)）]+)\s+(?P<room>[^)）]*)[)）]$")


def expand_csv_grid(data: bytes | str, week1_monday: date) -> list[Meeting]:
    """教务 grid export: rows '1(08:00-08:45)', columns 星期一…, cells '课程 教师(1-16单周 教室)'.

    One Meeting per filled cell per week (per section; merge consecutive ones yourself); the section
    times come from the row labels. Meeting.description holds the teacher.
    """
    rows = _csv_rows(data)
    header = [h.strip() for h in rows[0]]
    day_cols = {i: parse_weekday(h) for i, h in enumerate(header) if h.startswith(("星期", "周"))}
    out = []
    for r in rows[1:]:
        label = next((c.strip() for c in r if _GRID_ROW.match(c.strip())), None)
        if label is None:
            continue
        m = _GRID_ROW.match(label)
        assert m is not None  # label was picked because it matches
        start, end = _hm(m.group(2)), _hm(m.group(3))
        for i, day in day_cols.items():
            cell = r[i].strip() if i < len(r) else ""
            if not cell:
                continue
            c = _GRID_CELL.match(cell)
            if not c:
                raise ValueError(f"unreadable cell {cell!r}")
            spec = c.group("weeks").replace("周", "")
            for w in parse_week_spec(spec):
                d = week1_monday + timedelta(weeks=w - 1, days=day - 1)
                out.append(Meeting(d, start, end, c.group("title"), c.group("room").strip(), c.group("teacher")))
    out.sort()
    return out
