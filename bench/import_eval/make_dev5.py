"""Write ``files/dev5/``: written blind as the second held-out set of timetable files; scored once, then opened.

    python -m bench.import_eval.make_dev5

Written without reading the importer, ``make_files.py`` or ``files/heldout/``. Each file comes from a
description of a fictional school (week-1 Monday, zone, weeks, section grid, optionally a second grid
from a date, days without classes and make-up days) and of a student's courses (weekday, first/last
section, weeks, room, teachers). The expected meetings are computed from that description alone
(:func:`expected`); the file is then rendered from the same description in its target shape. No
SmartMate code and no ``expand.py`` is used here.
"""
from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().parent / "files" / "dev5"
STAMP = "20241220T083000Z"


# --------------------------------------------------------------------------- descriptions

def grid(first: str, minutes: int, gaps: Iterable[int | str]) -> list[tuple[str, str]]:
    """Sections from ``first``: each ``minutes`` long; a gap is a break in minutes or the next start."""
    start = datetime.strptime(first, "%H:%M")
    out = []
    for gap in [*gaps, None]:
        end = start + timedelta(minutes=minutes)
        out.append((start.strftime("%H:%M"), end.strftime("%H:%M")))
        if isinstance(gap, str):
            start = datetime.strptime(gap, "%H:%M")
        elif gap is not None:
            start = end + timedelta(minutes=gap)
    return out


@dataclass(frozen=True)
class School:
    name: str
    zone: str
    week1: date
    weeks: int
    sections: list[tuple[str, str]]
    second: tuple[date, list[tuple[str, str]]] | None = None
    days_off: tuple[date, ...] = ()
    makeups: tuple[tuple[date, date], ...] = ()  # (make-up day, the day off whose classes it runs)

    def grid_on(self, d: date) -> list[tuple[str, str]]:
        if self.second and d >= self.second[0]:
            return self.second[1]
        return self.sections

    def day(self, week: int, weekday: int) -> date:
        return self.week1 + timedelta(weeks=week - 1, days=weekday - 1)

    def times(self, d: date, first: int, last: int) -> tuple[str, str]:
        g = self.grid_on(d)
        return g[first - 1][0], g[last - 1][1]

    @property
    def last_day(self) -> date:
        return self.week1 + timedelta(weeks=self.weeks, days=-1)


@dataclass(frozen=True)
class Course:
    title: str
    weekday: int
    first: int
    last: int
    weeks: tuple[int, ...]
    room: str = ""
    teachers: tuple[str, ...] = ()

    @property
    def teacher(self) -> str:
        return "、".join(self.teachers)


def weeks(a: int, b: int, parity: str = "") -> tuple[int, ...]:
    return tuple(w for w in range(a, b + 1)
                 if not parity or (parity == "odd") == (w % 2 == 1))


@dataclass(frozen=True)
class Occ:
    """One meeting as the file holds it (before the board's rules are applied)."""
    course: Course
    date: date
    first: int
    last: int
    room: str
    start: str
    end: str
    why_not: str = ""  # outside_semester for an extra the board should not take


@dataclass
class Changes:
    """What a file says beyond the weekly pattern (the student's own calendar edits)."""
    moved: dict[tuple[str, int], tuple[date, int, int, str]] = field(default_factory=dict)
    cancelled: set[tuple[str, int]] = field(default_factory=set)
    extras: list[tuple[Course, date, str, str]] = field(default_factory=list)  # course, date, start, end


def pattern(school: School, c: Course, changes: Changes | None = None) -> list[Occ]:
    """The course's meetings in the order a file lists them: its weeks, days off left out, make-ups added."""
    ch = changes or Changes()
    out = []
    for w in c.weeks:
        d = school.day(w, c.weekday)
        if d in school.days_off or (c.title, w) in ch.cancelled:
            continue
        if (c.title, w) in ch.moved:
            nd, f, la, room = ch.moved[(c.title, w)]
            out.append(Occ(c, nd, f, la, room, *school.times(nd, f, la)))
            continue
        out.append(Occ(c, d, c.first, c.last, c.room, *school.times(d, c.first, c.last)))
    for mk, off in school.makeups:
        if off.isoweekday() == c.weekday and any(school.day(w, c.weekday) == off for w in c.weeks):
            out.append(Occ(c, mk, c.first, c.last, c.room, *school.times(mk, c.first, c.last)))
    return out


def all_occurrences(school: School, courses: list[Course], changes: Changes | None = None) -> list[Occ]:
    occs = [o for c in courses for o in pattern(school, c, changes)]
    for c, d, s, e in (changes.extras if changes else []):
        inside = school.week1 <= d <= school.last_day
        out = "" if inside else "outside_semester"
        occs.append(Occ(c, d, c.first, c.last, c.room, s, e, out))
    return occs


def expected(school: School, occs: list[Occ], skipped: list[dict] | None = None, notes: str = "",
             raw_summary: Callable[[Occ], str] = lambda o: o.course.title) -> dict:
    """The board a student expects: one meeting per occurrence; a section holds one meeting."""
    meetings, skip = [], list(skipped or [])
    taken: set[tuple[date, int]] = set()
    for o in occs:
        if o.why_not:
            skip.append({"summary": raw_summary(o), "why": o.why_not, "date": o.date.isoformat()})
            continue
        cells = {(o.date, s) for s in range(o.first, o.last + 1)}
        if cells & taken:
            skip.append({"summary": raw_summary(o), "why": "overlap", "date": o.date.isoformat()})
            continue
        taken |= cells
        meetings.append({"date": o.date.isoformat(), "start": o.start, "end": o.end, "title": o.course.title,
                         "location": o.room, "teacher": o.course.teacher})
    meetings.sort(key=lambda m: (m["date"], m["start"], m["title"]))
    second = None
    if school.second:
        second = {"from": school.second[0].isoformat(), "sections": [list(s) for s in school.second[1]]}
    return {"school": school.name, "time_zone": school.zone, "week1_monday": school.week1.isoformat(),
            "semester_weeks": school.weeks, "sections": [list(s) for s in school.sections],
            "second_grid": second, "meetings": meetings, "skipped": skip, "notes": notes}


