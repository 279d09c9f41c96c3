"""Writes files/dev8/ (the fifth held-out set, written blind): ten timetable files from descriptions
of fictional schools.

Each file starts from a school (week-1 Monday, zone, weeks, section grid, days off, make-up days that
run another day's classes) and a student's courses (weekday, sections, weeks, room, teachers as the
tool writes them). The expected board is computed from that description alone; the file is then
rendered in the shape of the tool the student would use. The generic pieces (grid, School, Course,
occurrences, week specs, ICS text helpers) are shared with make_dev7.
Run: python -m bench.import_eval.make_dev8
"""
from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

from bench.import_eval.make_dev7 import (
    BYDAY,
    SHANGHAI_VTZ,
    Course,
    Occ,
    School,
    days,
    esc,
    expected,
    floating,
    grid,
    ics,
    occurrences,
    utc,
    weeks,
)

OUT = Path(__file__).resolve().parent / "files" / "dev8"
WEEKDAY = "一二三四五六日"

Body = Callable[[Course, Occ], list[str]]


def uid(*parts: object) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "dev8/" + "/".join(map(str, parts))))


def write(name: str, data: bytes, exp: dict) -> None:
    (OUT / name).write_bytes(data)
    stem = name.rsplit(".", 1)[0]
    (OUT / f"{stem}.expected.json").write_text(json.dumps(exp, ensure_ascii=False, indent=1) + "\n", "utf-8")


def when(school: School, d: date, hm: str, mode: str) -> str:
    """';TZID=..:local', ':...Z' or ':floating' for a DTSTART/DTEND/EXDATE value."""
    if mode == "utc":
        return ":" + utc(school, d, hm)
    if mode == "floating":
        return ":" + floating(d, hm)
    return f";TZID={mode}:" + floating(d, hm)


def per_meeting(school: School, courses: list[Course], mode: str, body: Body, tag: str, stamp: str) -> list[str]:
    """One VEVENT per meeting (days off left out, make-up days included)."""
    out = []
    for i, o in enumerate(o for c in courses for o in occurrences(school, c)):
        out += ["BEGIN:VEVENT", f"UID:{uid(tag, i)}", f"DTSTAMP:{stamp}",
                f"DTSTART{when(school, o.day, o.start, mode)}", f"DTEND{when(school, o.day, o.end, mode)}",
                *body(o.course, o), "END:VEVENT"]
    return out


