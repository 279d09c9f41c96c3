"""Writes the project-owned timetable fixtures and their hand-specified expected results.

    python -m bench.import_eval.make_files        (from the worktree root)

Every file is rendered from a small *description* of a fictional school (its week-1 Monday, time
zone, section grid) and of a student's courses (weekday, first/last section, weeks, room, teacher).
The expected meetings are computed from that same description -- date = week-1 Monday + (week-1)
weeks + (weekday-1) days, times = the school's grid for the first and last section -- never from
SmartMate's importer nor from expand.py. Names of courses, rooms, teachers and schools are invented.
"""
from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

HERE = Path(__file__).resolve().parent
FILES = HERE / "files"


# --------------------------------------------------------------------------- descriptions

def grid(*blocks: tuple[str, int, int, list[int]]) -> list[list[str]]:
    """blocks of (first start "HH:MM", sections, minutes per section, breaks between them)."""
    out = []
    for start, n, minutes, breaks in blocks:
        assert len(breaks) == n - 1
        t = datetime.strptime(start, "%H:%M")
        for i in range(n):
            e = t + timedelta(minutes=minutes)
            out.append([t.strftime("%H:%M"), e.strftime("%H:%M")])
            if i < n - 1:
                t = e + timedelta(minutes=breaks[i])
    return out


@dataclass
class School:
    name: str
    tz: str
    week1: date
    weeks: int
    sections: list[list[str]]
    second_from: date | None = None
    second_sections: list[list[str]] | None = None

    def day(self, week: int, weekday: int) -> date:
        return self.week1 + timedelta(weeks=week - 1, days=weekday - 1)

    def grid_on(self, d: date) -> list[list[str]]:
        if self.second_from and d >= self.second_from:
            assert self.second_sections is not None  # second_from always comes with second_sections
            return self.second_sections
        return self.sections

    def times(self, d: date, s: int, e: int) -> tuple[str, str]:
        g = self.grid_on(d)
        return g[s - 1][0], g[e - 1][1]

    def last_day(self) -> date:
        return self.week1 + timedelta(weeks=self.weeks, days=-1)


@dataclass
class Course:
    title: str
    day: int          # 1 = Monday
    s: int            # first section
    e: int            # last section
    weeks: list[int]
    room: str = ""
    teacher: str = ""  # several teachers joined with "、"
    extra: dict = field(default_factory=dict)

    def occurrences(self, school: School):
        """(date, start "HH:MM", end "HH:MM") of every meeting, from the school's grid."""
        for w in self.weeks:
            d = school.day(w, self.day)
            yield (d, *school.times(d, self.s, self.e))

    def sections(self, school: School):
        """(date, section number, start, end) of every single section."""
        for w in self.weeks:
            d = school.day(w, self.day)
            for n in range(self.s, self.e + 1):
                yield (d, n, *school.times(d, n, n))


def wk(a: int, b: int, parity: str = "") -> list[int]:
    return [w for w in range(a, b + 1) if not parity or (w % 2 == 1) == (parity == "odd")]


def meeting(d: date, start: str, end: str, title: str, location: str = "", teacher: str = "") -> dict:
    return {"date": d.isoformat(), "start": start, "end": end, "title": title, "location": location,
            "teacher": teacher}


def course_meetings(school: School, courses: list[Course]) -> list[dict]:
    return [meeting(d, s, e, c.title, c.room, c.teacher) for c in courses for d, s, e in c.occurrences(school)]


def expected(school: School, meetings: list[dict], skipped: list[dict], notes: str) -> dict:
    return {
        "school": school.name, "time_zone": school.tz, "week1_monday": school.week1.isoformat(),
        "semester_weeks": school.weeks, "sections": school.sections,
        "second_grid": ({"from": school.second_from.isoformat(), "sections": school.second_sections}
                        if school.second_from else None),
        "meetings": sorted(meetings, key=lambda m: (m["date"], m["start"], m["title"])),
        "skipped": skipped, "notes": notes,
    }


# --------------------------------------------------------------------------- iCalendar writing

def esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str) -> str:
    """RFC 5545 folding at 75 octets, never inside a UTF-8 character."""
    out: list[str] = []
    cur = ""
    for ch in line:
        limit = 75 if not out else 74
        if len((cur + ch).encode()) > limit:
            out.append(cur)
            cur = ch
        else:
            cur += ch
    out.append(cur)
    return "\n ".join(out)


def hm(d: date, t: str) -> datetime:
    return datetime.combine(d, datetime.strptime(t, "%H:%M").time())


def floating(d: date, t: str) -> str:
    return hm(d, t).strftime("%Y%m%dT%H%M%S")


def utc(d: date, t: str, tz: str) -> str:
    return hm(d, t).replace(tzinfo=ZoneInfo(tz)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def uid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def write(kind: str, name: str, text: str | bytes, exp: dict, newline: str = "\n") -> None:
    folder = FILES / kind
    folder.mkdir(parents=True, exist_ok=True)
    data = text if isinstance(text, bytes) else text.replace("\n", newline).encode("utf-8")
    (folder / name).write_bytes(data)
    stem = name.rsplit(".", 1)[0]
    (folder / f"{stem}.expected.json").write_text(dump(exp), encoding="utf-8")


def dump(exp: dict) -> str:
    """JSON with one meeting / skipped entry / section per line (diff-friendly)."""
    def one(v) -> str:
        return json.dumps(v, ensure_ascii=False)

    parts = []
    for k, v in exp.items():
        if isinstance(v, list) and v:
            parts.append(f"  {one(k)}: [\n" + ",\n".join("    " + one(x) for x in v) + "\n  ]")
        elif isinstance(v, dict):
            inner = ",\n".join(f"    {one(kk)}: {one(vv)}" for kk, vv in v.items())
            parts.append(f"  {one(k)}: {{\n{inner}\n  }}")
        else:
            parts.append(f"  {one(k)}: {one(v)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


# =========================================================================== dev set

def dev_per_section_floating() -> None:
    """Grid-export converter shape: floating, one VEVENT per section per week, teacher in SUMMARY."""
    sc = School("青川理工大学", "Asia/Shanghai", date(2025, 2, 24), 18,
                grid(("08:00", 5, 45, [5, 20, 5, 5]), ("14:00", 4, 45, [5, 20, 5]), ("18:30", 3, 45, [5, 5])))
    cs = [Course("线性代数", 1, 1, 2, wk(1, 15, "odd"), "致远楼A203", "顾明川"),
          Course("大学物理B", 2, 3, 5, wk(1, 16), "明德楼305", "林晓"),
          Course("电路分析", 4, 6, 7, wk(3, 14), "实验楼B110", "苏望"),
          Course("形势与政策", 3, 10, 11, wk(9, 12), "明德楼101", "江一帆、何岚")]
    rng = random.Random(1)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Course Schedule//mxm.dk//"]
    for c in cs:
        for n in range(c.s, c.e + 1):  # the converter walks the grid row by row
            for w in c.weeks:
                d = sc.day(w, c.day)
                s, e = sc.times(d, n, n)
                lines += ["BEGIN:VEVENT", f"SUMMARY:{esc(c.title + ' - ' + c.teacher)}",
                          f"DTSTART;VALUE=DATE-TIME:{floating(d, s)}", f"DTEND;VALUE=DATE-TIME:{floating(d, e)}",
                          f"UID:{uid(rng)}@courseschedule", f"LOCATION:周 {c.room}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("dev", "ics_per_section_floating.ics", "\n".join(lines) + "\n", expected(
        sc, course_meetings(sc, cs), [],
        "One VEVENT per 45-min section per week, floating times (read as Asia/Shanghai). SUMMARY is "
        "'课程 - 教师' (teacher after ' - '; two teachers joined by 、); LOCATION carries a stray '周 ' "
        "prefix left by the converter (the week text it lost) -- the room is what follows it. 线性代数 is "
        "odd weeks only. Consecutive sections (also across the 20-min break after section 2) merge into "
        "one meeting."))


def dev_per_section_utc_winter() -> None:
    """adamgibbons/ics shape: UTC Z, one event per section, afternoon grid changes after National Day."""
    morning = ("08:00", 4, 45, [5, 25, 5])
    evening = ("19:00", 4, 45, [10, 10, 10])
    sc = School("江城科技大学", "Asia/Shanghai", date(2023, 9, 4), 20,
                grid(morning, ("14:30", 4, 45, [5, 20, 5]), evening),
                second_from=date(2023, 10, 9),
                second_sections=grid(morning, ("14:00", 4, 45, [5, 20, 5]), evening))
    cs = [Course("操作系统原理", 1, 1, 2, wk(1, 16), "明理楼B301", "周启明"),
          Course("数据库系统", 3, 5, 6, wk(3, 12), "笃行楼N201", "王若溪"),
          Course("软件工程", 5, 7, 8, wk(1, 8), "明理楼A105", "韩东"),
          Course("形势与政策", 4, 9, 10, wk(6, 9), "博雅楼103", "蒋一")]
    cn = "一二三四五六日"
    rng = random.Random(2)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "CALSCALE:GREGORIAN", "PRODID:adamgibbons/ics", "METHOD:PUBLISH",
             "X-WR-CALNAME:2023 秋季学期课程表", "X-PUBLISHED-TTL:PT1H"]
    events = []
    for c in cs:
        desc = f"星期{cn[c.day - 1]} 从第{c.weeks[0]}周到第{c.weeks[-1]}周,由{c.teacher}老师任教"
        for d, _n, s, e in c.sections(sc):
            events.append((d, s, ["BEGIN:VEVENT", f"UID:{uid(rng)}", f"SUMMARY:{esc(c.title)}",
                                  "DTSTAMP:20230901T140129Z", f"DTSTART:{utc(d, s, sc.tz)}",
                                  f"DTEND:{utc(d, e, sc.tz)}", fold(f"DESCRIPTION:{esc(desc)}"),
                                  f"LOCATION:{esc(c.room)}", f"ORGANIZER;CN={c.teacher}", "END:VEVENT"]))
    for _, _, ev in sorted(events, key=lambda x: (x[0], x[1])):
        lines += ev
    lines.append("END:VCALENDAR")
    write("dev", "ics_per_section_utc_winter.ics", "\n".join(lines) + "\n", expected(
        sc, course_meetings(sc, cs), [],
        "UTC 'Z' times (local = UTC+8), one VEVENT per section, sorted by time. From Monday 2023-10-09 "
        "(week 6, after the National Day holiday) the school switches to winter hours: afternoon sections "
        "5-8 start 14:00 instead of 14:30; morning and evening unchanged. 数据库系统 (Wed 5-6) therefore "
        "runs 14:30-16:05 in weeks 3-5 and 14:00-15:35 in weeks 6-12; 软件工程 (Fri 7-8) 16:25-18:00 "
        "then 15:55-17:30. ORGANIZER;CN=... has no value (not a valid content line). Teacher is also in "
        "DESCRIPTION '由X老师任教'."))