def dump_expected(exp: dict) -> str:
    """The layout of the other sets: one section / meeting / skipped entry per line."""
    def row(x: object) -> str:
        return json.dumps(x, ensure_ascii=False)

    lines = ["{"]
    for k in ("school", "time_zone", "week1_monday", "semester_weeks"):
        lines.append(f'  "{k}": {row(exp[k])},')
    lines.append('  "sections": [')
    lines.append(",\n".join(f"    {row(s)}" for s in exp["sections"]))
    lines.append("  ],")
    lines.append(f'  "second_grid": {row(exp["second_grid"])},')
    for k in ("meetings", "skipped"):
        if not exp[k]:
            lines.append(f'  "{k}": [],')
            continue
        lines.append(f'  "{k}": [')
        lines.append(",\n".join(f"    {row(m)}" for m in exp[k]))
        lines.append("  ],")
    lines.append(f'  "notes": {row(exp["notes"])}')
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- iCalendar text

def esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str, lead: str = " ") -> list[str]:
    """RFC 5545 folding at 75 octets, never inside a UTF-8 character."""
    out, cur, size = [], "", 0
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > 75:
            out.append(cur)
            cur, size = lead, 1
        cur += ch
        size += n
    out.append(cur)
    return out


def local(d: date, hm: str) -> str:
    return d.strftime("%Y%m%d") + "T" + hm.replace(":", "") + "00"


def utc(d: date, hm: str, zone: str) -> str:
    t = datetime.combine(d, time.fromisoformat(hm), ZoneInfo(zone)).astimezone(UTC)
    return t.strftime("%Y%m%dT%H%M%SZ")


def uid(seed: str, domain: str = "") -> str:
    u = str(uuid.uuid5(uuid.NAMESPACE_URL, seed))
    return f"{u}@{domain}" if domain else u


def vtimezone(tzid: str, std_name: str = "CST") -> list[str]:
    return ["BEGIN:VTIMEZONE", f"TZID:{tzid}", f"X-LIC-LOCATION:{tzid}", "BEGIN:STANDARD",
            "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", f"TZNAME:{std_name}", "DTSTART:19700101T000000",
            "END:STANDARD", "END:VTIMEZONE"]


def weeks_text(ws: tuple[int, ...]) -> str:
    if len(ws) == 1:
        return f"{ws[0]}周"
    if len(ws) > 1 and all(b - a == 2 for a, b in zip(ws, ws[1:], strict=False)):
        return f"{ws[0]}-{ws[-1]}{'单' if ws[0] % 2 else '双'}周"
    if ws == tuple(range(ws[0], ws[-1] + 1)):
        return f"{ws[0]}-{ws[-1]}周"
    return ",".join(str(w) for w in ws) + "周"


def series_bounds(school: School, c: Course) -> tuple[date, int, int]:
    """First date, INTERVAL and COUNT of a weekly RRULE covering ``c.weeks`` (regular spacing only)."""
    step = c.weeks[1] - c.weeks[0] if len(c.weeks) > 1 else 1
    assert c.weeks == tuple(range(c.weeks[0], c.weeks[-1] + 1, step)), c.title
    return school.day(c.weeks[0], c.weekday), step, len(c.weeks)


def days_off_of(school: School, c: Course) -> list[date]:
    return [school.day(w, c.weekday) for w in c.weeks if school.day(w, c.weekday) in school.days_off]


def makeup_days_of(school: School, c: Course) -> list[date]:
    return [mk for mk, off in school.makeups if off in days_off_of(school, c)]


def write(name: str, body: bytes, exp: dict) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_bytes(body)
    (OUT / (name.rsplit(".", 1)[0] + ".expected.json")).write_text(dump_expected(exp), "utf-8")


def crlf(lines: list[str], lead: str = " ") -> bytes:
    return ("\r\n".join(x for line in lines for x in fold(line, lead)) + "\r\n").encode("utf-8")


# --------------------------------------------------------------------------- 1. 正方 converter, RRULE + EXDATE + RDATE

