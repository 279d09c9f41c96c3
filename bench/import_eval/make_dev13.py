"""Write files/dev13/: ten timetable files from descriptions of fictional schools, with expected boards.

Written blind (without reading the importer, the other generators or the older held-out files). Each school
is described by its week-1 Monday, zone, number of weeks, section grid (blocks of "first start, n sections,
minutes, break"), optionally a second grid from a date, days off and make-up days; each student by courses
(weekday, first/last section, weeks, room, teachers). The expected meetings come from that description alone;
the file is then rendered from the same description in the shape of the tool the student would use.

    python -m bench.import_eval.make_dev13
"""
from __future__ import annotations

import csv
import io
import json
import zlib
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().parent / "files" / "dev13"
UTC = ZoneInfo("UTC")
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
CN_DAYS = ["一", "二", "三", "四", "五", "六", "日"]


def grid(*blocks: tuple[str, int, int, int | tuple[int, ...]]) -> list[list[str]]:
    """Blocks of (first start, n sections, minutes each, break after each section or list of breaks)."""
    out = []
    for first, n, minutes, breaks in blocks:
        at = datetime.strptime(first, "%H:%M")
        gaps = breaks if isinstance(breaks, tuple) else (breaks,) * n
        for i in range(n):
            end = at + timedelta(minutes=minutes)
            out.append([at.strftime("%H:%M"), end.strftime("%H:%M")])
            at = end + timedelta(minutes=gaps[i] if i < len(gaps) else 0)
    return out


@dataclass
class Course:
    title: str
    day: int  # 1 = Monday
    first: int
    last: int
    weeks: list[int]
    room: str = ""
    teachers: list[str] = field(default_factory=list)
    code: str = ""
    clock: tuple[str, str] | None = None  # times not on a section grid (abroad)


@dataclass
class School:
    name: str
    zone: str
    week1: date
    weeks: int
    sections: list[list[str]]
    second: tuple[date, list[list[str]]] | None = None
    days_off: set[date] = field(default_factory=set)
    makeups: dict[date, date] = field(default_factory=dict)  # make-up day -> the day off whose classes it takes

    def grid_on(self, day: date) -> list[list[str]]:
        if self.second and day >= self.second[0]:
            return self.second[1]
        return self.sections

    def date_of(self, week: int, weekday: int) -> date:
        return self.week1 + timedelta(weeks=week - 1, days=weekday - 1)

    def last_day(self) -> date:
        return self.week1 + timedelta(weeks=self.weeks, days=-1)


@dataclass
class Occurrence:
    course: Course
    day: date
    start: str
    end: str
    week: int


def weeks(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        parity = part[-1] if part[-1] in "单双" else ""
        a, _, b = part.rstrip("单双").partition("-")
        out += [w for w in range(int(a), int(b or a) + 1)
                if not parity or (parity == "单") == (w % 2 == 1)]
    return out


def times(school: School, c: Course, day: date) -> tuple[str, str]:
    if c.clock:
        return c.clock
    g = school.grid_on(day)
    return g[c.first - 1][0], g[c.last - 1][1]


def occurrences(school: School, courses: list[Course]) -> list[Occurrence]:
    """Every meeting the file holds, in file order (course by course), days off removed, make-ups added."""
    out = []
    for c in courses:
        for w in c.weeks:
            d = school.date_of(w, c.day)
            if d in school.days_off:
                continue
            out.append(Occurrence(c, d, *times(school, c, d), w))
        for made_up, off in school.makeups.items():
            week = (off - school.week1).days // 7 + 1
            if off.isoweekday() == c.day and week in c.weeks:
                out.append(Occurrence(c, made_up, *times(school, c, made_up), week))
    return out


def board(school: School, occ: list[Occurrence]) -> tuple[list[dict], list[dict]]:
    """Expected meetings and skipped entries (outside the semester; a section already taken earlier in the file)."""
    meetings: list[dict] = []
    skipped: list[dict] = []
    taken: set[tuple[date, int]] = set()
    for o in occ:
        if not (school.week1 <= o.day <= school.last_day()):
            skipped.append({"summary": o.course.title, "why": "outside_semester", "date": o.day.isoformat()})
            continue
        slots = {(o.day, s) for s in range(o.course.first, o.course.last + 1)}
        if slots & taken:
            skipped.append({"summary": o.course.title, "why": "overlap", "date": o.day.isoformat()})
            continue
        taken |= slots
        meetings.append({"date": o.day.isoformat(), "start": o.start, "end": o.end, "title": o.course.title,
                         "location": o.course.room, "teacher": "、".join(o.course.teachers)})
    meetings.sort(key=lambda m: (m["date"], m["start"], m["title"]))
    return meetings, skipped


# ---------------------------------------------------------------- rendering helpers

def local(day: date, hm: str) -> datetime:
    return datetime.combine(day, time.fromisoformat(hm))


def stamp(dt: datetime, mode: str, zone: str) -> str:
    """A DTSTART/DTEND value with its parameters for ``mode``: floating, utc, tzid (IANA name)."""
    if mode == "utc":
        return ":" + dt.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    if mode == "floating":
        return ":" + dt.strftime("%Y%m%dT%H%M%S")
    return f";TZID={zone}:" + dt.strftime("%Y%m%dT%H%M%S")


def utc(dt: datetime, zone: str) -> str:
    return dt.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str) -> list[str]:
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
    return [out[0]] + [" " + x for x in out[1:]]


