"""Write ``files/dev10/``: ten timetable files from descriptions of fictional schools, blind.

Run ``python -m bench.import_eval.make_dev10`` from the repository root.

Each file starts from a :class:`School` (week-1 Monday, zone, weeks, section grid, optionally a second
grid from a date, days off, make-up days that run the classes of a day off) and a student's
:class:`Course` list. The expected board is computed from that description alone (date = week-1
Monday + weeks + weekday; start/end = first/last section on the grid valid that day; one meeting per
block per week); then the same description is rendered in the shape of the tool the student would use.
Nothing here reads the importer, the bench or any other generator.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().parent / "files" / "dev10"
WEEKDAY_ZH = "一二三四五六日"
BYDAY = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


# --------------------------------------------------------------------------- schools and courses

def grid(*blocks: tuple[str, int, int, list[int] | int]) -> list[tuple[str, str]]:
    """Blocks of (first start, n sections, minutes each, breaks after each section but the last)."""
    out = []
    for first, n, minutes, breaks in blocks:
        gaps = breaks if isinstance(breaks, list) else [breaks] * (n - 1)
        t = datetime.strptime(first, "%H:%M")
        for i in range(n):
            end = t + timedelta(minutes=minutes)
            out.append((t.strftime("%H:%M"), end.strftime("%H:%M")))
            if i < n - 1:
                t = end + timedelta(minutes=gaps[i])
    return out


@dataclass
class School:
    name: str
    zone: str
    week1: date
    weeks: int
    sections: list[tuple[str, str]]
    second: tuple[date, list[tuple[str, str]]] | None = None
    off: set[date] = field(default_factory=set)
    makeup: dict[date, date] = field(default_factory=dict)  # make-up day -> the day off whose classes it runs

    def grid_on(self, d: date) -> list[tuple[str, str]]:
        if self.second and d >= self.second[0]:
            return self.second[1]
        return self.sections

    def times(self, d: date, first: int, last: int) -> tuple[str, str]:
        g = self.grid_on(d)
        return g[first - 1][0], g[last - 1][1]

    def day(self, week: int, weekday: int) -> date:
        return self.week1 + timedelta(weeks=week - 1, days=weekday - 1)

    @property
    def last_day(self) -> date:
        return self.week1 + timedelta(weeks=self.weeks, days=-1)


@dataclass
class Course:
    title: str
    weekday: int
    first: int
    last: int
    weeks: list[int]
    room: str = ""
    teachers: list[str] = field(default_factory=list)
    shown_teachers: str = ""  # how the file writes the teachers (titles and separators)
    extra: dict = field(default_factory=dict)

    def dates(self, school: School) -> list[date]:
        """Teaching dates: the weekly dates minus days off, plus make-up days running a day off."""
        weekly = [school.day(w, self.weekday) for w in self.weeks]
        kept = [d for d in weekly if d not in school.off]
        kept += [m for m, offday in school.makeup.items() if offday in weekly]
        return sorted(kept)


def weeks(a: int, b: int, parity: str = "") -> list[int]:
    return [w for w in range(a, b + 1) if not parity or (w % 2 == 1) == (parity == "odd")]


def days(a: date, b: date) -> set[date]:
    return {a + timedelta(days=i) for i in range((b - a).days + 1)}


@dataclass
class Item:
    """One thing the file holds at one time, in file order: a meeting, or something to skip."""
    summary: str
    date: date
    start: str
    end: str
    title: str = ""
    location: str = ""
    teacher: str = ""
    sections: tuple[int, int] | None = None
    all_day: bool = False


def board(school: School, items: list[Item]) -> tuple[list[dict], list[dict]]:
    """Expected meetings and skips: all-day out, outside the weeks out, a section holds one meeting."""
    meetings: list[dict] = []
    skipped: list[dict] = []
    held: dict[tuple[date, int], str] = {}
    for it in items:
        if it.all_day:
            skipped.append({"summary": it.summary, "why": "all_day", "date": it.date.isoformat()})
            continue
        if not school.week1 <= it.date <= school.last_day:
            skipped.append({"summary": it.summary, "why": "outside_semester", "date": it.date.isoformat()})
            continue
        if it.sections:
            taken = [held[(it.date, s)] for s in range(it.sections[0], it.sections[1] + 1) if (it.date, s) in held]
            if taken:
                a, b = it.sections
                skipped.append({"summary": it.summary, "why": "overlap", "date": it.date.isoformat(),
                                "detail": f"sections {a}-{b} already hold {taken[0]}, listed earlier in the file"})
                continue
            for s in range(it.sections[0], it.sections[1] + 1):
                held[(it.date, s)] = it.title
        meetings.append({"date": it.date.isoformat(), "start": it.start, "end": it.end,
                         "title": it.title, "location": it.location, "teacher": it.teacher})
    meetings.sort(key=lambda m: (m["date"], m["start"], m["title"]))
    return meetings, skipped


def course_items(school: School, c: Course, summary: str | None = None) -> list[Item]:
    out = []
    for d in c.dates(school):
        s, e = school.times(d, c.first, c.last)
        out.append(Item(summary or c.title, d, s, e, c.title, c.room, "、".join(c.teachers), (c.first, c.last)))
    return out


def write(name: str, school: School, items: list[Item], data: bytes, notes: str) -> None:
    meetings, skipped = board(school, items)
    exp = {
        "school": school.name, "time_zone": school.zone, "week1_monday": school.week1.isoformat(),
        "semester_weeks": school.weeks, "sections": [list(s) for s in school.sections],
        "second_grid": ({"from": school.second[0].isoformat(), "sections": [list(s) for s in school.second[1]]}
                        if school.second else None),
        "meetings": meetings, "skipped": skipped, "notes": notes,
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_bytes(data)
    stem = name.rsplit(".", 1)[0]
    (OUT / f"{stem}.expected.json").write_text(json.dumps(exp, ensure_ascii=False, indent=1) + "\n", "utf-8")


# --------------------------------------------------------------------------- iCalendar text helpers

def esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str, limit: int = 75) -> list[str]:
    """RFC 5545 folding at `limit` octets without splitting a UTF-8 character."""
    out, cur, size = [], "", 0
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > limit:
            out.append(cur)
            cur, size = " ", 1
        cur += ch
        size += n
    out.append(cur)
    return out


def ics(lines: list[str], eol: str = "\r\n", folding: bool = True, bom: bool = False) -> bytes:
    phys = [p for line in lines for p in (fold(line) if folding else [line])]
    text = eol.join(phys) + eol
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")


def uid(*parts: object) -> str:
    h = hashlib.sha1("|".join(map(str, parts)).encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def local(d: date, hm: str) -> datetime:
    return datetime.combine(d, datetime.strptime(hm, "%H:%M").time())


def fmt(dt: datetime) -> str:
    return dt.strftime("%Y%m%dT%H%M%S")


def utc(d: date, hm: str, zone: str) -> str:
    return fmt(local(d, hm).replace(tzinfo=ZoneInfo(zone)).astimezone(ZoneInfo("UTC"))) + "Z"


SHANGHAI_VTZ = ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "END:STANDARD", "END:VTIMEZONE"]


def ranges(ws: list[int]) -> str:
    """[1,2,3,5] -> '1-3,5'."""
    out, i = [], 0
    while i < len(ws):
        j = i
        while j + 1 < len(ws) and ws[j + 1] == ws[j] + 1:
            j += 1
        out.append(f"{ws[i]}-{ws[j]}" if j > i else f"{ws[i]}")
        i = j + 1
    return ",".join(out)


def week_text(ws: list[int]) -> str:
    """How 教务 pages write weeks: '1-16周', '1-15周(单)', '2-16周(双)', '1-8,10-16周'."""
    if len(ws) > 1 and all(b - a == 2 for a, b in zip(ws, ws[1:])):
        return f"{ws[0]}-{ws[-1]}周({'单' if ws[0] % 2 else '双'})"
    return f"{ranges(ws)}周"


def runs(ws: list[int]) -> list[tuple[int, int, int]]:
    """Weeks as weekly series: (first week, count, interval) with interval 1 or 2 (odd/even weeks)."""
    out, i = [], 0
    while i < len(ws):
        step = ws[i + 1] - ws[i] if i + 1 < len(ws) and ws[i + 1] - ws[i] in (1, 2) else 1
        j = i
        while j + 1 < len(ws) and ws[j + 1] - ws[j] == step:
            j += 1
        out.append((ws[i], j - i + 1, step))
        i = j + 1
    return out


def makeup_items(school: School, c: Course) -> list[tuple[date, date]]:
    """(make-up day, day off) pairs for which this course's class is run on the make-up day."""
    weekly = {school.day(w, c.weekday) for w in c.weeks}
    return [(m, off) for m, off in sorted(school.makeup.items()) if off in weekly]


