"""Writes files/dev7/ (written blind as the fourth held-out set, then opened): ten timetable files
from descriptions of fictional schools.

Each file starts from a school (week-1 Monday, zone, weeks, section grid, days off, make-up days that
run another day's classes) and a student's courses (weekday, sections, weeks, room, teachers as the
tool writes them). The expected board is computed from that description alone; the file is then
rendered in the shape of the tool the student would use. Run: python -m bench.import_eval.make_dev7
"""
from __future__ import annotations

import csv
import io
import json
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().parent / "files" / "dev7"
DAYS = "一二三四五六日"
BYDAY = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def grid(*blocks: tuple[str, int, int, list[int]]) -> list[tuple[str, str]]:
    """Blocks of (first start, sections, minutes, breaks after each section but the last)."""
    out = []
    for first, n, minutes, breaks in blocks:
        t = datetime.combine(date(2000, 1, 1), time.fromisoformat(first))
        for i in range(n):
            end = t + timedelta(minutes=minutes)
            out.append((t.strftime("%H:%M"), end.strftime("%H:%M")))
            t = end + timedelta(minutes=breaks[i] if i < n - 1 else 0)
    return out


def days(a: date, b: date) -> set[date]:
    return {a + timedelta(days=i) for i in range((b - a).days + 1)}


@dataclass
class School:
    name: str
    zone: str
    week1: date
    weeks: int
    sections: list[tuple[str, str]]
    off: set[date] = field(default_factory=set)
    makeup: dict[date, date] = field(default_factory=dict)  # make-up day -> the day whose classes it runs

    def day(self, week: int, weekday: int) -> date:
        return self.week1 + timedelta(weeks=week - 1, days=weekday - 1)

    def week_of(self, d: date) -> int:
        return (d - self.week1).days // 7 + 1

    def times(self, s: int, e: int) -> tuple[str, str]:
        return self.sections[s - 1][0], self.sections[e - 1][1]


@dataclass
class Course:
    name: str
    day: int
    s: int
    e: int
    weeks: list[int]
    room: str
    teachers: list[str]          # as the student expects them (no titles)
    written: str = ""            # teachers as the tool writes them
    extra: dict = field(default_factory=dict)


@dataclass
class Occ:
    course: Course
    day: date
    start: str
    end: str
    makeup_of: date | None = None


def occurrences(school: School, c: Course) -> list[Occ]:
    out = []
    for w in c.weeks:
        d = school.day(w, c.day)
        if d not in school.off:
            out.append(Occ(c, d, *school.times(c.s, c.e)))
    for mk, orig in school.makeup.items():
        if orig.isoweekday() == c.day and school.week_of(orig) in c.weeks:
            out.append(Occ(c, mk, *school.times(c.s, c.e), makeup_of=orig))
    return sorted(out, key=lambda o: (o.day, o.start))


def weeks(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        parity = part[-1] if part[-1] in "单双" else ""
        part = part.rstrip("单双")
        a, _, b = part.partition("-")
        for w in range(int(a), int(b or a) + 1):
            if parity == "单" and w % 2 == 0 or parity == "双" and w % 2:
                continue
            out.append(w)
    return out


def expected(school: School, courses: list[Course], notes: str, skipped: list[dict] | None = None) -> dict:
    meetings = [
        {"date": o.day.isoformat(), "start": o.start, "end": o.end, "title": o.course.name,
         "location": o.course.room, "teacher": "、".join(o.course.teachers)}
        for c in courses for o in occurrences(school, c)]
    meetings.sort(key=lambda m: (m["date"], m["start"]))
    return {"school": school.name, "time_zone": school.zone, "week1_monday": school.week1.isoformat(),
            "semester_weeks": school.weeks, "sections": [list(s) for s in school.sections], "second_grid": None,
            "meetings": meetings, "skipped": skipped or [], "notes": notes}


# ---- ICS text helpers -------------------------------------------------------------------------------

def esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str, width: int = 75, lead: str = " ") -> list[str]:
    out, cur = [], ""
    for ch in line:
        if len((cur + ch).encode("utf-8")) > width:
            out.append(cur)
            cur = lead + ch
        else:
            cur += ch
    return out + [cur]


def ics(lines: list[str], eol: str = "\r\n", do_fold: bool = True) -> bytes:
    out: list[str] = []
    for ln in lines:
        out += fold(ln) if do_fold else [ln]
    return (eol.join(out) + eol).encode("utf-8")


def local(school: School, d: date, hm: str) -> datetime:
    return datetime.combine(d, time.fromisoformat(hm)).replace(tzinfo=ZoneInfo(school.zone))


def utc(school: School, d: date, hm: str) -> str:
    return local(school, d, hm).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def floating(d: date, hm: str) -> str:
    return d.strftime("%Y%m%d") + "T" + hm.replace(":", "") + "00"


def uid(*parts: object) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "heldout4/" + "/".join(map(str, parts))))


SHANGHAI_VTZ = ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "X-LIC-LOCATION:Asia/Shanghai", "BEGIN:STANDARD",
                "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "DTSTART:19700101T000000",
                "END:STANDARD", "END:VTIMEZONE"]


def write(name: str, data: bytes, exp: dict) -> None:
    (OUT / name).write_bytes(data)
    stem = name.rsplit(".", 1)[0]
    (OUT / f"{stem}.expected.json").write_text(json.dumps(exp, ensure_ascii=False, indent=1) + "\n", "utf-8")


# ---- 1. medical school, WeChat mini-program export: one event per meeting in UTC, LF ------------------