def calendar(head: list[str], events: list[list[str]], nl: str, folding: bool = True) -> bytes:
    lines = ["BEGIN:VCALENDAR", *head]
    for ev in events:
        lines += ["BEGIN:VEVENT", *ev, "END:VEVENT"]
    lines.append("END:VCALENDAR")
    out = []
    for ln in lines:
        out += fold(ln) if folding else [ln]
    return (nl.join(out) + nl).encode("utf-8")


VTIMEZONE_SHANGHAI = ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "X-LIC-LOCATION:Asia/Shanghai", "BEGIN:STANDARD",
                      "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "DTSTART:19700101T000000",
                      "END:STANDARD", "END:VTIMEZONE"]

VTIMEZONE_VANCOUVER = ["BEGIN:VTIMEZONE", "TZID:America/Vancouver", "BEGIN:DAYLIGHT", "TZOFFSETFROM:-0800",
                       "TZOFFSETTO:-0700", "TZNAME:PDT", "DTSTART:19700308T020000",
                       "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "END:DAYLIGHT", "BEGIN:STANDARD",
                       "TZOFFSETFROM:-0700", "TZOFFSETTO:-0800", "TZNAME:PST", "DTSTART:19701101T020000",
                       "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "END:STANDARD", "END:VTIMEZONE"]


def runs(ws: list[int]) -> list[tuple[int, int, int]]:
    """Weeks as arithmetic runs (first, count, step 1 or 2), the way series exporters split them."""
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(ws):
        step = ws[i + 1] - ws[i] if i + 1 < len(ws) and ws[i + 1] - ws[i] in (1, 2) else 1
        j = i
        while j + 1 < len(ws) and ws[j + 1] - ws[j] == step:
            j += 1
        out.append((ws[i], j - i + 1, step))
        i = j + 1
    return out


def sections_label(c: Course) -> str:
    return f"第{c.first}-{c.last}节" if c.last > c.first else f"第{c.first}节"


def week_label(ws: list[int]) -> str:
    parts = []
    for first, n, step in runs(ws):
        last = first + (n - 1) * step
        tail = "" if step == 1 or n == 1 else ("(单)" if first % 2 else "(双)")
        parts.append(f"{first}-{last}{tail}" if n > 1 else f"{first}")
    return ",".join(parts) + "周"


def dtstamp() -> str:
    return "DTSTAMP:20270825T031500Z"


# ---------------------------------------------------------------- the ten files

def yunnan_normal() -> tuple[School, list[Course], bytes, str]:
    """A Yunnan normal university; a Tampermonkey userscript over 正方 writes one weekly series per week run."""
    s = School("滇池师范大学", "Asia/Shanghai", date(2027, 9, 6), 18,
               grid(("08:30", 4, 45, (10, 20, 10)), ("14:30", 4, 45, (10, 20, 10)), ("19:30", 3, 45, 10)))
    cs = [
        Course("教育学原理", 1, 1, 2, weeks("1-16"), "文渊楼A203", ["杨丽华"]),
        Course("中国古代文学", 1, 5, 7, weeks("1-8,10-17"), "文津楼310", ["段志刚"]),
        Course("现代汉语", 2, 3, 4, weeks("1-16"), "文渊楼B105", ["李春燕", "普建明"]),
        Course("大学体育（三）", 3, 3, 4, weeks("2-16"), "呈贡校区东田径场", ["王晓东"]),
        Course("文学概论", 3, 5, 6, weeks("1-15单"), "文津楼208", ["和丽萍"]),
        Course("书法", 3, 9, 10, weeks("3-14"), "艺术楼402", ["赵卫国"]),
        Course("心理学", 4, 1, 3, weeks("1-18"), "文渊楼A101", ["刀美兰"]),
        Course("现代汉语", 5, 1, 2, weeks("2-16双"), "文渊楼B105", ["李春燕", "普建明"]),
        Course("形势与政策", 5, 9, 11, weeks("5-8"), "综合楼报告厅", ["马骏"]),
    ]
    events: list[list[str]] = []
    for i, c in enumerate(cs):
        for j, (first, n, step) in enumerate(runs(c.weeks)):
            d = s.date_of(first, c.day)
            a, b = times(s, c, d)
            events.append([
                f"UID:zf-{i}-{j}-20279@dcnu-kb", dtstamp(),
                "DTSTART" + stamp(local(d, a), "tzid", s.zone), "DTEND" + stamp(local(d, b), "tzid", s.zone),
                f"RRULE:FREQ=WEEKLY;WKST=MO;COUNT={n}" + (f";INTERVAL={step}" if step > 1 else ""),
                f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
                "DESCRIPTION:" + esc(f"教师: {','.join(c.teachers)} | {week_label(c.weeks)} | {sections_label(c)}"),
            ])
    head = ["VERSION:2.0", "PRODID:-//zf-kb-export//userscript 1.4//CN", "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:2027-2028-1 课表", *VTIMEZONE_SHANGHAI]
    notes = ("A Yunnan normal university (08:30 start, 4+4+3 x 45 min, long breaks after the 2nd section); a "
             "Tampermonkey userscript over the 正方 course table: TZID with VTIMEZONE, one weekly series per run of "
             "weeks with COUNT (INTERVAL=2 for odd/even weeks), a gap week split into two series, CRLF, folded "
             "lines. Teachers comma-joined in DESCRIPTION. The script knows no holidays.")
    return s, cs, calendar(head, events, "\r\n"), notes


def jiangxi_finance() -> tuple[School, list[Course], bytes, str]:
    """A Jiangxi finance university; the 青果 教务 system's own .ics, one event per meeting in UTC."""
    summer = grid(("08:00", 5, 45, (10, 20, 10, 10)), ("14:30", 4, 45, (10, 15, 10)), ("19:00", 3, 45, 10))
    winter = grid(("08:00", 5, 45, (10, 20, 10, 10)), ("14:00", 4, 45, (10, 15, 10)), ("18:30", 3, 45, 10))
    off = {date(2027, 10, 1) + timedelta(days=i) for i in range(7)}
    s = School("赣江财经大学", "Asia/Shanghai", date(2027, 9, 6), 18, summer, (date(2027, 10, 8), winter), off,
               {date(2027, 9, 26): date(2027, 10, 6), date(2027, 10, 9): date(2027, 10, 7)})
    cs = [
        Course("会计学原理", 1, 1, 2, weeks("1-16"), "枫林楼3201", ["邹建平"], "0203011"),
        Course("微观经济学", 1, 6, 7, weeks("1-16"), "麦庐楼1105", ["罗晓敏"], "0101023"),
        Course("大学英语（三）", 2, 3, 4, weeks("1-16"), "外语楼2306", ["Linda Hu"], "1201003"),
        Course("概率论与数理统计", 3, 1, 2, weeks("1-16"), "枫林楼3105", ["万国强"], "0901015"),
        Course("毛泽东思想和中国特色社会主义理论体系概论", 3, 8, 9, weeks("1-12"), "国学楼101", ["涂志红"], "1701002"),
        Course("Python程序设计", 4, 3, 5, weeks("3-14"), "信息楼机房405", ["黄斌", "熊燕"], "0801044"),
        Course("财政学", 4, 6, 7, weeks("1-16"), "麦庐楼2203", ["胡文涛"], "0102031"),
        Course("证券投资学", 5, 10, 11, weeks("2-13"), "枫林楼3301", ["刘卫东"], "0104012"),
    ]
    events: list[list[str]] = []
    for o in occurrences(s, cs):
        c = o.course
        events.append([
            f"UID:kingo-{c.code}-{o.day:%Y%m%d}-{c.first}@jw.gjcd.edu.cn", dtstamp(),
            "DTSTART" + stamp(local(o.day, o.start), "utc", s.zone), "DTEND" + stamp(local(o.day, o.end), "utc", s.zone),
            f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
            "DESCRIPTION:" + esc(f"课程编号：{c.code}\n任课教师：{' '.join(c.teachers)}\n第{o.week}周 星期{CN_DAYS[c.day - 1]} "
                                 f"{sections_label(c)}"),
            "STATUS:CONFIRMED", "TRANSP:OPAQUE",
        ])
    head = ["PRODID:-//Kingosoft//KINGO JW 2.0//ZH", "VERSION:2.0", "METHOD:PUBLISH", "X-WR-CALNAME:我的课表",
            "X-WR-TIMEZONE:Asia/Shanghai"]
    notes = ("A Jiangxi finance university (5+4+3 x 45 min; from 2027-10-08 the winter grid moves the afternoon to 14:00 "
             "and the evening to 18:30); the 青果 system's own export: one VEVENT per meeting in UTC, CRLF. The system "
             "knows the National Day week (no meetings 10-01..10-07) and writes the make-up days 09-26 (Wednesday "
             "10-06's classes) and 10-09 (Thursday 10-07's). Week number in DESCRIPTION.")
    return s, cs, calendar(head, events, "\r\n"), notes


def hunan_agri() -> tuple[School, list[Course], bytes, str]:
    """A Hunan agricultural university; a phone timetable app's export: floating series, UNTIL floating end of day."""
    s = School("湘中农业大学", "Asia/Shanghai", date(2028, 2, 21), 17,
               grid(("08:00", 5, 45, (10, 20, 10, 10)), ("14:30", 4, 45, (10, 20, 10)), ("19:00", 3, 45, 10)))
    cs = [
        Course("植物生理学", 1, 3, 4, weeks("1-16"), "耘园楼二教305", ["谭志强"]),
        Course("有机化学", 1, 6, 7, weeks("1-12"), "东湖楼理科楼214", ["彭丽"]),
        Course("有机化学实验", 2, 6, 9, weeks("3-17单"), "理科楼实验室B410", ["彭丽", "刘畅"]),
        Course("农业气象学", 2, 1, 2, weeks("1-10"), "耘园楼一教102", ["龙海燕"]),
        Course("大学英语（四）", 3, 1, 2, weeks("1-16"), "外语楼301", ["邓婷"]),
        Course("作物栽培学", 4, 3, 5, weeks("1-16"), "耘园楼二教108", ["周建华"]),
        Course("田间试验与统计分析", 5, 1, 2, weeks("1-18"), "耘园楼一教210", ["易小平"]),
        Course("马克思主义基本原理", 5, 10, 12, weeks("1-14"), "逸夫楼阶梯教室", ["曾敏"]),
    ]
    events: list[list[str]] = []
    for i, c in enumerate(cs):
        for j, (first, n, step) in enumerate(runs(c.weeks)):
            d = s.date_of(first, c.day)
            last = d + timedelta(weeks=(n - 1) * step)
            a, b = times(s, c, d)
            events.append([
                f"UID:{i:02d}{j}{first:02d}-shiguang-{zlib.crc32(c.title.encode()) % 10**6:06d}", dtstamp(),
                "DTSTART" + stamp(local(d, a), "floating", s.zone), "DTEND" + stamp(local(d, b), "floating", s.zone),
                f"RRULE:FREQ=WEEKLY;INTERVAL={step};BYDAY={DAYS[c.day - 1]};UNTIL={last:%Y%m%d}T235959",
                f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
                "DESCRIPTION:" + esc(f"老师：{'，'.join(c.teachers)}\n节次：{c.first}-{c.last}"),
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT20M", f"DESCRIPTION:{esc(c.title)}", "END:VALARM",
            ])
    head = ["VERSION:2.0", "PRODID:-//ShiGuang Schedule//Android//ZH", "X-WR-CALNAME:课程表",
            "X-WR-TIMEZONE:Asia/Shanghai"]
    notes = ("A Hunan agricultural university, spring term (5+4+3 x 45 min); a phone timetable app's export: floating "
             "times, one weekly series per block with BYDAY and a floating end-of-day UNTIL, INTERVAL=2 for odd weeks, "
             "a VALARM in every event, LF. The app lets a course run to week 18 while the term has 17: that week is "
             "outside the semester. A lab spans two afternoon breaks.")
    return s, cs, calendar(head, events, "\n"), notes


def inner_mongolia_poly() -> tuple[School, list[Course], bytes, str]:
    """An Inner Mongolia technical university; typed by hand into a Huawei phone's calendar, exported as .ics."""
    pairs = grid(("08:00", 2, 50, (0, 20)), ("10:10", 2, 50, (0, 0)), ("14:30", 2, 50, (0, 20)),
                 ("16:30", 2, 50, (0, 0)), ("19:00", 2, 50, (0, 0)))
    s = School("草原工业大学", "Asia/Shanghai", date(2027, 8, 30), 18, pairs)
    cs = [
        Course("工程力学", 1, 1, 2, weeks("1-16"), "工科楼A302"),
        Course("电工电子技术", 1, 5, 6, weeks("1-16"), "电气楼204"),
        Course("机械制图", 2, 3, 4, weeks("1-16"), "机械楼B511"),
        Course("大学物理", 3, 1, 2, weeks("1-16"), "理学楼110"),
        Course("大学物理", 5, 3, 4, weeks("1-16"), "理学楼110"),
        Course("蒙古族文化概论", 4, 9, 10, weeks("1-8"), "人文楼306"),
        Course("C语言程序设计", 4, 5, 6, weeks("1-16"), "计算中心301"),
    ]
    events: list[list[str]] = []
    for i, c in enumerate(cs):
        d = s.date_of(1, c.day)
        a, b = times(s, c, d)
        last = s.date_of(c.weeks[-1], c.day)
        until = utc(local(last, "23:59:59"), s.zone)
        events.append([
            "DTSTART" + stamp(local(d, a), "tzid", s.zone), "DTEND" + stamp(local(d, b), "tzid", s.zone),
            f"RRULE:FREQ=WEEKLY;UNTIL={until};WKST=SU;BYDAY={DAYS[c.day - 1]}",
            f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}", f"UID:{i + 31}a7c0e2-hw-{c.day}{c.first}",
            dtstamp(), "CLASS:PUBLIC", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=START:-PT10M",
            "DESCRIPTION:提醒", "END:VALARM",
        ])
    events.append(["DTSTART;VALUE=DATE:20270915", "DTEND;VALUE=DATE:20270916", "SUMMARY:四六级报名截止",
                   "UID:cet-signup-2027-hw", dtstamp(), "TRANSP:TRANSPARENT"])
    head = ["PRODID:-//Huawei//Calendar 15.0//CN", "VERSION:2.0", "CALSCALE:GREGORIAN", *VTIMEZONE_SHANGHAI]
    notes = ("An Inner Mongolia technical university (five double periods of 2 x 50 min with no break inside a pair, "
             "term from 08-30); a student typed the courses into a Huawei phone's calendar and exported them: TZID "
             "with VTIMEZONE, one weekly series per block, UNTIL = 23:59:59 local of the last week written in UTC, "
             "WKST=SU, no teachers, CRLF. The student also added an all-day reminder (skipped as all_day).")
    return s, cs, calendar(head, events, "\r\n"), notes