def dev_rrule_count_no_end() -> None:
    """CQUT 'Syllabus' lineage: floating, one weekly RRULE COUNT per course block, damaged tail."""
    sc = School("海滨工业大学", "Asia/Shanghai", date(2024, 10, 14), 16,
                grid(("07:50", 4, 50, [5, 15, 5]), ("13:30", 4, 50, [5, 15, 5]), ("18:30", 3, 50, [5, 5])))
    cs = [Course("机械制图", 1, 3, 4, wk(1, 12), "H楼204"),
          Course("大学英语", 2, 1, 2, wk(1, 12), "M楼305"),
          Course("工程数学", 3, 5, 6, wk(2, 9), "N楼108"),
          Course("程序设计基础", 5, 1, 2, wk(1, 12), "M楼207"),
          Course("程序设计基础", 5, 9, 10, wk(5, 8), "实验中心301")]
    broken = Course("军事理论", 4, 7, 8, wk(3, 6), "M楼102")
    rng = random.Random(3)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//CQUT//Syllabus//CN"]
    for c in cs[:3] + [broken] + cs[3:]:
        d0 = sc.day(c.weeks[0], c.day)
        s, e = sc.times(d0, c.s, c.e)
        dtend = floating(d0, e) if c is not broken else d0.strftime("%Y%m%d") + "T00"
        lines += ["BEGIN:VEVENT", f"SUMMARY:{c.title}", f"DTSTART;VALUE=DATE-TIME:{floating(d0, s)}",
                  f"DTEND;VALUE=DATE-TIME:{dtend}", "DTSTAMP;VALUE=DATE-TIME:20241010231927Z",
                  f"UID:{uid(rng)}@HBUT", f"RRULE:FREQ=WEEKLY;COUNT={len(c.weeks)};INTERVAL=1",
                  f"LOCATION:{c.room}", "END:VEVENT"]
    # no END:VCALENDAR: the generator never wrote it
    write("dev", "ics_rrule_count_no_end.ics", "\n".join(lines) + "\n", expected(
        sc, course_meetings(sc, cs),
        [{"summary": "军事理论", "why": "damaged",
          "detail": "DTEND;VALUE=DATE-TIME:20241031T00 is truncated (weeks 3-6, Thu sections 7-8 in the "
                    "student's real timetable, but the file does not say so)"}],
        "Floating times, one VEVENT per course block with RRULE:FREQ=WEEKLY;COUNT=n, no teachers. The file "
        "has no END:VCALENDAR. One event has a truncated DTEND and is expected to be skipped as damaged. "
        "DTSTAMP lacks the 'T' (ignored property). 工程数学 starts in week 2 (COUNT=8 -> weeks 2-9). "
        "程序设计基础 has two blocks on Friday (1-2 weeks 1-12 and a lab 9-10 weeks 5-8)."))


def dev_google_course() -> None:
    """Google Calendar export of a course calendar (English, America/Toronto, DST on 10 March)."""
    tz = "America/Toronto"
    sc = School("Northbay University (fictional), course CSC270", tz, date(2024, 1, 8), 13,
                grid(("08:00", 12, 50, [10] * 11)))
    rng = random.Random(4)
    room = "Room HW215"
    vtz = ["BEGIN:VTIMEZONE", "TZID:America/Toronto", "X-LIC-LOCATION:America/Toronto", "BEGIN:DAYLIGHT",
           "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "TZNAME:EDT", "DTSTART:19700308T020000",
           "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "END:DAYLIGHT", "BEGIN:STANDARD", "TZOFFSETFROM:-0400",
           "TZOFFSETTO:-0500", "TZNAME:EST", "DTSTART:19701101T020000", "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
           "END:STANDARD", "END:VTIMEZONE"]
    events: list[list[str]] = []

    def ev(props: list[str], summary: str, location: str = "", desc: str = "", transp: str = "OPAQUE") -> None:
        events.append(["BEGIN:VEVENT"] + props + ["DTSTAMP:20240310T160139Z", f"UID:{props_uid(props)}",
                       "CREATED:20240105T171354Z", fold(f"DESCRIPTION:{esc(desc)}"), "LAST-MODIFIED:20240105T171354Z",
                       f"LOCATION:{esc(location)}", "SEQUENCE:0", "STATUS:CONFIRMED", f"SUMMARY:{summary}",
                       f"TRANSP:{transp}", "END:VEVENT"])

    uids: dict[int, str] = {}

    def props_uid(props: list[str]) -> str:
        key = id(props)
        return uids.pop(key, None) or f"{uid(rng).replace('-', '')[:26]}@google.com"

    def tzt(d: date, t: str) -> str:
        return f"TZID={tz}:{floating(d, t)}"

    meetings: list[dict] = []
    skipped: list[dict] = []
    # Lecture Tue 10:00-11:50 (sections 3-4), reading week (week 7) excluded
    lec = ["DTSTART;" + tzt(date(2024, 1, 9), "10:00"), "DTEND;" + tzt(date(2024, 1, 9), "11:50"),
           "RRULE:FREQ=WEEKLY;UNTIL=20240403T035959Z;BYDAY=TU", "EXDATE;" + tzt(date(2024, 2, 20), "10:00")]
    ev(lec, "Lecture", room, "Zoom link:&nbsp;<br><i>https://example.invalid/j/00000000000</i>")
    meetings += [meeting(sc.day(w, 2), "10:00", "11:50", "Lecture", room) for w in range(1, 14) if w != 7]
    # Tutorial Thu 15:00-15:50 (section 8), COUNT=11 from week 2, reading week excluded,
    # week 4 moved to Friday, week 10 cancelled (RECURRENCE-ID overrides, same UID)
    tut_uid = f"{uid(rng).replace('-', '')[:26]}@google.com"
    tut = ["DTSTART;" + tzt(date(2024, 1, 18), "15:00"), "DTEND;" + tzt(date(2024, 1, 18), "15:50"),
           "RRULE:FREQ=WEEKLY;COUNT=11;BYDAY=TH", "EXDATE;" + tzt(date(2024, 2, 22), "15:00")]
    moved = ["DTSTART;" + tzt(date(2024, 2, 2), "15:00"), "DTEND;" + tzt(date(2024, 2, 2), "15:50"),
             "RECURRENCE-ID;" + tzt(date(2024, 2, 1), "15:00")]
    cancelled = ["DTSTART;" + tzt(date(2024, 3, 14), "15:00"), "DTEND;" + tzt(date(2024, 3, 14), "15:50"),
                 "RECURRENCE-ID;" + tzt(date(2024, 3, 14), "15:00")]
    for p in (moved, tut, cancelled):
        uids[id(p)] = tut_uid
    ev(moved, "Tutorial", "Room BV361", "Moved to Friday this week")
    ev(tut, "Tutorial", "Room BV361")
    ev(cancelled, "Tutorial", "Room BV361")
    events[-1] = [line.replace("STATUS:CONFIRMED", "STATUS:CANCELLED") for line in events[-1]]
    for w in range(2, 13):
        if w == 7 or w == 10:
            continue
        if w == 4:
            meetings.append(meeting(date(2024, 2, 2), "15:00", "15:50", "Tutorial", "Room BV361"))
        else:
            meetings.append(meeting(sc.day(w, 4), "15:00", "15:50", "Tutorial", "Room BV361"))
    # Office hours Mon 13:00-13:50, unbounded RRULE from week 2
    ev(["DTSTART;" + tzt(date(2024, 1, 15), "13:00"), "DTEND;" + tzt(date(2024, 1, 15), "13:50"),
        "RRULE:FREQ=WEEKLY;BYDAY=MO"], "Office Hours", "https://example.invalid/j/00000000001")
    meetings += [meeting(sc.day(w, 1), "13:00", "13:50", "Office Hours", "https://example.invalid/j/00000000001")
                 for w in range(2, 14)]
    # a TA's one-off office hour overlapping the weekly one (week 6 Monday), UTC like Google one-offs
    ev([f"DTSTART:{utc(date(2024, 2, 12), '13:30', tz)}", f"DTEND:{utc(date(2024, 2, 12), '14:30', tz)}"],
       "TA office hours", "https://example.invalid/j/00000000002")
    # It overlaps the weekly Office Hours 13:00-13:50 that come first in the file: a calendar app shows
    # both, side by side, so the student expects both.
    meetings.append(meeting(date(2024, 2, 12), "13:30", "14:30", "TA office hours",
                            "https://example.invalid/j/00000000002"))
    # term test: Wed 28 Feb 19:00-19:50 local = 00:00Z on the 29th
    ev([f"DTSTART:{utc(date(2024, 2, 28), '19:00', tz)}", f"DTEND:{utc(date(2024, 2, 28), '19:50', tz)}"],
       "Term Test 1", "Room IC130", "Covers weeks 1-6.", "TRANSPARENT")
    meetings.append(meeting(date(2024, 2, 28), "19:00", "19:50", "Term Test 1", "Room IC130"))
    # last year's lectures, left in the calendar
    ev(["DTSTART;" + tzt(date(2023, 9, 12), "10:00"), "DTEND;" + tzt(date(2023, 9, 12), "11:50"),
        "RRULE:FREQ=WEEKLY;UNTIL=20231206T045959Z;BYDAY=TU"], "Lecture", "Room HW214")
    skipped.append({"summary": "Lecture", "why": "outside_semester",
                    "detail": "the fall-2023 series (Tuesdays 2023-09-12 .. 2023-12-05, 13 meetings)"})
    # final exam after the semester
    ev([f"DTSTART:{utc(date(2024, 4, 16), '14:00', tz)}", f"DTEND:{utc(date(2024, 4, 16), '17:00', tz)}"],
       "Final Exam", "Gym A")
    skipped.append({"summary": "Final Exam", "why": "outside_semester", "date": "2024-04-16"})
    # all-day markers
    for w in range(1, 14):
        d = sc.day(w, 1)
        ev([f"DTSTART;VALUE=DATE:{d:%Y%m%d}", f"DTEND;VALUE=DATE:{d + timedelta(days=1):%Y%m%d}"],
           f"Week {w}", transp="TRANSPARENT")
        skipped.append({"summary": f"Week {w}", "why": "all_day", "date": d.isoformat()})
    for name, d in (("A1 due", date(2024, 2, 4)), ("A2 due", date(2024, 3, 10)), ("A3 due", date(2024, 3, 31))):
        ev([f"DTSTART;VALUE=DATE:{d:%Y%m%d}", f"DTEND;VALUE=DATE:{d + timedelta(days=1):%Y%m%d}"], name,
           transp="TRANSPARENT")
        skipped.append({"summary": name, "why": "all_day", "date": d.isoformat()})
    ev(["DTSTART;VALUE=DATE:20240219", "DTEND;VALUE=DATE:20240224"], "Reading Week", transp="TRANSPARENT")
    skipped.append({"summary": "Reading Week", "why": "all_day", "date": "2024-02-19"})
    tail = events[6:]  # Google writes events in no useful order (the overlapping pair keeps its order)
    rng.shuffle(tail)
    events[6:] = tail
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:CSC270", "X-WR-TIMEZONE:America/Toronto",
             "X-WR-CALDESC:Important dates for CSC270"] + vtz
    for e in events:
        lines += e
    lines.append("END:VCALENDAR")
    write("dev", "ics_google_course.ics", "\n".join(lines) + "\n", expected(
        sc, meetings, skipped,
        "A course's Google Calendar: VTIMEZONE America/Toronto with DST (changes 2024-03-10; wall times stay "
        "put). Lecture: RRULE UNTIL in UTC + EXDATE (reading week = week 7). Tutorial: COUNT=11 from week 2 "
        "(EXDATE reading week, so 10 left), RECURRENCE-ID moves week 4 to Friday 2 Feb, another override "
        "with STATUS:CANCELLED removes week 10. Office Hours: RRULE with no end -> every Monday of weeks "
        "2-13 (cut at the semester end). One-off events are in UTC; the term test's UTC date is the next day. "
        "17 all-day events (week markers, due dates, Reading Week) are skipped; last year's Lecture series and "
        "the final exam after week 13 are outside the semester; the TA's one-off office hour collides with "
        "the weekly office hours (a section holds one meeting: the one first in the file is kept). Sections "
        "are hourly 50-min slots from 08:00, so the grid has 12 sections."))


