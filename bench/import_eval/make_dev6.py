"""Write ``files/dev6/`` (written blind as the third held-out set, then opened), from descriptions of fictional schools.

Written blind (without reading the importer, make_files.py, make_dev4.py, make_dev5.py or an
earlier held-out set). Each file is one ``School`` (week-1 Monday, zone, weeks, section grid, days
off) and a student's ``Course`` list. ``expected()`` computes the board from the description alone:
date = week-1 Monday + (week - 1) weeks + (weekday - 1) days, dropping days off; start/end = start of
the first and end of the last section on the grid; a ``Move`` puts one meeting elsewhere. Only then
is the file rendered from the same description in the target shape.

    python -m bench.import_eval.make_dev6
"""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().parent / "files" / "dev6"
NS = uuid.UUID("6c1f3a52-2d1e-4bb0-9d55-0f3e1c7a9b11")
WEEKDAY_CN = "一二三四五六日"
BYDAY = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def grid(*blocks: tuple[str, int, int, list[int]]) -> list[tuple[str, str]]:
    """Sections from blocks of (first start, n sections, minutes, breaks after each but the last)."""
    out = []
    for first, n, minutes, breaks in blocks:
        t = datetime.combine(date(2000, 1, 1), time.fromisoformat(first))
        for i in range(n):
            end = t + timedelta(minutes=minutes)
            out.append((t.strftime("%H:%M"), end.strftime("%H:%M")))
            t = end + timedelta(minutes=breaks[i] if i < n - 1 else 0)
    return out


def span(first: date, last: date) -> set[date]:
    return {first + timedelta(days=i) for i in range((last - first).days + 1)}


@dataclass
class School:
    name: str
    zone: str
    week1: date
    weeks: int
    sections: list[tuple[str, str]]
    days_off: set[date] = field(default_factory=set)

    def __post_init__(self) -> None:
        ends = [t for sec in self.sections for t in sec]
        assert ends == sorted(ends) and len(set(ends)) == len(ends), f"{self.name}: sections overlap"

    def day(self, week: int, weekday: int) -> date:
        return self.week1 + timedelta(weeks=week - 1, days=weekday - 1)

    def last_day(self) -> date:
        return self.week1 + timedelta(weeks=self.weeks, days=-1)


@dataclass
class Move:
    """One meeting of a course held elsewhere / at another time (an edit in the calendar app)."""
    week: int
    weekday: int
    to: date
    first: int
    last: int
    room: str


@dataclass
class Course:
    name: str
    weekdays: list[int]
    first: int
    last: int
    weeks: list[int]
    room: str
    teachers: list[str]
    raw_teacher: str = ""  # how the file writes the teacher(s), titles included
    code: str = ""
    moves: list[Move] = field(default_factory=list)

    @property
    def teacher(self) -> str:
        return "、".join(self.teachers)


@dataclass
class Occ:
    """One meeting of a course: the expected board entry and what the file needs to render it."""
    course: Course
    week: int
    weekday: int
    on: date
    first: int
    last: int
    room: str
    moved_from: date | None = None


def occurrences(s: School, c: Course) -> list[Occ]:
    out = []
    for w in c.weeks:
        for wd in c.weekdays:
            d = s.day(w, wd)
            mv = next((m for m in c.moves if m.week == w and m.weekday == wd), None)
            if d in s.days_off and not mv:  # a class moved away from a day off is still held
                continue
            if mv:
                out.append(Occ(c, w, wd, mv.to, mv.first, mv.last, mv.room, moved_from=d))
            else:
                out.append(Occ(c, w, wd, d, c.first, c.last, c.room))
    return sorted(out, key=lambda o: (o.on, o.first))


def times(s: School, o: Occ) -> tuple[str, str]:
    return s.sections[o.first - 1][0], s.sections[o.last - 1][1]


def meeting(s: School, o: Occ) -> dict:
    start, end = times(s, o)
    return {"date": o.on.isoformat(), "start": start, "end": end, "title": o.course.name,
            "location": o.room, "teacher": o.course.teacher}


def expected(s: School, courses: list[Course], notes: str, skipped: list[dict] | None = None,
             extra: list[dict] | None = None) -> dict:
    ms = [meeting(s, o) for c in courses for o in occurrences(s, c)] + (extra or [])
    ms.sort(key=lambda m: (m["date"], m["start"], m["title"]))
    return {"school": s.name, "time_zone": s.zone, "week1_monday": s.week1.isoformat(),
            "semester_weeks": s.weeks, "sections": [list(x) for x in s.sections], "second_grid": None,
            "meetings": ms, "skipped": skipped or [], "notes": notes}


# ---- iCalendar text helpers ---------------------------------------------------------------------

def esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str, limit: int = 75) -> list[str]:
    out, cur = [], ""
    for ch in line:
        if len((cur + ch).encode("utf-8")) > limit:
            out.append(cur)
            cur = " " + ch
        else:
            cur += ch
    return out + [cur]


def render(lines: list[str], eol: str = "\r\n", folded: bool = True) -> str:
    body: list[str] = []
    for ln in lines:
        body.extend(fold(ln) if folded else [ln])
    return eol.join(body) + eol


def local(s: School, d: date, hm: str) -> datetime:
    return datetime.combine(d, time.fromisoformat(hm))


def fmt(dt: datetime) -> str:
    return dt.strftime("%Y%m%dT%H%M%S")


def utc(s: School, dt: datetime) -> str:
    return dt.replace(tzinfo=ZoneInfo(s.zone)).astimezone(ZoneInfo("UTC")).strftime("%Y%m%dT%H%M%SZ")


def uid(*parts: object) -> str:
    return str(uuid.uuid5(NS, "/".join(map(str, parts))))