def lingnan_poly() -> tuple[School, list[Course], bytes, str]:
    """A Guangdong polytechnic; a student's Python (icalendar) script over 强智: one event per meeting, TZID only."""
    s = School("岭南理工学院", "Asia/Shanghai", date(2027, 9, 13), 17,
               grid(("08:30", 4, 40, (10, 20, 10)), ("14:00", 4, 40, (10, 20, 10)), ("19:30", 3, 40, 10)))
    cs = [
        Course("数字电子技术", 1, 1, 2, weeks("1-16"), "实验楼C201", ["梁振华"]),
        Course("单片机原理与应用", 1, 5, 6, weeks("1-16"), "实训楼A305", ["陈嘉欣"]),
        Course("工程数学", 2, 1, 2, weeks("1-16"), "教学楼3-402", ["黄伟明"]),
        Course("粤港澳大湾区产业概况", 2, 1, 2, weeks("9-12"), "图书馆报告厅", ["何志强"]),
        Course("专业英语", 3, 3, 4, weeks("1-14"), "教学楼2-310", ["Kelvin Lam"]),
        Course("电路分析", 4, 1, 3, weeks("1-16"), "教学楼3-201", ["冯少华", "叶婷"]),
        Course("创新创业基础", 4, 9, 10, weeks("1-8"), "教学楼1-105", ["苏敏"]),
        Course("体育（三）", 5, 3, 4, weeks("1-16"), "东区篮球场", ["李国栋"]),
    ]
    events: list[list[str]] = []
    for o in occurrences(s, cs):
        c = o.course
        events.append([
            f"SUMMARY:{esc(c.title)}",
            "DTSTART" + stamp(local(o.day, o.start), "tzid", s.zone), "DTEND" + stamp(local(o.day, o.end), "tzid", s.zone),
            dtstamp(), f"UID:{o.day:%Y%m%d}{c.first:02d}{c.day}-qz2ics",
            f"LOCATION:{esc(c.room)}",
            "DESCRIPTION:" + esc(f"任课教师: {' '.join(c.teachers)}\n{sections_label(c)} ({o.start}-{o.end})"),
        ])
    head = ["VERSION:2.0", "PRODID:-//python/icalendar//qz2ics//"]
    notes = ("A Guangdong polytechnic (08:30 start, 40-minute sections, 4+4+3); a student's Python script (icalendar "
             "library) over the 强智 course table: one VEVENT per meeting, TZID=Asia/Shanghai with no VTIMEZONE, "
             "SUMMARY first, CRLF, folded. A weeks 9-12 talk takes Tuesday's sections 1-2, already held by 工程数学 "
             "earlier in the file: those four dates are overlap skips.")
    return s, cs, calendar(head, events, "\r\n"), notes