def medical() -> tuple[str, bytes, dict]:
    school = School("南粤医科大学", "Asia/Shanghai", date(2025, 9, 1), 18,
                    grid(("08:00", 5, 40, [10, 20, 10, 10]), ("14:30", 4, 40, [10, 15, 10]),
                         ("19:00", 3, 40, [10, 10])),
                    off=days(date(2025, 10, 1), date(2025, 10, 8)),
                    makeup={date(2025, 9, 28): date(2025, 10, 3), date(2025, 10, 11): date(2025, 10, 2)})
    courses = [
        Course("系统解剖学", 1, 1, 2, weeks("1-18"), "基础医学楼 B201", ["林志远"], "林志远 教授"),
        Course("系统解剖学", 3, 6, 9, weeks("2-16双"), "基础医学楼 解剖实验室3", ["林志远", "陈嘉欣"],
               "林志远 教授，陈嘉欣 实验师"),
        Course("医用化学", 2, 3, 5, weeks("1-12"), "药学楼 302", ["赵启明"], "赵启明 副教授"),
        Course("组织学与胚胎学", 4, 1, 3, weeks("1-18"), "基础医学楼 B105", ["黄丽萍"], "黄丽萍 讲师"),
        Course("医学伦理学", 4, 10, 11, weeks("3-10"), "人文楼 101", ["苏文博"], "苏文博"),
        Course("大学英语(3)", 5, 1, 2, weeks("1-18"), "外语楼 215", ["Emily Carter", "周敏"], "Emily Carter，周敏"),
        Course("生理学", 5, 6, 8, weeks("5-18"), "基础医学楼 B301", ["何晓东", "梁静"], "何晓东 副教授，梁静 讲师"),
    ]
    review = Course("系统解剖学", 1, 6, 9, [19], "基础医学楼 解剖实验室3", ["林志远"], "林志远 教授")
    occ = [o for c in courses for o in occurrences(school, c)] + occurrences(school, review)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//kebiao-miniprogram//WeChat MiniProgram 3.2//CN",
             "CALSCALE:GREGORIAN", "X-WR-CALNAME:我的课表（2025-2026学年第一学期）", "X-WR-TIMEZONE:Asia/Shanghai"]
    for i, o in enumerate(occ):
        c = o.course
        wk = school.week_of(o.day)
        desc = f"授课教师：{c.written}\n上课周次：第{wk}周\n节次：第{c.s}-{c.e}节"
        if o.makeup_of:
            desc += f"\n调课：补{o.makeup_of.month}月{o.makeup_of.day}日的课"
        desc += "\n来自「口袋课表」小程序"
        lines += ["BEGIN:VEVENT", f"UID:{uid('med', i)}@kbxcx", "DTSTAMP:20250830T021500Z",
                  f"DTSTART:{utc(school, o.day, o.start)}", f"DTEND:{utc(school, o.day, o.end)}",
                  f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}",
                  "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:上课提醒", "TRIGGER:-PT20M", "END:VALARM",
                  "END:VEVENT"]
    lines.append("END:VCALENDAR")
    exp = expected(school, courses, "WeChat timetable mini-program export of a medical university's timetable: "
                   "one event per meeting in UTC, LF line ends, X-WR-TIMEZONE, VALARM; teachers with titles and "
                   "lab staff in DESCRIPTION, comma-separated; 40-minute sections, 5-section morning, evening "
                   "block; 国庆 break with two make-up days running another day's classes; a review session in "
                   "week 19 (outside the semester).",
                   [{"summary": "系统解剖学", "why": "outside_semester", "date": school.day(19, 1).isoformat()}])
    return "ics_med_miniprogram_utc_lf.ics", ics(lines, "\n"), exp


# ---- rules: one RRULE series per course, holidays as EXDATE, make-ups as RDATE ---------------------------

def series_dates(school: School, c: Course) -> tuple[list[date], list[date], list[date]]:
    """(every weekly date from the first to the last listed week, EXDATEs, RDATEs) for a consecutive-week course."""
    span = [school.day(w, c.day) for w in range(c.weeks[0], c.weeks[-1] + 1)]
    listed = {school.day(w, c.day) for w in c.weeks}
    ex = [d for d in span if d not in listed or d in school.off]
    rd = [o.day for o in occurrences(school, c) if o.makeup_of]
    return span, ex, rd


# ---- 2. art academy, TickTick (滴答清单) calendar export: block weeks, room only in DESCRIPTION -----------

def art() -> tuple[str, bytes, dict]:
    school = School("汉水美术学院", "Asia/Shanghai", date(2026, 3, 2), 17,
                    grid(("08:30", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("18:30", 2, 45, [10])),
                    off={date(2026, 4, 6)} | days(date(2026, 5, 1), date(2026, 5, 5)))
    studio = "美术楼 A305 画室"
    blocks = [("素描基础", "1-4", studio, ["郑怀远"], "郑怀远"),
              ("色彩写生", "9-12", "美术楼 A402 画室", ["秦雨桐", "郑怀远"], "秦雨桐、郑怀远"),
              ("设计构成", "13-16", "设计楼 204", ["罗一鸣"], "罗一鸣（副教授）")]
    courses: list[Course] = []
    for name, spec, room, teachers, written in blocks:
        for day in range(1, 6):
            courses.append(Course(name, day, 1, 4, weeks(spec), room, teachers, written, {"block": True}))
    weekly = [Course("中国美术史", 2, 5, 6, weeks("1-16"), "人文楼 112", ["冯若兰"], "冯若兰"),
              Course("大学英语(2)", 3, 5, 6, weeks("1-16"), "人文楼 305", ["Laura Bennett"], "Laura Bennett"),
              Course("形势与政策", 4, 9, 10, weeks("2-8双"), "人文楼 阶梯教室1", ["邓晓峰"], "邓晓峰"),
              Course("艺术概论", 5, 5, 7, weeks("1-8"), "人文楼 112", ["冯若兰"], "冯若兰")]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ticktick.com//TickTick Calendar 6.1//EN",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:课程表", "X-WR-TIMEZONE:Asia/Shanghai",
             *SHANGHAI_VTZ]

    def event(key: str, c: Course, first: date, rule: str, ex: list[date]) -> list[str]:
        desc = f"地点：{c.room}\n老师：{c.written}"
        out = ["BEGIN:VEVENT", f"UID:{uid('art', key)}@ticktick.com", "DTSTAMP:20260228T133000Z",
               f"DTSTART;TZID=Asia/Shanghai:{floating(first, school.times(c.s, c.e)[0])}",
               f"DTEND;TZID=Asia/Shanghai:{floating(first, school.times(c.s, c.e)[1])}", f"RRULE:{rule}"]
        if ex:
            out.append("EXDATE;TZID=Asia/Shanghai:" + ",".join(floating(d, school.times(c.s, c.e)[0]) for d in ex))
        return out + [f"SUMMARY:{esc(c.name)}", f"DESCRIPTION:{esc(desc)}", "STATUS:CONFIRMED",
                      "TRANSP:OPAQUE", "END:VEVENT"]

    for name, *_ in blocks:  # one series per block: every weekday of its weeks
        c = next(c for c in courses if c.name == name)
        first = school.day(c.weeks[0], 1)
        ex = sorted(o for o in school.off if school.week_of(o) in c.weeks and o.isoweekday() <= 5)
        lines += event(name, c, first, f"FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT={5 * len(c.weeks)}", ex)
    for c in weekly:
        span, ex, _ = series_dates(school, c)
        step = c.weeks[1] - c.weeks[0]
        if step == 2:
            rule = f"FREQ=WEEKLY;INTERVAL=2;COUNT={len(c.weeks)}"
            ex = [d for d in ex if school.week_of(d) in c.weeks]
        else:
            rule = f"FREQ=WEEKLY;UNTIL={floating(span[-1], '23:59')}"
        lines += event(c.name, c, span[0], rule, ex)
    lines += ["BEGIN:VTODO", f"UID:{uid('art', 'todo')}@ticktick.com", "DTSTAMP:20260228T133000Z",
              "SUMMARY:交速写本（每周20张）", "DUE;VALUE=DATE:20260320", "STATUS:NEEDS-ACTION", "END:VTODO",
              "END:VCALENDAR"]
    exp = expected(school, courses + weekly,
                   "TickTick (滴答清单) calendar export of an art academy student's hand-made course calendar: TZID "
                   "with VTIMEZONE, studio courses taught in 4-week blocks as one series every weekday (BYDAY "
                   "MO-FR, COUNT), weekly courses with UNTIL as a local date-time or INTERVAL=2 COUNT, holidays "
                   "as EXDATE lists; no LOCATION: the room and teacher are lines of DESCRIPTION; a VTODO (not a "
                   "class) in the file.")
    return "ics_art_ticktick_block_weeks.ics", ics(lines), exp