def vtimezone_cst(tzid: str = "Asia/Shanghai", name: str = "CST") -> list[str]:
    return ["BEGIN:VTIMEZONE", f"TZID:{tzid}", f"X-LIC-LOCATION:{tzid}", "BEGIN:STANDARD",
            "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", f"TZNAME:{name}", "DTSTART:19700101T000000",
            "END:STANDARD", "END:VTIMEZONE"]


def exdate(tzid: str, days: list[date], hm: str) -> str:
    return f"EXDATE;TZID={tzid}:" + ",".join(fmt(datetime.combine(d, time.fromisoformat(hm))) for d in days)


def finish(name: str, lines: list[str], s: School, cs: list[Course], notes: str, skipped: list[dict] | None = None,
           eol: str = "\r\n", encoding: str = "utf-8") -> None:
    """Close the calendar, write it and its expected board."""
    text = render([*lines, "END:VCALENDAR"], eol=eol)
    write(name, text.encode(encoding), expected(s, cs, notes, skipped=skipped))


def valarm(minutes: int, text: str) -> list[str]:
    return ["BEGIN:VALARM", "ACTION:DISPLAY", f"TRIGGER:-PT{minutes}M", f"DESCRIPTION:{text}", "END:VALARM"]


def week_text(weeks: list[int]) -> str:
    """`1-16`, `1-15单`, `2-16双`, `1-8,10-16` — how 教务 systems print a week list."""
    if len(weeks) > 2 and all(b - a == 2 for a, b in zip(weeks, weeks[1:])):
        return f"{weeks[0]}-{weeks[-1]}{'单' if weeks[0] % 2 else '双'}"
    runs, start = [], weeks[0]
    for i, a in enumerate(weeks):
        if i + 1 == len(weeks) or weeks[i + 1] != a + 1:
            runs.append(f"{start}-{a}" if a != start else f"{a}")
            start = weeks[i + 1] if i + 1 < len(weeks) else a
    return ",".join(runs)


def write(name: str, content: bytes, exp: dict) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_bytes(content)
    stem = name.rsplit(".", 1)[0]
    text = json.dumps(exp, ensure_ascii=False, indent=2)
    (OUT / f"{stem}.expected.json").write_text(text + "\n", "utf-8")


# ---- 1. 树维 EAMS: one RRULE per course block, several BYDAY, local UNTIL, EXDATE;TZID ------------

def yuanjiang() -> School:
    """The school of file 1 and of the exam list (file 10): a morning of 5 sections."""
    return School("沅江师范学院", "Asia/Shanghai", date(2025, 2, 24), 18,
                  grid(("08:00", 5, 45, [5, 20, 5, 5]), ("14:00", 4, 45, [5, 20, 5]), ("19:00", 3, 45, [5, 5])),
                  days_off={date(2025, 4, 4), *span(date(2025, 5, 1), date(2025, 5, 5)), date(2025, 6, 2)})


def eams() -> None:
    s = yuanjiang()
    wk = list(range(1, 19))
    cs = [
        Course("数据结构", [2, 4], 1, 2, wk[:16], "博文楼B-305", ["陈思远"], "陈思远", "CS2104.01"),
        Course("大学英语(4)", [1], 3, 5, wk[:16], "外语楼214", ["苏婉清", "Grace Lin"], "苏婉清,Grace Lin",
               "EN1204.17"),
        Course("概率论与数理统计", [3, 5], 3, 4, wk, "博文楼A-101", ["韩东"], "韩东", "MA2201.03"),
        Course("中国近现代史纲要", [2], 6, 8, list(range(1, 13)), "明理楼102", ["邓宏伟"], "邓宏伟",
               "MX1002.08"),
        Course("数字逻辑", [1], 10, 12, list(range(3, 18)), "实验楼C-410", ["罗文", "钱卓"], "罗文,钱卓",
               "CS2110.02"),
        Course("体育(4)", [4], 6, 7, wk[:16], "北区田径场", ["石磊"], "石磊", "PE1004.21"),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//eams-timetable-ics//1.3.0//CN", "CALSCALE:GREGORIAN",
             *vtimezone_cst()]
    for c in cs:
        first = s.day(c.weeks[0], c.weekdays[0])
        start, end = s.sections[c.first - 1][0], s.sections[c.last - 1][1]
        until = local(s, s.day(c.weeks[-1], c.weekdays[-1]), "23:59")
        offs = sorted(s.day(w, wd) for w in c.weeks for wd in c.weekdays if s.day(w, wd) in s.days_off)
        lines += ["BEGIN:VEVENT", f"UID:{uid('eams', c.code)}@eams.yjnu.example", "DTSTAMP:20250301T101500Z",
                  f"DTSTART;TZID=Asia/Shanghai:{fmt(local(s, first, start))}",
                  f"DTEND;TZID=Asia/Shanghai:{fmt(local(s, first, end))}",
                  f"RRULE:FREQ=WEEKLY;WKST=MO;UNTIL={fmt(until)};BYDAY={','.join(BYDAY[d - 1] for d in c.weekdays)}",
                  f"SUMMARY:{esc(f'{c.name}({c.code})')}", f"LOCATION:{esc(c.room)}",
                  "DESCRIPTION:" + esc(f"教师:{c.raw_teacher} 周次:{week_text(c.weeks)} 节次:{c.first}-{c.last}")]
        if offs:
            lines.append(exdate("Asia/Shanghai", offs, start))
        lines.append("END:VEVENT")
    finish("ics_eams_code_suffix_byday.ics", lines, s, cs, notes=(
        "树维 EAMS timetable turned into a calendar by a student's script: TZID with VTIMEZONE, one "
        "VEVENT per course block with a weekly RRULE over one or two weekdays (BYDAY), UNTIL written as a "
        "local date-time, holidays (清明, 劳动节, 端午) as EXDATE;TZID; SUMMARY carries the course sequence "
        "number after the name, teachers comma-separated in a one-line DESCRIPTION. Morning of 5 sections."))