def ningxia_medical() -> tuple[School, list[Course], bytes, str]:
    """A Ningxia medical university; the URP 教务 system's own export, one floating event per section."""
    s = School("贺兰山医科大学", "Asia/Shanghai", date(2028, 2, 28), 18,
               grid(("08:30", 5, 45, (10, 20, 10, 10)), ("14:30", 4, 45, (10, 20, 10)), ("19:30", 3, 45, 10)))
    cs = [
        Course("系统解剖学", 1, 1, 3, weeks("1-14"), "基础医学楼A201", ["马文斌"]),
        Course("系统解剖学实验", 2, 6, 9, weeks("2-14双"), "解剖实验中心302", ["马文斌", "丁玉兰"]),
        Course("医学细胞生物学", 2, 1, 2, weeks("1-12"), "基础医学楼B105", ["海燕"]),
        Course("医用化学", 3, 3, 4, weeks("1-16"), "综合楼401", ["白志强"]),
        Course("组织学与胚胎学", 4, 1, 2, weeks("1-16"), "基础医学楼A305", ["杨静"]),
        Course("医学伦理学", 4, 10, 11, weeks("1-8"), "综合楼阶梯教室2", ["金晓梅"]),
        Course("大学英语（二）", 5, 3, 4, weeks("1-16"), "外语楼208", ["纳丽娟"]),
    ]
    events: list[list[str]] = []
    for o in occurrences(s, cs):
        c = o.course
        g = s.grid_on(o.day)
        for sec in range(c.first, c.last + 1):
            a, b = g[sec - 1]
            events.append([
                f"UID:URP{o.day:%Y%m%d}{sec:02d}-{len(events)}", dtstamp(),
                f"DTSTART:{local(o.day, a):%Y%m%dT%H%M%S}", f"DTEND:{local(o.day, b):%Y%m%dT%H%M%S}",
                f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
                "DESCRIPTION:" + esc(f"教师：{'/'.join(c.teachers)}；第{o.week}周；第{sec}节"),
            ])
    head = ["VERSION:2.0", "PRODID:-//URP//Course Schedule//CN", "X-WR-CALNAME:学生课表", "X-WR-TIMEZONE:Asia/Shanghai",
            "CALSCALE:GREGORIAN"]
    notes = ("A Ningxia medical university, spring term (08:30 start, 5+4+3 x 45 min); the URP 教务 system's own "
             "export: one floating VEVENT per section (consecutive sections of a block merge into one meeting), "
             "CRLF, X-WR-TIMEZONE. Lab on even weeks; two teachers slash-joined.")
    return s, cs, calendar(head, events, "\r\n"), notes