def dev_wakeup_csv() -> None:
    sc = School("东湖师范学院", "Asia/Shanghai", date(2024, 2, 26), 18,
                grid(("08:00", 5, 40, [10, 20, 10, 10]), ("14:00", 4, 40, [10, 20, 10]), ("19:00", 3, 40, [10, 10])))
    rows = [("高等代数", 1, 1, 2, "许文澜", "文科楼201", "1-5、7-11单、12-16双",
             [1, 2, 3, 4, 5, 7, 9, 11, 12, 14, 16]),
            ("教育心理学", 2, 3, 4, "白露", "教学楼B110", "1-16", wk(1, 16)),
            ("中国古代文学", 2, 3, 4, "吴清", "文科楼305", "3、6、9", [3, 6, 9]),
            ("普通话训练", 3, 6, 7, "严可", "语音室2", "1-8", wk(1, 8)),
            ("体育（羽毛球）", 4, 8, 9, "梁锋", "东区体育馆", "2-16双", wk(2, 16, "even")),
            ("数据结构", 5, 1, 3, "陈一舟", "信息楼402", "1,3,5-7", [1, 3, 5, 6, 7]),
            ("教师口语", 5, 10, 11, "", "", "9-16", wk(9, 16))]
    text = "课程名称,星期,开始节数,结束节数,老师,地点,周数\n" + "".join(
        f"{r[0]},{r[1]},{r[2]},{r[3]},{r[4]},{r[5]},{r[6]}\n" for r in rows)
    cs = [Course(r[0], r[1], r[2], r[3], r[7], r[5], r[4]) for r in rows]
    write("dev", "wakeup_template.csv", text, expected(
        sc, course_meetings(sc, cs), [],
        "WakeUp 课程表 import-template columns, no BOM, LF. Week specs: 1-5、7-11单、12-16双, 1-16, 3、6、9, "
        "2-16双 and \"1,3,5-7\" (a quoted field because it holds commas)"
        + ". Dates are week-1 Monday + weeks; times from the school's 40-min grid. 中国古代文学 clashes with "
        "教育心理学 (Tue 3-4) in weeks 3, 6, 9: WakeUp shows both side by side, so both are expected. "
        "教师口语 has no teacher and no room."))
    # the 1,3,5-7 field contains commas: quote it
    p = FILES / "dev" / "wakeup_template.csv"
    p.write_bytes(p.read_bytes().replace(b",1,3,5-7\n", b',"1,3,5-7"\n'))


def dev_clock_csv() -> None:
    sc = School("南湾理工学院", "Asia/Shanghai", date(2025, 9, 1), 16,
                grid(("08:30", 2, 45, [5]), ("10:20", 2, 45, [5]), ("14:00", 2, 45, [5]), ("15:50", 2, 45, [5]),
                     ("18:30", 2, 45, [5])))
    rows = [("俄语基础", 1, 1, 2), ("数学分析", 1, 3, 4), ("程序设计与C语言", 1, 5, 8), ("合唱", 2, 3, 4),
            ("大学英语", 2, 5, 6), ("篮球", 2, 9, 10), ("俄语基础", 3, 1, 2), ("中国近现代史纲要", 3, 5, 6),
            ("数学分析", 3, 7, 8), ("计算机导论", 4, 5, 6), ("线性代数", 5, 1, 4), ("形势与政策", 5, 7, 8)]
    cn = "一二三四五六日"
    g = sc.sections
    text = "课程名,星期几,开始时间,结束时间\n" + "".join(
        f"{n},星期{cn[d - 1]},{g[s - 1][0].lstrip('0')},{g[e - 1][1].lstrip('0')}\n" for n, d, s, e in rows)
    cs = [Course(n, d, s, e, wk(1, 16)) for n, d, s, e in rows]
    write("dev", "csv_clock_times.csv", text, expected(
        sc, course_meetings(sc, cs), [],
        "A student's hand-made CSV: 课程名, 星期几 (星期一…), clock times without a leading zero (8:30), no "
        "weeks, no sections, no rooms, no teachers. The school teaches in 45-min pairs with 5-min breaks; "
        "a row spans 2 or 4 sections (程序设计与C语言 14:00-17:25 runs over the 15-min break). With no weeks "
        "given, every course meets every week of the 16-week semester."))


def dev_at_room_folded() -> None:
    sc = School("京北航空大学研究生院", "Asia/Shanghai", date(2023, 9, 4), 18,
                grid(("08:10", 5, 45, [5, 15, 5, 5]), ("13:50", 5, 45, [5, 15, 5, 5]), ("18:50", 4, 45, [5, 5, 5])))
    cs = [Course("高级算法设计", 1, 12, 14, wk(1, 16), "知行楼M305", "曹远、冯一鸣"),
          Course("机器学习理论", 3, 3, 5, wk(1, 12), "致远楼F201", "欧阳静"),
          Course("学术英语写作", 5, 6, 7, wk(2, 9), "外语楼112", "Daniel Wu"),
          Course("自然辩证法概论", 2, 1, 2, wk(1, 8), "知行楼M101", "郑思远")]
    lines = ["BEGIN:VCALENDAR"]
    for c in cs:
        desc = f"课程名称：{c.title};上课地点：{c.room};教师：{c.teacher.replace('、', ',')}"
        for d, s, e in c.occurrences(sc):
            lines += ["BEGIN:VEVENT", f"SUMMARY:{c.title}@{c.room}", f"DTSTART;VALUE=DATE-TIME:{floating(d, s)}",
                      f"DTEND;VALUE=DATE-TIME:{floating(d, e)}", fold("DESCRIPTION:" + esc(desc)), "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("dev", "ics_at_room_folded.ics", "\n".join(lines) + "\n", expected(
        sc, course_meetings(sc, cs), [],
        "Graduate-school script: no VERSION/PRODID/UID, floating times, one VEVENT per meeting, SUMMARY "
        "'课程@教室', DESCRIPTION '课程名称：…\\;上课地点：…\\;教师：A\\,B' folded across lines. 14 sections "
        "a day; 高级算法设计 uses the last three (12-14, 20:30-22:05). Two teachers are listed with a comma "
        "in the file and joined with 、 here."))