# ---- 2. 金智 subscription feed: METHOD:PUBLISH, X-WR-*, floating times, RDATE lists ---------------

def wisedu() -> None:
    s = School("黔东理工学院", "Asia/Shanghai", date(2025, 9, 8), 16,
               grid(("08:00", 5, 40, [5, 15, 5, 5]), ("14:00", 4, 40, [5, 15, 5]), ("19:00", 3, 40, [5, 5])),
               days_off=span(date(2025, 10, 1), date(2025, 10, 8)))
    cs = [
        Course("高等数学A(1)", [1, 3], 1, 2, list(range(1, 17)), "致远楼 301", ["杨帆"], "杨帆/副教授"),
        Course("工程制图", [2], 3, 4, list(range(1, 17, 2)), "致远楼 112", ["马晓东"], "马晓东/讲师"),
        Course("大学物理(1)", [2], 6, 8, list(range(2, 17, 2)), "格物楼 B204", ["谢璐"], "谢璐/教授"),
        Course("程序设计基础", [4], 8, 9, list(range(1, 13)), "信息楼 506机房", ["张弛", "胡悦"],
               "张弛/讲师,胡悦/助教"),
        Course("思想道德与法治", [5], 10, 12, list(range(1, 11)), "明德楼 201", ["冯建"], "冯建/副教授"),
        Course("军事理论", [4], 1, 2, list(range(5, 13)), "线上（学习通）", ["王林"], "王林/讲师"),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Wisedu//ehall kcb feed 2.1//ZH", "METHOD:PUBLISH",
             "CALSCALE:GREGORIAN", "X-WR-CALNAME:我的课表（2025-2026-1）", "X-WR-CALDESC:金智教务 课表订阅",
             "X-WR-TIMEZONE:Asia/Shanghai", "X-PUBLISHED-TTL:PT12H", "REFRESH-INTERVAL;VALUE=DURATION:PT12H"]
    for c in cs:
        for wd in c.weekdays:
            occ = [o for o in occurrences(s, c) if o.weekday == wd]
            start, end = times(s, occ[0])
            lines += ["BEGIN:VEVENT", f"UID:kcb-{uid('wisedu', c.name, wd)}", "DTSTAMP:20250910T000000Z",
                      "CREATED:20250901T020000Z", "LAST-MODIFIED:20250910T000000Z",
                      f"DTSTART:{fmt(local(s, occ[0].on, start))}", f"DTEND:{fmt(local(s, occ[0].on, end))}"]
            rest = [fmt(local(s, o.on, start)) for o in occ[1:]]
            for i in range(0, len(rest), 6):
                lines.append("RDATE:" + ",".join(rest[i:i + 6]))
            lines += [f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                      "DESCRIPTION:" + esc(f"授课教师：{c.raw_teacher}\n上课周次：{week_text(c.weeks)}周\n"
                                           f"上课时间：星期{WEEKDAY_CN[wd - 1]} 第{c.first}-{c.last}节"),
                      "CATEGORIES:课程,本科", "CLASS:PUBLIC", "TRANSP:OPAQUE",
                      f"URL:https://ehall.qdlg.example/jwapp/sys/wdkb/*default/index.do#kc={uid('u', c.name)[:8]}",
                      "STATUS:CONFIRMED", "END:VEVENT"]
    finish("ics_wisedu_feed_rdate.ics", lines, s, cs, notes=(
        "金智 (Wisedu ehall) timetable subscription feed: METHOD:PUBLISH, X-WR-CALNAME/X-WR-TIMEZONE, "
        "floating times, one VEVENT per course and weekday whose other meetings are RDATE lists (so odd/even "
        "weeks and the 国庆/中秋 break are simply absent), CATEGORIES/CLASS/URL/TRANSP lines; teachers written "
        "'name/title', several joined by commas. 40-minute sections with 5-minute breaks, 5 in the morning."))


# ---- 3. 新正方 summer term: 8 weeks, classes start on a Wednesday, BYDAY over three days ----------

