"""Write the eighth held-out set (``files/dev11/``) from descriptions of fictional schools.

Written blind: without reading the importer or any other generator. Each file is one student's timetable:
a :class:`School` (week-1 Monday, zone, weeks, section grid, optionally a second grid from a date, days
off, make-up days that run the classes of a day off) and the student's :class:`Course` s. The expected
board is computed from that description alone (:func:`board`); the file is then rendered from the same
description in the shape of the tool the student would use. Run ``python -m bench.import_eval.make_dev11``.
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().parent / "files" / "dev11"
Grid = list[list[str]]
Date = date  # for annotations inside a class that has a field named ``date``


def grid(*blocks: tuple[str, int, int, list[int]]) -> Grid:
    """Blocks of (first start 'HH:MM', n sections, minutes each, the n-1 breaks after each) -> [[start, end]]."""
    out: Grid = []
    for first, n, minutes, breaks in blocks:
        assert len(breaks) == n - 1
        t = datetime.strptime(first, "%H:%M")
        for i in range(n):
            end = t + timedelta(minutes=minutes)
            out.append([t.strftime("%H:%M"), end.strftime("%H:%M")])
            t = end + timedelta(minutes=breaks[i] if i < n - 1 else 0)
    return out


def days(first: str, last: str) -> set[date]:
    a, b = date.fromisoformat(first), date.fromisoformat(last)
    return {a + timedelta(days=i) for i in range((b - a).days + 1)}


@dataclass
class Course:
    name: str
    teachers: list[str]  # names only: the expected teacher field
    room: str
    days: tuple[int, ...]  # ISO weekdays with the same sections (one series with BYDAY where a tool does that)
    first: int
    last: int
    weeks: list[int]
    written: str = ""  # how the file writes the teachers (titles, separators); default: names joined by '、'
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class School:
    key: str
    name: str
    zone: str
    week1: date
    weeks: int
    sections: Grid
    notes: str
    second: tuple[date, Grid] | None = None
    off: set[date] = field(default_factory=set)
    makeups: dict[date, date] = field(default_factory=dict)  # make-up day -> the day off whose classes it runs
    courses: list[Course] = field(default_factory=list)

    def day(self, week: int, weekday: int) -> date:
        return self.week1 + timedelta(weeks=week - 1, days=weekday - 1)

    def grid_on(self, d: date) -> Grid:
        if self.second and d >= self.second[0]:
            return self.second[1]
        return self.sections

    def times(self, d: date, c: Course) -> tuple[str, str]:
        g = self.grid_on(d)
        return g[c.first - 1][0], g[c.last - 1][1]

    def week_of(self, d: date) -> int:
        return (d - self.week1).days // 7 + 1

    @property
    def last_day(self) -> date:
        return self.week1 + timedelta(weeks=self.weeks, days=-1)


@dataclass
class Occ:
    course: Course
    index: int  # the course's place in the file: the earlier one keeps a clashing section
    date: Date
    start: str
    end: str
    planned: Date  # the timetable date (differs on a make-up day)


def occurrences(s: School) -> list[Occ]:
    """Every meeting the timetable holds, days off removed, make-up days added, in file order."""
    runs_on = {off: mk for mk, off in s.makeups.items()}
    out = []
    for i, c in enumerate(s.courses):
        for w in c.weeks:
            for wd in c.days:
                d = s.day(w, wd)
                if d in s.off:
                    if d not in runs_on:
                        continue
                    d_run = runs_on[d]
                    out.append(Occ(c, i, d_run, *s.times(d_run, c), d))
                    continue
                out.append(Occ(c, i, d, *s.times(d, c), d))
    out.sort(key=lambda o: (o.date, o.index))
    return out


def board(s: School, occs: list[Occ], extra_skips: list[dict]) -> dict:
    """The expected JSON: kept meetings, clashes (earlier course keeps the section) and the file's extras."""
    taken: dict[tuple[date, int], int] = {}
    meetings, skipped = [], []
    for o in occs:
        if not s.week1 <= o.date <= s.last_day:
            skipped.append({"summary": o.course.name, "why": "outside_semester", "date": o.date.isoformat()})
            continue
        cells = [(o.date, n) for n in range(o.course.first, o.course.last + 1)]
        if any(cell in taken and taken[cell] != o.index for cell in cells):
            skipped.append({"summary": o.course.name, "why": "overlap", "date": o.date.isoformat()})
            continue
        taken.update({cell: o.index for cell in cells})
        meetings.append({"date": o.date.isoformat(), "start": o.start, "end": o.end, "title": o.course.name,
                         "location": o.course.room, "teacher": "、".join(o.course.teachers)})
    meetings.sort(key=lambda m: (m["date"], m["start"], m["title"]))
    return {"school": s.name, "time_zone": s.zone, "week1_monday": s.week1.isoformat(), "semester_weeks": s.weeks,
            "sections": s.sections,
            "second_grid": {"from": s.second[0].isoformat(), "sections": s.second[1]} if s.second else None,
            "meetings": meetings, "skipped": skipped + extra_skips, "notes": s.notes}


# --- iCalendar writing -----------------------------------------------------------------------------

def esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str, width: int = 75) -> list[str]:
    """RFC 5545 folding at ``width`` octets, never inside a UTF-8 character."""
    out, cur, size = [], "", 0
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > width:
            out.append(cur)
            cur, size = " ", 1
        cur += ch
        size += n
    return [*out, cur]


def ics(lines: list[str], eol: str = "\r\n", folding: bool = True, bom: bool = False) -> bytes:
    body = []
    for line in lines:
        body.extend(fold(line) if folding else [line])
    return (("\ufeff" if bom else "") + eol.join(body) + eol).encode("utf-8")