def zf_rrule_exdate_rdate() -> None:
    school = School(
        "南屏理工大学", "Asia/Shanghai", date(2024, 9, 2), 18,
        grid("08:00", 45, [10, 20, 10, "14:00", 10, 20, 10, "19:00", 10, 10]),
        days_off=(date(2024, 9, 16), date(2024, 9, 17), date(2024, 10, 1), date(2024, 10, 2),
                  date(2024, 10, 3), date(2024, 10, 4), date(2024, 10, 7)),
        makeups=((date(2024, 9, 14), date(2024, 9, 16)), (date(2024, 9, 29), date(2024, 10, 7)),
                 (date(2024, 10, 12), date(2024, 10, 4))))
    courses = [
        Course("数据结构", 1, 1, 2, weeks(1, 16), "信息楼301", ("陈立群",)),
        Course("概率论与数理统计", 3, 3, 4, weeks(1, 16), "理学楼205", ("周婉",)),
        Course("大学英语(3)", 5, 1, 2, weeks(1, 15, "odd"), "外语楼418", ("林晓", "Emily Carter")),
        Course("中国近现代史纲要", 2, 5, 7, weeks(3, 18), "文科楼112", ("孙建国",)),
        Course("电路分析", 4, 9, 10, weeks(1, 12), "电工楼B102", ("何川",)),
    ]
    tz = "Asia/Shanghai"
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zfjw-to-ics//icalendar 5.0//CN", "CALSCALE:GREGORIAN",
             "X-WR-CALNAME:2024-2025-1 课表", *vtimezone(tz)]
    for c in courses:
        first, step, count = series_bounds(school, c)
        s, e = school.times(first, c.first, c.last)
        desc = (f"课程名称：{c.title}\n授课教师：{','.join(c.teachers)}\n上课地点：{c.room}\n"
                f"上课周次：{weeks_text(c.weeks)}\n上课节次：第{c.first}-{c.last}节")
        ev = ["BEGIN:VEVENT", f"SUMMARY:{esc(c.title)}", f"DTSTART;TZID={tz}:{local(first, s)}",
              f"DTEND;TZID={tz}:{local(first, e)}", f"DTSTAMP:{STAMP}", f"UID:{uid('zf' + c.title)}",
              f"RRULE:FREQ=WEEKLY;COUNT={count}" + (f";INTERVAL={step}" if step > 1 else "")]
        off = days_off_of(school, c)
        if off:
            ev.append(f"EXDATE;TZID={tz}:" + ",".join(local(d, s) for d in off))
        mk = makeup_days_of(school, c)
        if mk:
            ev.append(f"RDATE;TZID={tz}:" + ",".join(local(d, s) for d in mk))
        ev += [f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
        lines += ev
    lines.append("END:VCALENDAR")
    notes = ("正方 timetable converted by a student's icalendar script: TZID Asia/Shanghai with VTIMEZONE, one "
             "weekly RRULE COUNT per course block (odd weeks as INTERVAL=2), holidays (中秋, 国庆) as EXDATE, "
             "make-up days (调休: a Saturday/Sunday runs a day off's classes) as RDATE. No LOCATION: course, "
             "teachers and room are keyed lines in DESCRIPTION. Expected: days off absent, make-up meetings on "
             "the make-up day at the same sections.")
    write("ics_zf_rrule_exdate_rdate.ics", crlf(lines), expected(school, all_occurrences(school, courses),
                                                                  notes=notes))


# --------------------------------------------------------------------------- 2. 强智 script, per meeting in UTC

def qz_bracket_teacher_utc() -> None:
    school = School(
        "北辰农林大学", "Asia/Shanghai", date(2024, 2, 26), 18,
        grid("08:00", 50, [10, 20, 10, "14:00", 10, 20, 10, "19:00", 10]),
        days_off=(date(2024, 4, 4), date(2024, 4, 5), date(2024, 5, 1), date(2024, 5, 2), date(2024, 5, 3),
                  date(2024, 6, 10)),
        makeups=((date(2024, 4, 28), date(2024, 5, 2)), (date(2024, 5, 11), date(2024, 5, 3))))
    raw = {"高等数学A(2)": "【张海峰】", "大学物理B(1)": "【李敏,王志刚】", "线性代数": "【周宁(副教授)】",
           "体育(2)": "", "思想道德与法治": "【刘洋】", "大学物理实验": "【赵蕾】"}
    courses = [
        Course("高等数学A(2)", 1, 1, 2, weeks(1, 16), "第一教学楼104", ("张海峰",)),
        Course("高等数学A(2)", 3, 3, 4, weeks(1, 16), "第一教学楼104", ("张海峰",)),
        Course("大学物理B(1)", 2, 3, 4, weeks(1, 16), "第二教学楼210", ("李敏", "王志刚")),
        Course("线性代数", 4, 5, 6, weeks(1, 12), "第二教学楼305", ("周宁",)),
        Course("体育(2)", 5, 7, 8, weeks(1, 16), "东区田径场"),
        Course("思想道德与法治", 5, 9, 10, weeks(1, 8), "第三教学楼201", ("刘洋",)),
    ]
    lab = Course("大学物理实验", 2, 3, 4, (8,), "物理实验中心201", ("赵蕾",))
    changes = Changes(extras=[(lab, school.day(8, 2), *school.times(school.day(8, 2), 3, 4))])
    occs = all_occurrences(school, courses, changes)
    tz = school.zone
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//qzjw-ics//Python ics 0.7.2//CN", "METHOD:PUBLISH"]
    for i, o in enumerate(occs):
        lines += ["BEGIN:VEVENT", f"DTSTAMP:{STAMP}", f"UID:{uid(f'qz{i}', 'qzjw')}",
                  f"SUMMARY:{esc(o.course.title + raw[o.course.title])}",
                  f"DTSTART:{utc(o.date, o.start, tz)}", f"DTEND:{utc(o.date, o.end, tz)}",
                  f"LOCATION:{esc(o.room)}",
                  f"DESCRIPTION:{esc(f'第{o.first}-{o.last}节')}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    notes = ("强智 scrape by a student's script (Python ics): one VEVENT per meeting, UTC times, SUMMARY "
             "'课程【教师】' (course names ending in '(2)'/'(1)' are part of the name; two teachers 'A,B'; a title "
             "'(副教授)' dropped; 体育 has no bracket), LOCATION the room, DESCRIPTION the sections. 50-min "
             "sections with a 20-min break after the 2nd and 6th. Holidays (清明, 劳动节) have no events; the "
             "make-up Sunday/Saturday carry the day off's classes; 端午 (Mon 10 Jun) has none. "
             "A one-off 大学物理实验 listed last clashes with "
             "大学物理B(1) in week 8 (overlap: the earlier one is kept).")
    write("ics_qz_bracket_teacher_utc.ics", crlf(lines),
          expected(school, occs, notes=notes, raw_summary=lambda o: o.course.title + raw[o.course.title]))


# --------------------------------------------------------------------------- 3. 青果 script, GB18030, room first

def kingo_room_first_gb18030() -> None:
    school = School(
        "西川科技学院", "Asia/Shanghai", date(2024, 3, 4), 16,
        grid("08:00", 45, [10, 20, 10, "14:00", 10, 20, 10, "19:00", 10, 5]),
        days_off=(date(2024, 4, 4), date(2024, 5, 1), date(2024, 5, 2), date(2024, 5, 3), date(2024, 6, 10)))
    courses = [
        Course("大学物理", 1, 3, 4, weeks(1, 16), "教1-203", ("黄志明",)),
        Course("C语言程序设计", 2, 9, 11, weeks(2, 13), "实验楼B305", ("谢婷",)),
        Course("马克思主义基本原理", 3, 1, 2, weeks(1, 16), "教2-101", ("邓国华", "钱芳")),
        Course("羽毛球", 4, 5, 6, weeks(1, 16), "体育馆"),
        Course("工程制图", 5, 10, 11, weeks(1, 15, "odd"), "教1-406", ("冯磊",)),
    ]
    occs = all_occurrences(school, courses)
    damaged = next(o for o in occs if o.course.title == "大学物理" and o.date == school.day(7, 1))
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//kingosoft-kb2ics//CN", "X-WR-CALNAME:我的课表",
             "X-WR-TIMEZONE:Asia/Shanghai"]
    for i, o in enumerate(occs):
        end = local(o.date, o.end)
        if o is damaged:
            end = end[:-2]  # the student fixed this time by hand in Notepad and lost the seconds
        ev = ["BEGIN:VEVENT", f"UID:kb-{i:04d}@jw.xckj", f"DTSTAMP:{STAMP}",
              f"SUMMARY:[{esc(o.room)}]{esc(o.course.title)}", f"DTSTART:{local(o.date, o.start)}",
              f"DTEND:{end}"]
        if o.course.teachers:
            ev.append("DESCRIPTION:" + esc(f"任课教师：{','.join(o.course.teachers)}"))
        lines += [*ev, "END:VEVENT"]
    lines.append("END:VCALENDAR")
    body = ("\r\n".join(lines) + "\r\n").encode("gb18030")
    kept = [o for o in occs if o is not damaged]
    notes = ("青果 timetable turned into .ics by a student's Windows script: GB18030 (not UTF-8), CRLF, floating "
             "times (X-WR-TIMEZONE only), one VEVENT per meeting, SUMMARY '[教室]课程', no LOCATION, DESCRIPTION "
             "'任课教师：A,B' (none for 羽毛球). Evening sections 9-11 end at 21:30. Days off (清明, 劳动节, 端午) have no "
             "events. One 大学物理 event, edited by hand, has a DTEND cut to 13 characters (damaged, not repaired "
             "from the grid).")
    skipped = [{"summary": f"[{damaged.room}]{damaged.course.title}", "why": "damaged",
                "date": damaged.date.isoformat(), "detail": "DTEND without seconds"}]
    write("ics_kingo_room_first_gb18030.ics", body, expected(school, kept, skipped, notes))