def newzf_summer() -> None:
    s = School("滨江工商大学", "Asia/Shanghai", date(2025, 6, 30), 8,
               grid(("08:30", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("18:30", 2, 45, [10])),
               days_off={date(2025, 6, 30), date(2025, 7, 1)})  # 报到注册: week 1 teaching starts Wednesday
    cs = [
        Course("Python数据分析", [1, 3, 5], 1, 3, list(range(1, 9)), "南校区 信息楼305", ["孔令辉"]),
        Course("商务英语写作", [2, 4], 3, 4, list(range(1, 9)), "南校区 文华楼217", ["Linda Zhou"]),
        Course("创新创业实践", [3], 5, 8, list(range(1, 7)), "北校区 创客空间B1", ["郑浩", "沈佳"]),
        Course("专业认知实习", [2], 5, 7, list(range(2, 8)), "校外实习基地", ["吴伟"]),
        Course("形势与政策", [4], 9, 10, [1, 2, 3, 4], "南校区 文华楼101", ["唐敏"]),
    ]
    titles = {"孔令辉": "副教授", "Linda Zhou": "讲师", "郑浩": "教授", "沈佳": "讲师", "吴伟": "高级工程师",
              "唐敏": "讲师"}
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zfjw-kb2ics//NONSGML v0.9//ZH-CN",
             "X-WR-CALNAME:2024-2025-3 课表", *vtimezone_cst()]
    for c in cs:
        occ = occurrences(s, c)
        start, end = times(s, occ[0])
        until = local(s, s.day(c.weeks[-1], 7), "23:59")  # the Sunday night closing the course's last week
        lines += ["BEGIN:VEVENT", f"UID:{uid('zf', c.name)}", "DTSTAMP:20250628T090000Z",
                  f"DTSTART;TZID=Asia/Shanghai:{fmt(local(s, occ[0].on, start))}",
                  f"DTEND;TZID=Asia/Shanghai:{fmt(local(s, occ[0].on, end))}",
                  f"RRULE:FREQ=WEEKLY;UNTIL={fmt(until)};BYDAY={','.join(BYDAY[d - 1] for d in c.weekdays)}",
                  f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                  "DESCRIPTION:" + esc("\n".join(f"{t}（{titles[t]}）" for t in c.teachers) +
                                       f"\n{week_text(c.weeks)}周 | {c.first}-{c.last}节 | 学分 2.0"),
                  *valarm(15, "上课提醒"), "END:VEVENT"]
    finish("ics_newzf_summer_midweek.ics", lines, s, cs, notes=(
        "新正方 (jwglxt) 小学期 timetable, 8 weeks, via a student's kbList script: TZID with VTIMEZONE, "
        "one RRULE per course with BYDAY over two or three weekdays and UNTIL as a local date-time; teaching "
        "starts on Wednesday of week 1 (Mon/Tue are registration days) so week 1 Monday precedes the first "
        "class; DESCRIPTION lists each teacher on a line with the title in full-width brackets."))


# ---- 4. Taiwan 課表 in Big5: 節/週 wording, Asia/Taipei, odd VTIMEZONE name -----------------------

def taiwan_big5() -> None:
    s = School("南瀛科技大學", "Asia/Taipei", date(2024, 9, 9), 18,
               grid(("08:10", 4, 50, [10, 10, 10]), ("13:10", 5, 50, [10, 10, 10, 10]),
                    ("18:30", 4, 50, [5, 5, 5])),
               days_off={date(2024, 9, 17), date(2024, 10, 10)})
    wk = list(range(1, 19))
    cs = [
        Course("微積分(一)", [1, 3], 1, 2, wk, "理工大樓 E301", ["王大明"], "王大明 教授"),
        Course("普通物理學(一)", [2], 2, 4, wk, "理工大樓 E105", ["林雅婷"], "林雅婷 副教授"),
        Course("計算機概論", [4], 5, 7, wk, "資訊館 R207", ["陳建宏", "黃淑芬"], "陳建宏 助理教授、黃淑芬 講師"),
        Course("英文(一)", [5], 3, 4, wk, "人文館 H402", ["Michael Brown"], "Michael Brown 講師"),
        Course("服務學習(一)", [3], 8, 9, list(range(1, 10)), "學務處前廣場", ["張志豪"], "張志豪 講師"),
        Course("台灣文學欣賞", [2], 10, 11, wk, "人文館 H101", ["吳美玲"], "吳美玲 副教授"),
    ]
    tz = "Taipei Standard Time"
    lines = ["BEGIN:VCALENDAR", "PRODID:-//南瀛科大 校務資訊系統//課表匯出//TW", "VERSION:2.0", "METHOD:PUBLISH",
             "X-WR-CALNAME:113學年度第1學期 個人課表", "BEGIN:VTIMEZONE", f"TZID:{tz}", "BEGIN:STANDARD",
             "DTSTART:16010101T000000", "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:STANDARD", "END:VTIMEZONE"]
    for c in cs:
        for wd in c.weekdays:
            first = s.day(c.weeks[0], wd)
            start, end = s.sections[c.first - 1][0], s.sections[c.last - 1][1]
            offs = [s.day(w, wd) for w in c.weeks if s.day(w, wd) in s.days_off]
            lines += ["BEGIN:VEVENT", f"DTSTART;TZID={tz}:{fmt(local(s, first, start))}",
                      f"DTEND;TZID={tz}:{fmt(local(s, first, end))}",
                      f"RRULE:FREQ=WEEKLY;COUNT={len(c.weeks)}"]
            if offs:
                lines.append(exdate(tz, offs, start))
            lines += [f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                      "DESCRIPTION:" + esc(f"授課教師：{c.raw_teacher}\n上課時間：星期{WEEKDAY_CN[wd - 1]} "
                                           f"第{c.first}-{c.last}節\n上課週次：第{c.weeks[0]}-{c.weeks[-1]}週"),
                      f"UID:{uid('tw', c.name, wd)}@nyust.example.edu.tw", "DTSTAMP:20240905T080000Z", "END:VEVENT"]
    finish("ics_tw_big5_jie_zhou.ics", lines, s, cs, encoding="cp950", notes=(
        "Taiwanese 校務系統 export in Big5 (cp950), 繁體: 節/週 wording, teachers with titles (教授, "
        "副教授, 助理教授, 講師), Asia/Taipei written as a Windows-style TZID with its own fixed +0800 "
        "VTIMEZONE, RRULE COUNT with 中秋節/國慶日 as EXDATE, evening sections from 18:30."))


# ---- 5. Thunderbird export of two calendars: 课表 + a subscribed 节假日 calendar -------------------