def jilin_language_csv() -> tuple[School, list[Course], bytes, str]:
    """A Jilin foreign-languages university; the WakeUp import template filled in WPS and saved as CSV (GBK)."""
    s = School("长白外国语学院", "Asia/Shanghai", date(2027, 8, 30), 18,
               grid(("08:00", 4, 45, (10, 20, 10)), ("13:30", 4, 45, (10, 20, 10)), ("18:00", 2, 45, 10)))
    cs = [
        Course("基础韩国语（三）", 1, 1, 2, weeks("1-16"), "博文楼305", ["金美善"]),
        Course("基础韩国语（三）", 3, 1, 2, weeks("1-16"), "博文楼305", ["金美善"]),
        Course("韩国语视听说", 1, 5, 6, weeks("1-16"), "语音室2", ["朴成浩"]),
        Course("韩国语阅读", 2, 3, 4, weeks("1-15单"), "博文楼210", ["崔英子"]),
        Course("日语二外", 2, 7, 8, weeks("2-16双"), "博雅楼118", ["佐藤由美"]),
        Course("中国近现代史纲要", 4, 3, 4, weeks("1-12"), "博雅楼阶梯101", ["王建华"]),
        Course("跨文化交际", 4, 5, 6, weeks("3-10"), "博文楼402", ["李娜", "Emily Carter"]),
        Course("韩国概况", 5, 9, 10, weeks("1-8"), "博文楼103", ["申东旭"]),
    ]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(["课程名称", "星期", "开始节数", "结束节数", "老师", "地点", "周数"])
    for c in cs:
        spec = ",".join(f"{a}-{a + (n - 1) * st}" + ("" if st == 1 else ("单" if a % 2 else "双"))
                        for a, n, st in runs(c.weeks))
        w.writerow([c.title, c.day, c.first, c.last, "、".join(c.teachers), c.room, spec])
    notes = ("A Jilin foreign-languages university (08:00 start, 4+4+2 x 45 min, afternoon from 13:30); the student "
             "filled WakeUp's import template in WPS and saved it as CSV (GBK, CRLF). Odd/even weeks as 单/双 specs; "
             "two teachers joined with 、 in one cell; the same course on two weekdays as two rows.")
    return s, cs, buf.getvalue().encode("gbk"), notes