def series_items(school: School, c: Course, ws: list[int], summary: str | None = None) -> list[Item]:
    """The meetings of one weekly series (weeks ``ws``) of a course: its weekly dates minus days off."""
    out = []
    for w in ws:
        d = school.day(w, c.weekday)
        if d in school.off:
            continue
        s, e = school.times(d, c.first, c.last)
        out.append(Item(summary or c.title, d, s, e, c.title, c.room, "、".join(c.teachers), (c.first, c.last)))
    return out


def one_item(school: School, c: Course, d: date, summary: str | None = None) -> Item:
    s, e = school.times(d, c.first, c.last)
    return Item(summary or c.title, d, s, e, c.title, c.room, "、".join(c.teachers), (c.first, c.last))


def per_meeting(school: School, courses: list[Course], by_course: bool) -> list[tuple[Course, Item]]:
    """Every meeting (make-up days included) as (course, item): grouped by course or sorted by time."""
    pairs = [(c, it) for c in courses for it in course_items(school, c)]
    if not by_course:
        pairs.sort(key=lambda p: (p[1].date, p[1].start))
    return pairs


# =========================================================================== 1. normal university, 正方 script

def f1_normal_zf_pyscript() -> None:
    s = School("陇原师范大学", "Asia/Shanghai", date(2025, 9, 8), 18,
               grid(("08:00", 4, 45, [10, 20, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:00", 3, 45, 10)))
    cs = [
        Course("数学分析(三)", 1, 1, 2, weeks(1, 16), "博文楼B301", ["王建国"], "王建国(教授)"),
        Course("体育(三)-篮球", 2, 3, 4, weeks(1, 16), "西区篮球场", ["马骏"], "马骏"),
        Course("教育学原理", 2, 5, 6, weeks(1, 16), "明远楼205", ["马晓燕"], "马晓燕(副教授)"),
        Course("数学分析(三)", 3, 3, 4, weeks(1, 16), "博文楼B301", ["王建国"], "王建国(教授)"),
        Course("大学英语(三)", 4, 1, 2, weeks(1, 16), "外语楼410", ["Emily Carter"], "Emily Carter"),
        Course("数学教学论", 4, 5, 7, weeks(1, 8) + weeks(10, 17), "博文楼B108", ["杨红"], "杨红(讲师)"),
        Course("近世代数", 5, 3, 4, weeks(1, 15, "odd"), "博文楼B204", ["赵志强", "孙丽"], "赵志强,孙丽"),
        Course("形势与政策", 1, 9, 10, weeks(5, 8), "明远楼101", ["李强"], "李强"),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//icalendar//mxm.dk//", "CALSCALE:GREGORIAN",
         "X-WR-CALNAME:2025-2026学年第1学期课表", "X-WR-TIMEZONE:Asia/Shanghai", *SHANGHAI_VTZ]
    items: list[Item] = []
    for i, c in enumerate(cs):
        for first, count, step in runs(c.weeks):
            d = s.day(first, c.weekday)
            a, b = s.times(d, c.first, c.last)
            last_day = s.day(first + (count - 1) * step, c.weekday)
            rule = "FREQ=WEEKLY" + (f";INTERVAL={step}" if step > 1 else "") + f";UNTIL={utc(last_day, b, s.zone)}"
            lines += ["BEGIN:VEVENT", f"SUMMARY:{esc(c.title)}", f"DTSTART;TZID=Asia/Shanghai:{fmt(local(d, a))}",
                  f"DTEND;TZID=Asia/Shanghai:{fmt(local(d, b))}", "DTSTAMP:20250903T121530Z",
                  f"UID:{uid('f1', i, first)}@zf-ics", f"RRULE:{rule}", f"LOCATION:{esc(c.room)}",
                  "DESCRIPTION:" + esc(f"教师：{c.shown_teachers}\n周次：{week_text(c.weeks)}\n"
                                       f"节次：{c.first}-{c.last}节\n学分：{c.extra.get('credit', '2.0')}"),
                  "END:VEVENT"]
            items += series_items(s, c, [first + k * step for k in range(count)])
    lines.append("END:VCALENDAR")
    write("ics_normal_zf_pyscript_lf.ics", s, items, ics(lines, eol="\n"),
          "A northwestern normal university; a student's Python script (icalendar) over the 正方 timetable JSON: "
          "one weekly series per course block (UNTIL in UTC, INTERVAL=2 for odd weeks, a course split into two "
          "series around week 9), TZID with VTIMEZONE, LF line ends; teachers with titles in brackets, two "
          "teachers joined by a comma. The script knows no holidays, so every listed week is on the board.")


# =========================================================================== 2. finance university, phone app

def f2_finance_app_floating() -> None:
    s = School("巴蜀财经大学", "Asia/Shanghai", date(2026, 3, 2), 18,
               grid(("08:30", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("19:00", 3, 45, 10)),
               off={date(2026, 4, 6)} | days(date(2026, 5, 1), date(2026, 5, 5)),
               makeup={date(2026, 4, 26): date(2026, 5, 4), date(2026, 5, 9): date(2026, 5, 5)})
    cs = [
        Course("会计学原理", 1, 1, 2, weeks(1, 16), "明德楼A302", ["李红梅"], "李红梅"),
        Course("微观经济学", 2, 1, 2, weeks(1, 16), "博学楼305", ["周建华"], "周建华"),
        Course("统计学", 2, 5, 7, weeks(1, 16), "博学楼210", ["何静"], "何静"),
        Course("体育(四)", 3, 1, 2, weeks(1, 16), "北区体育馆", ["钟勇"], "钟勇"),
        Course("大学英语(四)", 3, 3, 4, weeks(1, 16), "知行楼108", ["刘慧"], "刘慧"),
        Course("货币银行学", 4, 1, 2, weeks(1, 16), "明德楼A205", ["陈思远", "黄敏"], "陈思远,黄敏"),
        Course("习近平新时代中国特色社会主义思想概论", 5, 3, 4, weeks(1, 12), "明德楼A101", ["王磊"], "王磊"),
        Course("Python程序设计", 1, 9, 11, weeks(3, 14), "实验楼402", ["邓超"], "邓超"),
    ]
    lecture = Course("金融科技前沿讲座", 3, 3, 4, [7], "图书馆报告厅", [], "")
    pairs = per_meeting(s, cs, by_course=True) + [(lecture, one_item(s, lecture, s.day(7, 3)))]
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Timetable//课程表 Android 4.6.2//CN", "VERSION:2.0",
         "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:我的课表", "X-WR-TIMEZONE:Asia/Shanghai"]
    for n, (c, it) in enumerate(pairs):
        week = (it.date - s.week1).days // 7 + 1
        desc = f"老师：{c.shown_teachers} | 第{c.first}-{c.last}节 | 第{week}周" if c.teachers else \
            f"第{c.first}-{c.last}节 | 第{week}周"
        lines += ["BEGIN:VEVENT", f"UID:kcb-{uid('f2', n)}", "DTSTAMP:20260301T083000Z",
              f"DTSTART:{fmt(local(it.date, it.start))}", f"DTEND:{fmt(local(it.date, it.end))}",
              f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}",
              "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", f"DESCRIPTION:{esc(c.title)}", "END:VALARM",
              "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_finance_app_floating_makeup.ics", s, [it for _, it in pairs], ics(lines),
          "A southwestern finance university; a phone timetable app's export: one event per meeting in floating "
          "time (X-WR-TIMEZONE only), grouped course by course, VALARM, CRLF; holidays left out and two make-up "
          "days carrying a day off's classes; teachers and sections in DESCRIPTION joined by ' | '; a lecture the "
          "student added by hand lands on a section that already holds a course (overlap).")


# =========================================================================== 3. forestry university, 强智 userscript

def f3_forestry_qz_userscript() -> None:
    s = School("湘中林业科技大学", "Asia/Shanghai", date(2024, 9, 2), 20,
               grid(("08:00", 4, 45, [5, 20, 5]), ("14:30", 4, 45, [5, 20, 5]), ("19:30", 2, 45, 5)),
               off={date(2024, 9, 16), date(2024, 9, 17)} | days(date(2024, 10, 1), date(2024, 10, 7)),
               makeup={date(2024, 9, 14): date(2024, 9, 16), date(2024, 9, 29): date(2024, 10, 7),
                       date(2024, 10, 12): date(2024, 10, 4)})
    cs = [
        Course("森林培育学", 1, 1, 2, weeks(1, 16), "林科楼302", ["张国华"], "张国华"),
        Course("林业政策与法规", 1, 9, 10, weeks(2, 9), "林科楼101", ["黄伟"], "黄伟"),
        Course("树木学", 2, 3, 4, weeks(1, 12), "林科楼205", ["刘秀英"], "刘秀英"),
        Course("马克思主义基本原理", 2, 5, 6, weeks(1, 16), "综合楼101", ["邓晓玲"], "邓晓玲"),
        Course("测树学", 3, 1, 2, weeks(1, 16), "林科楼402", ["谭志军"], "谭志军"),
        Course("大学英语(三)", 4, 1, 2, weeks(1, 16), "外语楼212", ["Jessica Brown"], "Jessica Brown"),
        Course("树木学实验", 4, 5, 8, weeks(3, 11, "odd"), "标本馆实验室", ["刘秀英", "彭亮"], "刘秀英,彭亮"),
        Course("土壤学", 5, 3, 4, weeks(1, 16), "资环楼A106", ["曾红"], "曾红"),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//qzjw-export userscript//v2.3//ZH", "CALSCALE:GREGORIAN",
         "X-WR-CALNAME:课表 2024-2025-1", *SHANGHAI_VTZ]
    items: list[Item] = []

    def event(key: object, c: Course, d: date, extra: list[str], note: str = "") -> None:
        a, b = s.times(d, c.first, c.last)
        desc = f"教师: {c.shown_teachers}\n周次: {ranges(c.weeks)}(周)\n节次: [{c.first:02d}-{c.last:02d}节]{note}"
        lines.extend(["BEGIN:VEVENT", f"UID:{uid('f3', key)}", "DTSTAMP:20240830T142210Z",
                  f"DTSTART;TZID=Asia/Shanghai:{fmt(local(d, a))}", f"DTEND;TZID=Asia/Shanghai:{fmt(local(d, b))}",
                  *extra, f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}",
                  "END:VEVENT"])

    for i, c in enumerate(cs):
        for first, count, step in runs(c.weeks):
            ws = [first + k * step for k in range(count)]
            d0 = s.day(first, c.weekday)
            a, _ = s.times(d0, c.first, c.last)
            rule = "RRULE:FREQ=WEEKLY;" + (f"INTERVAL={step};" if step > 1 else "") + f"COUNT={count}"
            gone = [s.day(w, c.weekday) for w in ws if s.day(w, c.weekday) in s.off]
            ex = [f"EXDATE;TZID=Asia/Shanghai:{','.join(fmt(local(g, s.times(g, c.first, c.last)[0])) for g in gone)}"]
            event((i, first), c, d0, [rule] + (ex if gone else []))
            items += series_items(s, c, ws)
    for i, c in enumerate(cs):
        for m, offday in makeup_items(s, c):
            event((i, m), c, m, [], f"\n调休补课（补{offday.month}月{offday.day}日星期{WEEKDAY_ZH[offday.weekday()]}的课）")
            items.append(one_item(s, c, m))
    lines.append("END:VCALENDAR")
    write("ics_forestry_qz_userscript_count.ics", s, items, ics(lines),
          "A central-south forestry university; a browser userscript on the 强智 timetable page: one weekly series "
          "per course (COUNT, INTERVAL=2 for odd weeks), TZID with VTIMEZONE, holidays (Mid-Autumn, National Day) "
          "as EXDATE;TZID lists, the three make-up days as one-off events after the series; 强智 wordings for "
          "weeks and sections in DESCRIPTION.")


# =========================================================================== 4. language university, iPhone by hand

APPLE_VTZ = ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "X-LIC-LOCATION:Asia/Shanghai", "BEGIN:STANDARD",
             "DTSTART:19910915T000000", "RRULE:FREQ=YEARLY;UNTIL=19910914T150000Z;BYMONTH=9;BYDAY=3SU",
             "TZNAME:GMT+8", "TZOFFSETFROM:+0900", "TZOFFSETTO:+0800", "END:STANDARD", "END:VTIMEZONE"]


def f4_language_iphone_manual() -> None:
    s = School("辽海外国语大学", "Asia/Shanghai", date(2025, 2, 24), 18,
               grid(("08:20", 4, 45, [10, 20, 10]), ("13:30", 4, 45, [10, 20, 10]), ("18:00", 3, 45, 10)),
               off={date(2025, 4, 4), date(2025, 5, 1), date(2025, 5, 2), date(2025, 5, 5), date(2025, 6, 2)},
               makeup={date(2025, 4, 27): date(2025, 5, 5)})
    # (courses of one series, notes the student typed)
    series = [
        ([Course("基础日语(二)", 1, 1, 2, weeks(1, 16), "日语楼201", ["王丽"]),
          Course("基础日语(二)", 3, 1, 2, weeks(1, 16), "日语楼201", ["王丽"])], "老师：王丽"),
        ([Course("大学英语(二)", 2, 1, 2, weeks(1, 16), "综合楼402")], ""),
        ([Course("日语听力(二)", 2, 3, 4, weeks(1, 16), "日语楼305", ["佐藤美咲"])], "佐藤美咲"),
        ([Course("中国文化概论", 3, 5, 6, weeks(1, 12), "综合楼101", ["王丽"])], "老师：王丽"),
        ([Course("日语会话(二)", 4, 3, 4, weeks(1, 16), "日语楼210", ["高桥健太"])], "高桥健太"),
        ([Course("日本概况", 4, 9, 10, weeks(3, 14), "日语楼101")], ""),
        ([Course("体育(二)", 5, 3, 4, weeks(1, 16), "体育馆")], ""),
    ]
    lines = ["BEGIN:VCALENDAR", "METHOD:PUBLISH", "VERSION:2.0", "X-WR-CALNAME:课程", "PRODID:-//Apple Inc.//macOS 15.3//EN",
         "X-APPLE-CALENDAR-COLOR:#34AADC", "X-WR-TIMEZONE:Asia/Shanghai", "CALSCALE:GREGORIAN", *APPLE_VTZ]
    items: list[Item] = []

    def event(key: object, c: Course, d: date, extra: list[str], notes: str) -> None:
        a, b = s.times(d, c.first, c.last)
        u = uid("f4", key).upper()
        lines.extend(["BEGIN:VEVENT", "CREATED:20250222T131402Z", f"UID:{u}", *extra,
                  f"DTEND;TZID=Asia/Shanghai:{fmt(local(d, b))}", "TRANSP:OPAQUE",
                  "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC", f"SUMMARY:{esc(c.title)}",
                  "LAST-MODIFIED:20250501T020311Z", "DTSTAMP:20250501T020311Z",
                  f"DTSTART;TZID=Asia/Shanghai:{fmt(local(d, a))}", "SEQUENCE:1"]
                 + ([f"LOCATION:{esc(c.room)}"] if c.room else []) + ([f"DESCRIPTION:{esc(notes)}"] if notes else [])
                 + ["END:VEVENT"])

    for i, (group, notes) in enumerate(series):
        c0 = group[0]
        d0 = s.day(c0.weeks[0], c0.weekday)
        last = max(s.day(c.weeks[-1], c.weekday) for c in group)
        byday = ",".join(BYDAY[c.weekday - 1] for c in group)
        rule = f"RRULE:FREQ=WEEKLY;UNTIL={utc(last, '23:59', s.zone)[:-3]}59Z" + (f";BYDAY={byday}" if len(group) > 1 else "")
        gone = sorted(s.day(w, c.weekday) for c in group for w in c.weeks if s.day(w, c.weekday) in s.off)
        ex = [f"EXDATE;TZID=Asia/Shanghai:{fmt(local(g, s.times(g, c0.first, c0.last)[0]))}" for g in gone]
        event(i, c0, d0, ex + [rule], notes)
        for c in group:
            items += series_items(s, c, c.weeks)
    lines += ["BEGIN:VEVENT", "CREATED:20250301T101500Z", f"UID:{uid('f4', 'exam').upper()}",
          "DTEND;VALUE=DATE:20250427", "TRANSP:TRANSPARENT", "SUMMARY:期中考试周", "DTSTART;VALUE=DATE:20250421",
          "DTSTAMP:20250301T101500Z", "SEQUENCE:0", "END:VEVENT"]
    items.append(Item("期中考试周", date(2025, 4, 21), "", "", all_day=True))
    for i, (group, notes) in enumerate(series):
        for c in group:
            for m, _ in makeup_items(s, c):
                event((i, m), c, m, [], notes + ("\n" if notes else "") + "调休补课")
                items.append(one_item(s, c, m))
    lines.append("END:VCALENDAR")
    write("ics_language_iphone_manual_byday.ics", s, items, ics(lines),
          "A northeastern language university; the student typed the timetable into the iPhone calendar and "
          "exported it from macOS Calendar: one repeating event per course (UNTIL at the end of the last day in "
          "UTC, one course on two weekdays via BYDAY), deleted holiday occurrences as EXDATE lines before the "
          "RRULE, a make-up Sunday added by hand, an all-day exam week; teachers only where the student wrote "
          "them in the notes.")


# =========================================================================== 5. southern polytechnic, class sheet CSV

def f5_polytechnic_class_sheet() -> None:
    s = School("珠江职业技术大学", "Asia/Shanghai", date(2025, 9, 1), 18,
               grid(("08:30", 4, 40, [10, 20, 10]), ("14:00", 4, 40, [10, 20, 10]), ("19:00", 2, 40, 10)))
    cs = [
        Course("机械制图", 1, 1, 2, weeks(1, 16), "实训楼B201", ["陈志强"], "陈志强"),
        Course("机械制图", 3, 3, 4, weeks(1, 16), "实训楼B201", ["陈志强"], "陈志强"),
        Course("电工电子技术", 2, 1, 2, weeks(1, 16), "教学楼3-402", ["黄丽", "林伟"], "黄丽/林伟"),
        Course("高等数学", 2, 5, 6, weeks(1, 16), "教学楼1-305", ["吴敏"], "吴敏"),
        Course("大学英语", 4, 1, 2, weeks(1, 16), "教学楼1-210", ["何晓燕"], "何晓燕"),
        Course("数控编程与操作", 4, 5, 8, weeks(2, 16, "even"), "数控实训中心", ["梁家豪"], "梁家豪"),
        Course("思想道德与法治", 5, 1, 2, weeks(1, 12), "报告厅", ["刘洋"], "刘洋"),
        Course("CAD辅助设计", 1, 9, 10, weeks(3, 10), "机房C305", ["陈志强"], "陈志强", {"note": "自带U盘"}),
        Course("体育", 5, 3, 4, weeks(1, 16), "田径场", ["钟伟"], "钟伟", {"note": "雨天改到风雨球场"}),
        Course("金工实习", 3, 5, 8, weeks(17, 18), "金工车间", ["莫建华"], "莫建华", {"note": "穿工作服"}),
    ]
    rows = ["序号,课程名称,任课教师,星期,开始节,结束节,上课周次,上课地点,备注"]
    items: list[Item] = []
    for n, c in enumerate(cs, 1):
        rows.append(",".join([str(n), c.title, c.shown_teachers, f"周{WEEKDAY_ZH[c.weekday - 1]}", str(c.first),
                              str(c.last), week_text(c.weeks), c.room, c.extra.get("note", "")]))
        items += course_items(s, c)
    data = ("\r\n".join(rows) + "\r\n").encode("gbk")
    write("csv_polytechnic_class_sheet_gbk.csv", s, items, data,
          "A southern polytechnic (vocational university); the class monitor's Excel sheet saved as CSV (GBK, "
          "CRLF): one row per course block with 星期 as 周一…, first and last section in two columns, weeks as "
          "'1-16周' / '2-16周(双)', two teachers joined by '/', a remarks column. No dates: weeks count from the "
          "student's week 1.")


# =========================================================================== 6. far-west university, 教务 export in UTC

def f6_plateau_jw_export_utc() -> None:
    s = School("雪域高原大学", "Asia/Shanghai", date(2025, 9, 15), 18,
               grid(("09:30", 4, 45, [10, 20, 10]), ("15:30", 4, 45, [10, 20, 10]), ("20:00", 3, 40, 5)),
               off=days(date(2025, 10, 1), date(2025, 10, 8)),
               makeup={date(2025, 9, 28): date(2025, 10, 8), date(2025, 10, 11): date(2025, 10, 3)})
    cs = [
        Course("大学物理(一)", 1, 1, 2, weeks(1, 16), "教学楼A区-204", ["次仁多吉"], "次仁多吉", {"class": "物理(一)-03"}),
        Course("大学英语(一)", 1, 5, 6, weeks(1, 16), "外语楼203", ["Sarah Miller"], "Sarah Miller", {"class": "英语(一)-17"}),
        Course("高等数学A(一)", 2, 1, 2, weeks(1, 16), "教学楼B区-301", ["李卫东"], "李卫东", {"class": "高数A-05"}),
        Course("军事理论", 2, 9, 10, weeks(1, 8), "大礼堂", ["罗布"], "罗布", {"class": "军理-01"}),
        Course("藏文化概论", 3, 3, 4, weeks(1, 12), "文科楼112", ["格桑卓玛"], "格桑卓玛", {"class": "藏文化-02"}),
        Course("程序设计基础", 3, 5, 7, weeks(2, 13), "信息楼305", ["王涛", "扎西平措"], "王涛，扎西平措", {"class": "程设-04"}),
        Course("大学物理(一)", 4, 3, 4, weeks(1, 16), "教学楼A区-204", ["次仁多吉"], "次仁多吉", {"class": "物理(一)-03"}),
        Course("高等数学A(一)", 5, 1, 2, weeks(1, 16), "教学楼B区-301", ["李卫东"], "李卫东", {"class": "高数A-05"}),
    ]
    pairs = per_meeting(s, cs, by_course=False)
    lines = ["BEGIN:VCALENDAR", "PRODID:-//雪域高原大学//教务管理系统 V6.0//ZH", "VERSION:2.0", "CALSCALE:GREGORIAN",
         "METHOD:PUBLISH"]
    for n, (c, it) in enumerate(pairs):
        week = (it.date - s.week1).days // 7 + 1
        desc = f"任课教师：{c.shown_teachers}；教学班：{c.extra['class']}；周次：第{week}周；节次：第{c.first}-{c.last}节"
        lines += ["BEGIN:VEVENT", "DTSTAMP:20250910T031522Z", f"UID:JW{n:05d}-2025-2026-1@jwxt",
              f"DTSTART:{utc(it.date, it.start, s.zone)}", f"DTEND:{utc(it.date, it.end, s.zone)}",
              f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    exam = Item("高等数学A(一) 期末考试", date(2026, 1, 20), "10:00", "12:00")
    lines += ["BEGIN:VEVENT", "DTSTAMP:20250910T031522Z", "UID:KS00001-2025-2026-1@jwxt",
          f"DTSTART:{utc(exam.date, exam.start, s.zone)}", f"DTEND:{utc(exam.date, exam.end, s.zone)}",
          f"SUMMARY:{esc(exam.summary)}", "LOCATION:教学楼B区-101", "DESCRIPTION:考试安排：闭卷；座位号见准考证",
          "END:VEVENT", "END:VCALENDAR"]
    write("ics_plateau_jw_export_utc.ics", s, [it for _, it in pairs] + [exam], ics(lines),
          "A university in the far west (Beijing time, a day that starts at 09:30 and ends at 22:10); the 教务 "
          "system's own calendar export: one event per meeting in UTC, CRLF, folded lines; National Day left out "
          "and two make-up days; DESCRIPTION with 任课教师/教学班/周次/节次 separated by '；', two teachers joined "
          "by '，'; an end-of-term exam after week 18.")


# =========================================================================== 7. independent college, 青果 script, winter hours

def f7_independent_kingo_winter() -> None:
    summer = grid(("08:00", 4, 45, [10, 25, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:00", 3, 45, 10))
    winter = grid(("08:00", 4, 45, [10, 25, 10]), ("14:00", 4, 45, [10, 20, 10]), ("18:30", 3, 45, 10))
    s = School("皖江大学滨湖学院", "Asia/Shanghai", date(2024, 9, 9), 18, summer, (date(2024, 10, 8), winter),
               off=days(date(2024, 10, 1), date(2024, 10, 7)),
               makeup={date(2024, 9, 29): date(2024, 10, 7), date(2024, 10, 12): date(2024, 10, 4)})
    cs = [
        Course("数据结构", 1, 3, 4, weeks(1, 16), "实验楼305", ["李明"], "李明"),
        Course("毛泽东思想和中国特色社会主义理论体系概论", 1, 5, 7, weeks(1, 16), "综合楼101", ["陈慧"], "陈慧"),
        Course("操作系统", 2, 5, 6, weeks(1, 16), "博学楼A201", ["王芳"], "王芳"),
        Course("数据结构", 3, 1, 2, weeks(1, 16), "实验楼305", ["李明"], "李明"),
        Course("离散数学", 4, 3, 4, weeks(1, 16), "博学楼A105", ["张丽", "赵刚"], "张丽,赵刚"),
        Course("概率论与数理统计", 5, 5, 6, weeks(1, 16), "博学楼B302", ["孙涛"], "孙涛"),
        Course("数据库原理", 5, 9, 11, weeks(3, 14), "实验楼402", ["周强"], "周强"),
    ]
    pairs = per_meeting(s, cs, by_course=False)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//kingo2ics//github//CN", "X-WR-CALNAME:2024秋课表",
         "X-WR-TIMEZONE:Asia/Shanghai"]
    for n, (c, it) in enumerate(pairs):
        lines += ["BEGIN:VEVENT", f"UID:{uid('f7', n)}", f"DTSTART:{fmt(local(it.date, it.start))}",
              f"DTEND:{fmt(local(it.date, it.end))}", f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
              f"DESCRIPTION:{esc(f'教师：{c.shown_teachers}')}\\n第{c.first}-{c.last}节", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_independent_kingo_script_winter.ics", s, [it for _, it in pairs], ics(lines, eol="\n", folding=False),
          "An independent college in East China; a student's GitHub script over the 青果 timetable: one event "
          "per meeting in floating time, LF, long lines not folded; afternoon and evening start 30 minutes earlier "
          "from 8 October (second grid), National Day left out, a make-up Sunday before and a make-up Saturday "
          "after the change (each on its own day's hours); teachers joined by a comma.")


# =========================================================================== 8. teacher-training college, app series in UTC

def f8_teachers_college_app_utc_series() -> None:
    s = School("关中师范学院", "Asia/Shanghai", date(2025, 2, 17), 18,
               grid(("08:10", 5, 45, [10, 20, 10, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:30", 2, 45, 10)),
               off={date(2025, 4, 4), date(2025, 6, 2)} | days(date(2025, 5, 1), date(2025, 5, 5)))
    series = [
        [Course("教育心理学", 1, 1, 2, weeks(1, 16), "致知楼305", ["刘佳"], "刘佳"),
         Course("教育心理学", 4, 1, 2, weeks(1, 16), "致知楼305", ["刘佳"], "刘佳")],
        [Course("中国古代文学(二)", 2, 3, 5, weeks(1, 16), "文苑楼210", ["马文博"], "马文博")],
        [Course("现代汉语(二)", 3, 1, 2, weeks(1, 16), "文苑楼108", ["郑小红"], "郑小红"),
         Course("现代汉语(二)", 5, 1, 2, weeks(1, 16), "文苑楼108", ["郑小红"], "郑小红")],
        [Course("书法", 3, 6, 7, weeks(1, 15, "odd"), "艺术楼402", ["韩磊"], "韩磊")],
        [Course("大学体育(二)", 4, 6, 7, weeks(1, 16), "东操场", ["杜鹏"], "杜鹏")],
        [Course("普通话训练", 2, 10, 11, weeks(2, 9), "文苑楼101", ["白雪"], "白雪")],
        [Course("教师口语", 5, 3, 4, weeks(1, 16), "致知楼201", ["宋晓梅", "冯军"], "宋晓梅、冯军")],
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ClassBox//Schedule Export 2.1//ZH-CN", "CALSCALE:GREGORIAN"]
    items: list[Item] = []
    for i, group in enumerate(series):
        c0 = group[0]
        d0 = s.day(c0.weeks[0], c0.weekday)
        a, b = s.times(d0, c0.first, c0.last)
        step = c0.weeks[1] - c0.weeks[0]
        last = max(s.day(c.weeks[-1], c.weekday) for c in group)
        rule = ("FREQ=WEEKLY;WKST=MO" + (f";INTERVAL={step}" if step > 1 else "")
                + f";UNTIL={utc(last, '23:59', s.zone)[:-3]}59Z;BYDAY={','.join(BYDAY[c.weekday - 1] for c in group)}")
        gone = sorted(s.day(w, c.weekday) for c in group for w in c.weeks if s.day(w, c.weekday) in s.off)
        lines += ["BEGIN:VEVENT", f"UID:classbox-{uid('f8', i)}", "DTSTAMP:20250215T094500Z",
              f"DTSTART:{utc(d0, a, s.zone)}", f"DTEND:{utc(d0, b, s.zone)}", f"RRULE:{rule}"]
        if gone:
            lines.append("EXDATE:" + ",".join(utc(g, a, s.zone) for g in gone))
        lines += [f"SUMMARY:{esc(c0.title)}", f"LOCATION:{esc(c0.room)}",
              f"DESCRIPTION:{esc(c0.shown_teachers + ' · ' + week_text(c0.weeks))}", "END:VEVENT"]
        for c in group:
            items += series_items(s, c, c.weeks)
    lines.append("END:VCALENDAR")
    write("ics_teachers_college_app_utc_byday.ics", s, items, ics(lines),
          "A teacher-training college in the northwest; a phone timetable app's .ics export: one weekly series per "
          "course in UTC (a course on two weekdays in one series via BYDAY, INTERVAL=2 for odd weeks, UNTIL the end "
          "of the last day), holidays as one comma-separated UTC EXDATE list, no make-up days; a noon fifth "
          "section; DESCRIPTION is the teacher and the weeks joined by ' · '.")


# =========================================================================== 9. tropical university, Google export

def f9_tropical_google_script() -> None:
    s = School("琼州热带农业大学", "Asia/Shanghai", date(2024, 2, 26), 18,
               grid(("08:00", 5, 40, [10, 20, 10, 10]), ("15:00", 4, 45, [10, 15, 10]), ("19:40", 3, 45, 10)),
               off={date(2024, 4, 4), date(2024, 4, 5), date(2024, 6, 10)} | days(date(2024, 5, 1), date(2024, 5, 3)),
               makeup={date(2024, 4, 7): date(2024, 4, 5), date(2024, 4, 28): date(2024, 5, 2),
                       date(2024, 5, 11): date(2024, 5, 3)})
    cs = [
        Course("热带作物栽培学", 1, 1, 3, weeks(1, 16), "农科楼B203", ["陈海生"], "陈海生（副教授）"),
        Course("植物病理学", 2, 4, 5, weeks(1, 16), "农科楼A110", ["符丽珍"], "符丽珍"),
        Course("农业气象学", 3, 1, 2, weeks(1, 12), "环境楼305", ["吴天明"], "吴天明"),
        Course("椰子产业概论", 3, 10, 11, weeks(5, 12), "农科楼B101", ["林道远"], "林道远"),
        Course("植物病理学实验", 4, 6, 8, weeks(2, 16, "even"), "植保实验室", ["符丽珍", "王小波"], "符丽珍、王小波"),
        Course("大学英语(四)", 5, 1, 2, weeks(1, 16), "外语楼201", ["Olivia Chen"], "Olivia Chen"),
        Course("体育(四)-游泳", 5, 6, 7, weeks(1, 16), "游泳馆", ["黎明"], "黎明"),
    ]
    pairs = per_meeting(s, cs, by_course=True)
    order = sorted(range(len(pairs)), key=lambda k: uid("f9", k))  # Google writes events in no useful order
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0",
         "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:课表 2023-2024-2", "X-WR-TIMEZONE:Asia/Shanghai",
         "X-WR-CALDESC:由课表脚本生成"]
    for k in order:
        c, it = pairs[k]
        desc = f"任课教师：{c.shown_teachers}\n节次：第{c.first}-{c.last}节"
        lines += ["BEGIN:VEVENT", f"DTSTART:{utc(it.date, it.start, s.zone)}", f"DTEND:{utc(it.date, it.end, s.zone)}",
              "DTSTAMP:20240320T020000Z", f"UID:{uid('f9', k).replace('-', '')[:26]}@google.com",
              "CREATED:20240224T120501Z", f"DESCRIPTION:{esc(desc)}", "LAST-MODIFIED:20240224T120501Z",
              f"LOCATION:{esc(c.room)}", "SEQUENCE:0", "STATUS:CONFIRMED", f"SUMMARY:{esc(c.title)}",
              "TRANSP:OPAQUE", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_tropical_google_script_export.ics", s, [pairs[k][1] for k in order], ics(lines),
          "A tropical agricultural university in the far south (afternoon from 15:00, evening to 22:15, five "
          "40-minute morning sections); events made by a student's script in Google Calendar, then exported from "
          "Google: one event per meeting in UTC, in no useful order, folded lines; holidays left out and three "
          "make-up days; a teacher's title in full-width brackets, two teachers joined by '、'.")


# =========================================================================== 10. abroad: Netherlands, MyTimetable-style feed

NL_VTZ = ["BEGIN:VTIMEZONE", "TZID:Europe/Amsterdam", "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
          "TZNAME:CEST", "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
          "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:19701025T030000",
          "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE"]


def f10_netherlands_timetable() -> None:
    s = School("Noordhaven University", "Europe/Amsterdam", date(2025, 9, 1), 20,
               grid(("09:00", 2, 105, 15), ("13:00", 3, 105, 15)))
    block1, block2 = weeks(1, 8), weeks(11, 18)
    cs = [
        Course("Calculus 1", 2, 1, 1, block1, "Bernoulliborg 5161.0105", ["M. Bakker"], "dr. M. Bakker",
               {"act": "Lecture", "code": "WBMA001-05"}),
        Course("Introduction to Programming", 1, 3, 3, block1, "Linnaeusborg 5173.0151", ["R. Jansen"],
               "dr. ir. R. Jansen", {"act": "Lecture", "code": "WBCS001-05"}),
        Course("Introduction to Programming", 3, 4, 5, block1, "Bernoulliborg 5161.0289 (computer lab)",
               ["R. Jansen", "T. Smit"], "dr. ir. R. Jansen, T. Smit MSc", {"act": "Practical", "code": "WBCS001-05"}),
        Course("Calculus 1", 4, 3, 3, block1, "Bernoulliborg 5161.0105", ["M. Bakker"], "dr. M. Bakker",
               {"act": "Lecture", "code": "WBMA001-05"}),
        Course("Calculus 1", 5, 2, 2, block1, "Nijenborgh 5113.0202", ["L. Visser"], "L. Visser",
               {"act": "Tutorial", "code": "WBMA001-05"}),
        Course("Linear Algebra", 1, 1, 1, block2, "Zernike Building 5116.0110", ["A.J. de Boer"], "prof. dr. A.J. de Boer",
               {"act": "Lecture", "code": "WBMA012-05"}),
        Course("Linear Algebra", 3, 2, 2, block2, "Zernike Building 5116.0110", ["A.J. de Boer"], "prof. dr. A.J. de Boer",
               {"act": "Lecture", "code": "WBMA012-05"}),
        Course("Linear Algebra", 4, 4, 4, block2, "Nijenborgh 5113.0104", ["L. Visser"], "L. Visser",
               {"act": "Tutorial", "code": "WBMA012-05"}),
        Course("Statistics", 2, 3, 3, block2, "Linnaeusborg 5173.0009", ["K. Mulder"], "dr. K. Mulder",
               {"act": "Lecture", "code": "WBMA027-05"}),
        Course("Statistics", 5, 1, 1, block2, "Linnaeusborg 5173.0009", ["K. Mulder"], "dr. K. Mulder",
               {"act": "Lecture", "code": "WBMA027-05"}),
    ]
    pairs = per_meeting(s, cs, by_course=False)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Eveoh//MyTimetable//EN", "CALSCALE:GREGORIAN",
         "X-WR-CALNAME:MyTimetable", "X-PUBLISHED-TTL:PT1H", *NL_VTZ]
    for n, (c, it) in enumerate(pairs):
        desc = f"Activity: {c.extra['act']}\nCourse: {c.extra['code']} {c.title}\nStaff: {c.shown_teachers}"
        lines += ["BEGIN:VEVENT", f"UID:mytt-{uid('f10', n)}", "DTSTAMP:20250828T101010Z",
              f"DTSTART;TZID=Europe/Amsterdam:{fmt(local(it.date, it.start))}",
              f"DTEND;TZID=Europe/Amsterdam:{fmt(local(it.date, it.end))}", f"SUMMARY:{esc(c.title)}",
              f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    exam = Item("Calculus 1 - Exam", date(2026, 1, 20), "08:30", "10:30")
    lines += ["BEGIN:VEVENT", f"UID:mytt-{uid('f10', 'exam')}", "DTSTAMP:20250828T101010Z",
          "DTSTART;TZID=Europe/Amsterdam:20260120T083000", "DTEND;TZID=Europe/Amsterdam:20260120T103000",
          "SUMMARY:Calculus 1 - Exam", "LOCATION:Aletta Jacobs Hall", "DESCRIPTION:Activity: Exam (resit)",
          "END:VEVENT", "END:VCALENDAR"]
    write("ics_netherlands_mytimetable_dst.ics", s, [it for _, it in pairs] + [exam], ics(lines),
          "A Chinese student at a Dutch university; the university's timetable feed: one event per meeting with "
          "TZID=Europe/Amsterdam and a DST VTIMEZONE (summer time ends between the two teaching blocks), "
          "105-minute slots, activity type, course code and staff with Dutch academic titles in DESCRIPTION; a "
          "resit exam after the semester.")


def main() -> None:
    for make in (f1_normal_zf_pyscript, f2_finance_app_floating, f3_forestry_qz_userscript,
                 f4_language_iphone_manual, f5_polytechnic_class_sheet, f6_plateau_jw_export_utc,
                 f7_independent_kingo_winter, f8_teachers_college_app_utc_series, f9_tropical_google_script,
                 f10_netherlands_timetable):
        make()


if __name__ == "__main__":
    main()