def thunderbird() -> None:
    s = School("嘉陵交通大学", "Asia/Shanghai", date(2024, 9, 2), 17,
               grid(("08:00", 4, 50, [10, 20, 10]), ("14:00", 4, 50, [10, 20, 10]), ("19:00", 3, 50, [10, 10])),
               days_off={date(2024, 9, 16), date(2024, 9, 17), *span(date(2024, 10, 1), date(2024, 10, 7))})
    wk = list(range(1, 18))
    cs = [
        Course("交通运输工程导论", [1, 3], 1, 2, wk, "交运楼 305", ["曹立新"]),
        Course("线性代数", [2, 4], 3, 4, wk[:16], "综合楼 A-210", ["付琳"]),
        Course("大学物理A(1)", [5], 1, 3, wk, "综合楼 B-118", ["宋哲"]),
        Course("C语言程序设计", [2], 5, 7, wk[:14], "计算中心 402", ["吕卫东"]),
        Course("心理健康教育", [3], 9, 10, list(range(3, 11)), "图书馆报告厅", ["蒋晴"]),
    ]
    holidays = [("中秋节", date(2024, 9, 15), date(2024, 9, 18)), ("国庆节", date(2024, 10, 1), date(2024, 10, 8)),
                ("中秋节 补班", date(2024, 9, 14), date(2024, 9, 15)),
                ("国庆节 补班", date(2024, 9, 29), date(2024, 9, 30)),
                ("国庆节 补班", date(2024, 10, 12), date(2024, 10, 13))]
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "VERSION:2.0",
             "BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "BEGIN:STANDARD", "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800",
             "TZNAME:CST", "DTSTART:19700101T000000", "END:STANDARD", "END:VTIMEZONE"]
    events: list[list[str]] = []
    for c in cs:
        first = s.day(c.weeks[0], c.weekdays[0])
        start, end = s.sections[c.first - 1][0], s.sections[c.last - 1][1]
        last_day = s.day(c.weeks[-1], c.weekdays[-1])
        offs = sorted(s.day(w, wd) for w in c.weeks for wd in c.weekdays if s.day(w, wd) in s.days_off)
        ev = ["BEGIN:VEVENT", "CREATED:20240830T122233Z", "LAST-MODIFIED:20240901T083012Z",
              "DTSTAMP:20240901T083012Z", f"UID:{uid('tb', c.name)}", f"SUMMARY:{esc(c.name)}",
              f"RRULE:FREQ=WEEKLY;UNTIL={utc(s, local(s, last_day, end))};BYDAY="
              + ",".join(BYDAY[d - 1] for d in c.weekdays)]
        if offs:
            ev.append(exdate("Asia/Shanghai", offs, start))
        ev += ["CATEGORIES:课程", "CLASS:PUBLIC", f"DTSTART;TZID=Asia/Shanghai:{fmt(local(s, first, start))}",
               f"DTEND;TZID=Asia/Shanghai:{fmt(local(s, first, end))}", f"LOCATION:{esc(c.room)}",
               "DESCRIPTION:" + esc(f"任课教师 {c.teacher}"), "TRANSP:OPAQUE", "X-MOZ-GENERATION:2",
               "END:VEVENT"]
        events.append(ev)
    skipped = []
    for name, a, b in holidays:
        events.append(["BEGIN:VEVENT", "CREATED:20240101T000000Z", f"UID:{uid('hol', name, a)}@holiday-cn",
                       f"SUMMARY:{esc(name)}", "CATEGORIES:节假日", "CLASS:PUBLIC",
                       f"DTSTART;VALUE=DATE:{a:%Y%m%d}", f"DTEND;VALUE=DATE:{b:%Y%m%d}", "TRANSP:TRANSPARENT",
                       "X-MICROSOFT-CDO-ALLDAYEVENT:TRUE", "END:VEVENT"])
        skipped.append({"summary": name, "why": "all_day", "date": a.isoformat()})
    # Thunderbird writes the events of both calendars interleaved, holidays in among the courses
    order = [events[5], events[0], events[1], events[6], events[2], events[7], events[3], events[8], events[4],
             events[9]]
    lines += [x for ev in order for x in ev]
    finish("ics_thunderbird_two_calendars.ics", lines, s, cs, skipped=skipped, notes=(
        "Thunderbird (Mozilla Calendar) export of two calendars at once: the student's 课表 (TZID with "
        "VTIMEZONE, weekly RRULE with BYDAY over one or two days and UNTIL in UTC, EXDATE;TZID for 中秋/国庆, "
        "CATEGORIES/CLASS/X-MOZ lines, DESCRIPTION '任课教师 X') and a subscribed 节假日 calendar of all-day "
        "events (holidays and 补班 days) interleaved with the courses; the all-day ones are skipped. The make-up "
        "working days carry no classes in the student's calendar."))


# ---- 6. 飞书 calendar: RECURRENCE-ID moves (room only / time and day), UNTIL local, ATTACH/URL ----