def series(school: School, c: Course, mode: str, body: Body, tag: str, stamp: str, until: str = "local",
           make_up: str = "rdate") -> list[str]:
    """One weekly RRULE per course over its week span: EXDATE for skipped weeks and days off, make-up
    days as RDATE (or as separate one-off events)."""
    first, last = school.day(c.weeks[0], c.day), school.day(c.weeks[-1], c.day)
    start, end = school.times(c.s, c.e)
    occ = occurrences(school, c)
    held = {o.day for o in occ}
    ex = [first + timedelta(weeks=k) for k in range((last - first).days // 7 + 1)
          if first + timedelta(weeks=k) not in held]
    extra = [o for o in occ if o.makeup_of]
    rule = "RRULE:FREQ=WEEKLY;"
    if until == "count":
        rule += f"COUNT={(last - first).days // 7 + 1}"
    elif until == "utc":
        rule += "UNTIL=" + utc(school, last, end)
    elif until == "date":
        rule += "UNTIL=" + last.strftime("%Y%m%d")
    else:
        rule += "UNTIL=" + floating(last, end)
    rule += f";BYDAY={BYDAY[c.day - 1]}"
    o0 = Occ(c, first, start, end)
    out = ["BEGIN:VEVENT", f"UID:{uid(tag, c.name, c.day, c.s)}", f"DTSTAMP:{stamp}",
           f"DTSTART{when(school, first, start, mode)}", f"DTEND{when(school, first, end, mode)}", rule]
    if ex:
        out.append("EXDATE" + when(school, ex[0], start, mode).split(":")[0] + ":"
                   + ",".join(when(school, d, start, mode).split(":")[1] for d in ex))
    if extra and make_up == "rdate":
        out.append("RDATE" + when(school, extra[0].day, start, mode).split(":")[0] + ":"
                   + ",".join(when(school, o.day, start, mode).split(":")[1] for o in extra))
    out += body(c, o0) + ["END:VEVENT"]
    if make_up == "event":
        for o in extra:
            out += ["BEGIN:VEVENT", f"UID:{uid(tag, c.name, o.day)}", f"DTSTAMP:{stamp}",
                    f"DTSTART{when(school, o.day, o.start, mode)}", f"DTEND{when(school, o.day, o.end, mode)}",
                    *body(c, o), "END:VEVENT"]
    return out


def vcal(prodid: str, *head: str) -> list[str]:
    return ["BEGIN:VCALENDAR", f"PRODID:{prodid}", "VERSION:2.0", "CALSCALE:GREGORIAN", *head]


def one_off(school: School, name: str, d: date, start: str, end: str, mode: str, tag: str, stamp: str,
            *props: str) -> list[str]:
    return ["BEGIN:VEVENT", f"UID:{uid(tag, name, d)}", f"DTSTAMP:{stamp}", f"DTSTART{when(school, d, start, mode)}",
            f"DTEND{when(school, d, end, mode)}", f"SUMMARY:{esc(name)}", *props, "END:VEVENT"]


def course(name: str, day: int, s: int, e: int, spec: str, room: str, teachers: list[str], written: str = "") -> Course:
    return Course(name, day, s, e, weeks(spec), room, teachers, written or "、".join(teachers))


# ---- 1. TCM university, a phone timetable app's ics: TZID + VTIMEZONE, RRULE UNTIL local, RDATE make-ups --

def tcm() -> tuple[str, bytes, dict]:
    school = School("岭北中医药大学", "Asia/Shanghai", date(2025, 2, 17), 18,
                    grid(("08:00", 5, 45, [10, 20, 10, 10]), ("14:00", 4, 45, [10, 15, 10]), ("19:00", 3, 45, [10, 10])),
                    off={date(2025, 4, 4)} | days(date(2025, 5, 1), date(2025, 5, 5)),
                    makeup={date(2025, 4, 27): date(2025, 5, 5)})
    courses = [
        course("中医基础理论", 1, 1, 2, "1-18", "杏林楼 A201", ["周仲文"], "周仲文 教授"),
        course("中药学", 2, 3, 5, "1-16", "百草楼 305", ["林秀芝", "吴海"], "林秀芝,吴海"),
        course("针灸学", 3, 6, 8, "3-18", "针推实训楼 2-08", ["郑大成"], "郑大成（副教授）"),
        course("医古文", 4, 1, 2, "1-17单", "杏林楼 B106", ["陈静"]),
        course("人体解剖学", 5, 3, 5, "1-14", "基础医学楼 解剖室2", ["刘建国"]),
        course("大学体育(4)", 1, 6, 7, "1-16", "东区 太极馆", ["黄玉"]),
        course("方剂学", 2, 10, 11, "2-18", "杏林楼 A305", ["孙文"]),
    ]
    tz = "Asia/Shanghai"

    def body(c: Course, o: Occ) -> list[str]:
        return [f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                f"DESCRIPTION:{esc(f'教师：{c.written}' + chr(10) + f'节次：周{WEEKDAY[c.day - 1]} 第{c.s}-{c.e}节')}"]

    lines = vcal("-//SuperSchedule//Timetable Export 9.6//CN", "METHOD:PUBLISH", "X-WR-CALNAME:2024-2025-2 课表",
                 *SHANGHAI_VTZ)
    for c in courses:
        lines += series(school, c, tz, body, "tcm", "20250215T120000Z", until="local", make_up="rdate")
    lines.append("END:VCALENDAR")
    exp = expected(school, courses, "Phone timetable app export of a TCM university: TZID with a VTIMEZONE, one weekly "
                   "RRULE per course with a local UNTIL, EXDATE for 清明 and 劳动节, RDATE for the Sunday make-up day "
                   "that runs Monday's classes; 45-minute sections, 5-section morning, evening block.")
    return "ics_tcm_app_rrule_rdate.ics", ics(lines), exp


# ---- 2. conservatory, Apple Calendar after manual entry: UNTIL in UTC, EXDATE;TZID, make-ups as one-offs -

def conservatory() -> tuple[str, bytes, dict]:
    school = School("江南音乐学院", "Asia/Shanghai", date(2025, 9, 8), 16,
                    grid(("08:30", 4, 50, [10, 20, 10]), ("13:30", 4, 50, [10, 10, 10]), ("18:30", 3, 50, [10, 10])),
                    off=days(date(2025, 10, 1), date(2025, 10, 8)),
                    makeup={date(2025, 9, 28): date(2025, 10, 6), date(2025, 10, 11): date(2025, 10, 7)})
    courses = [
        course("和声学", 1, 1, 2, "1-16", "教学楼 412", ["顾明远"], "顾明远老师"),
        course("视唱练耳", 2, 3, 4, "1-16", "教学楼 208", ["沈佳"], "沈佳老师"),
        course("钢琴主课", 3, 5, 5, "1-16", "琴房楼 516", ["叶萍"], "叶萍老师"),
        course("中国音乐史", 4, 1, 2, "1-12", "图书馆 报告厅", ["王立群"], "王立群老师"),
        course("合唱与指挥", 2, 9, 11, "3-16", "音乐厅 排练厅B", ["许文涛"], "许文涛老师"),
        course("复调", 5, 6, 7, "1-16", "教学楼 410", ["顾明远"], "顾明远老师"),
    ]
    tz = "Asia/Shanghai"

    def body(c: Course, o: Occ) -> list[str]:
        return [f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(c.written)}",
                "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC", "SEQUENCE:0", "TRANSP:OPAQUE",
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:提醒", "TRIGGER:-PT15M",
                f"X-WR-ALARMUID:{uid('alarm', c.name, o.day)}", "END:VALARM"]

    lines = ["BEGIN:VCALENDAR", "METHOD:PUBLISH", "VERSION:2.0", "X-WR-CALNAME:上课", "PRODID:-//Apple Inc.//macOS 15.1//EN",
             "X-APPLE-CALENDAR-COLOR:#1BADF8", "X-WR-TIMEZONE:Asia/Shanghai", "CALSCALE:GREGORIAN",
             "BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0800",
             "RRULE:FREQ=YEARLY;UNTIL=19910414T180000Z;BYMONTH=4;BYDAY=3SU", "DTSTART:19890416T020000",
             "TZNAME:GMT+8", "TZOFFSETTO:+0900", "END:DAYLIGHT", "BEGIN:STANDARD", "TZOFFSETFROM:+0900",
             "RRULE:FREQ=YEARLY;UNTIL=19910914T170000Z;BYMONTH=9;BYDAY=3SU", "DTSTART:19890917T020000",
             "TZNAME:GMT+8", "TZOFFSETTO:+0800", "END:STANDARD", "END:VTIMEZONE"]
    for c in courses:
        lines += series(school, c, tz, body, "apple", "20250906T083000Z", until="utc", make_up="event")
    lines.append("END:VCALENDAR")
    exp = expected(school, courses, "Apple Calendar (macOS) export after the student typed the timetable in: Apple's "
                   "historical Asia/Shanghai VTIMEZONE, weekly RRULE with UNTIL in UTC, EXDATE;TZID for the National "
                   "Day week, the two make-up days as separate one-off events, VALARM; teacher alone in DESCRIPTION "
                   "('X老师'); 50-minute sections, one-section piano lesson.")
    return "ics_conservatory_apple_manual.ics", ics(lines), exp