def dev_desc_teacher_code() -> None:
    sc = School("临江大学", "Asia/Shanghai", date(2024, 9, 9), 18,
                grid(("08:20", 4, 50, [10, 20, 10]), ("14:00", 4, 50, [10, 20, 10]), ("19:00", 3, 50, [10, 10])))
    cs = [Course("微观经济学", 1, 1, 2, wk(1, 16), "博文楼302", "唐可心", {"code": "ECO1012", "style": 1}),
          Course("会计学原理", 2, 5, 7, wk(1, 16), "博文楼105", "朱立群", {"code": "ACC2003", "style": 2}),
          Course("统计学", 4, 3, 4, wk(1, 17, "odd"), "明理楼207", "范小舟", {"code": "STA1101", "style": 1}),
          Course("经济法", 3, 9, 10, wk(5, 12), "明理楼110", "蓝天野", {"code": "LAW3001", "style": 3})]
    rng = random.Random(8)
    vtz = ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "X-LIC-LOCATION:Asia/Shanghai", "BEGIN:STANDARD",
           "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "DTSTART:19700101T000000", "END:STANDARD",
           "END:VTIMEZONE"]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//linjiang-jw//timetable 1.2//ZH", "CALSCALE:GREGORIAN"] + vtz

    def desc(c: Course) -> str:
        style = c.extra["style"]
        if style == 1:
            return f"教师：{c.teacher}\n课程号：{c.extra['code']}\n上课地点：{c.room}"
        if style == 2:
            return f"授课教师: {c.teacher}；课程代码: {c.extra['code']}；地点: {c.room}"
        return f"{c.extra['code']} {c.title}\n主讲：{c.teacher}（副教授）\n上课地点：{c.room}"
    for c in cs:
        for d, s, e in c.occurrences(sc):
            lines += ["BEGIN:VEVENT", f"UID:{uid(rng)}", "DTSTAMP:20240901T080000Z", f"SUMMARY:{c.title}",
                      f"DTSTART;TZID=Asia/Shanghai:{floating(d, s)}", f"DTEND;TZID=Asia/Shanghai:{floating(d, e)}",
                      fold("DESCRIPTION:" + esc(desc(c))), "END:VEVENT"]
    exam = date(2025, 1, 14)
    lines += ["BEGIN:VEVENT", f"UID:{uid(rng)}", "DTSTAMP:20240901T080000Z", "SUMMARY:微观经济学（期末考试）",
              f"DTSTART;TZID=Asia/Shanghai:{floating(exam, '09:00')}",
              f"DTEND;TZID=Asia/Shanghai:{floating(exam, '11:00')}",
              fold("DESCRIPTION:" + esc("教师：唐可心\n课程号：ECO1012\n上课地点：体育馆考场")), "END:VEVENT",
              "END:VCALENDAR"]
    cs_meet = [dict(m, teacher=m["teacher"]) for m in course_meetings(sc, cs)]
    write("dev", "ics_desc_teacher_code.ics", "\n".join(lines) + "\n", expected(
        sc, cs_meet,
        [{"summary": "微观经济学（期末考试）", "why": "outside_semester", "date": exam.isoformat(),
          "detail": "week 19 of an 18-week semester"}],
        "TZID=Asia/Shanghai with a proper VTIMEZONE; one VEVENT per meeting; no LOCATION: the room is only "
        "in DESCRIPTION, in three wordings: '教师：X\\n课程号：ABC123\\n上课地点：R', '授课教师: X；课程代码: "
        "C；地点: R' and 'CODE 课程\\n主讲：X（副教授）\\n上课地点：R' (teacher without the title). 统计学 is odd "
        "weeks 1-17. The final exam in week 19 is outside the semester."))


def dev_paren_room_one_line_keys() -> None:
    """A 正方 scrape turned into .ics by a student's script: the room in brackets after the name when the
    script has no LOCATION field, keyed facts on one line separated by spaces or commas."""
    sc = School("南湖理工学院", "Asia/Shanghai", date(2025, 2, 24), 18,
                grid(("08:00", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("19:00", 3, 45, [10, 10])))
    cs = [Course("数值分析", 1, 1, 2, wk(1, 16), "理科楼A305", "韩松",
                 {"summary": "数值分析（理科楼A305）", "desc": "任课教师：韩松 课程号：MAT2104"}),
          Course("有机化学", 2, 3, 4, wk(1, 16, "odd"), "化学楼214", "宋雨桐",
                 {"summary": "有机化学(化学楼214)", "desc": "教师: 宋雨桐 学分: 3"}),
          Course("大学英语(二)", 3, 5, 6, wk(1, 16), "外语楼405", "Emma Li",
                 {"summary": "大学英语(二)", "location": "外语楼405", "desc": "Instructor: Emma Li, Room: 外语楼405"}),
          Course("线性代数（上）", 4, 1, 2, wk(2, 17), "明德楼101", "周宁",
                 {"summary": "线性代数（上）", "desc": "上课地点：明德楼101 任课教师：周宁"}),
          Course("工程制图", 5, 7, 8, wk(1, 8), "实训中心305", "冯启",
                 {"summary": "工程制图 [实训中心305]", "desc": "授课教师：冯启，课程代码：ENG1203"})]
    rng = random.Random(21)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//nanhu-zf-ics//EN"]
    for c in cs:
        for d, s_, e in c.occurrences(sc):
            lines += ["BEGIN:VEVENT", f"UID:{uid(rng)}", f"SUMMARY:{c.extra['summary']}",
                      f"DTSTART:{utc(d, s_, sc.tz)}", f"DTEND:{utc(d, e, sc.tz)}",
                      *([f"LOCATION:{c.extra['location']}"] if "location" in c.extra else []),
                      fold("DESCRIPTION:" + esc(c.extra["desc"])), "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("dev", "ics_paren_room_one_line_keys.ics", "\n".join(lines) + "\n", expected(
        sc, course_meetings(sc, cs), [],
        "Student's script over a 正方 scrape, UTC times, one VEVENT per meeting, LOCATION only where the "
        "script had it. The room in brackets after the name ('课程（理科楼A305）', '课程(化学楼214)', "
        "'课程 [实训中心305]') when there is no LOCATION; brackets that are part of the name stay "
        "('大学英语(二)', '线性代数（上）'). DESCRIPTION keyed facts on one line, separated by a space or a "
        "comma: '任课教师：X 课程号：C', '教师: X 学分: 3', 'Instructor: X, Room: R', '上课地点：R 任课教师：X', "
        "'授课教师：X，课程代码：C'."))


# =========================================================================== held-out set

def ho_wakeup_export() -> None:
    sc = School("西岭大学", "Asia/Shanghai", date(2025, 2, 17), 18,
                grid(("08:00", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("19:00", 3, 45, [10, 10])))
    rng = random.Random(11)
    # (title, weekday, weeks, start, end, room) -- times straight from the student's WakeUp table;
    # 英语写作 has its own time 08:30-10:05 (WakeUp lets a course override the grid)
    items = [("复变函数", 1, wk(1, 16), "08:00", "09:40", "教三-204"),
             ("英语写作", 2, wk(1, 16), "08:30", "10:05", "外语楼 311"),
             ("数字信号处理", 3, wk(1, 15, "odd"), "10:00", "11:40", "教三-108"),
             ("嵌入式系统实验", 4, wk(9, 16), "14:00", "17:40", "电子楼实验室5"),
             ("通信原理", 5, wk(1, 8), "08:00", "09:40", "教一-402"),
             ("通信原理", 5, wk(10, 16), "08:00", "09:40", "教一-402"),
             ("创新创业基础", 3, wk(3, 10), "19:00", "20:40", "线上")]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//YZune//WakeUpSchedule//EN", "BEGIN:VTIMEZONE",
             "TZID:Asia/Shanghai", "LAST-MODIFIED:20250210T142247Z",
             "TZURL:https://www.tzurl.org/zoneinfo-outlook/Asia/Shanghai", "X-LIC-LOCATION:Asia/Shanghai",
             "BEGIN:STANDARD", "TZNAME:CST", "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "DTSTART:19700101T000000",
             "END:STANDARD", "END:VTIMEZONE"]
    meetings = []
    for title, day, weeks, s, e, room in items:
        d0 = sc.day(weeks[0], day)
        last = sc.day(weeks[-1], day)
        interval = weeks[1] - weeks[0] if len(weeks) > 1 else 1
        lines += ["BEGIN:VEVENT", "DTSTAMP:20250218T090003Z", f"UID:WakeUpSchedule-{uid(rng)}", f"SUMMARY:{title}",
                  f"DTSTART;TZID=Asia/Shanghai:{floating(d0, s)}", f"DTEND;TZID=Asia/Shanghai:{floating(d0, e)}",
                  f"RRULE:FREQ=WEEKLY;UNTIL={last:%Y%m%d}T160000Z;INTERVAL={interval}",
                  f"LOCATION:{room} ", f"DESCRIPTION:{room}", "BEGIN:VALARM", "ACTION:DISPLAY",
                  "TRIGGER;RELATED=START:-PT20M", f"DESCRIPTION:{title}@{room}\\n", "END:VALARM", "END:VEVENT"]
        meetings += [meeting(sc.day(w, day), s, e, title, room) for w in weeks]
    lines.append("END:VCALENDAR")
    write("dev3", "ics_wakeup_export.ics", "\n".join(lines) + "\n", expected(
        sc, meetings, [],
        "WakeUp 课程表's own .ics export: tzurl VTIMEZONE, RRULE WEEKLY with UNTIL = 16:00Z of the last "
        "meeting's date (local midnight after it), INTERVAL=2 for an odd-weeks course, VALARM, LOCATION with a "
        "trailing space, DESCRIPTION = room, no teacher. 英语写作 keeps its own 08:30-10:05 time (the grid's "
        "sections 1-2 are 08:00-09:40). 通信原理 is split by WakeUp into two events (weeks 1-8 and 10-16)."))