# --------------------------------------------------------------------------- 4. Apple Calendar, split series

def apple_split_series() -> None:
    winter = date(2024, 10, 8)
    summer_grid = grid("08:00", 45, [10, 20, 10, "14:30", 10, 20, 10, "19:00", 10])
    winter_grid = grid("08:00", 45, [10, 20, 10, "14:00", 10, 20, 10, "19:00", 10])
    school = School(
        "临湖财经学院", "Asia/Shanghai", date(2024, 9, 2), 18, summer_grid, (winter, winter_grid),
        days_off=(date(2024, 9, 16), date(2024, 9, 17), date(2024, 10, 1), date(2024, 10, 2),
                  date(2024, 10, 3), date(2024, 10, 4), date(2024, 10, 7)))
    courses = [
        Course("微观经济学", 1, 1, 2, weeks(1, 16), "经管楼A201", ("王若愚",)),
        Course("会计学原理", 2, 5, 6, weeks(1, 16), "经管楼B305", ("陈静",)),
        Course("统计学", 4, 7, 8, weeks(1, 16), "信息楼210", ("杨帆", "Sarah Lin")),
        Course("形势与政策", 3, 9, 10, weeks(3, 10), "行政楼报告厅"),
    ]
    tz = school.zone
    lines = ["BEGIN:VCALENDAR", "METHOD:PUBLISH", "VERSION:2.0", "X-WR-CALNAME:课程表",
             "PRODID:-//Apple Inc.//macOS 14.6.1//EN", "X-APPLE-CALENDAR-COLOR:#1BADF8",
             "X-WR-TIMEZONE:Asia/Shanghai", "CALSCALE:GREGORIAN", *vtimezone(tz, "GMT+8")]
    n = 0

    def event(c: Course, first: date, rule: str, exdates: list[date]) -> list[str]:
        nonlocal n
        n += 1
        s, e = school.times(first, c.first, c.last)
        ev = ["BEGIN:VEVENT", "TRANSP:OPAQUE", f"DTEND;TZID={tz}:{local(first, e)}",
              f"UID:{uid('apple' + c.title + str(first)).upper()}", f"DTSTAMP:{STAMP}",
              f"LOCATION:{esc(c.room)}",
              f"X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=49.91;X-TITLE=\"{c.room}\":geo:30.47,114.39",
              "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC"]
        if c.teachers:
            ev.append(f"DESCRIPTION:{esc('老师：' + ', '.join(c.teachers))}")
        ev += ["SEQUENCE:1", f"SUMMARY:{esc(c.title)}", "LAST-MODIFIED:20241006T120102Z",
               "CREATED:20240830T094512Z", f"DTSTART;TZID={tz}:{local(first, s)}", f"RRULE:{rule}"]
        for d in exdates:
            ev.append(f"EXDATE;TZID={tz}:{local(d, s)}")
        ev += ["BEGIN:VALARM", f"X-WR-ALARMUID:{uid('alarm' + str(n)).upper()}",
               f"UID:{uid('alarm' + str(n)).upper()}", "TRIGGER:-PT15M", "ATTACH;VALUE=URI:Chord",
               "ACTION:AUDIO", "X-APPLE-DEFAULT-ALARM:TRUE", "ACKNOWLEDGED:20240902T235000Z", "END:VALARM",
               "END:VEVENT"]
        return ev

    for c in courses:
        dates = [school.day(w, c.weekday) for w in c.weeks]
        off = [d for d in dates if d in school.days_off]
        changes = school.times(dates[0], c.first, c.last) != school.times(dates[-1], c.first, c.last)
        if not changes:
            lines += event(c, dates[0], f"FREQ=WEEKLY;COUNT={len(dates)}", off)
            continue
        before = [d for d in dates if d < winter]
        after = [d for d in dates if d >= winter]
        # "this and future events" edited on the first winter-hours day: the old series is cut the day before
        cut = datetime.combine(winter - timedelta(days=1), time(23, 59, 59), ZoneInfo(tz)).astimezone(UTC)
        lines += event(c, before[0], f"FREQ=WEEKLY;UNTIL={cut:%Y%m%dT%H%M%SZ}", [d for d in off if d < winter])
        lines += event(c, after[0], f"FREQ=WEEKLY;COUNT={len(after)}", [d for d in off if d >= winter])
    lines += ["BEGIN:VEVENT", "TRANSP:TRANSPARENT", "DTEND;VALUE=DATE:20241008",
              f"UID:{uid('apple-holiday').upper()}", f"DTSTAMP:{STAMP}", "SUMMARY:国庆节放假",
              "DTSTART;VALUE=DATE:20241001", "SEQUENCE:0", "X-APPLE-UNIVERSAL-ID:6a1f3c3e-0000-0000-0000-cn2024",
              "END:VEVENT", "END:VCALENDAR"]
    notes = ("A student's Apple Calendar (macOS) exported: X-WR-CALNAME, VTIMEZONE, X-APPLE-STRUCTURED-LOCATION, "
             "VALARM with X-WR-ALARMUID, one RRULE per course, days off deleted by hand (EXDATE). Afternoon hours "
             "move from 14:30 to 14:00 on 2024-10-08 (second_grid): the student edited 'this and future events', "
             "so each afternoon course is two series, the first cut by UNTIL the night before. DESCRIPTION "
             "'老师：A, B'. One all-day 国庆节放假 event (skipped).")
    skipped = [{"summary": "国庆节放假", "why": "all_day", "date": "2024-10-01"}]
    write("ics_apple_split_series.ics", crlf(lines), expected(school, all_occurrences(school, courses),
                                                               skipped, notes))