def guizhou_independent() -> tuple[School, list[Course], bytes, str]:
    """A Guizhou independent college; a student's Node script over 青果: UTC-anchored weekly series with BYDAY."""
    s = School("黔南科技学院", "Asia/Shanghai", date(2027, 9, 6), 18,
               grid(("08:30", 4, 45, (10, 20, 10)), ("14:00", 4, 45, (10, 20, 10)), ("19:00", 3, 45, 10)))
    cs = [
        Course("管理学原理", 1, 3, 4, weeks("1-16"), "明德楼205", ["罗永刚"]),
        Course("高等数学（上）", 2, 1, 2, weeks("1-16"), "明德楼101", ["吴晓燕"]),
        Course("高等数学（上）", 4, 1, 2, weeks("1-16"), "明德楼101", ["吴晓燕"]),
        Course("思想道德与法治", 2, 5, 6, weeks("1-12"), "至善楼阶梯3", ["潘明"]),
        Course("计算机应用基础", 3, 5, 7, weeks("2-13"), "实训中心机房6", ["龙飞"]),
        Course("大学英语（一）", 5, 3, 4, weeks("1-16"), "至善楼312", ["田蕾"]),
        Course("军事理论", 5, 9, 10, weeks("1-9单"), "至善楼阶梯1", ["蒙刚"]),
    ]
    events: list[list[str]] = []
    for c in cs:
        for first, n, step in runs(c.weeks):
            d = s.date_of(first, c.day)
            a, b = times(s, c, d)
            last = d + timedelta(weeks=(n - 1) * step)
            events.append([
                f"UID:{c.title}-{c.day}-{c.first}@kingo2ics", dtstamp(),
                "DTSTART" + stamp(local(d, a), "utc", s.zone), "DTEND" + stamp(local(d, b), "utc", s.zone),
                f"RRULE:FREQ=WEEKLY;BYDAY={DAYS[c.day - 1]};INTERVAL={step};UNTIL={utc(local(last, b), s.zone)}",
                f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
                "DESCRIPTION:" + esc(f"教师：{c.teachers[0]}  教室：{c.room}  {week_label(c.weeks)}"),
            ])
    head = ["VERSION:2.0", "PRODID:-//kingo2ics//ical-generator//ZH", "NAME:课表", "X-WR-CALNAME:课表",
            "TIMEZONE-ID:Asia/Shanghai", "X-WR-TIMEZONE:Asia/Shanghai"]
    notes = ("A Guizhou independent college (08:30 start, 4+4+3 x 45 min); a student's Node script (ical-generator) "
             "over 青果: DTSTART/DTEND in UTC, one weekly series per block with BYDAY, INTERVAL and a UTC UNTIL at the "
             "last meeting's end; LF; room repeated in DESCRIPTION. The script knows no holidays.")
    return s, cs, calendar(head, events, "\n"), notes