def feishu() -> None:
    s = School("临安农林大学", "Asia/Shanghai", date(2026, 3, 2), 16,
               grid(("08:00", 5, 45, [5, 15, 5, 5]), ("13:30", 4, 45, [5, 15, 5]), ("18:30", 3, 45, [5, 5])),
               days_off={date(2026, 4, 6), date(2026, 5, 1), date(2026, 5, 4), date(2026, 5, 5)})
    wk = list(range(1, 17))
    cs = [
        Course("植物生理学", [1], 1, 2, wk, "农学楼 302", [],
               moves=[Move(6, 1, date(2026, 4, 11), 1, 2, "农学楼 302")]),
        Course("生物化学", [2], 3, 5, wk, "生科楼 A201", [],
               moves=[Move(5, 2, date(2026, 3, 31), 3, 5, "生科楼 B105")]),
        Course("土壤学", [3], 6, 7, wk[:12], "资环楼 118", [],
               moves=[Move(9, 3, date(2026, 4, 30), 10, 11, "资环楼 118")]),
        Course("田间试验设计", [4], 1, 3, wk, "农学楼 410", []),
        Course("大学英语(4)", [5], 3, 4, wk[:14], "外语楼 207", []),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Lark//Lark Calendar//EN", "CALSCALE:GREGORIAN",
             "X-WR-CALNAME:课程", *vtimezone_cst()]
    att = "ATTACH;FMTTYPE=application/pdf:https://lafu.feishu.example/file/{}"
    for c in cs:
        first = s.day(c.weeks[0], c.weekdays[0])
        start, end = s.sections[c.first - 1][0], s.sections[c.last - 1][1]
        until = local(s, s.day(c.weeks[-1], c.weekdays[-1]), "23:59")
        moved = {s.day(m.week, m.weekday) for m in c.moves}
        offs = [s.day(w, wd) for w in c.weeks for wd in c.weekdays
                if s.day(w, wd) in s.days_off and s.day(w, wd) not in moved]
        u = f"{uid('lark', c.name)}_0"
        lines += ["BEGIN:VEVENT", f"UID:{u}", "DTSTAMP:20260301T120000Z",
                  f"DTSTART;TZID=Asia/Shanghai:{fmt(local(s, first, start))}",
                  f"DTEND;TZID=Asia/Shanghai:{fmt(local(s, first, end))}",
                  f"RRULE:FREQ=WEEKLY;INTERVAL=1;UNTIL={fmt(until)}"]
        if offs:
            lines.append(exdate("Asia/Shanghai", offs, start))
        lines += [f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                  "DESCRIPTION:" + esc("课件见附件；课程群：飞书群「" + c.name + "」"),
                  att.format(uid("att", c.name)[:12]), f"URL:https://applink.feishu.example/client/calendar/event/"
                  f"detail?key={uid('k', c.name)[:10]}", "X-LARK-CALENDAR-COLOR:#3370FF", "SEQUENCE:0",
                  "STATUS:CONFIRMED", "END:VEVENT"]
        for mv in c.moves:
            ms, me = s.sections[mv.first - 1][0], s.sections[mv.last - 1][1]
            lines += ["BEGIN:VEVENT", f"UID:{u}", "DTSTAMP:20260320T093000Z",
                      f"RECURRENCE-ID;TZID=Asia/Shanghai:{fmt(local(s, s.day(mv.week, mv.weekday), start))}",
                      f"DTSTART;TZID=Asia/Shanghai:{fmt(local(s, mv.to, ms))}",
                      f"DTEND;TZID=Asia/Shanghai:{fmt(local(s, mv.to, me))}",
                      f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(mv.room)}",
                      "DESCRIPTION:" + esc("调课通知：本次课调整，见课程群公告"), "SEQUENCE:1", "STATUS:CONFIRMED",
                      "END:VEVENT"]
    finish("ics_feishu_override_moves.ics", lines, s, cs, notes=(
        "飞书 (Lark) calendar export of a student's hand-made 课程 calendar: TZID with VTIMEZONE, one "
        "weekly RRULE per course with UNTIL as a local date-time, EXDATE;TZID for 清明/劳动节, ATTACH/URL/X-LARK "
        "lines; RECURRENCE-ID overrides: one class moved to a Saturday (调课 for 清明), one moved to another room, "
        "one moved to the evening sections. No teachers anywhere in the file (teacher ''); DESCRIPTION is "
        "only a note about the course group."))


# ---- 7. Outlook / Microsoft Teams online classes -----------------------------------------------

TEAMS_BLURB = ("________________________________________________________________________________\n"
               "Microsoft Teams 会议\n在计算机或移动应用上加入\n单击此处加入会议<https://teams.microsoft.example/"
               "l/meetup-join/{}>\n会议 ID: {} \n密码: {}\n了解详细信息<https://aka.example/JoinTeamsMeeting> | "
               "会议选项<https://teams.microsoft.example/meetingOptions/>\n"
               "________________________________________________________________________________\n")