# ---- 3. vocational college, class monitor's spreadsheet saved as CSV from Excel (GBK) ---------------------

def vocational() -> tuple[str, bytes, dict]:
    school = School("沅陵职业技术学院", "Asia/Shanghai", date(2024, 9, 2), 18,
                    grid(("08:10", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("19:00", 2, 45, [10])))
    rows = [  # course, weekday, s, e, teachers as written, expected teachers, room, weeks as written, remark
        ("机械制图", 1, 1, 2, "王建国", ["王建国"], "教学楼 301", "1-8,11-18", ""),
        ("机械制图", 3, 3, 4, "王建国", ["王建国"], "教学楼 301", "1-8,11-18单", "单周"),
        ("电工电子技术", 1, 5, 6, "李梅/张涛", ["李梅", "张涛"], "实训楼 B204", "1-8", ""),
        ("数控车床实训", 1, 1, 4, "刘振华", ["刘振华"], "实训楼 B102", "9-10", "实训周，穿工作服"),
        ("数控车床实训", 1, 5, 8, "刘振华", ["刘振华"], "实训楼 B102", "9-10", ""),
        ("数控车床实训", 2, 1, 4, "刘振华", ["刘振华"], "实训楼 B102", "9-10", ""),
        ("数控车床实训", 2, 5, 8, "刘振华", ["刘振华"], "实训楼 B102", "9-10", ""),
        ("数控车床实训", 3, 1, 4, "刘振华", ["刘振华"], "实训楼 B102", "9-10", ""),
        ("数控车床实训", 4, 1, 4, "刘振华", ["刘振华"], "实训楼 B102", "9-10", ""),
        ("数控车床实训", 5, 1, 4, "刘振华", ["刘振华"], "实训楼 B102", "9-10", ""),
        ("高等数学", 2, 1, 2, "陈芳", ["陈芳"], "教学楼 205", "1-8,11-16", ""),
        ("公差配合与测量", 2, 5, 7, "周立新", ["周立新"], "实训楼 B210", "3-8,11-18", "带计算器"),
        ("大学英语", 3, 1, 2, "孙婷", ["孙婷"], "教学楼 402", "1-8,11-18", ""),
        ("思想道德与法治", 4, 3, 4, "马红", ["马红"], "教学楼 阶梯101", "1-8,11-18", ""),
        ("体育", 4, 5, 6, "黄勇", ["黄勇"], "田径场", "1-8,11-18", ""),
        ("机械基础", 5, 1, 3, "王建国", ["王建国"], "教学楼 301", "1-8,11-18", ""),
        ("计算机应用基础", 5, 5, 6, "吴倩", ["吴倩"], "信息楼 机房3", "1-8", ""),
        ("安全教育", 3, 9, 10, "", [], "教学楼 阶梯101", "2,4,6", "晚自习时间"),
    ]
    courses = [Course(n, d, s, e, weeks(w), room, t, wt) for n, d, s, e, wt, t, room, w, _ in rows]
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\r\n")
    out.writerow(["课程名称", "星期", "开始节", "结束节", "教师", "教室", "周数", "备注"])
    for n, d, s, e, wt, _t, room, w, remark in rows:
        out.writerow([n, f"周{DAYS[d - 1]}", s, e, wt, room, w, remark])
    for _ in range(3):  # Excel keeps the formatted empty rows under the table
        out.writerow([""] * 8)
    exp = expected(school, courses,
                   "A vocational college class's timetable kept in Excel by the class monitor and saved as CSV "
                   "(GBK, CRLF, empty rows at the end): columns 课程名称/星期/开始节/结束节/教师/教室/周数/备注, "
                   "weekdays written 周一, week lists with a gap for the two 实训周 (9-10) when a workshop course "
                   "fills whole days, two teachers joined by '/', a remarks column. No dates: weeks count from week "
                   "1; holidays are not marked in the sheet; one evening row has no teacher.")
    return "csv_vocational_sheet_gbk.csv", buf.getvalue().encode("gbk"), exp


def rrule_event(school: School, c: Course, tz: str, until: str, key: str, body: list[str],
                byday_extra: str = "", stamp: str = "20250220T080000Z") -> list[str]:
    """One weekly series for a course of consecutive weeks: quoted TZID, EXDATE and RDATE lists."""
    span, ex, rd = series_dates(school, c)
    start, end = school.times(c.s, c.e)
    out = ["BEGIN:VEVENT", f"UID:{key}", f"DTSTAMP:{stamp}",
           f"DTSTART;TZID={tz}:{floating(span[0], start)}", f"DTEND;TZID={tz}:{floating(span[0], end)}",
           f"RRULE:FREQ=WEEKLY;{until}{byday_extra}"]
    if ex:
        out.append(f"EXDATE;TZID={tz}:" + ",".join(floating(d, start) for d in ex))
    if rd:
        out.append(f"RDATE;TZID={tz}:" + ",".join(floating(d, start) for d in rd))
    return out + body + ["END:VEVENT"]


# ---- 4. military-style academy, the 教务 system's own .ics button: quoted TZID, 教员, Saturdays -----------

def military() -> tuple[str, bytes, dict]:
    school = School("东岳警官学院", "Asia/Shanghai", date(2025, 2, 24), 20,
                    grid(("07:50", 2, 50, [10]), ("10:00", 2, 50, [10]), ("14:30", 3, 50, [10, 20]),
                         ("19:30", 2, 50, [10])),
                    off={date(2025, 4, 4), date(2025, 5, 1), date(2025, 5, 2), date(2025, 5, 5), date(2025, 6, 2)},
                    makeup={date(2025, 4, 27): date(2025, 5, 2)})
    c = Course
    courses = [
        c("警察体能训练", 1, 5, 7, weeks("1-20"), "训练场 3号", ["韩铁军"], "韩铁军 副教授", {"kind": "必修"}),
        c("刑法学", 1, 1, 2, weeks("1-18"), "明德楼 A201", ["宋文清"], "宋文清 教授", {"kind": "必修"}),
        c("治安管理学", 2, 3, 4, weeks("1-16"), "明德楼 A305", ["许志刚", "何兰"], "许志刚 副教授，何兰 讲师",
          {"kind": "必修"}),
        c("擒敌技术", 2, 5, 6, weeks("3-18"), "警体馆 2楼", ["韩铁军"], "韩铁军 副教授", {"kind": "实践"}),
        c("公安信息化基础", 3, 1, 2, weeks("1-12"), "信息楼 305机房", ["梁晨"], "梁晨 讲师", {"kind": "必修"}),
        c("警察礼仪", 3, 8, 9, weeks("5-12"), "明德楼 报告厅", ["吴静"], "吴静", {"kind": "选修"}),
        c("刑事侦查学", 4, 3, 4, weeks("1-18"), "明德楼 A201", ["周卫国"], "周卫国 教授", {"kind": "必修"}),
        c("射击训练", 5, 1, 4, weeks("4-15"), "靶场", ["李振山"], "李振山 教官", {"kind": "实践"}),
        c("战术基础", 6, 1, 4, weeks("3-14"), "训练场 1号", ["赵铁", "孙海"], "赵铁 教官，孙海 教官",
          {"kind": "实践"}),
    ]
    tz = '"Asia/Shanghai"'
    lines = ["BEGIN:VCALENDAR", "PRODID:-//JWXT//Teaching Affairs Calendar Export 2.3//ZH", "VERSION:2.0",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:2024-2025学年第二学期 学员课表",
             *SHANGHAI_VTZ]
    lines += ["BEGIN:VEVENT", f"UID:{uid('mil', 'exam')}@jwxt", "DTSTAMP:20250220T080000Z",
              "DTSTART;VALUE=DATE:20250428", "DTEND;VALUE=DATE:20250430", "SUMMARY:阶段性考核（体能）",
              "LOCATION:训练场", "DESCRIPTION:全体学员参加，着作训服", "END:VEVENT"]
    for i, co in enumerate(courses):
        desc = f"教员：{co.written}\n学员队：二大队五队\n课程性质：{co.extra['kind']}\n周次：{co.weeks[0]}-{co.weeks[-1]}周"
        last = school.day(co.weeks[-1], co.day).strftime("%Y%m%d")
        lines += rrule_event(school, co, tz, f"UNTIL={last}", f"{uid('mil', i)}@jwxt",
                             [f"SUMMARY:{esc('【' + co.extra['kind'] + '】' + co.name)}",
                              f"LOCATION:{esc(co.room)}", f"DESCRIPTION:{esc(desc)}"])
    lines.append("END:VCALENDAR")
    exp = expected(school, courses,
                   "A police academy's 教务 system export button (military-style timetable): a quoted TZID "
                   "parameter with a VTIMEZONE, one weekly series per course with UNTIL as a DATE, holidays as "
                   "EXDATE and the Sunday make-up day (running Friday's classes) as RDATE; SUMMARY prefixed with "
                   "the course kind in 【】; DESCRIPTION '教员：' with titles (教授, 教官) and the cadet unit; "
                   "Saturday morning training; a two-day all-day assessment event (skipped).",
                   [{"summary": "阶段性考核（体能）", "why": "all_day", "date": "2025-04-28"}])
    return "ics_police_academy_quoted_tzid.ics", ics(lines), exp


# ---- 5. graduate school, a Tampermonkey userscript on the 研究生 system: UTC per meeting, evenings, Saturdays --

def graduate() -> tuple[str, bytes, dict]:
    school = School("秦岭大学研究生院", "Asia/Shanghai", date(2026, 3, 9), 18,
                    grid(("08:00", 5, 45, [5, 15, 5, 5]), ("14:00", 4, 45, [5, 15, 5]), ("18:30", 4, 45, [5, 10, 5])),
                    off={date(2026, 4, 6), date(2026, 5, 1), date(2026, 5, 4), date(2026, 5, 5), date(2026, 6, 19)},
                    makeup={date(2026, 5, 9): date(2026, 5, 5)})
    c = Course
    courses = [
        c("中国特色社会主义理论与实践研究", 1, 10, 12, weeks("1-12"), "研究生楼 101", ["高建华"], "高建华(教授)",
          {"code": "S0000101", "cls": "03"}),
        c("数值分析", 2, 1, 3, weeks("1-16"), "研究生楼 412", ["张立群", "王芳"], "张立群,王芳(副教授)",
          {"code": "S0701002", "cls": "01"}),
        c("学术英语写作", 3, 6, 7, weeks("1-16"), "外语楼 506", ["Daniel Brooks"], "Daniel Brooks",
          {"code": "S0502011", "cls": "07"}),
        c("机器学习", 4, 10, 13, weeks("5-16"), "信息楼 B308", ["刘博文"], "刘博文(副教授)",
          {"code": "S0812020", "cls": "01"}),
        c("工程伦理", 5, 3, 4, weeks("1-8"), "研究生楼 203", ["程雪"], "程雪(讲师)", {"code": "S0000305", "cls": "02"}),
        c("矩阵论", 6, 1, 4, weeks("1-8"), "研究生楼 412", ["孟凡宇"], "孟凡宇(教授)", {"code": "S0701005", "cls": "02"}),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//yjs-kebiao-export userscript v0.9//CN", "CALSCALE:GREGORIAN",
             "X-WR-CALNAME:研究生课表 2025-2026-2", "X-WR-TIMEZONE:Asia/Shanghai"]
    occ = sorted((o for co in courses for o in occurrences(school, co)), key=lambda o: (o.course.day, o.day))
    for i, o in enumerate(occ):
        co = o.course
        desc = (f"课程编号：{co.extra['code']}\n班号：{co.extra['cls']}\n任课教师：{co.written}\n"
                f"上课时间：第{co.weeks[0]}-{co.weeks[-1]}周 星期{DAYS[co.day - 1]} 第{co.s}-{co.e}节")
        lines += ["BEGIN:VEVENT", f"UID:{co.extra['code']}-{co.extra['cls']}-{i}@yjs", "DTSTAMP:20260305T141200Z",
                  f"DTSTART:{utc(school, o.day, o.start)}", f"DTEND:{utc(school, o.day, o.end)}",
                  f"SUMMARY:{esc(co.name)}", f"LOCATION:{esc(co.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    exp = expected(school, courses,
                   "A graduate student's Tampermonkey userscript on the 研究生 management system: one event per "
                   "meeting in UTC, CRLF, X-WR-TIMEZONE, events grouped by weekday (not by date); DESCRIPTION with "
                   "course number, class number, teachers 'A,B(副教授)' and the week/section text. Evening blocks "
                   "of 3-4 sections to 21:50, a Saturday course for the first 8 weeks, holidays absent and a "
                   "Saturday make-up day running Tuesday's classes.")
    return "ics_grad_userscript_utc.ics", ics(lines), exp


# ---- 6. Sino-foreign joint university, Scientia Syllabus Plus style personal timetable (English) ----------

def sino_foreign() -> tuple[str, bytes, dict]:
    school = School("苏湖国际大学 (Suhu International University)", "Asia/Shanghai", date(2025, 9, 8), 14,
                    grid(("09:00", 9, 50, [10] * 8)), off=days(date(2025, 10, 1), date(2025, 10, 8)))
    teach = weeks("1-14")
    c = Course
    courses = [
        c("Linear Algebra", 1, 1, 2, teach, "SA169", ["Wei Zhang"], "Dr Wei Zhang",
          {"code": "MTH007", "type": "Lecture"}),
        c("Linear Algebra", 4, 3, 3, weeks("2-14"), "SB222", ["Yuting Chen"], "Ms Yuting Chen",
          {"code": "MTH007", "type": "Tutorial"}),
        c("Introduction to Databases", 2, 2, 3, teach, "SD104", ["Li Na", "Mark Evans"], "Dr Li Na; Prof. Mark Evans",
          {"code": "CPT103", "type": "Lecture"}),
        c("Introduction to Databases", 3, 6, 7, weeks("3-14"), "SD546", ["Mark Evans"], "Prof. Mark Evans",
          {"code": "CPT103", "type": "Lab"}),
        c("English for Academic Purposes", 1, 6, 7, teach, "EB312", ["Helen Xu"], "Ms Helen Xu",
          {"code": "EAP121", "type": "Seminar"}),
        c("English for Academic Purposes", 4, 6, 7, teach, "EB312", ["Helen Xu"], "Ms Helen Xu",
          {"code": "EAP121", "type": "Seminar"}),
        c("Chinese Culture", 5, 1, 2, weeks("1-12"), "FB101", ["孙立"], "孙立",
          {"code": "CCS101", "type": "Lecture"}),
    ]
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Scientia//Syllabus Plus Web Timetables 4.1//EN", "VERSION:2.0",
             "METHOD:PUBLISH", *SHANGHAI_VTZ]
    n = 0
    for co in courses:
        for o in occurrences(school, co):
            n += 1
            wk = school.week_of(o.day)
            desc = (f"Module: {co.extra['code']} {co.name}\nActivity: {co.extra['code']}/{co.extra['type']}/01\n"
                    f"Type: {co.extra['type']}\nStaff: {co.written}\nWeek: {wk}")
            lines += ["BEGIN:VEVENT", f"UID:SPLUS{n:05d}-{co.extra['code']}@timetable.suhu.example",
                      "DTSTAMP:20250901T000000Z",
                      f"DTSTART;TZID=Asia/Shanghai:{floating(o.day, o.start)}",
                      f"DTEND;TZID=Asia/Shanghai:{floating(o.day, o.end)}",
                      f"SUMMARY:{esc(co.extra['code'] + ' ' + co.name)}", f"LOCATION:{esc(co.room)}",
                      f"DESCRIPTION:{esc(desc)}", "CLASS:PUBLIC", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    exp = expected(school, courses,
                   "Personal timetable from a Sino-foreign university's Syllabus Plus web timetable (English): TZID "
                   "with VTIMEZONE, CRLF, one event per meeting ordered by module, SUMMARY 'CODE Module name', "
                   "DESCRIPTION with module, activity (lecture/tutorial/lab/seminar), 'Staff:' with Dr/Prof./Ms and "
                   "two staff separated by ';', week number; hourly 50-minute slots from 09:00; the Golden Week "
                   "holiday (Oct 1-8) has no events.")
    return "ics_sinoforeign_splus.ics", ics(lines), exp


# ---- 7. abroad: an Australian university's myTimetable (Allocate+) feed, UTC across the end of DST ---------

def melbourne() -> tuple[str, bytes, dict]:
    school = School("Yarra University (Melbourne)", "Australia/Melbourne", date(2026, 3, 2), 13,
                    grid(("08:15", 11, 60, [0] * 10)),
                    off={date(2026, 3, 9), date(2026, 4, 3)} | days(date(2026, 4, 6), date(2026, 4, 10)))
    teach = [w for w in range(1, 14) if w != 6]
    tut = [w for w in teach if w >= 2]
    c = Course
    courses = [
        c("Calculus 2", 1, 3, 3, teach, "Peter Hall-G03", [], "", {"code": "MAST10006", "act": "Lecture 1"}),
        c("Calculus 2", 3, 3, 3, teach, "Peter Hall-G03", [], "", {"code": "MAST10006", "act": "Lecture 2"}),
        c("Calculus 2", 5, 2, 2, teach, "Alice Hoy-Room 101", [], "", {"code": "MAST10006", "act": "Lecture 3"}),
        c("Calculus 2", 4, 6, 6, tut, "Richard Berry-Room 213", [], "", {"code": "MAST10006", "act": "Tutorial 07"}),
        c("Introductory Microeconomics", 2, 5, 5, teach, "Law Building-GM15", [], "",
          {"code": "ECON10004", "act": "Lecture 1"}),
        c("Introductory Microeconomics", 4, 4, 4, teach, "Law Building-GM15", [], "",
          {"code": "ECON10004", "act": "Lecture 2"}),
        c("Introductory Microeconomics", 3, 8, 8, tut, "FBE Building-Room 032", ["Aisha Rahman"], "Dr Aisha Rahman",
          {"code": "ECON10004", "act": "Tutorial 12"}),
        c("Foundations of Computing", 2, 2, 2, teach, "Kwong Lee Dow-Theatre 1", [], "",
          {"code": "COMP10001", "act": "Lecture 1"}),
        c("Foundations of Computing", 5, 4, 5, tut, "Melbourne Connect-Room 4101", [], "",
          {"code": "COMP10001", "act": "Workshop 05"}),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Allocate Software//Allocate+ iCal Feed//EN",
             "X-WR-CALNAME:myTimetable 2026 Semester 1", "X-PUBLISHED-TTL:PT12H"]
    for co in courses:
        for o in occurrences(school, co):
            desc = f"{co.extra['code']}_U_1_SM1\n{co.extra['act']}\nWeek {school.week_of(o.day)}"
            if co.written:
                desc += f"\nStaff: {co.written}"
            lines += ["BEGIN:VEVENT", f"UID:{uid('mel', co.extra['code'], co.extra['act'], o.day)}@allocate",
                      "DTSTAMP:20260220T000000Z",
                      f"DTSTART:{utc(school, o.day, o.start)}", f"DTEND:{utc(school, o.day, o.end)}",
                      f"SUMMARY:{esc(co.name + ' - ' + co.extra['act'])}", f"LOCATION:{esc(co.room)}",
                      f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    exp = expected(school, courses,
                   "A Chinese student in Melbourne: the university's myTimetable (Allocate+) iCal feed. One event per "
                   "meeting in UTC; daylight saving ends on Sunday 5 April (the mid-semester break follows), so "
                   "morning classes are on the previous UTC day before it and on the same UTC day after; "
                   "classes on the quarter hour, 60 minutes, no breaks; SUMMARY 'Subject - Activity n', subject "
                   "code in DESCRIPTION, staff named for one tutorial only; Labour Day and Good Friday have no "
                   "classes.")
    return "ics_melbourne_allocate_utc_dst.ics", ics(lines), exp


# ---- 8. abroad: a Chinese student in Japan, Google Calendar after manual entry (90-minute 時限) ------------

def japan() -> tuple[str, bytes, dict]:
    school = School("北辰国際大学", "Asia/Tokyo", date(2026, 4, 13), 15,
                    grid(("09:00", 2, 90, [10]), ("13:00", 4, 90, [15, 15, 15])),
                    off={date(2026, 4, 29), date(2026, 5, 4), date(2026, 5, 5), date(2026, 5, 6)},
                    makeup={date(2026, 7, 25): date(2026, 5, 4)})
    c = Course
    courses = [
        c("線形代数学Ⅰ", 1, 2, 2, weeks("1-15"), "3号館 302", ["田中一郎"], "田中一郎 先生"),
        c("日本語アカデミック・ライティング", 2, 1, 1, weeks("1-15"), "国際交流会館 201", ["山本恵子"], "山本恵子 先生"),
        c("マクロ経済学入門", 3, 3, 3, weeks("1-15"), "5号館 大教室", ["佐藤健"], "佐藤健 教授"),
        c("情報リテラシー", 4, 4, 5, weeks("1-14"), "情報センター 第2演習室", ["鈴木大輔", "中村彩"], "鈴木大輔 先生、中村彩 TA"),
        c("統計学基礎", 5, 2, 2, weeks("1-15"), "3号館 105", ["渡辺誠"], "渡辺誠 准教授"),
        c("日本事情", 5, 3, 3, weeks("2-15"), "国際交流会館 101", ["Kenji Ito"], "Kenji Ito"),
    ]
    tz = "Asia/Tokyo"
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:大学 時間割", "X-WR-TIMEZONE:Asia/Tokyo",
             "BEGIN:VTIMEZONE", "TZID:Asia/Tokyo", "X-LIC-LOCATION:Asia/Tokyo", "BEGIN:STANDARD",
             "TZOFFSETFROM:+0900", "TZOFFSETTO:+0900", "TZNAME:JST", "DTSTART:19700101T000000", "END:STANDARD",
             "END:VTIMEZONE"]
    extra = []
    for i, co in enumerate(courses):
        span, ex, rd = series_dates(school, co)
        start, end = school.times(co.s, co.e)
        until = utc(school, span[-1] + timedelta(days=1), "00:00")
        until = (datetime.strptime(until, "%Y%m%dT%H%M%SZ") - timedelta(seconds=1)).strftime("%Y%m%dT%H%M%SZ")
        desc = f"担当：{co.written}\n第{co.s}限" + (f"〜第{co.e}限" if co.e != co.s else "")
        ev = ["BEGIN:VEVENT", f"DTSTART;TZID={tz}:{floating(span[0], start)}",
              f"DTEND;TZID={tz}:{floating(span[0], end)}", f"RRULE:FREQ=WEEKLY;WKST=SU;UNTIL={until};BYDAY={BYDAY[co.day - 1]}"]
        if ex:
            ev += [f"EXDATE;TZID={tz}:{floating(d, start)}" for d in ex]
        ev += ["DTSTAMP:20260410T120000Z", f"UID:{uid('jp', i).replace('-', '')[:26]}@google.com", "CREATED:20260410T113000Z",
               f"DESCRIPTION:{esc(desc)}", "LAST-MODIFIED:20260410T113500Z", f"LOCATION:{esc(co.room)}",
               "SEQUENCE:0", "STATUS:CONFIRMED", f"SUMMARY:{esc(co.name)}", "TRANSP:OPAQUE", "END:VEVENT"]
        lines += ev
        for d in rd:  # the make-up Saturday, entered by hand as its own event
            extra += ["BEGIN:VEVENT", f"DTSTART;TZID={tz}:{floating(d, start)}", f"DTEND;TZID={tz}:{floating(d, end)}",
                      "DTSTAMP:20260410T120000Z", f"UID:{uid('jp', i, d).replace('-', '')[:26]}@google.com",
                      f"DESCRIPTION:{esc('補講日（5/4 月曜授業分）' + chr(10) + '担当：' + co.written)}",
                      f"LOCATION:{esc(co.room)}", "SEQUENCE:0", "STATUS:CONFIRMED", f"SUMMARY:{esc(co.name)}",
                      "TRANSP:OPAQUE", "END:VEVENT"]
    lines += extra + ["END:VCALENDAR"]
    exp = expected(school, courses,
                   "A Chinese exchange student at a Japanese university typed the 時間割 into Google Calendar and "
                   "exported it: Asia/Tokyo VTIMEZONE, one weekly series per course with BYDAY, WKST=SU and UNTIL "
                   "in UTC one second before local midnight, one EXDATE line per Golden Week holiday, a hand-made "
                   "event for the Saturday 補講日 that runs Monday's classes; 90-minute periods (時限); teachers "
                   "with 先生/教授/准教授 and a TA; Japanese course names.")
    return "ics_japan_google_jigen.ics", ics(lines), exp


# ---- 9. a Xinjiang university (classes from 10:00 Beijing time), Android phone calendar export ------------

def android() -> tuple[str, bytes, dict]:
    school = School("博格达师范学院", "Asia/Shanghai", date(2025, 2, 17), 18,
                    grid(("10:00", 4, 45, [10, 20, 10]), ("16:00", 4, 45, [10, 15, 10]), ("20:30", 2, 45, [10])),
                    off={date(2025, 4, 4), date(2025, 5, 1), date(2025, 5, 2), date(2025, 5, 5), date(2025, 6, 2)},
                    makeup={date(2025, 4, 27): date(2025, 5, 5)})
    c = Course
    courses = [
        c("教育学原理", 1, 1, 2, weeks("1-18"), "文科楼 305", ["阿依古丽"], "阿依古丽"),
        c("中国现代文学史", 1, 5, 7, weeks("1-16"), "文科楼 210", ["马建新"], "马建新"),
        c("古代汉语", 2, 3, 4, weeks("1-17单"), "文科楼 210", ["努尔兰"], "努尔兰"),
        c("大学英语(4)", 3, 1, 2, weeks("1-16"), "外语楼 402", ["吴婷婷"], "吴婷婷"),
        c("写作", 3, 5, 6, weeks("2-18双"), "文科楼 118", ["王志刚"], "王志刚"),
        c("现代汉语", 4, 1, 3, weeks("1-18"), "文科楼 305", ["李娜"], "李娜"),
        c("书法", 4, 9, 10, weeks("3-12"), "艺术楼 书法教室", ["帕尔哈提"], "帕尔哈提"),
        c("心理学", 5, 3, 4, weeks("1-16"), "教育楼 201", ["张萍"], "张萍"),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Android//Calendar Import-Export 2.8//EN"]
    for i, co in enumerate(courses):
        span, ex, rd = series_dates(school, co)
        start, end = school.times(co.s, co.e)
        seconds = (datetime.strptime(end, "%H:%M") - datetime.strptime(start, "%H:%M")).seconds
        step = co.weeks[1] - co.weeks[0]
        if step == 2:
            ex = [d for d in ex if school.week_of(d) in co.weeks]
        until = utc(school, school.day(co.weeks[-1], co.day), end)
        rule = f"FREQ=WEEKLY;UNTIL={until};WKST=MO;BYDAY={BYDAY[co.day - 1]}" + (";INTERVAL=2" if step == 2 else "")
        ev = ["BEGIN:VEVENT", f"UID:{1700 + i}", f"DTSTART;TZID=PRC:{floating(span[0], start)}",
              f"DURATION:PT{seconds}S", f"RRULE:{rule}"]
        ev += [f"EXDATE;TZID=PRC:{floating(d, start)}" for d in ex]
        ev += [f"RDATE;TZID=PRC:{floating(d, start)}" for d in rd]
        ev += [f"SUMMARY:{esc(co.name)}", f"LOCATION:{esc(co.room)}", f"DESCRIPTION:{esc('教师：' + co.written)}",
               "STATUS:CONFIRMED", "END:VEVENT"]
        lines += ev
    lines.append("END:VCALENDAR")
    exp = expected(school, courses,
                   "A Xinjiang normal college (classes start at 10:00 Beijing time, afternoon at 16:00, evening at "
                   "20:30), copied into the Android phone calendar and exported with an Android export app: no "
                   "VTIMEZONE, TZID=PRC, DURATION in seconds instead of DTEND, numeric UIDs, RRULE with UNTIL in UTC, "
                   "WKST and BYDAY, INTERVAL=2 for odd/even-week courses, one EXDATE line per holiday and an RDATE "
                   "for the Sunday make-up day that runs Monday's classes; LF line ends, no folding.")
    return "ics_android_prc_duration.ics", ics(lines, "\n", do_fold=False), exp


# ---- 10. Foxmail calendar export: a Windows display-name TZID, BYDAY over two days, a noon section --------

def foxmail() -> tuple[str, bytes, dict]:
    school = School("瓯江理工大学", "Asia/Shanghai", date(2024, 9, 9), 17,
                    grid(("08:00", 4, 45, [10, 20, 10]), ("12:10", 1, 45, []), ("14:00", 4, 45, [10, 20, 10]),
                         ("19:00", 3, 45, [10, 10])),
                    off={date(2024, 9, 16), date(2024, 9, 17)} | days(date(2024, 10, 1), date(2024, 10, 7)),
                    makeup={date(2024, 9, 14): date(2024, 9, 16), date(2024, 9, 29): date(2024, 10, 4),
                            date(2024, 10, 12): date(2024, 10, 7)})
    c = Course
    pairs = [  # (course on Tue, course on Thu) written as one event when they are the same sections
        c("高等数学A(1)", 2, 1, 2, weeks("1-16"), "求是楼 C201", ["潘国栋"], "潘国栋"),
        c("高等数学A(1)", 4, 1, 2, weeks("1-16"), "求是楼 C201", ["潘国栋"], "潘国栋"),
    ]
    single = [
        c("工程制图", 1, 3, 4, weeks("1-16"), "工程楼 410", ["叶青", "金涛"], "叶青、金涛"),
        c("C语言程序设计", 1, 6, 8, weeks("3-17"), "计算机楼 机房502", ["郑鸿"], "郑鸿（讲师）"),
        c("大学物理(1)", 3, 1, 2, weeks("1-16"), "求是楼 B105", ["林海峰"], "林海峰（副教授）"),
        c("形势与政策", 3, 5, 5, weeks("1-8"), "求是楼 报告厅", ["许晴"], "许晴"),
        c("思想道德与法治", 4, 6, 7, weeks("1-16"), "求是楼 C308", ["方敏"], "方敏"),
        c("大学英语(1)", 5, 3, 4, weeks("1-16"), "外语楼 306", ["Olivia Grant", "何丹"], "Olivia Grant、何丹"),
        c("线性代数", 4, 10, 11, weeks("2-13"), "求是楼 C201", ["沈立"], "沈立"),
    ]
    tz = '"(UTC+08:00) 北京，重庆，香港特别行政区，乌鲁木齐"'
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Tencent//Foxmail Calendar 7.2//CN", "VERSION:2.0", "METHOD:PUBLISH",
             "BEGIN:VTIMEZONE", f"TZID:{tz.strip(chr(34))}", "BEGIN:STANDARD", "DTSTART:16010101T000000",
             "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:STANDARD", "END:VTIMEZONE"]

    def body(co: Course) -> list[str]:
        return [f"SUMMARY:{esc(co.name)}", f"LOCATION:{esc(co.room)}", f"DESCRIPTION:{esc('任课老师：' + co.written)}",
                "PRIORITY:5", "CLASS:PUBLIC", "TRANSP:OPAQUE"]

    tue, thu = pairs
    span_t, ex_t, rd_t = series_dates(school, tue)
    _, ex_h, rd_h = series_dates(school, thu)
    start, end = school.times(tue.s, tue.e)
    lines += ["BEGIN:VEVENT", f"UID:{uid('fox', 'pair')}", "DTSTAMP:20240905T010000Z",
              f"DTSTART;TZID={tz}:{floating(span_t[0], start)}", f"DTEND;TZID={tz}:{floating(span_t[0], end)}",
              f"RRULE:FREQ=WEEKLY;COUNT={2 * len(tue.weeks)};BYDAY=TU,TH"]
    lines += [f"EXDATE;TZID={tz}:" + ",".join(floating(d, start) for d in sorted(ex_t + ex_h))]
    if rd_t + rd_h:
        lines += [f"RDATE;TZID={tz}:" + ",".join(floating(d, start) for d in sorted(rd_t + rd_h))]
    lines += body(tue) + ["END:VEVENT"]
    for i, co in enumerate(single):
        lines += rrule_event(school, co, tz, f"COUNT={co.weeks[-1] - co.weeks[0] + 1}", uid("fox", i), body(co),
                             f";BYDAY={BYDAY[co.day - 1]}", stamp="20240905T010000Z")
    # two one-off events at the end: a lecture clashing with 线性代数, and a review class after week 17
    clash, review = school.day(7, 4), school.day(18, 1)
    lines += ["BEGIN:VEVENT", f"UID:{uid('fox', 'cet')}", "DTSTAMP:20240905T010000Z",
              f"DTSTART;TZID={tz}:{floating(clash, '19:00')}", f"DTEND;TZID={tz}:{floating(clash, '20:40')}",
              "SUMMARY:四级备考讲座", "LOCATION:求是楼 报告厅", "DESCRIPTION:任课老师：何丹", "END:VEVENT",
              "BEGIN:VEVENT", f"UID:{uid('fox', 'review')}", "DTSTAMP:20240905T010000Z",
              f"DTSTART;TZID={tz}:{floating(review, '08:00')}", f"DTEND;TZID={tz}:{floating(review, '09:40')}",
              "SUMMARY:高等数学A(1)", "LOCATION:求是楼 C201", "DESCRIPTION:任课老师：潘国栋（期末答疑）", "END:VEVENT",
              "END:VCALENDAR"]
    exp = expected(school, pairs + single,
                   "Foxmail calendar export: the time zone is a Windows display name with a comma-laden, quoted "
                   "TZID and a +0800 VTIMEZONE; weekly series with COUNT and BYDAY (one series for a course on "
                   "Tuesdays and Thursdays), EXDATE lists for 中秋/国庆 and RDATE lists for the three make-up days "
                   "(running Monday, Friday and Monday classes); DESCRIPTION '任课老师：' with titles in full-width "
                   "brackets. A noon section (12:10) between the morning and the afternoon. At the end, a one-off "
                   "lecture clashing with the evening course in week 7 (overlap: the earlier course is kept) and "
                   "a review class in week 18 (outside the 17-week semester).",
                   [{"summary": "四级备考讲座", "why": "overlap", "date": clash.isoformat(),
                     "detail": "sections 10-11 already hold 线性代数, listed earlier in the file"},
                    {"summary": "高等数学A(1)", "why": "outside_semester", "date": review.isoformat()}])
    return "ics_foxmail_windows_tzid_noon.ics", ics(lines), exp


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for make in (medical, art, vocational, military, graduate, sino_foreign, melbourne, japan, android, foxmail):
        name, data, exp = make()
        write(name, data, exp)
        print(f"{name}: {len(exp['meetings'])} meetings, {len(exp['skipped'])} skipped")


if __name__ == "__main__":
    main()