def shaanxi_vocational() -> tuple[School, list[Course], bytes, str]:
    """A Shaanxi vocational college; a WeChat mini-program's export: one event per meeting, UTC, bracketed title."""
    s = School("关中交通职业技术学院", "Asia/Shanghai", date(2028, 2, 28), 16,
               grid(("08:20", 2, 45, 5), ("10:15", 2, 45, 5), ("14:00", 2, 45, 5), ("15:55", 2, 45, 5),
                    ("19:00", 2, 45, 5)))
    cs = [
        Course("汽车发动机构造与维修", 1, 1, 4, weeks("1-8"), "汽修实训中心1号车间", ["张卫军"]),
        Course("汽车电气设备", 2, 1, 2, weeks("1-16"), "实训楼305", ["刘建"]),
        Course("汽车电气设备", 4, 5, 6, weeks("1-16"), "实训楼305", ["刘建"]),
        Course("机械基础", 2, 5, 6, weeks("1-12"), "教学楼A208", ["王红梅"]),
        Course("应用文写作", 3, 3, 4, weeks("1-10"), "教学楼B103", ["赵倩"]),
        Course("毛泽东思想和中国特色社会主义理论体系概论", 3, 5, 6, weeks("1-16"), "教学楼A阶梯1", ["郭宁"]),
        Course("体育与健康", 5, 3, 4, weeks("1-16"), "田径场", ["侯强"]),
    ]
    off = {date(2028, 4, 4), date(2028, 5, 1)}
    s.days_off = off
    events: list[list[str]] = []
    for o in occurrences(s, cs):
        c = o.course
        events.append([
            f"UID:{o.day:%Y%m%d}-{c.first}-{c.day}@kebiao.mp", dtstamp(),
            "DTSTART" + stamp(local(o.day, o.start), "utc", s.zone), "DTEND" + stamp(local(o.day, o.end), "utc", s.zone),
            f"SUMMARY:【{esc(c.title)}】", f"LOCATION:{esc(c.room)}",
            "DESCRIPTION:" + esc(f"授课老师：{c.teachers[0]}\n第{o.week}周"),
        ])
    head = ["VERSION:2.0", "PRODID:-//kebiao miniprogram//CN", "X-WR-CALNAME:我的课表"]
    notes = ("A Shaanxi vocational college, spring term of 16 weeks (08:20 start, pairs of 45 min with 5-minute breaks, "
             "a long morning break); a WeChat mini-program's export: one VEVENT per meeting in UTC, course name in "
             "【】 brackets, LF. It knows the days off 04-04 and 05-01 (no meetings then). A four-section workshop.")
    return s, cs, calendar(head, events, "\n"), notes