def teams() -> None:
    s = School("甬江诺华学院", "Asia/Shanghai", date(2025, 2, 17), 14,
               grid(("09:00", 3, 50, [10, 10]), ("13:00", 5, 50, [10, 10, 10, 10]), ("18:30", 2, 50, [10])),
               days_off={date(2025, 4, 4), date(2025, 5, 1), date(2025, 5, 2), date(2025, 5, 5)})
    cs = [
        Course("学术英语写作", [1, 3], 1, 2, list(range(1, 15)), "Microsoft Teams 会议", ["Sarah Collins"],
               "Dr. Sarah Collins"),
        Course("宏观经济学", [2], 4, 5, list(range(1, 13)), "Microsoft Teams 会议", ["葛晓燕"], "葛晓燕 博士"),
        Course("统计学原理", [4], 6, 8, list(range(1, 15)), "Microsoft Teams 会议", ["James Patel", "邱云"],
               "James Patel 教授；邱云 助教"),
        Course("中国文化概论", [5], 9, 10, list(range(1, 9)), "Microsoft Teams 会议", ["彭程"], "彭程 副教授"),
    ]
    tz = "China Standard Time"
    lines = ["BEGIN:VCALENDAR", "METHOD:PUBLISH", "PRODID:Microsoft Exchange Server 2010", "VERSION:2.0",
             "X-WR-CALNAME:日历", "BEGIN:VTIMEZONE", f"TZID:{tz}", "BEGIN:STANDARD", "DTSTART:16010101T000000",
             "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T000000",
             "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:DAYLIGHT", "END:VTIMEZONE"]
    for c in cs:
        first = s.day(c.weeks[0], c.weekdays[0])
        start, end = s.sections[c.first - 1][0], s.sections[c.last - 1][1]
        offs = sorted(s.day(w, wd) for w in c.weeks for wd in c.weekdays if s.day(w, wd) in s.days_off)
        last_start = local(s, s.day(c.weeks[-1], c.weekdays[-1]), start)
        mid = uid("teams", c.name).replace("-", "")
        desc = (f"主讲：{c.raw_teacher}\n\n" + TEAMS_BLURB.format(mid, f"{int(mid[:10], 16) % 10**12:012d}",
                                                                   mid[:6]))
        lines += ["BEGIN:VEVENT", f"DESCRIPTION;LANGUAGE=zh-CN:{esc(desc)}",
                  f"RRULE:FREQ=WEEKLY;UNTIL={utc(s, last_start)};INTERVAL=1;BYDAY="
                  + ",".join(BYDAY[d - 1] for d in c.weekdays) + ";WKST=SU"]
        if offs:
            lines.append(exdate(tz, offs, start))
        lines += [f"UID:040000008200E00074C5B7101A82E008000000{mid[:16].upper()}", f"SUMMARY;LANGUAGE=zh-CN:{esc(c.name)}",
                  f"DTSTART;TZID={tz}:{fmt(local(s, first, start))}", f"DTEND;TZID={tz}:{fmt(local(s, first, end))}",
                  "CLASS:PUBLIC", "PRIORITY:5", "DTSTAMP:20250214T031500Z", "TRANSP:OPAQUE", "STATUS:CONFIRMED",
                  "SEQUENCE:0", f"LOCATION;LANGUAGE=zh-CN:{esc(c.room)}",
                  "X-MICROSOFT-CDO-APPT-SEQUENCE:0", "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
                  "X-MICROSOFT-CDO-INTENDEDSTATUS:BUSY", "X-MICROSOFT-CDO-ALLDAYEVENT:FALSE",
                  "X-MICROSOFT-CDO-IMPORTANCE:1", "X-MICROSOFT-CDO-INSTTYPE:1",
                  f"X-MICROSOFT-SKYPETEAMSMEETINGURL:https://teams.microsoft.example/l/meetup-join/{mid}",
                  "X-MICROSOFT-DONOTFORWARDMEETING:FALSE", "X-MICROSOFT-DISALLOW-COUNTER:FALSE",
                  "X-MICROSOFT-ISRESPONSEREQUESTED:TRUE", "END:VEVENT"]
    finish("ics_teams_online_blurb.ics", lines, s, cs, notes=(
        "Outlook / Exchange calendar of Microsoft Teams online classes (a 中外合作 college): Windows TZID "
        "with STANDARD+DAYLIGHT at +0800, LANGUAGE parameters, weekly RRULE with BYDAY, UNTIL in UTC and "
        "WKST=SU, EXDATE for holidays, many X-MICROSOFT-* lines; DESCRIPTION is the teacher line followed by "
        "the Teams joining boilerplate (links, meeting ID, password); LOCATION is the Teams meeting. Morning "
        "starts at 09:00 with 50-minute sections."))


# ---- 8. 钉钉 schedule shared by the class monitor: one event per meeting, UTC, ORGANIZER ---------

def dingtalk() -> None:
    s = School("桐柏医学院", "Asia/Shanghai", date(2025, 3, 3), 16,
               grid(("08:00", 2, 45, [5]), ("09:45", 3, 45, [5, 5]), ("14:00", 2, 45, [5]),
                    ("15:45", 2, 45, [5]), ("19:00", 2, 45, [5])),
               days_off={date(2025, 4, 4), *span(date(2025, 5, 1), date(2025, 5, 5))})
    wk = list(range(1, 17))
    cs = [
        Course("系统解剖学", [1, 4], 1, 2, wk, "基础医学楼 解剖实验室2", ["孟庆华"]),
        Course("组织学与胚胎学", [2], 3, 5, wk, "基础医学楼 301", ["蔡静"]),
        Course("医用化学", [3], 6, 7, wk[:12], "实验楼 化学实验室A", ["姚斌", "龚丽"]),
        Course("医学心理学", [5], 10, 11, list(range(2, 17, 2)), "教学楼 C-212", ["夏晴"]),
        Course("大学体育(2)", [3], 1, 2, wk, "东区体育馆", ["袁野"]),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//DingTalk//DingTalk Calendar//ZH", "CALSCALE:GREGORIAN",
             "X-WR-CALNAME:临床2401班 课程表", "X-WR-TIMEZONE:Asia/Shanghai"]
    occs = sorted((o for c in cs for o in occurrences(s, c)), key=lambda o: (o.on, o.first))
    for o in occs:
        start, end = times(s, o)
        c = o.course
        lines += ["BEGIN:VEVENT", f"UID:dt_{uid('ding', c.name, o.on).replace('-', '')[:24]}",
                  "DTSTAMP:20250301T010203Z", f"DTSTART:{utc(s, local(s, o.on, start))}",
                  f"DTEND:{utc(s, local(s, o.on, end))}",
                  f"SUMMARY:{esc(f'{c.name}（第{o.first}-{o.last}节）')}", f"LOCATION:{esc(o.room)}",
                  "ORGANIZER;CN=班长 刘畅:mailto:liuchang_2401@dingtalk.example",
                  "DESCRIPTION:" + esc("任课老师：" + " ".join(c.teachers) + "\n来自钉钉日程"),
                  *valarm(10, "日程提醒"), "END:VEVENT"]
    finish("ics_dingtalk_section_suffix.ics", lines, s, cs, notes=(
        "钉钉 日程 export of a class schedule the class monitor created (ORGANIZER is the monitor, not a "
        "teacher): one event per meeting in UTC, X-WR-TIMEZONE, VALARM; SUMMARY ends with the sections in "
        "full-width brackets; DESCRIPTION '任课老师：' with several teachers separated by spaces. A medical "
        "college grid with breaks after the 2nd, 5th, 7th sections."))