def at(d: date, hm: str) -> datetime:
    return datetime.combine(d, time.fromisoformat(hm))


def local(d: date, hm: str) -> str:
    return at(d, hm).strftime("%Y%m%dT%H%M%S")


def utc(s: School, d: date, hm: str) -> str:
    return at(d, hm).replace(tzinfo=ZoneInfo(s.zone)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def vtimezone_prc() -> list[str]:
    return ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "X-LIC-LOCATION:Asia/Shanghai", "BEGIN:STANDARD",
            "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "DTSTART:19700101T000000", "END:STANDARD",
            "END:VTIMEZONE"]


def stamp(s: School, n: int) -> str:
    """An export moment a few days before term (the minutes vary per event, as a slow exporter's would)."""
    return (datetime.combine(s.week1 - timedelta(days=4), time(2, 15)) + timedelta(seconds=13 * n)).strftime(
        "%Y%m%dT%H%M%SZ")


WD = ["", "MO", "TU", "WE", "TH", "FR", "SA", "SU"]
CN = ["", "一", "二", "三", "四", "五", "六", "日"]


def teachers_written(c: Course, sep: str = "、") -> str:
    return c.written or sep.join(c.teachers)


def weeks_text(weeks: list[int]) -> str:
    if weeks == list(range(weeks[0], weeks[-1] + 1)):
        return f"{weeks[0]}-{weeks[-1]}"
    if weeks == list(range(weeks[0], weeks[-1] + 1, 2)):
        return f"{weeks[0]}-{weeks[-1]}{'单' if weeks[0] % 2 else '双'}"
    return ",".join(map(str, weeks))


@dataclass
class Series:
    """One weekly series: its weeks (a step-1 or step-2 run), the days off it skips, the make-ups it gains."""
    course: Course
    weeks: list[int]
    exdates: list[tuple[date, str]]  # (date, start) of planned instances that fall on a day off
    makeups: list[Occ]
    first: date  # DTSTART's day and hours, and the day of the last instance (for UNTIL)
    start: str
    end: str
    last: date

    @property
    def interval(self) -> int:
        return 2 if len(self.weeks) > 1 and self.weeks[1] - self.weeks[0] == 2 else 1


def series(s: School, c: Course, weeks: list[int] | None = None) -> Series:
    weeks = weeks or c.weeks
    step = weeks[1] - weeks[0] if len(weeks) > 1 else 1
    assert weeks == list(range(weeks[0], weeks[-1] + 1, step)), (c.name, weeks)
    runs_on = {off: mk for mk, off in s.makeups.items()}
    ex, mk = [], []
    for w in weeks:
        for wd in c.days:
            d = s.day(w, wd)
            if d in s.off:
                ex.append((d, s.times(d, c)[0]))
                if d in runs_on:
                    mk.append(Occ(c, 0, runs_on[d], *s.times(runs_on[d], c), d))
    first = s.day(weeks[0], c.days[0])
    return Series(c, weeks, ex, mk, first, *s.times(first, c), s.day(weeks[-1], c.days[-1]))


# --- the ten schools --------------------------------------------------------------------------------

FALL_OFF = days("2025-10-01", "2025-10-08")