def simple(summary: Callable[[Course], str], location: Callable[[Course], str] | None,
           desc: Callable[[Course, Occ], str] | None) -> Body:
    def body(c: Course, o: Occ) -> list[str]:
        out = [f"SUMMARY:{esc(summary(c))}"]
        if location:
            out.append(f"LOCATION:{esc(location(c))}")
        if desc:
            out.append(f"DESCRIPTION:{esc(desc(c, o))}")
        return out
    return body


# ---- 3. sports university, Google Calendar after manual entry: UNTIL UTC, EXDATE, all-day sports meet ---

def sports() -> tuple[str, bytes, dict]:
    school = School("华北体育学院", "Asia/Shanghai", date(2024, 9, 2), 18,
                    grid(("08:00", 4, 45, [10, 20, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:00", 2, 45, [10])),
                    off={date(2024, 9, 16), date(2024, 9, 17)} | days(date(2024, 10, 1), date(2024, 10, 7)),
                    makeup={date(2024, 9, 14): date(2024, 9, 16), date(2024, 10, 12): date(2024, 10, 7)})
    courses = [
        course("运动生理学", 1, 1, 2, "1-18", "体科楼 203", ["马骏"], "马骏 教授"),
        course("田径(专项)", 2, 5, 8, "1-16", "北区田径场", ["高远", "李冰"], "高远、李冰"),
        course("体育概论", 3, 3, 4, "1-12", "体科楼 105", ["赵宏"]),
        course("运动解剖学", 4, 1, 2, "1-18", "体科楼 实验室301", ["钱立"], "钱立（讲师）"),
        course("大学英语(3)", 5, 3, 4, "1-16", "文综楼 402", ["Karen Lee"]),
        course("篮球", 1, 5, 6, "2-17", "综合馆 3号场", ["韩冬"]),
    ]
    tz = "Asia/Shanghai"
    body = simple(lambda c: c.name, lambda c: c.room, lambda c, o: f"任课教师：{c.written}")
    lines = vcal("-//Google Inc//Google Calendar 70.9054//EN", "METHOD:PUBLISH", "X-WR-CALNAME:课表",
                 "X-WR-TIMEZONE:Asia/Shanghai", *SHANGHAI_VTZ[:2], *SHANGHAI_VTZ[3:])
    for c in courses:
        lines += series(school, c, tz, body, "gcal", "20240901T101010Z", until="utc", make_up="event")
    meet = date(2024, 10, 24)
    lines += ["BEGIN:VEVENT", f"DTSTART;VALUE=DATE:{meet:%Y%m%d}", f"DTEND;VALUE=DATE:{meet + timedelta(days=2):%Y%m%d}",
              "DTSTAMP:20240901T101010Z", f"UID:{uid('gcal', 'meet')}@google.com", "SUMMARY:校运动会",
              "TRANSP:TRANSPARENT", "END:VEVENT", "END:VCALENDAR"]
    exp = expected(school, courses, "Google Calendar export after manual entry: VTIMEZONE, DTSTART;TZID, weekly RRULE "
                   "with UNTIL in UTC, EXDATE;TZID for 中秋 and 国庆, make-up days as one-off events; a two-day all-day "
                   "sports meet (skipped as all_day).",
                   [{"summary": "校运动会", "why": "all_day", "date": meet.isoformat()}])
    return "ics_sports_google_manual.ics", ics(lines), exp


# ---- 4. ethnic-minorities university, 教务 list timetable saved from Excel as CSV (UTF-8 BOM) ----------

def minzu() -> tuple[str, bytes, dict]:
    school = School("滇西民族大学", "Asia/Shanghai", date(2025, 9, 15), 16,
                    grid(("08:30", 4, 45, [10, 20, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:30", 3, 45, [10, 10])))
    courses = [
        course("民族理论与民族政策", 1, 3, 4, "1-16", "呈贡校区 文汇楼 301", ["段志宏"]),
        course("数据结构", 2, 1, 3, "1-16", "呈贡校区 信息楼 A512", ["杨帆"]),
        course("数据结构实验", 4, 5, 6, "2-16双", "呈贡校区 信息楼 机房6", ["杨帆", "李娜"]),
        course("离散数学", 3, 1, 2, "1-12", "呈贡校区 文汇楼 205", ["普文华"]),
        course("大学英语(3)", 5, 1, 2, "1-16", "呈贡校区 外语楼 118", ["刀美兰"]),
        course("形势与政策", 3, 9, 10, "5-8", "呈贡校区 大礼堂", ["张勇"]),
    ]
    # week 3 is the National Day week: the sheet's week lists leave it out
    for c in courses:
        c.weeks = [w for w in c.weeks if w != 3]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(["序号", "课程名称", "课程号", "学分", "教师", "星期", "开始节", "结束节", "周数", "教室", "备注"])
    for i, c in enumerate(courses, 1):
        spec = {"1-16": "1-2,4-16", "2-16双": "2,4-16双", "1-12": "1-2,4-12", "5-8": "5-8"}[
            next(k for k in ("1-16", "2-16双", "1-12", "5-8") if weeks(k) == sorted(set(c.weeks) | {3}) or weeks(k) == c.weeks)]
        w.writerow([i, c.name, f"{10230 + i * 7}", "2.0" if c.e - c.s < 2 else "3.0", ",".join(c.teachers),
                    f"星期{WEEKDAY[c.day - 1]}", c.s, c.e, spec, c.room, ""])
    exp = expected(school, courses, "教务 list-style timetable opened in Excel and saved as CSV UTF-8 (BOM, CRLF): "
                   "columns 序号,课程名称,课程号,学分,教师,星期,开始节,结束节,周数,教室,备注; week lists leave out the "
                   "National Day week (week 3); two teachers comma-joined inside a quoted cell.")
    return "csv_minzu_list_excel.csv", b"\xef\xbb\xbf" + buf.getvalue().encode("utf-8"), exp


# ---- 5. graduate school, a student's python icalendar script: one event per meeting, TZID ------------

def graduate() -> tuple[str, bytes, dict]:
    school = School("东海科学院研究生院", "Asia/Shanghai", date(2025, 9, 8), 20,
                    grid(("08:30", 4, 50, [10, 20, 10]), ("13:30", 4, 50, [10, 20, 10]), ("19:00", 3, 50, [10, 10])),
                    off=days(date(2025, 10, 1), date(2025, 10, 8)))
    courses = [
        course("矩阵分析与应用", 1, 1, 3, "1-10", "教一楼 101", ["吴志刚"], "吴志刚"),
        course("机器学习", 2, 5, 8, "1-12", "教二楼 报告厅", ["陈思远", "许晴"], "陈思远, 许晴"),
        course("自然辩证法概论", 3, 9, 10, "1-16", "教一楼 302", ["马立"], "马立"),
        course("随机过程", 4, 3, 4, "2-18", "教一楼 210", ["冯涛"], "冯涛"),
        course("学术英语写作", 5, 1, 2, "1-8", "学园一 118", ["Laura Bennett"], "Laura Bennett"),
    ]
    tz = "Asia/Shanghai"
    body = simple(lambda c: c.name, lambda c: c.room,
                  lambda c, o: f"主讲教师: {c.written}\n课程编码: 0812{c.day}{c.s:02d}M0400{c.e}H\n第{school.week_of(o.day)}周")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ucas-course-ics//mxm.dk//", *SHANGHAI_VTZ]
    lines += per_meeting(school, courses, tz, body, "grad", "20250906T150210Z")
    exam = school.day(21, 2)
    lines += one_off(school, "机器学习", exam, "13:30", "16:20", tz, "grad", "20250906T150210Z",
                     "LOCATION:教二楼 报告厅", "DESCRIPTION:期末考试")
    lines.append("END:VCALENDAR")
    exp = expected(school, courses, "Graduate student's script built on python icalendar: one event per meeting with "
                   "TZID and a VTIMEZONE, CRLF, DESCRIPTION '主讲教师: A, B' + course code + week; short courses over "
                   "8-12 weeks, National Day week left out; a final exam in week 21 (outside the 20-week semester).",
                   [{"summary": "机器学习", "why": "outside_semester", "date": exam.isoformat()}])
    return "ics_grad_python_icalendar.ics", ics(lines), exp


# ---- 6. Sino-British university, CELCAT-style English timetable feed: UTC, one event per meeting ------

def sino_british() -> tuple[str, bytes, dict]:
    school = School("Lakeside Xi'an-British University", "Asia/Shanghai", date(2025, 9, 15), 13,
                    grid(("09:00", 9, 50, [10] * 8)), off=days(date(2025, 10, 1), date(2025, 10, 7)))
    courses = [
        course("Linear Algebra", 1, 1, 2, "1-13", "SD546", ["Wei Zhang"], "Dr Wei Zhang"),
        course("Introduction to Programming", 2, 3, 4, "1-13", "EB120", ["Martin Hughes"], "Prof Martin Hughes"),
        course("Introduction to Programming", 4, 6, 7, "2-13", "IR Lab 3", ["Martin Hughes", "Yu Chen"],
          "Prof Martin Hughes; Ms Yu Chen"),
        course("Academic English", 3, 1, 2, "1-13", "FB231", ["Sarah Owen"], "Ms Sarah Owen"),
        course("Chinese Culture", 5, 4, 5, "1-12", "HS111", ["Li Na"], "Dr Li Na"),
    ]
    body = simple(lambda c: c.name, lambda c: c.room,
                  lambda c, o: f"Module: {c.name}\nType: {'Lab' if 'Lab' in c.room else 'Lecture'}\nStaff: {c.written}"
                               f"\nWeek: {school.week_of(o.day)}")
    lines = vcal("-//CELCAT//Calendar Export//EN", "X-WR-CALNAME:My Timetable", "METHOD:PUBLISH")
    lines += per_meeting(school, courses, "utc", body, "celcat", "20250912T040000Z")
    lines.append("END:VCALENDAR")
    exp = expected(school, courses, "English timetabling feed of a Sino-British joint university (CELCAT-like): one "
                   "event per meeting in UTC, SUMMARY the module name, DESCRIPTION Module/Type/Staff/Week with staff "
                   "titles (Dr, Prof, Ms) and ';' between two staff; hourly 50-minute slots from 09:00; golden week "
                   "absent.")
    return "ics_sinobritish_celcat_utc.ics", ics(lines), exp


BERLIN_VTZ = ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
              "TZNAME:CEST", "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
              "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:19701025T030000",
              "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE"]


# ---- 7. a Chinese student in Germany, the university's campus system export: Europe/Berlin, 90 minutes --

def germany() -> tuple[str, bytes, dict]:
    school = School("Technische Hochschule Mainfeld", "Europe/Berlin", date(2025, 10, 13), 17,
                    grid(("08:15", 1, 90, []), ("10:00", 1, 90, []), ("11:45", 1, 90, []), ("14:00", 1, 90, []),
                         ("15:45", 1, 90, []), ("17:30", 1, 90, [])),
                    off=days(date(2025, 12, 22), date(2026, 1, 6)))
    courses = [
        course("Analysis für Informatik", 1, 1, 1, "1-17", "MI HS 1", ["Klaus Weber"], "Prof. Dr. Klaus Weber"),
        course("Analysis für Informatik", 3, 2, 2, "1-17", "MI HS 1", ["Klaus Weber"], "Prof. Dr. Klaus Weber"),
        course("Einführung in die Informatik", 2, 3, 3, "1-17", "MW 0001", ["Anna Schulz"], "Dr. Anna Schulz"),
        course("Diskrete Strukturen", 4, 4, 4, "1-17", "MI 00.13.009A", ["Jörg Brandt"], "Prof. Dr. Jörg Brandt"),
        course("Deutsch als Fremdsprache B2", 5, 2, 2, "2-15", "Sprachenzentrum 1.204", ["Monika Frey"], "Monika Frey"),
    ]
    tz = "Europe/Berlin"
    body = simple(lambda c: c.name, lambda c: c.room,
                  lambda c, o: f"{'Übung' if c.day == 3 and 'Analysis' in c.name else 'Vorlesung'}\n"
                               f"Vortragende/r: {c.written}")
    lines = vcal("-//CAMPUSonline//Termine//DE", "X-WR-CALNAME:Mein Kalender", *BERLIN_VTZ)
    lines += per_meeting(school, courses, tz, body, "de", "20251010T090000Z")
    lines.append("END:VCALENDAR")
    exp = expected(school, courses, "A Chinese student in Germany: the campus system's appointment export, one event per "
                   "meeting with TZID=Europe/Berlin and a DST VTIMEZONE (winter time from week 3), 90-minute slots "
                   "from 08:15, teacher after 'Vortragende/r:' with academic titles, Christmas break absent.")
    return "ics_germany_campus_berlin.ics", ics(lines), exp


# ---- 8. a Chinese student in California, a schedule planner's 'export to calendar': TZID series, DST -----

def california() -> tuple[str, bytes, dict]:
    school = School("Pacific Coast State University", "America/Los_Angeles", date(2025, 9, 22), 10,
                    grid(("08:00", 12, 50, [10] * 11)),
                    off={date(2025, 11, 11), date(2025, 11, 27), date(2025, 11, 28)})
    courses = []
    for d in (1, 3, 5):
        courses.append(course("Calculus II", d, 2, 2, "1-10", "Mathematical Sciences 4000A", ["Robert Kim"]))
    for d in (2, 4):
        courses.append(course("Principles of Microeconomics", d, 4, 5, "1-10", "Bunche Hall 2209", ["Elena Ruiz"]))
    courses.append(course("General Chemistry Lab", 3, 7, 9, "2-10", "Young Hall 1044", ["Priya Nair"]))
    body = simple(lambda c: c.name, lambda c: c.room, lambda c, o: f"Instructor: {'、'.join(c.teachers)}")
    la = [x.replace("Europe/Berlin", "America/Los_Angeles").replace("+0100", "-0800").replace("+0200", "-0700")
          .replace("CEST", "PDT").replace("CET", "PST").replace("BYMONTH=3;BYDAY=-1SU", "BYMONTH=3;BYDAY=2SU")
          .replace("BYMONTH=10;BYDAY=-1SU", "BYMONTH=11;BYDAY=1SU") for x in BERLIN_VTZ]
    lines = vcal("-//Schedule Planner//Calendar Export 2.1//EN", "METHOD:PUBLISH", *la)
    for c in courses:
        lines += series(school, c, "America/Los_Angeles", body, "planner", "20250915T180000Z", until="utc")
    lines.append("END:VCALENDAR")
    exp = expected(school, courses, "A Chinese student in California: a schedule planner's calendar export with weekly "
                   "series with TZID=America/Los_Angeles (one per weekday), UNTIL in UTC, EXDATE for Veterans Day and "
                   "Thanksgiving; DST ends in week 6 and the classes keep their wall-clock times; hourly 50-minute "
                   "slots from 08:00.")
    return "ics_california_planner_tzid.ics", ics(lines), exp


# ---- 9. vocational college, a phone timetable app export: floating, LF, one event per meeting, a clash ---

def vocational() -> tuple[str, bytes, dict]:
    school = School("闽江电力职业技术学院", "Asia/Shanghai", date(2025, 2, 24), 18,
                    grid(("08:10", 4, 45, [10, 25, 10]), ("14:00", 4, 45, [10, 15, 10]), ("19:00", 2, 45, [10])),
                    off={date(2025, 4, 4)} | days(date(2025, 5, 1), date(2025, 5, 5)),
                    makeup={date(2025, 4, 27): date(2025, 5, 5)})
    courses = [
        course("电工基础", 1, 1, 2, "1-18", "实训楼 201", ["林海峰"]),
        course("电机与拖动", 2, 3, 4, "1-16", "教学楼 C305", ["黄志明"]),
        course("PLC编程实训", 3, 5, 8, "3-18", "实训楼 PLC实训室", ["陈俊", "吴斌"]),
        course("高等数学", 4, 1, 2, "1-16", "教学楼 A102", ["郑丽"]),
        course("思想道德与法治", 5, 3, 4, "1-12", "教学楼 A301", ["王芳"]),
        course("安全用电", 1, 9, 10, "5-12", "教学楼 C101", ["刘伟"]),
    ]
    body = simple(lambda c: c.name, lambda c: c.room,
                  lambda c, o: f"第{c.s}-{c.e}节 | 老师：{' '.join(c.teachers)}")
    lines = vcal("-//KechengGezi//Schedule//CN")
    lines += per_meeting(school, courses, "floating", body, "gezi", "20250222T080000Z")
    clash = school.day(7, 1)
    lines += one_off(school, "企业宣讲会", clash, "19:00", "20:30", "floating", "gezi", "20250222T080000Z",
                     "LOCATION:教学楼 C101")
    lines.append("END:VCALENDAR")
    exp = expected(school, courses, "Phone timetable app export of a vocational college: floating times, LF line ends, "
                   "one event per meeting, DESCRIPTION '第s-e节 | 老师：A B'; 清明/劳动节 absent and a Sunday make-up "
                   "day running Monday's classes; a one-off talk added later clashes with the evening course.",
                   [{"summary": "企业宣讲会", "why": "overlap", "date": clash.isoformat(),
                     "detail": "sections 9-10 already hold 安全用电, listed earlier in the file"}])
    return "ics_vocational_app_floating_lf.ics", ics(lines, eol="\n"), exp


# ---- 10. military-style academy, a WeCom (企业微信) calendar export: UNTIL as a DATE, Saturday classes ----

def academy() -> tuple[str, bytes, dict]:
    school = School("北方国防科技学院", "Asia/Shanghai", date(2025, 9, 1), 19,
                    grid(("08:00", 4, 40, [10, 20, 10]), ("14:00", 4, 40, [10, 20, 10]), ("19:00", 2, 40, [10])),
                    off=days(date(2025, 10, 1), date(2025, 10, 3)))
    courses = [
        course("军事理论", 1, 1, 2, "1-19", "东营区 教学楼 301", ["赵刚"], "赵刚 教员"),
        course("信号与系统", 2, 1, 4, "1-16", "东营区 电子楼 205", ["钱明"], "钱明 教员"),
        course("体能训练", 3, 5, 6, "1-19", "训练场", ["孙强", "周勇"], "孙强 教员、周勇 教员"),
        course("大学物理", 4, 3, 4, "1-18", "东营区 教学楼 410", ["李文"], "李文 教员"),
        course("英语(3)", 6, 1, 2, "2-17", "东营区 外语楼 102", ["何晓燕"], "何晓燕 教员"),
    ]
    tz = "Asia/Shanghai"
    body = simple(lambda c: c.name, lambda c: c.room, lambda c, o: f"教员：{c.written}")
    lines = vcal("-//Tencent//WeCom Calendar//CN", "X-WR-TIMEZONE:Asia/Shanghai", *SHANGHAI_VTZ)
    for c in courses:
        lines += series(school, c, tz, body, "wecom", "20250830T020000Z", until="date")
    lines.append("END:VCALENDAR")
    exp = expected(school, courses, "企业微信 calendar export of a military-style academy: TZID with a VTIMEZONE, weekly "
                   "RRULE with UNTIL as a DATE, EXDATE;TZID for the National Day days, Saturday morning classes, "
                   "40-minute sections, teachers written with '教员'.")
    return "ics_academy_wecom_until_date.ics", ics(lines), exp


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for make in (tcm, conservatory, sports, minzu, graduate, sino_british, germany, california, vocational, academy):
        name, data, exp = make()
        write(name, data, exp)
        print(f"{name}: {len(exp['meetings'])} meetings, {len(exp['skipped'])} skipped")


if __name__ == "__main__":
    main()