# --------------------------------------------------------------------------- 5. Outlook, Hong Kong, BYDAY pairs

def outlook_hk_byday() -> None:
    school = School(
        "Harbour Polytechnic University (fictional)", "Asia/Hong_Kong", date(2024, 9, 2), 13,
        grid("08:30", 50, [10] * 12),
        days_off=(date(2024, 9, 18), date(2024, 10, 1), date(2024, 10, 11),
                  *(date(2024, 10, 14) + timedelta(days=i) for i in range(5))))
    # code, name, [(weekday, first, last)], room, instructor as written, instructor's name
    classes = [
        ("COMP2119", "Introduction to Data Structures and Algorithms", [(1, 3, 4), (4, 3, 4)],
         "MWT2, Meng Wah Complex", "Dr. CHAN Tai-man", "CHAN Tai-man"),
        ("ECON1210", "Introductory Microeconomics", [(2, 6, 7), (5, 6, 7)], "KK101, K.K. Leung Building",
         "Prof. LEUNG Wing-yan", "LEUNG Wing-yan"),
        ("CCST9015", "Electronic Technologies and the Information Society", [(3, 11, 12)], "LE4, Library Extension",
         "Dr. Alan WONG", "Alan WONG"),
        ("MATH2101", "Linear Algebra I", [(4, 1, 2)], "CPD-LG.01, Centennial Campus",
         "Dr. HO Ka-yee and Dr. Priya NAIR", "HO Ka-yee、Priya NAIR"),
    ]
    courses = []
    for _code, name, slots, room, _, teacher in classes:
        for wd, f, la in slots:
            courses.append(Course(name, wd, f, la, weeks(1, 13), room, tuple(teacher.split("、"))))
    # the file lists each class as one VEVENT covering all its weekdays; expected order = class order
    tz = "China Standard Time"
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN", "VERSION:2.0",
             "METHOD:PUBLISH", "X-CALSTART:20240902T003000Z", "X-WR-RELCALID:{0000002E-8A3C-1F21-C8A1-6F0A}",
             "X-WR-CALNAME:Calendar", "BEGIN:VTIMEZONE", f"TZID:{tz}", "BEGIN:STANDARD",
             "DTSTART:16010101T000000", "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:STANDARD",
             "END:VTIMEZONE"]
    byday = {1: "MO", 2: "TU", 3: "WE", 4: "TH", 5: "FR"}
    for code, name, slots, room, instructor, _ in classes:
        wd, f, la = slots[0]
        first = school.day(1, wd)
        s, e = school.times(first, f, la)
        last = school.day(13, slots[-1][0])
        until = datetime.combine(last, time(23, 59, 59), ZoneInfo(school.zone)).astimezone(UTC)
        off = sorted(d for d in school.days_off for (w2, *_r) in slots if d.isoweekday() == w2)
        host = instructor.split(" and ")[0]
        lines += ["BEGIN:VEVENT", f'ORGANIZER;CN="{host}":mailto:{code.lower()}-staff@hpu.example.edu.hk']
        for k, who in enumerate(["CHEUNG Hoi Lam", "LAM Chun Kit", "Student, Exchange"]):
            lines.append(f'ATTENDEE;CN="{who}";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:'
                         f"mailto:u35{k}{code[-4:]}@connect.hpu.example.edu.hk")
        lines += ["CLASS:PUBLIC", "CREATED:20240815T021500Z",
                  "DESCRIPTION:" + esc(f"Course: {code} {name}\nInstructor: {instructor}\nVenue: {room}\n\n"
                                       "Please bring your student card."),
                  f"RRULE:FREQ=WEEKLY;UNTIL={until:%Y%m%dT%H%M%SZ};INTERVAL=1;"
                  f"BYDAY={','.join(byday[x[0]] for x in slots)};WKST=SU"]
        if off:
            lines.append(f"EXDATE;TZID={tz}:" + ",".join(local(d, s) for d in off))
        lines += [f"DTEND;TZID={tz}:{local(first, e)}", f"DTSTAMP:{STAMP}", f"DTSTART;TZID={tz}:{local(first, s)}",
                  "LAST-MODIFIED:20240820T063011Z", f"LOCATION:{esc(room)}", "PRIORITY:5", "SEQUENCE:0",
                  f"SUMMARY;LANGUAGE=en-us:{esc(f'{code} {name}')}", "TRANSP:OPAQUE",
                  f"UID:040000008200E00074C5B7101A82E0080000000{uid(code).replace('-', '')[:24].upper()}",
                  "X-MICROSOFT-CDO-BUSYSTATUS:BUSY", "X-MICROSOFT-CDO-IMPORTANCE:1",
                  "X-MICROSOFT-DISALLOW-COUNTER:FALSE", "X-MS-OLK-AUTOFILLLOCATION:FALSE",
                  "X-MS-OLK-CONFTYPE:0", "BEGIN:VALARM", "TRIGGER:-PT15M", "ACTION:DISPLAY",
                  "DESCRIPTION:Reminder", "END:VALARM", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    notes = ("Hong Kong university course invitations saved from Outlook: TZID 'China Standard Time' (a Windows "
             "name, VTIMEZONE +0800 only) in an Asia/Hong_Kong school, hourly 50-min sections from 08:30, "
             "13 teaching weeks. One VEVENT per course covering two weekdays (BYDAY=MO,TH) with UNTIL in UTC; "
             "public holidays and reading week (week 7) as one EXDATE list. ORGANIZER/ATTENDEE lines, "
             "X-MICROSOFT properties, VALARM. SUMMARY 'CODE Course Name' (title = the name without the code); "
             "LOCATION 'room, building' kept whole; teacher from DESCRIPTION 'Instructor: Dr. X' without Dr./Prof., "
             "'A and B' -> 'A、B'.")
    write("ics_outlook_hk_byday.ics", crlf(lines), expected(school, all_occurrences(school, courses), notes=notes))


# --------------------------------------------------------------------------- 6. 小爱课程表, per section, BOM

def xiaoai_per_section_bom() -> None:
    school = School(
        "青峰医科大学", "Asia/Shanghai", date(2024, 2, 26), 18,
        grid("08:10", 45, [5, 20, 5, "14:00", 5, 20, 5, "19:00", 5]),
        days_off=(date(2024, 4, 4), date(2024, 4, 5), date(2024, 5, 1), date(2024, 5, 2), date(2024, 5, 3),
                  date(2024, 6, 10)),
        makeups=((date(2024, 4, 7), date(2024, 4, 5)), (date(2024, 4, 28), date(2024, 5, 2)),
                 (date(2024, 5, 11), date(2024, 5, 3))))
    courses = [
        Course("系统解剖学", 1, 3, 4, weeks(1, 18), "基础医学楼 解剖实验室2", ("王芳",)),
        Course("医用化学", 2, 1, 2, weeks(1, 12), "化学楼301", ("赵启明", "孙琳")),
        Course("组织学与胚胎学", 5, 5, 7, weeks(1, 16), "形态学楼210", ("钟敏",)),
        Course("大学英语(2)", 4, 1, 2, weeks(1, 16), "公共教学楼B108", ("Daniel Moore",)),
        Course("医学心理学", 3, 9, 10, weeks(9, 16), "公共教学楼A201", ("许安",)),
    ]
    occs = all_occurrences(school, courses)
    tz = school.zone
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Xiaomi//XiaoAi Course Table//ZH-CN",
             "X-WR-CALNAME:小爱课程表", "X-WR-TIMEZONE:Asia/Shanghai", *vtimezone(tz)]
    for o in occs:
        for sec in range(o.first, o.last + 1):
            s, _e = school.times(o.date, sec, sec)
            lines += ["BEGIN:VEVENT", f"UID:{uid(f'xa{o.course.title}{o.date}{sec}')}", f"DTSTAMP:{STAMP}",
                      f"DTSTART;TZID={tz}:{local(o.date, s)}", "DURATION:PT45M", f"SUMMARY:{esc(o.course.title)}",
                      f"LOCATION:{esc(o.room)}",
                      "DESCRIPTION:" + esc(f"任课老师：{'、'.join(o.course.teachers)}\n第{sec}节"),
                      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT20M", f"DESCRIPTION:{esc(o.course.title)}",
                      "END:VALARM", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    body = b"\xef\xbb\xbf" + crlf(lines)
    notes = ("小爱课程表 export: UTF-8 BOM, CRLF, TZID with VTIMEZONE, one VEVENT per section (DURATION:PT45M, no "
             "DTEND), VALARM each. SUMMARY the course, LOCATION the room (a space inside kept), DESCRIPTION "
             "'任课老师：A、B' and the section. Days off (清明, 劳动节, 端午) have no events; make-up days (Sun 7 "
             "Apr, Sun 28 Apr, Sat 11 May) run the classes of the day off they replace (调休). "
             "Expected: consecutive sections merged into one meeting.")
    write("ics_xiaoai_per_section_bom.ics", body, expected(school, occs, notes=notes))


# --------------------------------------------------------------------------- 7. URP script, section suffix, damaged layout

def urp_sections_suffix_no_end() -> None:
    school = School(
        "蜀南工业大学", "Asia/Shanghai", date(2023, 2, 20), 18,
        grid("08:15", 45, [10, 20, 10, "13:50", 10, 10, 20, 10, "19:20", 10, 10]))
    courses = [
        Course("软件工程", 1, 1, 2, weeks(1, 16), "江安 一教A座101", ("王明",)),
        Course("操作系统", 2, 6, 8, weeks(1, 17), "江安 综合楼C区302", ("李华", "陈思远")),
        Course("计算机网络", 3, 6, 7, weeks(2, 16, "even"), "望江 基础教学楼B座205", ("吴桐",)),
        Course("编译原理", 4, 10, 12, weeks(1, 15, "odd"), "江安 一教D座408", ("赵磊",)),
        Course("形势与政策", 5, 8, 9, weeks(9, 12), "江安 一教B座101"),
    ]
    stars = {"软件工程": "王明*", "操作系统": "李华* 陈思远", "计算机网络": "吴桐*", "编译原理": "赵磊*",
             "形势与政策": ""}
    exam = Course("软件工程 期末考试", 4, 2, 4, (19,), "江安 一教A座101")
    exam_day = school.day(19, 4)
    changes = Changes(extras=[(exam, exam_day, "09:00", "11:00")])
    lines = ["BEGIN:VCALENDAR", "PRODID:-//urp-course-export//scu//", "VERSION:2.0", "CALSCALE:GREGORIAN",
             "X-WR-CALNAME:2022-2023学年春季学期", "X-WR-TIMEZONE:Asia/Shanghai", ""]
    for c in courses:
        first, step, count = series_bounds(school, c)
        s, e = school.times(first, c.first, c.last)
        last = school.day(c.weeks[-1], c.weekday)
        desc = f"教师: {stars[c.title]} / 课序号: 0{count % 3 + 1} / 学分: {c.last - c.first + 1}.0 / 周次: {weeks_text(c.weeks)}"
        lines += ["BEGIN:VEVENT", f"UID:{uid('urp' + c.title)}", f"DTSTAMP:{STAMP}",
                  f"SUMMARY:{esc(f'{c.title} (第{c.first}-{c.last}节)')}",
                  f"DTSTART:{local(first, s)}", f"DTEND:{local(first, e)}",
                  f"RRULE:FREQ=WEEKLY;INTERVAL={step};UNTIL={last:%Y%m%d}",
                  f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT", ""]
    lines += ["BEGIN:VEVENT", f"UID:{uid('urp-exam')}", f"DTSTAMP:{STAMP}", f"SUMMARY:{exam.title}",
              f"DTSTART:{local(exam_day, '09:00')}", f"DTEND:{local(exam_day, '11:00')}",
              f"LOCATION:{esc(exam.room)}", "DESCRIPTION:考试", "END:VEVENT", ""]
    text = "\n".join(x for line in lines for x in (fold(line, "\t") if line else [""])) + "\n"
    notes = ("URP (综合教务) timetable exported by a student's script: LF line ends, a blank line after every event, "
             "long lines folded with a TAB, no END:VCALENDAR, floating times with X-WR-TIMEZONE, one RRULE per "
             "block with a DATE UNTIL (odd/even weeks as INTERVAL=2). SUMMARY '课程 (第1-2节)' (the section suffix "
             "is not the title), LOCATION 'campus building room' kept whole, DESCRIPTION 'key: value' parts "
             "separated by ' / ' with teachers 'A* B' (* marks the lead teacher, not part of the name). The "
             "converter knows no holidays: the weekly pattern is what the board shows. The final exam in week 19 "
             "is after the semester.")
    write("ics_urp_sections_suffix_no_end.ics", text.encode("utf-8"),
          expected(school, all_occurrences(school, courses, changes), notes=notes))


# --------------------------------------------------------------------------- 8. timetable app: moved / cancelled / make-up

def app_moved_cancelled_makeup() -> None:
    school = School(
        "云岭民族大学", "Asia/Shanghai", date(2024, 9, 9), 16,
        grid("08:30", 45, [5, 20, 5, "14:30", 5, 20, 5, "19:30", 5, 5]),
        days_off=(date(2024, 9, 16), date(2024, 9, 17), date(2024, 10, 1), date(2024, 10, 2), date(2024, 10, 3),
                  date(2024, 10, 4), date(2024, 10, 7)))
    courses = [
        Course("民族学概论", 1, 1, 2, weeks(1, 16), "民族楼201", ("杨丽华",)),
        Course("人类学导论", 3, 5, 6, weeks(1, 16), "文渊楼402", ("李维",)),
        Course("田野调查方法", 4, 3, 4, weeks(1, 8), "文渊楼118", ("段志远", "和晓梅")),
        Course("大学体育(3)", 2, 7, 8, weeks(1, 16), "南区体育场", ("马骏",)),
    ]
    moved_to = date(2024, 10, 12)
    makeup = Course("田野调查方法", 6, 1, 2, (8,), "文渊楼118", ("段志远", "和晓梅"))
    makeup_day = school.day(8, 6)
    changes = Changes(moved={("民族学概论", 4): (moved_to, 3, 4, "民族楼305")},
                      cancelled={("人类学导论", 10)},
                      extras=[(makeup, makeup_day, *school.times(makeup_day, 1, 2))])
    tz = school.zone
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Friday//SuperSchedule 9.6.2//ZH",
             "X-WR-CALNAME:超级课程表", *vtimezone(tz)]

    def body(c: Course, d: date, f: int, la: int, room: str) -> list[str]:
        s, e = school.times(d, f, la)
        desc = f"老师：{'、'.join(c.teachers)}\n节数：第{f}-{la}节\n周数：{weeks_text(c.weeks)}"
        return [f"DTSTART;TZID={tz}:{local(d, s)}", f"DTEND;TZID={tz}:{local(d, e)}", f"SUMMARY:{esc(c.title)}",
                f"LOCATION:{esc(room)}", f"DESCRIPTION:{esc(desc)}"]

    for c in courses:
        first, _step, count = series_bounds(school, c)
        s, _e = school.times(first, c.first, c.last)
        u = uid("super" + c.title, "superschedule")
        ev = ["BEGIN:VEVENT", f"UID:{u}", f"DTSTAMP:{STAMP}", *body(c, first, c.first, c.last, c.room),
              f"RRULE:FREQ=WEEKLY;COUNT={count}"]
        off = days_off_of(school, c)
        if off:
            ev.append(f"EXDATE;TZID={tz}:" + ",".join(local(d, s) for d in off))
        lines += [*ev, "END:VEVENT"]
        for (title, w), (nd, f, la, room) in changes.moved.items():
            if title == c.title:
                rid = school.day(w, c.weekday)
                lines += ["BEGIN:VEVENT", f"UID:{u}", f"DTSTAMP:{STAMP}", f"RECURRENCE-ID;TZID={tz}:{local(rid, s)}",
                          *body(c, nd, f, la, room), "SEQUENCE:1", "END:VEVENT"]
        for title, w in changes.cancelled:
            if title == c.title:
                rid = school.day(w, c.weekday)
                lines += ["BEGIN:VEVENT", f"UID:{u}", f"DTSTAMP:{STAMP}", f"RECURRENCE-ID;TZID={tz}:{local(rid, s)}",
                          *body(c, rid, c.first, c.last, c.room), "STATUS:CANCELLED", "SEQUENCE:1", "END:VEVENT"]
    lines += ["BEGIN:VEVENT", f"UID:{uid('super-makeup', 'superschedule')}", f"DTSTAMP:{STAMP}",
              *body(makeup, makeup_day, 1, 2, makeup.room), "END:VEVENT", "END:VCALENDAR"]
    notes = ("Timetable-app export (超级课程表 style): TZID with VTIMEZONE, one RRULE COUNT per course, 中秋/国庆 as EXDATE; "
             "the student's edits: a RECURRENCE-ID override moves 民族学概论 of week 4 to Saturday 12 Oct sections "
             "3-4 in another room, a STATUS:CANCELLED override removes 人类学导论 of week 10, and a separate one-off "
             "event is the 田野调查方法 make-up class on Saturday of week 8. SUMMARY the course, LOCATION the room, "
             "DESCRIPTION '老师：A、B' / 节数 / 周数.")
    write("ics_app_moved_cancelled_makeup.ics", crlf(lines),
          expected(school, all_occurrences(school, courses, changes), notes=notes))


# --------------------------------------------------------------------------- 9. WakeUp template edited in Excel

def wakeup_excel_gbk_reordered() -> None:
    school = School(
        "雁北学院", "Asia/Shanghai", date(2025, 2, 17), 16,
        grid("08:00", 45, [10, 20, 10, "14:00", 10, 20, 10, "18:45", 10, 20]))
    rows = [  # cells as the student left them: name, teacher, room, weekday, first, last, weeks, note
        (" 高等数学(下) ", "刘建华 ", "教学楼A-201 ", "周一", "1", "2", "1-16周", ""),
        ("线性代数", "张宁/李卫东", "教学楼A-305", "3", " 3", "4", "1-8周,10-16周", "第9周期中考试"),
        ("大学物理实验", "王磊", "物理实验楼 302 ", "星期二", "9", "11", "2-16双", "带实验报告"),
        ("程序设计基础", "赵倩", "线上", "星期四", "5", "6 ", "1-15周(单)", ""),
        ("", "", "", "", "", "", "", ""),
        ("英语听说", "Jennifer Brown", "外语楼 110", "周五", "3", "4", "1-16", ""),
        ("思政课实践", "", "", "周六", "1", "4", "5、9、13", "地点另行通知"),
    ]
    spec = {"1-16周": weeks(1, 16), "1-8周,10-16周": weeks(1, 8) + weeks(10, 16), "2-16双": weeks(2, 16, "even"),
            "1-15周(单)": weeks(1, 15, "odd"), "1-16": weeks(1, 16), "5、9、13": (5, 9, 13)}
    day = {"周一": 1, "3": 3, "星期二": 2, "星期四": 4, "周五": 5, "周六": 6}
    courses = [Course(n.strip(), day[d], int(f), int(la), spec[w], r.strip(),
                      tuple(t.strip().split("/")) if t.strip() else ())
               for n, t, r, d, f, la, w, _ in rows if n.strip()]
    out = ["课程名称,老师,地点,星期,开始节数,结束节数,周数,备注"]
    for row in rows:
        out.append(",".join(f'"{c}"' if "," in c else c for c in row))
    body = ("\r\n".join(out) + "\r\n").encode("gb18030")
    notes = ("WakeUp import template filled in Excel and saved as CSV on Windows: GBK/GB18030 bytes, CRLF, columns "
             "reordered (课程名称,老师,地点,星期,…) with an extra 备注 column, weekdays written '周一' / '3' / "
             "'星期二', cells with stray spaces, an empty row, weeks '1-8周,10-16周' (quoted), '2-16双', "
             "'1-15周(单)', '5、9、13', two teachers 'A/B', an online room '线上', a row without teacher or room. "
             "Evening sections 9-11 end at 21:30. The CSV knows weeks, not holidays: every listed week is expected.")
    write("wakeup_excel_gbk_reordered.csv", body, expected(school, all_occurrences(school, courses), notes=notes))


# --------------------------------------------------------------------------- 10. a course list: refuse

def csv_course_list_no_times() -> None:
    school = School("南屏理工大学", "Asia/Shanghai", date(2024, 9, 2), 18,
                    grid("08:00", 45, [10, 20, 10, "14:00", 10, 20, 10, "19:00", 10, 10]))
    rows = [
        "序号,课程号,课程名称,学分,课程性质,任课教师,考核方式,选课状态",
        "1,CS2031,数据结构,4.0,专业必修,陈立群,考试,已选",
        "2,MA2104,概率论与数理统计,3.0,学科基础,周婉,考试,已选",
        "3,EN2003,大学英语(3),2.0,公共必修,\"林晓,Emily Carter\",考查,已选",
        "4,MX1002,中国近现代史纲要,3.0,公共必修,孙建国,考试,已选",
        "5,EE2010,电路分析,3.5,专业必修,何川,考试,已选",
        "6,PE2003,体育(3),1.0,公共必修,,考查,待审核",
    ]
    body = b"\xef\xbb\xbf" + ("\r\n".join(rows) + "\r\n").encode("utf-8")
    exp = expected(school, [], [{"summary": "csv_course_list_no_times.csv", "why": "refused",
                                 "detail": "a course-selection list: no weekday, section, week or time"}],
                   notes=("选课结果 exported from the 教务 system (BOM, CRLF): course code, name, credits, teacher, "
                          "exam type — no weekday, sections, weeks or times, so nothing can be put on the board. "
                          "Expected: the file is refused with a reason saying it has no class times (no meetings)."))
    write("csv_course_list_no_times.csv", body, exp)


def main() -> None:
    for make in (zf_rrule_exdate_rdate, qz_bracket_teacher_utc, kingo_room_first_gb18030, apple_split_series,
                 outlook_hk_byday, xiaoai_per_section_bom, urp_sections_suffix_no_end,
                 app_moved_cancelled_makeup, wakeup_excel_gbk_reordered, csv_course_list_no_times):
        make()


if __name__ == "__main__":
    main()