def petroleum() -> tuple[School, bytes, list[dict]]:
    """A Sichuan petroleum university; a phone timetable app's calendar export (one series per course)."""
    s = School(
        "ics_petroleum_app_series_tzid", "蜀南石油大学", "Asia/Shanghai", date(2025, 9, 8), 18,
        grid(("08:30", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("19:30", 3, 45, [10, 10])),
        "A Sichuan petroleum university (Beijing time; 08:30 start, afternoon 14:00, evening 19:30); a phone "
        "timetable app's calendar export: one series per course block with TZID and VTIMEZONE, UNTIL in UTC, "
        "EXDATE for National Day, make-up days (28 Sep runs Mon 6 Oct, 11 Oct runs Tue 7 Oct) as RDATE, a "
        "reminder on every event; DESCRIPTION holds the teacher and the weeks.",
        off=FALL_OFF, makeups={date(2025, 9, 28): date(2025, 10, 6), date(2025, 10, 11): date(2025, 10, 7)})
    s.courses = [
        Course("油气田开发地质学", ["何建平"], "明理楼A308", (1,), 1, 2, list(range(1, 17))),
        Course("工程流体力学", ["罗晓燕"], "明理楼B201", (1,), 5, 6, list(range(1, 17, 2))),
        Course("大学英语(三)", ["Emily Clarke"], "外语楼306", (2,), 1, 2, list(range(1, 17))),
        Course("马克思主义基本原理", ["邓文彬", "苏婷"], "博学楼102", (2,), 3, 4, list(range(1, 13)),
               written="邓文彬,苏婷"),
        Course("钻井工程", ["杜海峰"], "明理楼A210", (3,), 3, 4, list(range(3, 19))),
        Course("工程流体力学", ["罗晓燕"], "明理楼B201", (4,), 1, 2, list(range(1, 17))),
        Course("体育(三)", ["蒋波"], "东区田径场", (4,), 5, 6, list(range(1, 17))),
        Course("石油工程软件应用", ["唐伟"], "计算中心305", (2,), 9, 11, list(range(4, 12))),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kebiao Timetable App//iOS 6.8.2//CN", "CALSCALE:GREGORIAN",
             "X-WR-CALNAME:我的课表", "X-WR-TIMEZONE:Asia/Shanghai", *vtimezone_prc()]
    for i, c in enumerate(s.courses):
        se = series(s, c)
        d0, st, en, until = se.first, se.start, se.end, se.last
        uid = f"kb-{s.week1:%Y%m%d}-{i:03d}-{c.days[0]}{c.first:02d}@kebiao.app"
        lines += ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{stamp(s, i)}",
                  f"DTSTART;TZID=Asia/Shanghai:{local(d0, st)}", f"DTEND;TZID=Asia/Shanghai:{local(d0, en)}",
                  f"RRULE:FREQ=WEEKLY;INTERVAL={se.interval};UNTIL={utc(s, until, '23:59')[:-3]}59Z"]
        if se.exdates:
            lines.append("EXDATE;TZID=Asia/Shanghai:" + ",".join(local(d, t) for d, t in se.exdates))
        for m in se.makeups:
            lines.append(f"RDATE;TZID=Asia/Shanghai:{local(m.date, m.start)}")
        lines += [f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                  "DESCRIPTION:" + esc(f"老师：{teachers_written(c)}\n周数：{weeks_text(c.weeks)}周\n第{c.first}-{c.last}节"),
                  "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT20M", "DESCRIPTION:上课提醒", "END:VALARM",
                  "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return s, ics(lines), []


def law() -> tuple[School, bytes, list[dict]]:
    """A Chongqing university of political science and law; a student's Go script over 新正方 (COUNT, UTC)."""
    s = School(
        "ics_law_zf_goscript_count_utc", "巴渝政法大学", "Asia/Shanghai", date(2026, 3, 2), 17,
        grid(("08:30", 5, 45, [10, 20, 10, 10]), ("14:00", 4, 45, [10, 20, 10]), ("19:00", 4, 45, [10, 10, 10])),
        "A Chongqing university of political science and law (13 sections: five in the morning from 08:30, four "
        "from 14:00, four from 19:00); a student's Go script over the 新正方 timetable page: one series per course "
        "block in UTC with COUNT (INTERVAL=2 for odd/even weeks), LF line ends, no folding, no VTIMEZONE; the "
        "script knows no holidays, so every week of the course is in the file and on the board.")
    s.courses = [
        Course("民法总论", ["周立新"], "崇法楼201", (1,), 1, 3, list(range(1, 17)), written="周立新(教授)"),
        Course("刑法分论", ["冉明"], "崇法楼305", (2,), 3, 5, list(range(1, 17)), written="冉明(副教授)"),
        Course("法理学", ["向东", "谭雪梅"], "明德楼110", (3,), 1, 2, list(range(1, 17)), written="向东(教授),谭雪梅(讲师)"),
        Course("宪法学", ["黄志刚"], "明德楼204", (3,), 6, 7, list(range(1, 16, 2)), written="黄志刚(副教授)"),
        Course("法律英语", ["Daniel Brooks"], "外语楼B402", (4,), 6, 7, list(range(2, 17, 2)), written="Daniel Brooks(讲师)"),
        Course("习近平新时代中国特色社会主义思想概论", ["陶静"], "综合楼101", (4,), 1, 3, list(range(1, 13)),
               written="陶静(讲师)"),
        Course("模拟法庭", ["胡斌"], "模拟法庭(崇法楼一楼)", (5,), 10, 12, list(range(5, 15)), written="胡斌(讲师)"),
        Course("体育(二)", ["王凯"], "风雨操场", (5,), 3, 4, list(range(1, 17)), written="王凯(讲师)"),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zf2ics//go//ZH"]
    for i, c in enumerate(s.courses):
        se = series(s, c)
        d0, st, en = se.first, se.start, se.end
        desc = (f"教师: {teachers_written(c)}\n周次: {weeks_text(c.weeks)}周\n节次: {c.first}-{c.last}节\n"
                f"教学班: {3100 + i}-0{i % 3 + 1}")
        lines += ["BEGIN:VEVENT", f"UID:{i:02d}{(i + 7) * 1234567 % 10 ** 8:08d}@zf2ics",
                  f"DTSTAMP:{stamp(s, i)}", f"DTSTART:{utc(s, d0, st)}", f"DTEND:{utc(s, d0, en)}",
            f"RRULE:FREQ=WEEKLY;INTERVAL={se.interval};COUNT={len(se.weeks)}",
            f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return s, ics(lines, eol="\n", folding=False), []


def medical() -> tuple[School, bytes, list[dict]]:
    """A Shandong medical university; the 教务 system's own export: one event per meeting, TZID + VTIMEZONE."""
    s = School(
        "ics_medical_jw_per_meeting_tzid", "岱宗医科大学", "Asia/Shanghai", date(2025, 9, 1), 20,
        grid(("08:00", 4, 50, [10, 20, 10]), ("14:00", 4, 50, [10, 20, 10]), ("19:00", 3, 50, [10, 10])),
        "A Shandong medical university (50-minute sections: four from 08:00, four from 14:00, three from 19:00; "
        "20 weeks); the 教务 system's own calendar export: one event per meeting with TZID and a VTIMEZONE, CRLF, "
        "folded lines; National Day left out (no make-up classes); teachers with titles in brackets, several "
        "joined by '、'; lab blocks of four sections; an end-of-term exam after week 20.",
        off=FALL_OFF)
    s.courses = [
        Course("系统解剖学", ["孔令华", "程雪"], "基础医学楼B区解剖实验室3", (1,), 1, 4, list(range(1, 19)),
               written="孔令华（教授）、程雪（讲师）"),
        Course("医用化学", ["曹颖"], "公共教学楼207", (2,), 1, 2, list(range(1, 17)), written="曹颖（副教授）"),
        Course("组织学与胚胎学", ["孟凡强"], "基础医学楼A201", (2,), 5, 6, list(range(1, 19)), written="孟凡强（教授）"),
        Course("组织学与胚胎学实验", ["孟凡强", "贾丽"], "基础医学楼B区形态学实验室2", (4,), 5, 8,
               list(range(3, 19, 2)), written="孟凡强（教授）、贾丽（实验师）"),
        Course("医学心理学", ["宋佳"], "公共教学楼112", (3,), 3, 4, list(range(1, 13)), written="宋佳（讲师）"),
        Course("大学英语（三）", ["Rachel Green"], "外语楼405", (4,), 1, 2, list(range(1, 17)), written="Rachel Green（外教）"),
        Course("中国近现代史纲要", ["郭鹏"], "公共教学楼101", (5,), 3, 4, list(range(1, 17)), written="郭鹏（副教授）"),
        Course("医学文献检索", ["于晓"], "图书馆电子阅览室", (3,), 9, 11, list(range(6, 14)), written="于晓（馆员）"),
    ]
    occs = occurrences(s)
    lines = ["BEGIN:VCALENDAR", "PRODID:-//岱宗医科大学//教务管理系统//CN", "VERSION:2.0", "METHOD:PUBLISH",
             *vtimezone_prc()]
    for n, o in enumerate(occs):
        c = o.course
        week = s.week_of(o.planned)
        desc = f"教师：{teachers_written(c)}；周次：{week}；星期：{CN[o.planned.isoweekday()]}；节次：{c.first}-{c.last}"
        lines += ["BEGIN:VEVENT", f"UID:JW2025A{n:05d}@jwgl.dzmu.edu.cn", f"DTSTAMP:{stamp(s, n % 50)}",
                  f"DTSTART;TZID=Asia/Shanghai:{local(o.date, o.start)}",
                  f"DTEND;TZID=Asia/Shanghai:{local(o.date, o.end)}",
                  f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    exam = date(2026, 1, 22)
    lines += ["BEGIN:VEVENT", "UID:KS2025A00031@jwgl.dzmu.edu.cn", f"DTSTAMP:{stamp(s, 3)}",
              f"DTSTART;TZID=Asia/Shanghai:{local(exam, '09:00')}", f"DTEND;TZID=Asia/Shanghai:{local(exam, '11:00')}",
              "SUMMARY:系统解剖学（期末考试）", "LOCATION:基础医学楼A101", "DESCRIPTION:考试时间：第21周 星期四",
              "END:VEVENT", "END:VCALENDAR"]
    skips = [{"summary": "系统解剖学（期末考试）", "why": "outside_semester", "date": exam.isoformat()}]
    return s, ics(lines), skips


def architecture() -> tuple[School, bytes, list[dict]]:
    """An Anhui architecture university; a phone timetable app's CSV export (weeks as a spec, sections 'a-b')."""
    s = School(
        "csv_architecture_app_export", "江淮建筑大学", "Asia/Shanghai", date(2026, 3, 9), 18,
        grid(("08:00", 4, 45, [5, 20, 5]), ("14:00", 4, 45, [5, 20, 5]), ("19:00", 3, 45, [5, 5])),
        "An Anhui architecture university (45-minute sections with 5/20-minute breaks from 08:00, 14:00 and "
        "19:00); a phone timetable app's CSV export: UTF-8 with BOM, CRLF, columns 课程名称/上课老师/上课地点/"
        "星期/节次/周次 with 节次 as 'a-b'; two teachers joined by '/'; a studio course clashing with an "
        "elective on Thursday evenings of weeks 9-12 (the studio row comes first).")
    s.courses = [
        Course("建筑设计(二)", ["朱明远", "方琳"], "建筑馆301专教", (1,), 1, 4, list(range(1, 17)), written="朱明远/方琳"),
        Course("中国建筑史", ["汪志强"], "教学楼B-105", (2,), 1, 2, list(range(1, 17))),
        Course("建筑构造", ["吴昊"], "教学楼B-210", (2,), 5, 6, list(range(1, 16, 2))),
        Course("画法几何与阴影透视", ["葛晓峰"], "教学楼A-402", (3,), 3, 4, list(range(1, 13))),
        Course("建筑设计(二)", ["朱明远", "方琳"], "建筑馆301专教", (4,), 9, 11, list(range(9, 17)), written="朱明远/方琳"),
        Course("城市摄影(公选)", ["潘越"], "艺术楼203", (4,), 9, 10, list(range(9, 13))),
        Course("大学英语(四)", ["李雯"], "教学楼A-208", (5,), 1, 2, list(range(1, 17))),
        Course("美术(二)", ["陶然"], "美术教室2", (5,), 5, 8, list(range(2, 17, 2))),
    ]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(["课程名称", "上课老师", "上课地点", "星期", "节次", "周次"])
    for c in s.courses:
        w.writerow([c.name, teachers_written(c), c.room, f"星期{CN[c.days[0]]}", f"{c.first}-{c.last}", weeks_text(c.weeks)])
    return s, ("\ufeff" + buf.getvalue()).encode("utf-8"), []


def telecom() -> tuple[School, bytes, list[dict]]:
    """A Fujian posts-and-telecommunications college; classes typed into Google Calendar, exported from Google."""
    s = School(
        "ics_telecom_google_manual_byday", "闽江邮电学院", "Asia/Shanghai", date(2025, 9, 15), 18,
        grid(("08:00", 4, 45, [10, 20, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:00", 2, 45, [10])),
        "A Fujian posts-and-telecommunications college (45-minute sections from 08:00, 14:30 and 19:00); the "
        "student typed each course into Google Calendar as a weekly series (two weekdays in one series where the "
        "course has the same hours) and exported the calendar: VTIMEZONE, UNTIL in UTC, EXDATE for National Day, "
        "an all-day holiday event, free-text descriptions naming the teacher, CRLF, folded lines.",
        off=FALL_OFF)
    s.courses = [
        Course("通信原理", ["林志华"], "信息楼3-201", (1, 3), 1, 2, list(range(1, 17))),
        Course("信号与系统", ["郑婷婷"], "信息楼3-305", (2,), 3, 4, list(range(1, 17))),
        Course("数字电路与逻辑设计", ["陈国庆"], "实验楼A405", (4,), 5, 8, list(range(3, 15))),
        Course("概率论与数理统计", [], "公教楼201", (2, 4), 1, 2, list(range(1, 15))),
        Course("形势与政策", ["吴丽"], "公教楼105", (3,), 9, 10, list(range(5, 9))),
        Course("大学体育(三)", ["张健"], "篮球场", (5,), 3, 4, list(range(1, 17))),
    ]
    words = ["任课老师：{t}", "老师 {t}", "{t}老师的课，带计算器", "", "授课：{t}", "老师：{t}"]
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:课程表", "X-WR-TIMEZONE:Asia/Shanghai",
             *vtimezone_prc()]
    skips = []
    for i, c in enumerate(s.courses):
        se = series(s, c)
        d0, st, en, until = se.first, se.start, se.end, se.last
        by = ",".join(WD[d] for d in c.days)
        lines += ["BEGIN:VEVENT", f"DTSTART;TZID=Asia/Shanghai:{local(d0, st)}",
                  f"DTEND;TZID=Asia/Shanghai:{local(d0, en)}",
                  f"RRULE:FREQ=WEEKLY;WKST=SU;UNTIL={utc(s, until, '23:59')[:-3]}59Z;BYDAY={by}"]
        for d, t in se.exdates:
            lines.append(f"EXDATE;TZID=Asia/Shanghai:{local(d, t)}")
        desc = words[i].format(t=teachers_written(c))  # one left blank: that course has no teacher anywhere
        lines += [f"DTSTAMP:{stamp(s, i)}", f"UID:{(i + 3) * 98765431 % 10 ** 9:09d}xq7k{i}abc@google.com",
                  "CREATED:20250910T141502Z", f"DESCRIPTION:{esc(desc)}", "LAST-MODIFIED:20250910T141502Z",
                  f"LOCATION:{esc(c.room)}", "SEQUENCE:0", "STATUS:CONFIRMED", f"SUMMARY:{esc(c.name)}",
                  "TRANSP:OPAQUE", "END:VEVENT"]
    lines += ["BEGIN:VEVENT", "DTSTART;VALUE=DATE:20251001", "DTEND;VALUE=DATE:20251009",
              f"DTSTAMP:{stamp(s, 9)}", "UID:3k9m2v8q1holiday@google.com", "DESCRIPTION:", "LOCATION:",
              "SEQUENCE:0", "STATUS:CONFIRMED", "SUMMARY:国庆中秋放假", "TRANSP:TRANSPARENT", "END:VEVENT",
              "END:VCALENDAR"]
    skips.append({"summary": "国庆中秋放假", "why": "all_day", "date": "2025-10-01"})
    return s, ics(lines), skips


def aviation() -> tuple[School, bytes, list[dict]]:
    """A Tianjin civil-aviation college; 强智's own export button: one floating event per meeting."""
    summer = grid(("08:00", 4, 45, [10, 20, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:00", 3, 45, [10, 10]))
    winter = grid(("08:00", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("18:30", 3, 45, [10, 10]))
    s = School(
        "ics_aviation_qz_export_floating", "津南民航学院", "Asia/Shanghai", date(2025, 9, 1), 19, summer,
        "A Tianjin civil-aviation college (45-minute sections; afternoon 14:30 and evening 19:00 until 30 "
        "September, 14:00 and 18:30 from 1 October: a second grid); 强智's own calendar export: one floating event "
        "per meeting, CRLF, folded lines; National Day left out, make-up days 28 Sep (runs Tue 7 Oct) and 11 Oct "
        "(runs Wed 8 Oct) as ordinary events; DESCRIPTION lines 授课教师/上课周次/上课节次 ('0506'); a public "
        "elective clashing with a course in weeks 9-10 (the course is first in the file).",
        second=(date(2025, 10, 1), winter), off=FALL_OFF,
        makeups={date(2025, 9, 28): date(2025, 10, 7), date(2025, 10, 11): date(2025, 10, 8)})
    s.courses = [
        Course("航空概论", ["宋立国"], "飞行楼A102", (1,), 1, 2, list(range(1, 17)), written="宋立国 副教授"),
        Course("空气动力学基础", ["田野"], "飞行楼A206", (2,), 3, 4, list(range(1, 17)), written="田野"),
        Course("民航英语听说", ["Kevin Walsh", "王璐"], "语音室3", (2,), 5, 6, list(range(1, 17)), written="Kevin Walsh,王璐"),
        Course("大学物理B", ["赵洪涛"], "公共楼301", (3,), 1, 2, list(range(1, 19))),
        Course("飞机结构与系统", ["许杰"], "机库实训中心", (3,), 5, 8, list(range(2, 17, 2)), written="许杰 高级工程师"),
        Course("航空气象", ["梁静"], "飞行楼B305", (4,), 5, 6, list(range(1, 13))),
        Course("线性代数", ["白雪"], "公共楼205", (4,), 3, 4, list(range(1, 13))),
        Course("民航法规", ["冯涛"], "公共楼108", (5,), 1, 2, list(range(1, 17))),
        Course("飞行模拟训练导论", ["唐凯"], "模拟机中心", (1,), 9, 11, list(range(4, 12))),
        Course("航空文化(公选)", ["钱雅"], "图书馆报告厅", (2,), 5, 6, list(range(9, 11))),
    ]
    occs = occurrences(s)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//qzdatasoft//jwxt//CN", "CALSCALE:GREGORIAN"]
    for n, o in enumerate(occs):
        c = o.course
        week = s.week_of(o.planned)
        desc = (f"授课教师:{teachers_written(c)}\n上课周次:{weeks_text(c.weeks)}(周)\n"
                f"上课节次:{''.join(f'{k:02d}' for k in range(c.first, c.last + 1))}\n本周:第{week}周")
        lines += ["BEGIN:VEVENT", f"UID:{n}-qz-2025-2026-1", f"DTSTAMP:{stamp(s, n % 30)}",
                  f"DTSTART:{local(o.date, o.start)}", f"DTEND:{local(o.date, o.end)}",
                  f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return s, ics(lines), []


def northeast() -> tuple[School, bytes, list[dict]]:
    """A Heilongjiang engineering university; a student's Java tool (ical4j): series split at winter hours."""
    summer = grid(("08:00", 4, 45, [10, 20, 10]), ("13:30", 4, 45, [10, 20, 10]), ("18:00", 2, 45, [10]))
    winter = grid(("08:00", 4, 45, [10, 20, 10]), ("13:00", 4, 45, [10, 20, 10]), ("17:30", 2, 45, [10]))
    s = School(
        "ics_northeast_ical4j_split_series", "松花江工程大学", "Asia/Shanghai", date(2025, 9, 1), 18, summer,
        "A Heilongjiang engineering university (afternoon 13:30 and evening 18:00 move to 13:00 and 17:30 from "
        "Monday 13 October: a second grid); a student's Java tool built on ical4j: one series per course block, "
        "split in two where the hours change, TZID with a VTIMEZONE, UNTIL in UTC, National Day as EXDATE; "
        "DESCRIPTION lines 任课教师/教学周/节次.",
        second=(date(2025, 10, 13), winter), off=FALL_OFF)
    s.courses = [
        Course("材料力学", ["刘长春"], "主楼321", (1,), 1, 2, list(range(1, 17)), written="刘长春 教授"),
        Course("机械原理", ["孙宇航"], "主楼415", (1,), 5, 6, list(range(1, 17)), written="孙宇航 副教授"),
        Course("电工电子技术", ["马丽娟"], "电气楼208", (2,), 3, 4, list(range(1, 15)), written="马丽娟 讲师"),
        Course("工程图学(二)", ["高振东"], "机械楼106", (3,), 5, 8, list(range(1, 13, 2)), written="高振东 副教授"),
        Course("大学英语(三)", ["Olga Petrova"], "外语楼502", (4,), 1, 2, list(range(1, 17)), written="Olga Petrova"),
        Course("毛泽东思想和中国特色社会主义理论体系概论", ["于海洋"], "东区教学楼112", (4,), 5, 7, list(range(1, 17)),
               written="于海洋 讲师"),
        Course("冰雪运动", ["韩冬"], "室内滑冰馆", (5,), 3, 4, list(range(7, 19)), written="韩冬"),
        Course("创新创业基础", ["周鹏"], "图书馆B201", (2,), 9, 10, list(range(3, 11)), written="周鹏"),
    ]
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Ben Fortuna//iCal4j 3.2.14//EN", "VERSION:2.0", "CALSCALE:GREGORIAN",
             *vtimezone_prc()]
    change = s.second[0] if s.second else s.last_day
    n = 0
    for c in s.courses:
        before = [w for w in c.weeks if s.day(w, c.days[0]) < change]
        after = [w for w in c.weeks if s.day(w, c.days[0]) >= change]
        parts = [before, after] if c.first >= 5 and before and after else [c.weeks]
        for part in parts:
            se = series(s, c, part)
            d0, st, en, until = se.first, se.start, se.end, se.last
            lines += ["BEGIN:VEVENT", f"DTSTAMP:{stamp(s, n)}", f"DTSTART;TZID=Asia/Shanghai:{local(d0, st)}",
                      f"DTEND;TZID=Asia/Shanghai:{local(d0, en)}", f"SUMMARY:{esc(c.name)}",
                      f"LOCATION:{esc(c.room)}",
                      f"RRULE:FREQ=WEEKLY;UNTIL={utc(s, until, en)};INTERVAL={se.interval}"]
            if se.exdates:
                lines.append("EXDATE;TZID=Asia/Shanghai:" + ",".join(local(d, t) for d, t in se.exdates))
            desc = (f"任课教师：{teachers_written(c)}\n教学周：{weeks_text(c.weeks)}\n"
                    f"节次：星期{CN[c.days[0]]} 第{c.first}-{c.last}节")
            lines += [f"DESCRIPTION:{esc(desc)}", f"UID:20250901T120000Z-{n:04d}@schedule-exporter", "END:VEVENT"]
            n += 1
    lines.append("END:VCALENDAR")
    return s, ics(lines), []


def textile() -> tuple[School, bytes, list[dict]]:
    """A Zhejiang textile and fashion college; another phone app's export: floating series, UNTIL as a DATE."""
    s = School(
        "ics_textile_app_floating_until_date", "甬东纺织服装学院", "Asia/Shanghai", date(2026, 3, 2), 16,
        grid(("08:05", 5, 40, [10, 20, 10, 10]), ("13:30", 4, 40, [10, 15, 10]), ("18:30", 3, 40, [10, 10])),
        "A Zhejiang textile and fashion college (40-minute sections: five from 08:05, four from 13:30, three from "
        "18:30; 16 weeks); a phone timetable app's export: floating series with BYDAY and UNTIL as a DATE, "
        "EXDATE lists for Qingming (Mon 6 Apr) and May Day (1-5 May), the make-up day Sat 9 May (runs Tue 5 May) "
        "as a one-off event; LF line ends; SUMMARY course, LOCATION room, DESCRIPTION '教师 X'.",
        off={date(2026, 4, 6), *days("2026-05-01", "2026-05-05")}, makeups={date(2026, 5, 9): date(2026, 5, 5)})
    s.courses = [
        Course("服装结构设计(二)", ["俞佳"], "服装楼305打版室", (1,), 1, 4, list(range(1, 17))),
        Course("纺织材料学", ["邵国平"], "纺织楼B212", (2, 4), 1, 2, list(range(1, 15))),
        Course("服装史", ["柳青"], "文科楼108", (2,), 6, 7, list(range(1, 17))),
        Course("时装画技法", ["金晓"], "艺术楼画室4", (3,), 3, 5, list(range(1, 13))),
        Course("大学英语(二)", ["Laura Chen"], "文科楼305", (4,), 3, 4, list(range(1, 17))),
        Course("服装CAD", ["戴伟", "俞佳"], "服装楼402机房", (5,), 6, 9, list(range(2, 17, 2)), written="戴伟 俞佳"),
        Course("思想道德与法治", ["应丽"], "阶梯教室1", (3,), 10, 12, list(range(1, 9))),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//shiguang//schedule export//CN", "X-WR-CALNAME:课程表"]
    one_offs: list[Occ] = []
    for i, c in enumerate(s.courses):
        se = series(s, c)
        d0, st, en, until = se.first, se.start, se.end, se.last
        lines += ["BEGIN:VEVENT", f"UID:sg-{i}-{d0:%Y%m%d}-{c.first}", f"DTSTAMP:{stamp(s, i)}",
                  f"DTSTART:{local(d0, st)}", f"DTEND:{local(d0, en)}",
                  f"RRULE:FREQ=WEEKLY;INTERVAL={se.interval};BYDAY={','.join(WD[d] for d in c.days)};UNTIL={until:%Y%m%d}"]
        if se.exdates:
            lines.append("EXDATE:" + ",".join(local(d, t) for d, t in se.exdates))
        lines += [f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                  f"DESCRIPTION:{esc(f'教师 {teachers_written(c)}')}", "END:VEVENT"]
        one_offs += se.makeups
    for k, m in enumerate(one_offs):
        c = m.course
        lines += ["BEGIN:VEVENT", f"UID:sg-tiaoxiu-{k}-{m.date:%Y%m%d}", f"DTSTAMP:{stamp(s, 20 + k)}",
                  f"DTSTART:{local(m.date, m.start)}", f"DTEND:{local(m.date, m.end)}", f"SUMMARY:{esc(c.name)}",
                  f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(f'教师 {teachers_written(c)}（调休补课）')}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return s, ics(lines, eol="\n"), []


def singapore() -> tuple[School, bytes, list[dict]]:
    """A Chinese student in Singapore; the university portal's timetable export (UTC series, recess week)."""
    s = School(
        "ics_singapore_portal_utc_recess", "Straits National University", "Asia/Singapore", date(2025, 8, 11), 14,
        grid(*(((f"{h:02d}:00", 1, 60, [])) for h in range(8, 22))),
        "A Chinese student at a Singapore university (hourly slots 08:00-22:00, lessons of one to three hours); "
        "the student portal's calendar export: one weekly series per lesson in UTC with UNTIL in UTC, EXDATE "
        "lines for recess week (calendar week 7) and Deepavali (Mon 20 Oct); SUMMARY is the module title, "
        "DESCRIPTION module code, lesson type, group and lecturer; tutorials start in week 3; an exam after "
        "the last week.",
        off={*days("2025-09-22", "2025-09-26"), date(2025, 10, 20)})
    s.courses = [
        Course("Data Structures and Algorithms", ["Tan Wei Ling"], "COM1-B103", (1,), 3, 4, list(range(1, 15)),
               extra={"code": "CS2040", "kind": "Lecture", "group": "1", "who": "Dr Tan Wei Ling"}),
        Course("Data Structures and Algorithms", ["Rohan Mehta"], "COM1-0208", (3,), 7, 7, list(range(3, 15)),
               extra={"code": "CS2040", "kind": "Tutorial", "group": "12", "who": "Rohan Mehta"}),
        Course("Linear Algebra", ["Lim Kok Seng"], "LT27", (2, 5), 5, 6, list(range(1, 15)),
               extra={"code": "MA2001", "kind": "Lecture", "group": "2", "who": "Prof Lim Kok Seng"}),
        Course("Academic Writing", ["Sarah Ong"], "UTSRC-SR5", (4,), 2, 4, list(range(1, 15)),
               extra={"code": "ES1103", "kind": "Sectional Teaching", "group": "E07", "who": "Ms Sarah Ong"}),
        Course("Computer Organisation", ["Ng Boon Hock"], "I3-AUD", (4,), 9, 10, list(range(1, 15)),
               extra={"code": "CS2100", "kind": "Lecture", "group": "1", "who": "A/Prof Ng Boon Hock"}),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//SNU//Student Portal Timetable//EN", "CALSCALE:GREGORIAN",
             "X-WR-CALNAME:AY2025/26 Sem 1 Timetable"]
    for i, c in enumerate(s.courses):
        for wd in c.days:  # the portal writes one series per weekday
            one = Course(c.name, c.teachers, c.room, (wd,), c.first, c.last, c.weeks, extra=c.extra)
            se = series(s, one)
            d0, st, en, until = se.first, se.start, se.end, se.last
            x = c.extra
            desc = f"{x['code']} {x['kind']} [{x['group']}]\nLecturer: {x['who']}\nVenue: {c.room}"
            lines += ["BEGIN:VEVENT", f"UID:{x['code']}-{x['kind'][:3].upper()}-{x['group']}-{WD[wd]}@portal.snu.edu.sg",
                      f"DTSTAMP:{stamp(s, i)}", f"DTSTART:{utc(s, d0, st)}", f"DTEND:{utc(s, d0, en)}",
                      f"RRULE:FREQ=WEEKLY;UNTIL={utc(s, until, en)}"]
            for d, t in se.exdates:
                lines.append(f"EXDATE:{utc(s, d, t)}")
            lines += [f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    exam = date(2025, 11, 25)
    lines += ["BEGIN:VEVENT", "UID:CS2040-EXAM@portal.snu.edu.sg", f"DTSTAMP:{stamp(s, 9)}",
              f"DTSTART:{utc(s, exam, '13:00')}", f"DTEND:{utc(s, exam, '15:00')}",
              "SUMMARY:Data Structures and Algorithms (Final Exam)", "LOCATION:MPSH 2A",
              "DESCRIPTION:CS2040 Final Assessment", "END:VEVENT", "END:VCALENDAR"]
    skips = [{"summary": "Data Structures and Algorithms (Final Exam)", "why": "outside_semester",
              "date": exam.isoformat()}]
    return s, ics(lines), skips


def hydro() -> tuple[School, bytes, list[dict]]:
    """A Henan water-resources university; a campus mini-program's export: UTC per meeting, room in SUMMARY."""
    spring = grid(("08:00", 4, 50, [10, 20, 10]), ("14:30", 4, 50, [10, 20, 10]), ("19:30", 3, 50, [10, 10]))
    summer = grid(("08:00", 4, 50, [10, 20, 10]), ("15:00", 4, 50, [10, 20, 10]), ("19:30", 3, 50, [10, 10]))
    s = School(
        "ics_hydro_miniprogram_room_in_summary", "中原水利电力大学", "Asia/Shanghai", date(2026, 3, 2), 18, spring,
        "A Henan water-resources and electric-power university (50-minute sections; afternoon 14:30 moves to "
        "15:00 from Friday 1 May: a second grid); a campus WeChat mini-program's calendar export: one event per "
        "meeting in UTC, LF line ends, no LOCATION (the room in full-width brackets after the course in SUMMARY), "
        "DESCRIPTION with the teacher and the week; Qingming and May Day left out, the make-up day Sat 9 May "
        "(runs Tue 5 May) as an ordinary event.",
        second=(date(2026, 5, 1), summer), off={date(2026, 4, 6), *days("2026-05-01", "2026-05-05")},
        makeups={date(2026, 5, 9): date(2026, 5, 5)})
    s.courses = [
        Course("水力学", ["冯建军"], "东区3号教学楼-305", (1,), 1, 2, list(range(1, 17))),
        Course("工程水文学", ["吕晓燕"], "东区3号教学楼-210", (1,), 5, 6, list(range(1, 13))),
        Course("水利工程制图", ["常伟"], "西区制图室2", (2,), 5, 8, list(range(1, 17, 2))),
        Course("电路原理", ["杨帆", "袁磊"], "电力楼B-402", (2,), 1, 2, list(range(1, 17)), written="杨帆、袁磊"),
        Course("测量学", ["魏东"], "东区1号教学楼-108", (3,), 3, 4, list(range(1, 15))),
        Course("测量学实习", ["魏东"], "测量实训场", (4,), 5, 8, list(range(10, 17))),
        Course("大学英语(二)", ["马晨"], "外语楼-201", (4,), 1, 2, list(range(1, 17))),
        Course("中国近现代史纲要", ["任雪"], "大学生活动中心报告厅", (5,), 9, 11, list(range(1, 13))),
    ]
    occs = occurrences(s)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zhangshang-kebiao//miniprogram//ZH", "METHOD:PUBLISH"]
    for n, o in enumerate(occs):
        c = o.course
        week = s.week_of(o.planned)
        lines += ["BEGIN:VEVENT", f"UID:{n:04d}-{o.date:%Y%m%d}-kb@zysd-app", f"DTSTAMP:{stamp(s, n % 40)}",
                  f"DTSTART:{utc(s, o.date, o.start)}", f"DTEND:{utc(s, o.date, o.end)}",
                  f"SUMMARY:{esc(f'{c.name}【{c.room}】')}",
                  f"DESCRIPTION:{esc(f'任课教师：{teachers_written(c)} 第{week}周 {c.first}-{c.last}节')}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return s, ics(lines, eol="\n"), []


SCHOOLS: list[Callable[[], tuple[School, bytes, list[dict]]]] = [
    petroleum, law, medical, architecture, telecom, aviation, northeast, textile, singapore, hydro]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for make in SCHOOLS:
        s, data, extra = make()
        ext = ".csv" if s.key.startswith("csv") else ".ics"
        (OUT / (s.key + ext)).write_bytes(data)
        exp = board(s, occurrences(s), extra)
        (OUT / (s.key + ".expected.json")).write_text(json.dumps(exp, ensure_ascii=False, indent=1) + "\n", "utf-8")
        print(f"{s.key}{ext}: {len(exp['meetings'])} meetings, {len(exp['skipped'])} skipped")


if __name__ == "__main__":
    main()