# ---- 9. 超星学习通 per-meeting export with a clash and a review class after the semester -------

def chaoxing() -> None:
    s = School("汾河师范大学", "Asia/Shanghai", date(2024, 9, 9), 16,
               grid(("07:50", 5, 40, [10, 20, 10, 10]), ("14:10", 4, 40, [10, 20, 10]),
                    ("18:40", 5, 40, [5, 5, 5, 5])),
               days_off={date(2024, 9, 16), date(2024, 9, 17), *span(date(2024, 10, 1), date(2024, 10, 7))})
    wk = list(range(1, 17))
    cs = [
        Course("教育心理学", [1], 1, 2, wk, "知行楼 204", ["任晓光"]),
        Course("古代汉语(上)", [2], 3, 5, wk, "文学院 311", ["方玉"]),
        Course("中国古代文学史(一)", [3], 6, 7, wk, "文学院 102", ["邵文博", "卢静"]),
        Course("书法(硬笔)", [4], 10, 12, list(range(1, 9)), "艺术楼 书法教室", ["金石"]),
        Course("现代汉语(上)", [5], 1, 3, wk, "知行楼 310", ["程雪"]),
    ]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//chaoxing//mooc kb export 5.3//CN",
             *vtimezone_cst(), ]
    occs = [o for c in cs for o in occurrences(s, c)]
    clash = Occ(Course("微格教学训练", [3], 6, 7, [8], "教师教育楼 微格室3", ["邵文博"]), 8, 3, s.day(8, 3), 6, 7,
                "教师教育楼 微格室3")
    review = Occ(Course("古代汉语(上)", [2], 3, 5, [17], "文学院 311", ["方玉"]), 17, 2, s.day(17, 2), 3, 5,
                 "文学院 311")
    for o in [*occs, clash, review]:
        start, end = times(s, o)
        c = o.course
        lines += ["BEGIN:VEVENT", f"UID:{uid('cx', c.name, o.on, o.first)}", "DTSTAMP:20240908T133000Z",
                  f"DTSTART;TZID=Asia/Shanghai:{fmt(local(s, o.on, start))}",
                  f"DTEND;TZID=Asia/Shanghai:{fmt(local(s, o.on, end))}", f"SUMMARY:{esc(c.name)}",
                  f"LOCATION:{esc(o.room)}",
                  "DESCRIPTION:" + esc(f"教师：{' '.join(c.teachers)}\n第{o.week}周 周{WEEKDAY_CN[o.weekday - 1]} "
                                       f"{o.first}-{o.last}节"), "END:VEVENT"]
    skipped = [{"summary": clash.course.name, "why": "overlap", "date": clash.on.isoformat(),
                "detail": "sections 6-7 already hold 中国古代文学史(一), listed earlier in the file"},
               {"summary": review.course.name, "why": "outside_semester", "date": review.on.isoformat()}]
    finish("ics_chaoxing_clash_review.ics", lines, s, cs, skipped=skipped, eol="\n", notes=(
        "超星学习通 timetable export: LF line ends, TZID with VTIMEZONE, one event per meeting (holidays "
        "have none), DESCRIPTION '教师：A B' (space-separated) and '第N周 周X a-b节'. 40-minute sections, a "
        "morning of 5 from 07:50 and an evening of 5 with 5-minute breaks. Two extra events at the end: a "
        "微格教学 session clashing with a course in week 8 (overlap: the earlier one is kept) and a review "
        "class in week 17 (outside the 16-week semester)."))


# ---- 10. exam arrangement CSV: no weekly timetable at all ---------------------------------------

def exam_csv() -> None:
    s = yuanjiang()  # the exam list of the school whose timetable ics_eams_code_suffix_byday is
    rows = [("数据结构", "2025-06-30(星期一) 09:00-11:00", "博文楼B-305", "17", "闭卷", "期末考试"),
            ("概率论与数理统计", "2025-07-01(星期二) 14:00-16:00", "博文楼A-101", "42", "闭卷", "期末考试"),
            ("大学英语(4)", "2025-06-21(星期六) 09:00-11:20", "外语楼214", "08", "闭卷", "期末考试"),
            ("中国近现代史纲要", "2025-05-20(星期二) 19:00-20:40", "明理楼102", "33", "开卷", "期中考试"),
            ("数字逻辑", "2025-07-03(星期四) 09:00-11:00", "实验楼C-410", "05", "闭卷", "期末考试"),
            ("体育(4)", "2025-06-12(星期四) 14:00-17:00", "北区田径场", "", "技能测试", "")]
    out = ["学年学期,课程名称,考试时间,考试地点,座位号,考核方式,考试类型,校区"]
    for name, when, room, seat, how, kind in rows:
        out.append(",".join(["2024-2025-2", name, when, room, seat, how, kind, "本部"]))
    data = ("\ufeff" + "\r\n".join(out) + "\r\n").encode("utf-8")
    exp = expected(s, [], "考试安排 exported from the 教务 system as CSV (BOM, CRLF): one row per exam with a "
                   "date-and-time cell, room and seat — one-off exams, no weekly timetable. Expected: refused "
                   "with a reason (it is an exam list, not a timetable); nothing goes on the board.",
                   skipped=[{"summary": "csv_exam_schedule.csv", "why": "refused",
                             "detail": "an exam arrangement list: one-off exams, no weekly class timetable"}])
    write("csv_exam_schedule.csv", data, exp)


def main() -> None:
    for make in (eams, wisedu, newzf_summer, taiwan_big5, thunderbird, feishu, teams, dingtalk, chaoxing, exam_csv):
        make()
    print(f"wrote {len(list(OUT.glob('*.expected.json')))} files to {OUT}")


if __name__ == "__main__":
    main()