def vancouver_workday() -> tuple[School, list[Course], bytes, str]:
    """A Chinese student in Vancouver; the university's Workday 'Export to Calendar' across the November change."""
    off = {date(2027, 10, 11), date(2027, 11, 10), date(2027, 11, 11), date(2027, 11, 12)}
    cs = [
        Course("Computation, Programs, and Programming", d, 1, 1, weeks("1-14"), "DMP 110", ["Anna Fischer"],
               "CPSC_V 110-101", ("10:00", "11:00")) for d in (1, 3, 5)
    ] + [
        Course("Differential Calculus", d, 2, 2, weeks("1-14"), "LSK 200", ["Marc Olsen"], "MATH_V 100-103",
               ("12:00", "13:00")) for d in (1, 3, 5)
    ] + [
        Course("Academic Writing", d, 3, 3, weeks("1-14"), "BUCH A202", ["Priya Natarajan"], "WRDS_V 150B-112",
               ("14:00", "15:30")) for d in (2, 4)
    ] + [Course("Introductory Psychology", 4, 4, 4, weeks("1-14"), "CIRS 1250", ["Daniel Moreau"], "PSYC_V 101-002",
                ("17:00", "18:30"))]
    sections = [["10:00", "11:00"], ["12:00", "13:00"], ["14:00", "15:30"], ["17:00", "18:30"]]
    s = School("University of British Columbia (Vancouver)", "America/Vancouver", date(2027, 9, 6), 14, sections,
               days_off=off | {date(2027, 9, 6)})
    # Labour Day (week 1 Monday) is before the first class day; term ends Fri 2027-12-10 (week 14).
    events: list[list[str]] = []
    groups: dict[str, list[Course]] = {}
    for c in cs:
        groups.setdefault(c.code, []).append(c)
    for code, group in groups.items():
        c0 = group[0]
        dates = sorted(s.date_of(w, c.day) for c in group for w in c.weeks)
        first = min(d for d in dates if d >= date(2027, 9, 7))
        ex = sorted(d for d in dates if d in s.days_off and d > first)
        last = max(dates)
        a, b = c0.clock or ("", "")
        kind = "Lecture" if "WRDS" not in code else "Seminar"
        ev = [
            "DTSTART" + stamp(local(first, a), "tzid", s.zone), "DTEND" + stamp(local(first, b), "tzid", s.zone),
            "RRULE:FREQ=WEEKLY;BYDAY=" + ",".join(DAYS[c.day - 1] for c in group) +
            f";UNTIL={utc(local(last, b), s.zone)}",
        ]
        if ex:
            ev.append("EXDATE" + stamp(local(ex[0], a), "tzid", s.zone).split(":")[0] + ":" +
                      ",".join(f"{local(d, a):%Y%m%dT%H%M%S}" for d in ex))
        ev += [f"SUMMARY:{esc(c0.title)}", f"LOCATION:{esc(c0.room)}",
               "DESCRIPTION:" + esc(f"{code} - {c0.title}\n{kind}\nInstructor: {c0.teachers[0]}"),
               f"UID:{code.replace(' ', '_')}-2027W1@workday", dtstamp()]
        events.append(ev)
    head = ["VERSION:2.0", "PRODID:-//Workday//Student//EN", "CALSCALE:GREGORIAN", *VTIMEZONE_VANCOUVER]
    notes = ("A Chinese student at a Vancouver university, winter term 1 (classes 2027-09-07..12-10, 14 weeks from the "
             "Labour Day Monday); the student-system's calendar export: TZID America/Vancouver with VTIMEZONE, one "
             "series per section with BYDAY over two or three weekdays and a UTC UNTIL, EXDATE for Thanksgiving and the "
             "November midterm break; clocks go back on 2027-11-07 and the wall times stay. Times are the timetable's "
             "own (no section grid); the course code is only in DESCRIPTION.")
    return s, cs, calendar(head, events, "\r\n"), notes


FILES = {
    "ics_yunnan_normal_zf_userscript_count_tzid.ics": yunnan_normal,
    "ics_jiangxi_finance_kingo_export_utc_makeup.ics": jiangxi_finance,
    "ics_hunan_agri_app_floating_until_eod.ics": hunan_agri,
    "ics_innermongolia_tech_huawei_manual.ics": inner_mongolia_poly,
    "ics_guangdong_poly_qz_pyscript_tzid_only.ics": lingnan_poly,
    "ics_ningxia_medical_urp_per_section.ics": ningxia_medical,
    "wakeup_jilin_foreign_lang_wps_gbk.csv": jilin_language_csv,
    "ics_guizhou_independent_kingo_nodescript_utc.ics": guizhou_independent,
    "ics_shaanxi_vocational_miniprogram_utc.ics": shaanxi_vocational,
    "ics_canada_workday_byday_dst.ics": vancouver_workday,
}


def write_all() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, describe in FILES.items():
        school, courses, data, notes = describe()
        meetings, skipped = board(school, occurrences(school, courses))
        skipped += extra_skips(data)
        (OUT / name).write_bytes(data)
        expected = {
            "school": school.name, "time_zone": school.zone, "week1_monday": school.week1.isoformat(),
            "semester_weeks": school.weeks, "sections": school.sections,
            "second_grid": ({"from": school.second[0].isoformat(), "sections": school.second[1]}
                            if school.second else None),
            "meetings": meetings, "skipped": skipped, "notes": notes,
        }
        (OUT / (name.rsplit(".", 1)[0] + ".expected.json")).write_text(
            json.dumps(expected, ensure_ascii=False, indent=1) + "\n", "utf-8")


def extra_skips(data: bytes) -> list[dict]:
    """All-day events a student added by hand are not meetings."""
    out = []
    text = data.decode("utf-8", errors="ignore")
    for block in text.split("BEGIN:VEVENT")[1:]:
        if "DTSTART;VALUE=DATE:" in block:
            day = block.split("DTSTART;VALUE=DATE:")[1][:8]
            summary = block.split("SUMMARY:")[1].splitlines()[0].strip()
            out.append({"summary": summary, "why": "all_day", "date": f"{day[:4]}-{day[4:6]}-{day[6:]}"})
    return out


if __name__ == "__main__":
    write_all()