def ho_tzid_no_vtimezone_sections() -> None:
    sc = School("东营石油学院", "Asia/Shanghai", date(2021, 3, 1), 18,
                grid(("08:10", 4, 50, [10, 20, 10]), ("14:30", 4, 50, [10, 20, 10]), ("19:30", 2, 50, [10])))
    cs = [Course("大学化学(1-2)", 1, 1, 2, wk(1, 14), "南教楼305", "鲁一鸣"),
          Course("工程力学", 2, 5, 7, wk(1, 16), "北教楼210", "邵华"),
          Course("油气储运概论", 4, 3, 4, wk(2, 16, "even"), "南教楼101", "任重"),
          Course("体育(2)", 5, 7, 8, wk(1, 16), "东操场", "")]
    rng = random.Random(12)
    lines = ["BEGIN:VCALENDAR", "METHOD:PUBLISH", "VERSION:2.0", "X-WR-CALNAME:课程表",
             "PRODID:-//Apple Inc.//Mac OS X 10.14//EN", "X-APPLE-CALENDAR-COLOR:#FC4208",
             "X-WR-TIMEZONE:Asia/Shanghai", "CALSCALE:GREGORIAN"]
    for c in cs:
        secs = "、".join(str(n) for n in range(c.s, c.e + 1))
        for d, s, e in c.occurrences(sc):
            lines += ["BEGIN:VEVENT", "CREATED:20210227T075414Z", f"UID:{uid(rng)}&DYPI.edu",
                      f"DTEND;TZID=Asia/Shanghai:{floating(d, e)}", "TRANSP:OPAQUE",
                      "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC", f"SUMMARY:{c.title}|第 {secs} 节",
                      f"DESCRIPTION:{c.teacher}()", f"LOCATION:{c.room}",
                      f"DTSTART;TZID=Asia/Shanghai:{floating(d, s)}", "DTSTAMP:20210227T075414Z", "SEQUENCE:0",
                      "BEGIN:VALARM", f"UID:{uid(rng)}&DYPI.edu", "TRIGGER:-PT1H", f"DESCRIPTION:{c.teacher}()",
                      "ACTION:DISPLAY", "END:VALARM", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("dev3", "ics_tzid_no_vtimezone_sections.ics", "\n".join(lines) + "\n", expected(
        sc, course_meetings(sc, cs), [],
        "Apple-Calendar-shaped file: DTSTART/DTEND;TZID=Asia/Shanghai but no VTIMEZONE, DTEND before DTSTART "
        "in the text, VALARM, one VEVENT per meeting, SUMMARY '课程|第 5、6、7 节' (title is the part before "
        "'|'; '(1-2)' belongs to the course name), DESCRIPTION 'teacher()' (empty title brackets; '()' alone "
        "when the course has no teacher). 油气储运概论 is even weeks."))


def ho_crcrlf_rule_typo() -> None:
    sc = School("湘南工学院", "Asia/Shanghai", date(2019, 2, 25), 18,
                grid(("08:00", 4, 40, [10, 20, 10]), ("14:00", 4, 40, [10, 20, 10]), ("19:00", 2, 40, [10])))
    cs = [Course("离散数学", 1, 1, 2, wk(1, 16), "启明楼N312", "彭远"),
          Course("模拟电子技术", 3, 3, 4, wk(2, 16, "even"), "电气楼207", "石磊"),
          Course("马克思主义基本原理", 4, 5, 7, wk(1, 12), "公共楼A101", "邱平")]
    lines = ["BEGIN:VCALENDAR", ""]
    for c in cs:
        for d, _n, s, e in c.sections(sc):
            lines += ["BEGIN:VEVENT", f"SUMMARY:{c.title}", f"DTSTART;VALUE=DATE-TIME:{floating(d, s)}",
                      f"DTEND;VALUE=DATE-TIME:{floating(d, e)}", f"DESCRIPTION:必修课 任课老师{c.teacher}",
                      f"LOCATION:{c.room}", "RULE:FREQ=WEEKLY", "RULE:COUNT=18", "END:VEVENT", ""]
    lines.append("END:VCALENDAR")
    text = "\r\r\n".join(lines) + "\r\r\n"
    write("dev3", "ics_crcrlf_rule_typo.ics", text.encode("utf-8"), expected(
        sc, course_meetings(sc, cs), [],
        "Home-made generator: every line ends CR CR LF, blank lines between events, no VERSION/PRODID/UID, "
        "one VEVENT per 40-min section per week, bogus 'RULE:FREQ=WEEKLY' / 'RULE:COUNT=18' lines that must "
        "NOT be read as recurrence (each event already is one section of one week). DESCRIPTION '必修课 "
        "任课老师X' (course type, then the teacher)."))


def ho_room_dash_summary() -> None:
    sc = School("滨海海洋大学", "Asia/Shanghai", date(2023, 2, 20), 16,
                grid(("08:00", 4, 50, [10, 15, 10]), ("13:30", 4, 50, [10, 15, 10]), ("18:30", 4, 50, [10, 10, 10])))
    cs = [Course("海洋化学", 2, 2, 4, wk(1, 16), "观澜楼B204", "程海"),
          Course("随机过程", 4, 5, 6, wk(1, 12), "海韵楼B103", "孔令仪"),
          Course("数值分析", 1, 9, 11, wk(4, 15), "海韵楼B235", "谭明")]
    rng = random.Random(14)
    lines = ["BEGIN:VCALENDAR", "METHOD:PUBLISH", "VERSION:2.0", "X-WR-CALNAME:课表", "X-WR-TIMEZONE:Asia/Shanghai",
             "CALSCALE:GREGORIAN", "BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "END:VTIMEZONE"]
    for c in cs:
        for d, s, e in c.occurrences(sc):
            lines += ["BEGIN:VEVENT", f"SUMMARY:{c.title} - {c.room}", f"DESCRIPTION:任课教师：{c.teacher}。",
                      f"DTSTART;TZID=Asia/Shanghai:{floating(d, s)}", f"DTEND;TZID=Asia/Shanghai:{floating(d, e)}",
                      "DTSTAMP:20230224T134526Z", f"UID:{uid(rng).replace('-', '')}", "URL;VALUE=URI:", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("dev3", "ics_room_dash_summary.ics", "\n".join(lines) + "\n", expected(
        sc, course_meetings(sc, cs), [],
        "python-ical-timetable shape: an EMPTY VTIMEZONE (TZID only) that the times refer to, no LOCATION -- "
        "the room is in SUMMARY '课程 - 教室', DESCRIPTION '任课教师：X。' (full-width colon and stop), "
        "empty URL. One VEVENT per meeting; 数值分析 is an evening 3-section block (18:30-21:10)."))


def ho_zf_utc_unordered() -> None:
    morning = ("08:00", 5, 45, [10, 15, 10, 10])
    sc = School("钱塘工业大学", "Asia/Shanghai", date(2024, 2, 26), 18,
                grid(morning, ("13:30", 4, 45, [10, 15, 10]), ("18:30", 3, 45, [10, 10])),
                second_from=date(2024, 5, 6),
                second_sections=grid(morning, ("14:00", 4, 45, [10, 15, 10]), ("19:00", 3, 45, [10, 10])))
    cs = [Course("马克思主义基本原理", 2, 10, 12, wk(1, 16), "求是楼B415", "柯宇、项南",
                 {"desc": "00000/柯宇/无;00000/项南/副教授"}),
          Course("数据结构与算法", 2, 3, 4, wk(1, 16), "博学楼A107", "钟灵", {"desc": "00000/钟灵/讲师"}),
          Course("概率论与数理统计", 1, 7, 8, wk(2, 17), "求是楼B101", "黎明", {"desc": "00000/黎明/教授"}),
          Course("概率论与数理统计", 5, 1, 2, wk(1, 16), "求是楼B101", "黎明", {"desc": "00000/黎明/教授"})]
    rng = random.Random(15)
    events = []
    for c in cs:
        for d, s, e in c.occurrences(sc):
            events.append(["BEGIN:VEVENT", f"DESCRIPTION:{esc(c.extra['desc'])}", f"DTEND:{utc(d, e, sc.tz)}",
                           f"LOCATION:{c.room}", f"DTSTART:{utc(d, s, sc.tz)}", f"SUMMARY:{c.title}",
                           f"UID:{uid(rng)}@{uid(rng)[:4]}.org", "END:VEVENT"])
    rng.shuffle(events)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:ics.py - http://git.io/lLljaA"]
    for e in events:
        lines += e
    lines.append("END:VCALENDAR")
    write("dev3", "ics_zf_utc_unordered.ics", "\n".join(lines) + "\n", expected(
        sc, course_meetings(sc, cs), [],
        "正方 xls -> ics.py: UTC 'Z' times, CRLF, events in random order, one VEVENT per meeting, DESCRIPTION "
        "'工号/姓名/职称' entries separated by '\\;' (teacher = the names; 无 = no title). From Monday "
        "2024-05-06 (week 11) the school moves to summer hours: afternoon sections start 14:00 instead of "
        "13:30 and evening ones 19:00 instead of 18:30 (morning unchanged). 概率论与数理统计 meets twice a "
        "week (Mon 7-8 weeks 2-17, Fri 1-2 weeks 1-16); the evening 马克思主义基本原理 18:30-21:05 becomes "
        "19:00-21:35.", ), newline="\r\n")


def ho_wakeup_9col() -> None:
    sc = School("渤海海事大学", "Asia/Shanghai", date(2024, 9, 2), 18,
                grid(("07:50", 4, 50, [10, 20, 10]), ("13:30", 4, 50, [10, 20, 10]), ("18:30", 4, 50, [10, 10, 10])))
    rows = [("航海学", 1, 1, 3, "钱途", "航海楼301", 1, 16, 0),
            ("船舶原理", 2, 5, 6, "甘霖", "船海楼B12", 1, 15, 1),
            ("海商法", 3, 3, 4, "华章", "法学楼204", 2, 16, 2),
            ("航海英语", 4, 9, 10, "Linda Xu", "外语楼405", 3, 10, 0),
            ("船舶操纵模拟", 5, 7, 8, "岳川", "模拟器中心", 9, 9, 0)]
    text = "\ufeff课程名称,星期,开始节数,结束节数,老师,地点,开始周,结束周,单双周(0全1单2双)\r\n" + "\r\n".join(
        ",".join(str(x) for x in r) for r in rows)  # no final newline
    cs = [Course(r[0], r[1], r[2], r[3], [w for w in range(r[6], r[7] + 1)
                                          if r[8] == 0 or (w % 2 == 1) == (r[8] == 1)], r[5], r[4]) for r in rows]
    write("dev3", "wakeup_9col.csv", text, expected(
        sc, course_meetings(sc, cs), [],
        "9-column CSV (python-ical-timetable template): 开始周, 结束周, 单双周 (0 all, 1 odd, 2 even) instead "
        "of 周数; UTF-8 BOM, CRLF, no final newline. 船舶操纵模拟 is a single week (9-9). Grid starts 07:50, "
        "50-min sections."))


def ho_grid_export() -> None:
    sc = School("赣南财经学院", "Asia/Shanghai", date(2025, 9, 8), 18,
                grid(("07:50", 5, 45, [10, 20, 10, 5]), ("14:00", 4, 45, [10, 20, 10]), ("18:40", 4, 45, [10, 10, 10])))
    # (title, teacher, weekday, s, e, spec, weeks, room)
    items = [("财务会计", "邹明", 1, 1, 2, "1-16单周", wk(1, 15, "odd"), "梅岭园北区3201"),
             ("财务会计", "邹明", 3, 3, 4, "1-16", wk(1, 16), "梅岭园北区3201"),
             ("宏观经济学", "冷雪", 2, 3, 5, "1-16", wk(1, 16), "松涛园一教1105"),
             ("形势与政策Ⅲ", "吕一、施展", 3, 6, 7, "9-12", wk(9, 12), "松涛园三教3301"),
             ("税法", "邵华", 4, 6, 8, "2-16双周", wk(2, 16, "even"), "梅岭园南区2210"),
             ("体育3", "乔木", 5, 8, 9, "1-16", wk(1, 16), "风雨操场T02"),
             ("大数据导论", "葛青", 4, 10, 12, "1-12", wk(1, 12), "松涛园二教2207")]
    grid_rows = sc.sections
    cells = {}
    for t, te, day, s, e, spec, _weeks, room in items:
        for n in range(s, e + 1):
            cells[(n, day)] = f"{t} {te}({spec} {room})"
    periods = {1: "上午", 6: "下午", 10: "晚上"}
    empty = ["\u2002", " "]
    out = ["\ufeff时段,节次,星期一,星期二,星期三,星期四,星期五,星期六,星期日,"]
    for n in range(1, len(grid_rows) + 1):
        row = [periods.get(n, ""), f"{n}({grid_rows[n - 1][0]}-{grid_rows[n - 1][1]})"]
        row += [cells.get((n, d), empty[(n + d) % 2]) for d in range(1, 8)]
        out.append(",".join(row) + ",")
    out.append(",,,,,,,,,")
    text = "\n".join(out)  # no final newline
    meetings = [meeting(sc.day(w, day), *sc.times(sc.day(w, day), s, e), t, room, te)
                for t, te, day, s, e, spec, weeks, room in items for w in weeks]
    write("dev3", "csv_grid_export.csv", text, expected(
        sc, meetings, [],
        "教务 grid export: rows are sections '1(07:50-08:35)' … '13(21:25-22:10)' (the grid is in the file), "
        "columns 星期一…星期日, a first column 时段 filled only on the first row of 上午/下午/晚上, a trailing "
        "comma on every row and a last all-comma row, BOM, no final newline. A cell is '课程 教师(周 教室)' "
        "with weeks '1-16', '1-16单周', '2-16双周', '9-12' and two teachers 'A、B'; empty cells hold a single "
        "U+2002 EN SPACE or a plain space. A course fills one cell per section: consecutive cells of the same "
        "text on a day are one meeting. 财务会计 meets Mon 1-2 (odd weeks) and Wed 3-4."))


def ho_sabre_exdate() -> None:
    tz = "Asia/Singapore"
    sc = School("Harbourfront University of Design (fictional)", tz, date(2024, 5, 20), 14,
                grid(("08:30", 12, 50, [10] * 11)))
    rng = random.Random(18)
    hol = [date(2024, 5, 22), date(2024, 6, 17), date(2024, 8, 9)]  # Vesak, Hari Raya Haji, National Day

    def exdate(t: str) -> str:
        return fold("EXDATE:" + ",".join(floating(h, t) for h in hol))
    events = []
    meetings = []
    # (course, weekday, start, end, room, weeks, one-rrule-per-week?)
    items = [("Modelling and Analysis", 1, "08:30", "10:00", "Lecture Theatre 3 (2.105)", wk(1, 13)),
             ("Modelling and Analysis", 3, "13:00", "14:30", "Cohort Classroom 12 (2.310)", wk(1, 13)),
             ("Design Thinking Studio", 2, "09:00", "12:00", "Fabrication Lab (1.102)", wk(1, 13)),
             ("Physical World", 4, "15:00", "17:00", "Think Tank 21 (1.508)", wk(1, 13)),
             ("Physical World", 5, "10:30", "12:00", "Lecture Theatre 1 (1.203)", [w for w in wk(1, 13) if w != 12])]

    def fmt(t: str) -> str:
        return datetime.strptime(t, "%H:%M").strftime("%I:%M %p")
    for title, day, s, e, room, weeks in items:
        for w in weeks:
            d = sc.day(w, day)
            byday = "MO TU WE TH FR".split()[day - 1]
            summary = f"{title} {fmt(s)}-{fmt(e)} ROOM: {room}"
            ev = ["BEGIN:VEVENT", fold(f"DESCRIPTION:{title}"), fold(f"SUMMARY:{summary}"),
                  f"DTSTART:{floating(d, s)}", f"DTEND:{floating(d, e)}", "DTSTAMP:20240601T003834",
                  f"UID:{uid(rng).replace('-', '')}@mymobile.hud.edu.invalid", "CREATED:20240601T003834",
                  "LAST-MODIFIED:20240601T003834", "SEQUENCE:0", "STATUS:CONFIRMED"]
            if title == "Physical World" and day == 5:
                if w in (11, 13):
                    continue
                if w == 10:  # one event for weeks 10-13 Friday: UNTIL week 13, EXDATE week 12 (+ holidays)
                    last = sc.day(13, day)
                    ev += [f"RRULE:FREQ=WEEKLY;UNTIL={floating(last, e)};BYDAY={byday}",
                           fold("EXDATE:" + ",".join(floating(h, s) for h in hol + [sc.day(12, day)]))]
                    for ww in (10, 11, 13):
                        meetings.append(meeting(sc.day(ww, day), s, e, title, room))
                    events.append(ev + ["END:VEVENT"])
                    continue
            ev += [f"RRULE:FREQ=WEEKLY;UNTIL={floating(d, e)};BYDAY={byday}", exdate(s)]
            if d in hol:
                continue  # the portal leaves public holidays out
            meetings.append(meeting(d, s, e, title, room))
            events.append(ev + ["END:VEVENT"])
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Sabre//Sabre VObject 3.5.0//EN", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH"]
    for ev in events:
        lines += ev
    lines.append("END:VCALENDAR")
    write("dev3", "ics_sabre_exdate.ics", "\n".join(lines) + "\n", expected(
        sc, meetings, [],
        "Student-portal export (Sabre VObject), Asia/Singapore, floating times, CRLF. Each VEVENT is one week's "
        "meeting with RRULE UNTIL = its own DTEND (so one instance) and a folded EXDATE list of public "
        "holidays; one Friday event instead spans weeks 10-13 with UNTIL in week 13 and EXDATE week 12. The "
        "time and room are inside SUMMARY 'Course 08:30 AM-10:00 AM ROOM: Room (x.yyy)' (title = the course "
        "name, also in DESCRIPTION; location = after 'ROOM: '). Times are on a 30-min raster and do not "
        "match the school's hourly 50-min sections (08:30-09:20, …). Public holidays have no class and no event: "
        "Vesak Day (Wed 22 May, week 1), Hari Raya Haji (Mon 17 Jun, week 5), National Day (Fri 9 Aug, week 12)."),
        newline="\r\n")


# =========================================================================== dev2 set
# Second development set: what real exporters put in SUMMARY / LOCATION / DESCRIPTION (and CSV cells) --
# course, room and teacher in one field in several orders, keyed description lines in several wordings,
# academic titles, campus prefixes, online rooms, trailing spaces. Written without reading the importer.

SHANGHAI_VTIMEZONE = ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "X-LIC-LOCATION:Asia/Shanghai", "BEGIN:STANDARD",
                      "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "DTSTART:19700101T000000",
                      "END:STANDARD", "END:VTIMEZONE"]


def weekly_rule(c: Course) -> str:
    """One RRULE for a course whose weeks are evenly spaced (every week, or every other week)."""
    step = c.weeks[1] - c.weeks[0] if len(c.weeks) > 1 else 1
    assert c.weeks == list(range(c.weeks[0], c.weeks[-1] + 1, step))
    return f"RRULE:FREQ=WEEKLY;INTERVAL={step};COUNT={len(c.weeks)}"


def week_text(c: Course) -> str:
    """The weeks as a 教务 system prints them: 1-16, or 1-15 with 单/双 for every other week."""
    if len(c.weeks) > 1 and c.weeks[1] - c.weeks[0] == 2:
        return f"{c.weeks[0]}-{c.weeks[-1]}{'单' if c.weeks[0] % 2 else '双'}"
    return f"{c.weeks[0]}-{c.weeks[-1]}"


def calendar(header: list[str], events: list[list[str]]) -> str:
    return "\n".join(["BEGIN:VCALENDAR", *header, *(line for ev in events for line in ev), "END:VCALENDAR"]) + "\n"


def dev2_at_room_rrule() -> None:
    """超级课程表-style export: SUMMARY '课程 教师 @教室', one RRULE per block, odd weeks as INTERVAL=2."""
    sc = School("西岭农业大学", "Asia/Shanghai", date(2025, 9, 1), 18,
                grid(("08:10", 4, 45, [10, 20, 10]), ("14:10", 4, 45, [10, 20, 10]), ("19:00", 3, 45, [10, 10])))
    cs = [Course("概率论与数理统计", 1, 1, 2, wk(1, 16), "教三-201", "刘洋"),
          Course("植物生理学", 2, 3, 4, wk(1, 15, "odd"), "生科楼B312", "秦素梅"),
          Course("操作系统", 3, 5, 7, wk(2, 17), "信息楼B305", "王芳、李强"),
          Course("学术英语", 4, 1, 2, wk(1, 12), "外语楼210", "Mark Allen"),
          Course("体育(排球)", 5, 5, 6, wk(1, 16), "北区体育馆", "")]
    rng = random.Random(31)
    events = []
    for c in cs:
        d0 = sc.day(c.weeks[0], c.day)
        s, e = sc.times(d0, c.s, c.e)
        who = c.teacher.replace("、", ",")
        summary = f"{c.title} {who} @{c.room}" if who else f"{c.title} @{c.room}"
        events.append(["BEGIN:VEVENT", f"UID:{uid(rng)}@super.invalid", "DTSTAMP:20250828T120000Z",
                       f"SUMMARY:{esc(summary)}", f"DTSTART:{floating(d0, s)}", f"DTEND:{floating(d0, e)}",
                       weekly_rule(c), "END:VEVENT"])
    text = calendar(["VERSION:2.0", "PRODID:-//SuperSchedule//Export 9.4//CN", "X-WR-CALNAME:我的课表",
                     "X-WR-TIMEZONE:Asia/Shanghai"], events)
    write("dev2", "ics_at_room_rrule.ics", text, expected(
        sc, course_meetings(sc, cs), [],
        "Timetable-app export: floating times (X-WR-TIMEZONE Asia/Shanghai), one VEVENT per course block with "
        "RRULE WEEKLY COUNT (植物生理学 odd weeks as INTERVAL=2), no LOCATION and no DESCRIPTION: SUMMARY is "
        "'课程 教师 @教室' ('课程 @教室' with no teacher; two teachers 'A\\,B'; an English teacher name with a "
        "space). Title = the course, teacher = the words between course and '@', room = after '@'."))


def dev2_code_bracket_desc_lines() -> None:
    """金智-style portal export: SUMMARY '[课程代码]课程', keyed DESCRIPTION lines, LOCATION with campus."""
    sc = School("江陵师范大学", "Asia/Shanghai", date(2024, 2, 26), 19,
                grid(("08:00", 5, 40, [10, 20, 10, 10]), ("14:30", 4, 40, [10, 20, 10]), ("19:10", 3, 40, [10, 10])))
    cs = [Course("中国现当代文学", 1, 3, 4, wk(1, 16), "南校区 文科楼B204", "钟晓",
                 {"code": "CHN2103", "who": "钟晓 教授"}),
          Course("教育学原理", 2, 1, 3, wk(1, 18), "南校区 教育楼301", "何一、吴双",
                 {"code": "EDU1001", "who": "何一 副教授，吴双 讲师"}),
          Course("现代汉语(下)", 3, 6, 7, wk(2, 16, "even"), "北校区 一教108", "欧阳晴",
                 {"code": "CHN1202", "who": "欧阳晴（讲师）"}),
          Course("心理健康教育", 4, 10, 11, wk(3, 10), "北校区 大学生活动中心", "梁思",
                 {"code": "PSY1000", "who": "梁思"})]
    rng = random.Random(32)
    events = []
    for c in cs:
        desc = (f"课程代码：{c.extra['code']}\n任课教师：{c.extra['who']}\n上课地点：{c.room}\n"
                f"周次：{week_text(c)}周\n节次：第{c.s}-{c.e}节")
        for d, s, e in c.occurrences(sc):
            events.append(["BEGIN:VEVENT", f"UID:{uid(rng)}", "DTSTAMP:20240220T010203Z",
                           f"SUMMARY:[{c.extra['code']}]{esc(c.title)}", f"DTSTART:{utc(d, s, sc.tz)}",
                           f"DTEND:{utc(d, e, sc.tz)}", f"LOCATION:{esc(c.room)} ", fold("DESCRIPTION:" + esc(desc)),
                           "END:VEVENT"])
    write("dev2", "ics_code_bracket_desc_lines.ics",
          calendar(["VERSION:2.0", "PRODID:-//jlnu-ehall//schedule//ZH"], events), expected(
              sc, course_meetings(sc, cs), [],
              "Portal export, UTC times, one VEVENT per meeting. SUMMARY '[课程代码]课程' (the code is not part of "
              "the title; '(下)' is). LOCATION has a campus prefix ('南校区 文科楼B204' -- kept, it is where the "
              "class is) and a trailing space. DESCRIPTION keyed lines: 课程代码, 任课教师 (with titles '教授', "
              "'副教授，… 讲师' for two teachers, '（讲师）'), 上课地点, 周次, 节次 -- only the names are the "
              "teacher."), newline="\r\n")


def dev2_weeks_in_summary() -> None:
    """Per-meeting export whose SUMMARY is '课程 - 第1-16周 - 教室', teacher in a '；'-separated DESCRIPTION."""
    sc = School("塞北矿业学院", "Asia/Shanghai", date(2023, 9, 11), 20,
                grid(("08:30", 4, 50, [10, 30, 10]), ("14:00", 4, 50, [10, 30, 10]), ("19:30", 2, 50, [10])))
    cs = [Course("矿山测量", 1, 1, 2, wk(1, 16), "综合楼 A-302", "白建国", {"who": "白建国(讲师)"}),
          Course("岩石力学", 2, 5, 6, wk(1, 15, "odd"), "采矿楼214", "米雪", {"who": "米雪"}),
          Course("安全工程导论", 4, 3, 4, wk(5, 12), "图书馆报告厅", "龚成、邢岚", {"who": "龚成/邢岚"}),
          Course("工程经济学", 5, 9, 10, wk(1, 10), "综合楼 B-105", "Zhang Wei", {"who": "Zhang Wei"})]
    rng = random.Random(33)
    events = []
    for c in cs:
        wtext = week_text(c).replace("单", "周(单").replace("双", "周(双")
        wtext = f"第{wtext})" if "(" in wtext else f"第{wtext}周"
        summary = f"{c.title} - {wtext} - {c.room}"
        desc = f"教师姓名：{c.extra['who']}；节次：{c.s}-{c.e}节；学分：2.0"
        for d, s, e in c.occurrences(sc):
            events.append(["BEGIN:VEVENT", f"UID:{uid(rng).replace('-', '')}", "DTSTAMP:20230901T000000Z",
                           f"DTSTART;TZID=Asia/Shanghai:{floating(d, s)}", f"DTEND;TZID=Asia/Shanghai:{floating(d, e)}",
                           fold("SUMMARY:" + esc(summary)), fold("DESCRIPTION:" + esc(desc)), "END:VEVENT"])
    write("dev2", "ics_weeks_in_summary.ics",
          calendar(["VERSION:2.0", "PRODID:-//kb2ics//0.3//ZH", *SHANGHAI_VTIMEZONE], events), expected(
              sc, course_meetings(sc, cs), [],
              "TZID + VTIMEZONE, one VEVENT per meeting, no LOCATION: SUMMARY '课程 - 第1-16周 - 教室' (the "
              "weeks part '第1-15周(单)' for odd weeks is neither title nor room; the room may hold a space, "
              "'综合楼 A-302'). DESCRIPTION '教师姓名：X；节次：1-2节；学分：2.0' with '(讲师)' after a name and two "
              "teachers 'A/B'."))


def dev2_slash_summary() -> None:
    """Phone-app calendar sync: SUMMARY '课程 / 教室 / 教师', RRULE UNTIL per block, no other fields."""
    sc = School("锦江外国语学院", "Asia/Shanghai", date(2026, 3, 2), 16,
                grid(("08:20", 4, 45, [5, 20, 5]), ("13:40", 4, 45, [5, 20, 5]), ("18:30", 4, 45, [5, 5, 5])))
    cs = [Course("日语精读（二）", 1, 1, 2, wk(1, 16), "博雅楼302", "高桥美咲"),
          Course("英语国家概况", 2, 5, 6, wk(1, 16), "线上", "Emily Stone"),
          Course("翻译理论与实践", 3, 3, 4, wk(1, 15, "odd"), "博雅楼105", "王琳、李梅"),
          Course("形势与政策", 4, 9, 10, wk(9, 12), "大礼堂", ""),
          Course("二外法语", 5, 1, 3, wk(2, 16), "知行楼 4-210", "杜蕾")]
    rng = random.Random(34)
    events = []
    for c in cs:
        d0 = sc.day(c.weeks[0], c.day)
        s, e = sc.times(d0, c.s, c.e)
        last = sc.day(c.weeks[-1], c.day)
        step = c.weeks[1] - c.weeks[0]
        parts = [c.title, c.room] + ([c.teacher] if c.teacher else [])
        events.append(["BEGIN:VEVENT", f"DTSTART;TZID=Asia/Shanghai:{floating(d0, s)}",
                       f"DTEND;TZID=Asia/Shanghai:{floating(d0, e)}",
                       f"RRULE:FREQ=WEEKLY;INTERVAL={step};UNTIL={utc(last, e, sc.tz)}",
                       fold("SUMMARY:" + esc(" / ".join(parts))), f"UID:{uid(rng)}", "SEQUENCE:0",
                       "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "DESCRIPTION:上课提醒", "END:VALARM",
                       "END:VEVENT"])
    write("dev2", "ics_slash_summary.ics",
          calendar(["VERSION:2.0", "PRODID:-//xiaoai-kb-sync//1.0//CN", *SHANGHAI_VTIMEZONE], events), expected(
              sc, course_meetings(sc, cs), [],
              "Phone timetable app synced to the system calendar: TZID + VTIMEZONE, RRULE INTERVAL + UNTIL (UTC) "
              "per block, VALARM whose DESCRIPTION '上课提醒' is the alarm's text (not the course's). SUMMARY "
              "'课程 / 教室 / 教师' ('课程 / 教室' with no teacher; room '线上'; two teachers 'A、B'; a room with a "
              "space). Title, room and teacher are the three slash-separated parts."))


def dev2_english_portal() -> None:
    """UK university timetable feed: SUMMARY 'CODE Type - Room', DESCRIPTION Lecturer/Instructor lines."""
    tz = "Europe/London"
    sc = School("Northern Fells University (fictional)", tz, date(2025, 9, 29), 11,
                grid(("09:00", 9, 50, [10] * 8)))
    cs = [Course("COMP2311 Lecture", 1, 2, 3, wk(1, 11), "Room 3.14", "Alice Moore",
                 {"desc": "Lecturer: Dr. Alice Moore\nLocation: Room 3.14\nWeeks: 1-11"}),
          Course("COMP2311 Lab", 3, 6, 7, wk(2, 11), "Kilburn LF31", "Omar Farouk、Jane Smith",
                 {"desc": "Instructors: Omar Farouk, Prof. Jane Smith\nLocation: Kilburn LF31\nWeeks: 2-11"}),
          Course("MATH2040 Tutorial", 4, 5, 5, wk(1, 11), "Alan Turing G.107", "Jane Smith",
                 {"desc": "Instructor: Prof. Jane Smith\nLocation: Alan Turing G.107"}),
          Course("MATH2040 Lecture", 2, 1, 2, wk(1, 10), "Online", "Priya Nair",
                 {"desc": "Lecturer: Dr Priya Nair\nLocation: Online\nWeeks: 1-10"})]
    vtz = ["BEGIN:VTIMEZONE", "TZID:Europe/London", "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0000", "TZOFFSETTO:+0100",
           "TZNAME:BST", "DTSTART:19700329T010000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
           "BEGIN:STANDARD", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0000", "TZNAME:GMT", "DTSTART:19701025T020000",
           "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE"]
    rng = random.Random(35)
    events = []
    for c in cs:
        d0 = sc.day(c.weeks[0], c.day)
        s, e = sc.times(d0, c.s, c.e)
        events.append(["BEGIN:VEVENT", f"UID:{uid(rng)}@timetable.nfu.invalid", "DTSTAMP:20250915T080000Z",
                       f"DTSTART;TZID={tz}:{floating(d0, s)}", f"DTEND;TZID={tz}:{floating(d0, e)}", weekly_rule(c),
                       fold("SUMMARY:" + esc(f"{c.title} - {c.room}")), fold("DESCRIPTION:" + esc(c.extra["desc"])),
                       "END:VEVENT"])
    write("dev2", "ics_english_portal.ics",
          calendar(["VERSION:2.0", "PRODID:-//Scientia//Timetable Feed//EN", *vtz], events), expected(
              sc, course_meetings(sc, cs), [],
              "English university feed, Europe/London with BST ending on 26 Oct 2025 (week 5: wall-clock times "
              "stay), one weekly RRULE COUNT per class, no LOCATION: SUMMARY 'COMP2311 Lecture - Room 3.14' (the "
              "module code with the class type is what the student knows the class by; the room follows ' - '). "
              "DESCRIPTION lines 'Lecturer: Dr. X' / 'Instructor: Prof. X' / 'Instructors: A\\, Prof. B' / "
              "'Lecturer: Dr X' and 'Location: R', 'Weeks: 1-11': teacher without Dr./Prof., several joined "
              "with 、."), newline="\r\n")


def dev2_outlook_online() -> None:
    """Outlook export of a class calendar: Windows time-zone name, online rooms, padded LOCATION values."""
    sc = School("东江科技大学", "Asia/Shanghai", date(2024, 9, 2), 18,
                grid(("08:00", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("19:00", 3, 45, [10, 10])))
    cs = [Course("机器学习", 1, 3, 4, wk(1, 16), "腾讯会议 618-204-771", "陈静",
                 {"desc": "授课老师：陈静 副教授\n会议密码：2024"}),
          Course("计算机网络", 2, 1, 2, wk(1, 16), "东校区 教三-201", "方宇", {"desc": "任课教师：方宇"}),
          Course("计算机网络实验", 4, 5, 7, wk(4, 15), "东校区 实验楼 C-402", "方宇、刘畅",
                 {"desc": "任课教师：方宇；刘畅\n备注：带笔记本电脑"}),
          Course("创新创业基础", 3, 9, 10, wk(1, 8), "线上", "林海", {"desc": "主讲：Dr. 林海"})]
    vtz = ["BEGIN:VTIMEZONE", "TZID:China Standard Time", "BEGIN:STANDARD", "DTSTART:16010101T000000",
           "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T000000",
           "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:DAYLIGHT", "END:VTIMEZONE"]
    rng = random.Random(36)
    events = []
    for c in cs:
        d0 = sc.day(c.weeks[0], c.day)
        s, e = sc.times(d0, c.s, c.e)
        events.append(["BEGIN:VEVENT", "CLASS:PUBLIC", "CREATED:20240830T061522Z",
                       fold("DESCRIPTION:" + esc(c.extra["desc"])),
                       f"DTSTART;TZID=China Standard Time:{floating(d0, s)}",
                       f"DTEND;TZID=China Standard Time:{floating(d0, e)}", "DTSTAMP:20240830T061522Z",
                       f"LOCATION:{esc(c.room)}  ", "PRIORITY:5", weekly_rule(c), "SEQUENCE:0",
                       f"SUMMARY;LANGUAGE=zh-cn:{esc(c.title)}", "TRANSP:OPAQUE",
                       f"UID:040000008200E00074C5B7101A82E008{uid(rng).replace('-', '').upper()}",
                       "X-MICROSOFT-CDO-BUSYSTATUS:BUSY", "END:VEVENT"])
    header = ["PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN", "VERSION:2.0", "METHOD:PUBLISH",
              "X-MS-OLK-FORCEINSPECTOROPEN:TRUE", *vtz]
    write("dev2", "ics_outlook_online.ics", calendar(header, events), expected(
        sc, course_meetings(sc, cs), [],
        "Outlook export: TZID 'China Standard Time' (Windows name) with a fixed +08:00 VTIMEZONE, RRULE COUNT "
        "per block, SUMMARY;LANGUAGE=zh-cn, LOCATION padded with two trailing spaces (rooms: '腾讯会议 "
        "618-204-771', '线上', campus-prefixed '东校区 实验楼 C-402'). DESCRIPTION keyed lines '授课老师：X "
        "副教授' + an unrelated '会议密码' line, '任课教师：A；B' (two teachers) + '备注', and '主讲：Dr. X'. "
        "Teacher = names without titles; other lines are not the teacher."), newline="\r\n")


def dev2_wakeup_messy_cells() -> None:
    """WakeUp template filled by pasting from a 教务 page: codes, titles, campus rooms, padded cells."""
    sc = School("北湖交通学院", "Asia/Shanghai", date(2025, 2, 17), 18,
                grid(("08:00", 4, 50, [10, 20, 10]), ("13:30", 4, 50, [10, 20, 10]), ("18:30", 3, 50, [10, 10])))
    # (cell title, course, weekday, s, e, teacher cell, teacher, room cell, room, week spec, weeks)
    rows = [("【TRA2101】交通工程学", "交通工程学", 1, 1, 2, "刘洋 副教授", "刘洋", "南校区 交通楼305 ",
             "南校区 交通楼305", "1-16", wk(1, 16)),
            ("道路勘测设计", "道路勘测设计", 2, 5, 7, "\"张敏,李强\"", "张敏、李强", "土木楼 B-210",
             "土木楼 B-210", "1-15单", wk(1, 15, "odd")),
            ("工程测量 ", "工程测量", 3, 3, 4, "孙悦（讲师）", "孙悦", "测绘楼112", "测绘楼112", "2-12", wk(2, 12)),
            ("交通运输经济学", "交通运输经济学", 4, 9, 10, "Prof. 赵晨", "赵晨", "线上（腾讯会议）",
             "线上（腾讯会议）", "1-8", wk(1, 8)),
            ("大学体育(四)", "大学体育(四)", 5, 3, 4, "", "", "北区田径场", "北区田径场", "1-16", wk(1, 16))]
    text = "课程名称,星期,开始节数,结束节数,老师,地点,周数\n" + "".join(
        f"{r[0]},{r[2]},{r[3]},{r[4]},{r[5]},{r[7]},{r[9]}\n" for r in rows)
    cs = [Course(r[1], r[2], r[3], r[4], r[10], r[8], r[6]) for r in rows]
    write("dev2", "wakeup_messy_cells.csv", text, expected(
        sc, course_meetings(sc, cs), [],
        "WakeUp import template filled by pasting from a 教务 page: 课程名称 '【TRA2101】交通工程学' (a course "
        "code in 【】 is not the title) and '工程测量 ' (trailing space); 老师 '刘洋 副教授', quoted '\"张敏,李强\"' "
        "(two teachers), '孙悦（讲师）', 'Prof. 赵晨' (titles dropped), one empty; 地点 with a campus prefix "
        "and a trailing space, '线上（腾讯会议）' kept as the room. 1-15单 = odd weeks."))


def dev2_paren_room_escaped_desc() -> None:
    """强智 scrape via a student's script: SUMMARY '课程(教室)', one-line DESCRIPTION with '\\,' separators."""
    sc = School("岳麓财经学院", "Asia/Shanghai", date(2022, 2, 21), 20,
                grid(("08:00", 2, 45, [10]), ("10:00", 2, 45, [10]), ("14:30", 2, 45, [10]), ("16:30", 2, 45, [10]),
                     ("19:30", 2, 45, [10])))
    cs = [Course("货币银行学", 1, 1, 2, wk(1, 17, "odd"), "明德楼305", "王伟", {"who": "王伟 教授"}),
          Course("中国近现代史纲要(2)", 2, 3, 4, wk(1, 16), "明德楼101", "李娜、周强", {"who": "李娜 讲师、周强 讲师"}),
          Course("会计学(双语)", 3, 5, 6, wk(3, 18), "博学楼A201", "Helen Zhao", {"who": "Helen Zhao"}),
          Course("证券投资分析", 4, 9, 10, wk(1, 12), "博学楼B110", "蔡子墨", {"who": "蔡子墨（副教授）"})]
    rng = random.Random(38)
    events = []
    for c in cs:
        desc = (f"教室：{c.room},任课教师：{c.extra['who']},周次：{week_text(c)}周,"
                f"节次：{c.s:02d}{c.e:02d}")
        for d, s, e in c.occurrences(sc):
            events.append(["BEGIN:VEVENT", f"DTSTART;TZID=Asia/Shanghai:{floating(d, s)}",
                           f"DTEND;TZID=Asia/Shanghai:{floating(d, e)}", f"SUMMARY:{esc(f'{c.title}({c.room})')}",
                           fold("DESCRIPTION:" + esc(desc)), f"UID:{uid(rng)}", "DTSTAMP:20220219T101010Z",
                           "END:VEVENT"])
    write("dev2", "ics_paren_room_escaped_desc.ics",
          calendar(["VERSION:2.0", "PRODID:-//qz2ics//student script//CN", *SHANGHAI_VTIMEZONE], events), expected(
              sc, course_meetings(sc, cs), [],
              "强智 scrape turned into .ics by a student's script: TZID + VTIMEZONE, one VEVENT per meeting, no "
              "LOCATION, SUMMARY '课程(教室)' where the course name may end in its own brackets "
              "('中国近现代史纲要(2)(明德楼101)', '会计学(双语)(博学楼A201)'). DESCRIPTION one line of keyed facts "
              "separated by escaped commas: '教室：R\\,任课教师：X 教授\\,周次：1-17单周\\,节次：0102'; two "
              "teachers 'A 讲师、B 讲师'; '（副教授）' dropped."))


def main() -> None:
    for fn in (dev_per_section_floating, dev_per_section_utc_winter, dev_rrule_count_no_end, dev_google_course,
               dev_wakeup_csv, dev_clock_csv, dev_at_room_folded, dev_desc_teacher_code, dev_paren_room_one_line_keys,
               ho_wakeup_export, ho_tzid_no_vtimezone_sections, ho_crcrlf_rule_typo, ho_room_dash_summary,
               ho_zf_utc_unordered, ho_wakeup_9col, ho_grid_export, ho_sabre_exdate,
               dev2_at_room_rrule, dev2_code_bracket_desc_lines, dev2_weeks_in_summary, dev2_slash_summary,
               dev2_english_portal, dev2_outlook_online, dev2_wakeup_messy_cells, dev2_paren_room_escaped_desc):
        fn()
    print("written under", FILES)


if __name__ == "__main__":
    main()
