"""Write the sixth held-out set, ``files/dev9/``, from descriptions of fictional schools.

    python -m bench.import_eval.make_dev9

Written blind (see the README's ``dev9/`` section): each file starts from a description of a school
(week-1 Monday, zone, weeks, section grid, optionally a second grid from a date, days off and make-up
days that run the classes of a day off) and of a student's courses (weekday, first/last section, weeks,
room, teachers). The expected board is computed from that description alone; the file is then rendered
from the same description in the shape of the tool the student would use. Nothing here reads SmartMate
code or ``expand.py``.
"""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().parent / "files" / "dev9"
WEEKDAY_ZH = "一二三四五六日"
Date = date  # for annotations in classes that have a field named ``date``


# --------------------------------------------------------------------------- descriptions

def grid(*blocks: tuple[str, int, int, list[int]]) -> list[tuple[str, str]]:
    """Blocks of (first start, number of sections, minutes each, breaks between them) -> section times."""
    out = []
    for start, n, minutes, breaks in blocks:
        t = datetime.strptime(start, "%H:%M")
        for i in range(n):
            end = t + timedelta(minutes=minutes)
            out.append((t.strftime("%H:%M"), end.strftime("%H:%M")))
            t = end + timedelta(minutes=breaks[i] if i < len(breaks) else 0)
    return out


def days(first: date, last: date) -> set[date]:
    return {first + timedelta(days=i) for i in range((last - first).days + 1)}


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

    def sections_on(self, d: date) -> list[tuple[str, str]]:
        if self.second and d >= self.second[0]:
            return self.second[1]
        return self.sections

    def times(self, d: date, first: int, last: int) -> tuple[str, str]:
        grid_ = self.sections_on(d)
        return grid_[first - 1][0], grid_[last - 1][1]

    def nominal(self, week: int, weekday: int) -> date:
        return self.week1 + timedelta(weeks=week - 1, days=weekday - 1)

    @property
    def last_day(self) -> date:
        return self.week1 + timedelta(weeks=self.weeks, days=-1)


@dataclass
class Course:
    title: str
    day: int
    first: int
    last: int
    weeks: list[int]
    room: str = ""
    teachers: tuple[str, ...] = ()
    info: dict = field(default_factory=dict)

    @property
    def teacher(self) -> str:
        return "、".join(self.teachers)


@dataclass
class Occ:
    course: Course
    week: int
    date: Date
    nominal: Date
    start: str
    end: str


def weeks(spec: str) -> list[int]:
    """'1-16', '2-16双', '1-8,11-18' -> week numbers."""
    out: list[int] = []
    for part in spec.split(","):
        parity = part[-1] if part[-1] in "单双" else ""
        part = part.rstrip("单双")
        a, _, b = part.partition("-")
        out += [w for w in range(int(a), int(b or a) + 1)
                if not parity or (w % 2 == 1) == (parity == "单")]
    return out


def occurrences(school: School, course: Course) -> list[Occ]:
    moved_to = {v: k for k, v in school.makeup.items()}
    out = []
    for w in course.weeks:
        n = school.nominal(w, course.day)
        d = n
        if n in school.off:
            if n not in moved_to:
                continue
            d = moved_to[n]
        s, e = school.times(d, course.first, course.last)
        out.append(Occ(course, w, d, n, s, e))
    return out


def all_occurrences(school: School, courses: list[Course]) -> list[Occ]:
    return sorted((o for c in courses for o in occurrences(school, c)), key=lambda o: (o.date, o.start))


def meeting(o: Occ) -> dict:
    c = o.course
    return {"date": o.date.isoformat(), "start": o.start, "end": o.end, "title": c.title,
            "location": c.room, "teacher": c.teacher}


def expected(school: School, occs: list[Occ], skipped: list[dict], notes: str) -> dict:
    for o in occs:
        assert school.week1 <= o.date <= school.last_day, (o.course.title, o.date)
    return {
        "school": school.name, "time_zone": school.zone, "week1_monday": school.week1.isoformat(),
        "semester_weeks": school.weeks, "sections": [list(s) for s in school.sections],
        "second_grid": ({"from": school.second[0].isoformat(), "sections": [list(s) for s in school.second[1]]}
                        if school.second else None),
        "meetings": sorted((meeting(o) for o in occs), key=lambda m: (m["date"], m["start"], m["title"])),
        "skipped": skipped, "notes": notes,
    }


@dataclass
class Run:
    """One weekly series: a run of a course's meetings at one time with one week stride."""
    course: Course
    first: date
    start: str
    end: str
    count: int
    interval: int
    nominals: list[date]
    exdates: list[date]


def runs(school: School, course: Course) -> tuple[list[Run], list[Occ]]:
    """Split a course into weekly series (constant stride and time); days off become EXDATEs and the
    meetings moved to make-up days are returned apart, as one-off events."""
    moved = [o for o in occurrences(school, course) if o.date != o.nominal]
    out: list[Run] = []
    prev_week = None
    for w in course.weeks:
        n = school.nominal(w, course.day)
        s, e = school.times(n, course.first, course.last)
        cur = out[-1] if out else None
        stride = w - prev_week if prev_week is not None else 0
        if cur and (cur.start, cur.end) == (s, e) and stride in (1, 2) and (
                cur.count == 1 or cur.interval == stride):
            cur.interval = stride
            cur.count += 1
            cur.nominals.append(n)
        else:
            out.append(Run(course, n, s, e, 1, 1, [n], []))
        if n in school.off:
            out[-1].exdates.append(n)
        prev_week = w
    return out, moved


# --------------------------------------------------------------------------- iCalendar text

def esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str, limit: int = 75, octets: bool = True) -> list[str]:
    out, cur, size = [], "", 0
    for ch in line:
        n = len(ch.encode("utf-8")) if octets else 1
        if size + n > limit:
            out.append(cur)
            cur, size = " ", 1
        cur += ch
        size += n
    out.append(cur)
    return out


def render(lines: list[str], eol: str = "\r\n", limit: int | None = 75, octets: bool = True,
           final_eol: bool = True) -> str:
    physical = []
    for line in lines:
        physical += fold(line, limit, octets) if limit else [line]
    return eol.join(physical) + (eol if final_eol else "")


def local(d: date, hm: str) -> str:
    return f"{d:%Y%m%d}T{hm.replace(':', '')}00"


def utc(d: date, hm: str, zone: str) -> str:
    at = datetime.combine(d, datetime.strptime(hm, "%H:%M").time(), ZoneInfo(zone))
    return f"{at.astimezone(UTC):%Y%m%dT%H%M%S}Z"


def fixed_vtimezone(tzid: str, offset: str, name: str, extra: tuple[str, ...] = ()) -> list[str]:
    return ["BEGIN:VTIMEZONE", f"TZID:{tzid}", *extra, "BEGIN:STANDARD", f"TZOFFSETFROM:{offset}",
            f"TZOFFSETTO:{offset}", f"TZNAME:{name}", "DTSTART:19700101T000000", "END:STANDARD",
            "END:VTIMEZONE"]


def write(name: str, content: str | bytes, exp: dict) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    data = content.encode("utf-8") if isinstance(content, str) else content
    (OUT / name).write_bytes(data)
    stem = name.rsplit(".", 1)[0]
    (OUT / f"{stem}.expected.json").write_text(json.dumps(exp, ensure_ascii=False, indent=1) + "\n", "utf-8")


def strip_title(name: str) -> str:
    for title in (" 副教授", " 教授", " 讲师"):
        name = name.removesuffix(title)
    return name


def sections_label(c: Course) -> str:
    return f"{c.first}-{c.last}" if c.first != c.last else str(c.first)


# --------------------------------------------------------------------------- 1. Node ical-generator

def agri_node_icalgen() -> None:
    summer = grid(("08:00", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("18:30", 3, 45, [10, 10]))
    winter = grid(("08:00", 4, 45, [10, 20, 10]), ("13:30", 4, 45, [10, 20, 10]), ("18:00", 3, 45, [10, 10]))
    school = School("嫩江农业大学", "Asia/Shanghai", date(2025, 9, 8), 18, summer,
                    second=(date(2025, 10, 9), winter), off=days(date(2025, 10, 1), date(2025, 10, 8)),
                    makeup={date(2025, 9, 28): date(2025, 10, 8), date(2025, 10, 11): date(2025, 10, 7)})
    courses = [
        Course("植物生理学", 1, 1, 2, weeks("1-16"), "农学楼 A305", ("赵春生",)),
        Course("高等数学B(上)", 2, 3, 4, weeks("1-18"), "公共教学楼 204", ("李丽娜",)),
        Course("植物生理学实验", 2, 5, 8, weeks("4-14双"), "农学楼 实验室 B112", ("赵春生", "吴桐")),
        Course("大学英语(三)", 3, 1, 2, weeks("1-16"), "外语楼 312", ("Megan Ross",)),
        Course("土壤学", 4, 5, 7, weeks("1-12"), "资环楼 101", ("孙立国",)),
        Course("马克思主义基本原理", 5, 3, 4, weeks("1-16"), "公共教学楼 108", ("周晓梅",)),
        Course("寒地作物栽培学", 3, 9, 11, weeks("3-10"), "农学楼 A210", ("董建军",)),
    ]
    occs = all_occurrences(school, courses)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//sebbo.net//ical-generator//EN", "NAME:2025-2026-1 课表",
             "X-WR-CALNAME:2025-2026-1 课表", "TIMEZONE-ID:Asia/Shanghai", "X-WR-TIMEZONE:Asia/Shanghai"]
    for i, o in enumerate(occs):
        c = o.course
        weekday = WEEKDAY_ZH[o.nominal.weekday()]
        desc = f"任课教师：{','.join(c.teachers)}\n第{o.week}周 星期{weekday} 第{sections_label(c)}节"
        if o.date != o.nominal:
            desc += f"\n调课：{o.nominal.month}月{o.nominal.day}日的课调至本日"
        lines += ["BEGIN:VEVENT", f"UID:{uuid.uuid5(uuid.NAMESPACE_URL, f'nkxy/{i}/{o.date}/{c.title}')}",
                  "SEQUENCE:0", "DTSTAMP:20250905T134512Z",
                  f"DTSTART;TZID=Asia/Shanghai:{local(o.date, o.start)}",
                  f"DTEND;TZID=Asia/Shanghai:{local(o.date, o.end)}",
                  f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_agri_node_icalgen.ics", render(lines, octets=False),
          expected(school, occs, [], "A student's Node.js script (ical-generator) over a northeastern "
                   "agricultural university's timetable: one event per meeting with TZID but no VTIMEZONE, "
                   "CRLF, lines folded by characters; afternoon/evening hours move earlier after National Day "
                   "(second grid); the holiday's classes are absent and two make-up days carry the classes of "
                   "two holiday days; DESCRIPTION names teachers with ',' (escaped)."))


# --------------------------------------------------------------------------- 2. ics.js browser extension

def media_icsjs_extension() -> None:
    school = School("渝州传媒学院", "Asia/Shanghai", date(2026, 3, 2), 17,
                    grid(("08:30", 5, 40, [10, 20, 10, 10]), ("14:30", 4, 40, [10, 20, 10]), ("19:30", 2, 40, [10])),
                    off={date(2026, 4, 6), date(2026, 5, 1), date(2026, 5, 4), date(2026, 5, 5), date(2026, 6, 19)},
                    makeup={date(2026, 5, 9): date(2026, 5, 5)})
    courses = [
        Course("视听语言", 1, 1, 2, weeks("1-16"), "影视楼 302", ("冉静",)),
        Course("摄影基础", 2, 3, 4, weeks("1-12"), "影视楼 摄影棚二", ("何川", "龙飞")),
        Course("影视鉴赏", 2, 5, 5, weeks("1-16"), "图文信息中心 报告厅", ("谭晓雨",)),
        Course("新闻写作", 3, 1, 2, weeks("1-16"), "明德楼 A214", ("杨帆",)),
        Course("非线性编辑", 4, 6, 9, weeks("5-16"), "实验楼 机房 405", ("邓凯",)),
        Course("大学体育(四)", 5, 3, 4, weeks("1-16"), "北区体育馆", ("刘洋",)),
        Course("形势与政策", 1, 10, 11, weeks("2-8双"), "明德楼 A101", ("陈晨",)),
    ]
    occs = all_occurrences(school, courses)
    stamp = "20260301T221530"
    lines = ["BEGIN:VCALENDAR", "PRODID:Calendar", "VERSION:2.0"]
    for i, o in enumerate(occs):
        c = o.course
        desc = f"授课教师：{'，'.join(c.teachers)} | 第{sections_label(c)}节 | 第{o.week}周"
        lines += ["BEGIN:VEVENT", f"UID:{i}@default", "CLASS:PUBLIC", f"DESCRIPTION:{desc}",
                  f"DTSTAMP;VALUE=DATE-TIME:{stamp}", f"DTSTART;VALUE=DATE-TIME:{local(o.date, o.start)}",
                  f"DTEND;VALUE=DATE-TIME:{local(o.date, o.end)}", f"LOCATION:{c.room}",
                  f"SUMMARY;LANGUAGE=en-us:{c.title}", "TRANSP:TRANSPARENT", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_media_icsjs_extension.ics", render(lines, eol="\n", limit=None, final_eol=False),
          expected(school, occs, [], "A browser extension on the 教务 weekly timetable (built on ics.js), run on a "
                   "Mac: LF line ends, no folding, no final newline, floating VALUE=DATE-TIME times, "
                   "SUMMARY;LANGUAGE=en-us, one event per meeting read from the dated weekly pages (holidays "
                   "absent, the make-up Saturday present); 40-minute sections with a noon section; teachers "
                   "joined with a full-width comma inside a ' | ' separated DESCRIPTION."))


# --------------------------------------------------------------------------- 3. Sino-US sessions

def sinous_sessions_portal() -> None:
    school = School("Wujiang Liberal Arts University (吴江文理大学)", "Asia/Shanghai", date(2025, 8, 25), 14,
                    grid(("08:30", 2, 75, [15]), ("11:45", 6, 75, [15, 15, 15, 15, 15])),
                    off=days(date(2025, 10, 1), date(2025, 10, 8)))
    s1, s2 = weeks("1-7"), weeks("8-14")
    cls = [  # (code, name, kind, days, section, weeks, room, instructors, class nbr)
        ("COMPSCI 201", "Data Structures and Algorithms", "Lecture", (1, 3), 2, s1 + s2, "Academic Building 2103",
         ("Prof. Anna Li",), "1043"),
        ("COMPSCI 201", "Data Structures and Algorithms", "Lab", (5,), 4, s1 + s2, "Innovation Building 1018",
         ("Kevin Brown",), "1044"),
        ("MATH 105", "Linear Algebra", "Lecture", (2, 4), 1, s1, "Academic Building 1095",
         ("Dr. Mei Chen",), "1120"),
        ("GCHINA 101", "China in the World", "Seminar", (2, 4), 3, s1 + s2, "Library 2115",
         ("Dr. Robert Hale", "Dr. Yan Zhou"), "1301"),
        ("ECON 110", "Principles of Economics", "Lecture", (1, 3), 5, s2, "Conference Center 1079",
         ("Prof. Daniel Ortiz",), "1422"),
        ("EAP 102", "Academic Writing", "Seminar", (2, 4), 6, s2, "Academic Building 3107",
         ("Laura Finch",), "1510"),
    ]
    courses, series = [], []
    for code, name, kind, dows, sec, wks, room, who, nbr in cls:
        plain = tuple(w.removeprefix("Prof. ").removeprefix("Dr. ") for w in who)
        cs = [Course(name, d, sec, sec, wks, room, plain, {"code": code, "kind": kind, "who": who, "nbr": nbr})
              for d in dows]
        courses += cs
        series.append(cs)
    occs = all_occurrences(school, courses)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Wujiang Liberal Arts University//Student Hub Schedule//EN",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:My Class Schedule - Fall 2025",
             *fixed_vtimezone("Asia/Shanghai", "+0800", "CST")]
    byday = "MO TU WE TH FR".split()
    for cs in series:
        c = cs[0]
        # the portal writes one series per class component and session, over its meeting days
        for sess_weeks in (s1, s2):
            wk = [w for w in c.weeks if w in sess_weeks]
            if not wk:
                continue
            first = min(school.nominal(wk[0], x.day) for x in cs)
            last = max(school.nominal(wk[-1], x.day) for x in cs)
            exd = sorted(school.nominal(w, x.day) for x in cs for w in wk if school.nominal(w, x.day) in school.off)
            s, e = school.times(first, c.first, c.last)
            desc = (f"{c.info['code']} - {c.title}\nComponent: {c.info['kind']}\nClass Nbr: {c.info['nbr']}\n"
                    f"Instructor(s): {', '.join(c.info['who'])}\nSession: {'7W1' if sess_weeks is s1 else '7W2'}")
            lines += ["BEGIN:VEVENT", f"UID:WLAU-2251-{c.info['nbr']}-{1 if sess_weeks is s1 else 2}@hub.wlau.edu.cn",
                      "DTSTAMP:20250820T030000Z", f"DTSTART;TZID=Asia/Shanghai:{local(first, s)}",
                      f"DTEND;TZID=Asia/Shanghai:{local(first, e)}",
                      f"RRULE:FREQ=WEEKLY;BYDAY={','.join(byday[x.day - 1] for x in cs)};"
                      f"UNTIL={utc(last, '23:59', school.zone)[:-3]}59Z"]
            if exd:
                lines.append("EXDATE;TZID=Asia/Shanghai:" + ",".join(local(d, s) for d in exd))
            lines += [f"SUMMARY:{esc(c.info['code'] + ' - ' + c.title + ' (' + c.info['kind'] + ')')}",
                      f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "STATUS:CONFIRMED", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_sinous_sessions_portal.ics", render(lines),
          expected(school, occs, [], "A Sino-US liberal-arts university's student hub 'export to calendar' (English): "
                   "TZID with a fixed +0800 VTIMEZONE, one weekly series per class component and 7-week session "
                   "with BYDAY over two weekdays, UNTIL in UTC at 23:59:59 local, EXDATE list for the Golden "
                   "Week; 75-minute periods with 15-minute breaks and a 11:45 start after the long break; "
                   "SUMMARY 'CODE - Course (Component)', instructors with Prof./Dr. titles, two separated by ','."))


# --------------------------------------------------------------------------- 4. CSV teaching progress table

def med_teaching_progress_csv() -> None:
    school = School("桂南医学院", "Asia/Shanghai", date(2025, 9, 1), 18,
                    grid(("08:00", 4, 45, [10, 20, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:30", 3, 45, [10, 10])),
                    off=days(date(2025, 10, 1), date(2025, 10, 8)),
                    makeup={date(2025, 9, 28): date(2025, 10, 2), date(2025, 10, 11): date(2025, 10, 3)})
    topics = ["绪论", "第一章", "第二章", "第三章", "第四章", "第五章", "第六章", "第七章", "第八章", "第九章",
              "第十章", "第十一章", "第十二章", "第十三章", "第十四章", "第十五章", "复习", "答疑"]
    courses = [
        Course("内科学", 1, 1, 3, weeks("1-17"), "第二教学楼 301", ("韦明",), {"kind": "理论"}),
        Course("内科学", 4, 5, 8, weeks("2-16双"), "附属第一医院 内科示教室", ("韦明", "陆晓"), {"kind": "见习"}),
        Course("外科学", 2, 1, 3, weeks("1-17"), "第二教学楼 305", ("覃志刚",), {"kind": "理论"}),
        Course("外科学", 4, 5, 8, weeks("3-17单"), "附属第一医院 外科示教室", ("覃志刚",), {"kind": "见习"}),
        Course("医学影像学", 3, 3, 4, weeks("1-12"), "医技楼 204", ("黄丽华",), {"kind": "理论"}),
        Course("妇产科学", 5, 1, 2, weeks("1-16"), "第二教学楼 210", ("蒙秀英",), {"kind": "理论"}),
        Course("医学伦理学", 3, 9, 10, weeks("1-8"), "第一教学楼 阶梯教室 102", ("罗佳",), {"kind": "理论"}),
    ]
    occs = all_occurrences(school, courses)
    rows = [["周次", "日期", "星期", "节次", "课程名称", "类型", "授课内容", "授课教师", "上课地点", "备注"]]
    for o in occs:
        c = o.course
        note = f"调{o.nominal.month}月{o.nominal.day}日(周{WEEKDAY_ZH[o.nominal.weekday()]})课" if o.date != o.nominal else ""
        k = c.weeks.index(o.week)
        rows.append([str(o.week), f"{o.date.year}/{o.date.month}/{o.date.day}", "星期" + WEEKDAY_ZH[o.date.weekday()],
                     sections_label(c), c.title, c.info["kind"],
                     topics[k % len(topics)] + ("（见习）" if c.info["kind"] == "见习" else ""),
                     "、".join(c.teachers), c.room, note])
    exam = date(2026, 1, 8)
    rows.append(["19", f"{exam.year}/{exam.month}/{exam.day}", "星期四", "1-2", "内科学", "考试", "期末考试",
                 "韦明", "第二教学楼 301", "闭卷"])
    text = "\r\n".join(",".join(cell for cell in r) for r in rows) + "\r\n"
    write("csv_med_teaching_progress.csv", "\ufeff" + text,
          expected(school, occs, [{"summary": "内科学", "why": "outside_semester", "date": exam.isoformat()}],
                   "A medical university class's 教学进度表 kept in Excel and saved as CSV UTF-8 (BOM, CRLF): one "
                   "row per meeting with 周次, 日期 as 2025/9/1, 星期, 节次 'a-b', 课程名称, 类型 (理论/见习), "
                   "授课内容, 授课教师 (two joined with 、), 上课地点, 备注; 见习 afternoons at the affiliated "
                   "hospital in alternate weeks; holiday rows absent, the two make-up days' rows present; a final "
                   "exam row in week 19 is after the semester."))


# --------------------------------------------------------------------------- 5. graduate system's own export

def grad_system_count_exdate() -> None:
    school = School("江淮大学研究生院", "Asia/Shanghai", date(2026, 9, 7), 18,
                    grid(("08:00", 2, 50, [10]), ("10:10", 2, 50, [10]), ("14:00", 2, 50, [10]),
                         ("16:10", 2, 50, [10]), ("19:00", 3, 50, [10, 10])),
                    off={date(2026, 9, 25)} | days(date(2026, 10, 1), date(2026, 10, 7)))

    def postponed(first_week: int, n: int, day: int) -> list[int]:
        """n meetings from first_week, a meeting that falls on a day off is held a week later (顺延)."""
        out: list[int] = []
        w = first_week
        while len([x for x in out if school.nominal(x, day) not in school.off]) < n:
            out.append(w)
            w += 1
        return out

    plan = [  # title, code, day, first, last, first week, meetings, room, teachers
        ("数值分析", "S0701012", 1, 1, 3, 1, 16, "研究生教学楼 B305", ("程志远 教授",)),
        ("中国特色社会主义理论与实践研究", "S0000001", 2, 5, 7, 1, 9, "研究生教学楼 A101", ("汪洁 副教授", "许鹏 讲师")),
        ("工程伦理", "S0000101", 4, 9, 11, 1, 8, "研究生教学楼 A203", ("储明",)),
        ("矩阵理论", "S0701005", 5, 1, 3, 2, 12, "研究生教学楼 B210", ("方红 教授",)),
        ("学术英语写作", "S0501003", 3, 3, 4, 9, 8, "外语楼 406", ("Laura Chen",)),
        ("机器学习", "S0812033", 3, 6, 8, 1, 12, "计算机楼 报告厅", ("葛亮 教授",)),
    ]
    courses: list[Course] = []
    for title, code, day, a, b, fw, n, room, who in plan:
        wk = postponed(fw, n, day)
        courses.append(Course(title, day, a, b, [w for w in wk if school.nominal(w, day) not in school.off], room,
                              tuple(strip_title(x) for x in who),
                              {"code": code, "who": who, "all_weeks": wk, "n": n, "section": f"{len(courses) % 3 + 1:02d}"}))
    occs = all_occurrences(school, courses)
    lines = ["BEGIN:VCALENDAR", "PRODID:-//江淮大学研究生院//研究生教育管理系统 课表导出 3.2//ZH", "VERSION:2.0",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:2026-2027学年第一学期研究生课表",
             "X-WR-TIMEZONE:Asia/Shanghai",
             *fixed_vtimezone("Asia/Shanghai", "+0800", "CST", ("X-LIC-LOCATION:Asia/Shanghai",))]
    for i, c in enumerate(courses):
        wk = c.info["all_weeks"]
        first = school.nominal(wk[0], c.day)
        s, e = school.times(first, c.first, c.last)
        exd = [school.nominal(w, c.day) for w in wk if school.nominal(w, c.day) in school.off]
        span = f"{wk[0]}-{wk[-1]}周" + ("（节假日停课，顺延一周）" if exd else "")
        desc = (f"课程编号：{c.info['code']}\n主讲教师：{'；'.join(c.info['who'])}\n上课周次：{span}\n"
                f"上课时间：星期{WEEKDAY_ZH[c.day - 1]} 第{c.first}-{c.last}节\n总学时：{c.info['n'] * (c.last - c.first + 1)}")
        lines += ["BEGIN:VEVENT", f"UID:pyxt-20261-{c.info['code']}-{i + 1:02d}@gs.jhu.edu.cn",
                  "DTSTAMP:20260901T011500Z", f"DTSTART;TZID=Asia/Shanghai:{local(first, s)}",
                  f"DTEND;TZID=Asia/Shanghai:{local(first, e)}",
                  f"RRULE:FREQ=WEEKLY;INTERVAL=1;COUNT={len(wk)}"]
        lines += [f"EXDATE;TZID=Asia/Shanghai:{local(d, s)}" for d in exd]
        lines += [f"SUMMARY:{esc(c.title)}（{c.info['section']}班）", f"LOCATION:{esc(c.room)}",
                  f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_grad_system_count_exdate.ics", render(lines),
          expected(school, occs, [], "A graduate school's own management system 'export timetable' button: "
                   "VTIMEZONE with X-LIC-LOCATION, one weekly RRULE COUNT per course, the classes that fall on "
                   "中秋/国庆 are postponed a week (COUNT one larger, one EXDATE line per lost day); 3-section "
                   "blocks incl. an evening block, 8- to 16-meeting courses starting in weeks 1, 2 and 9; "
                   "SUMMARY '课程（NN班）', DESCRIPTION with 主讲教师 'A 副教授；B 讲师'."))


# --------------------------------------------------------------------------- 6. Naver Calendar (Korea)

def korea_naver_manual() -> None:
    school = School("한강대학교 (Hangang University, Seoul)", "Asia/Seoul", date(2026, 3, 2), 16,
                    grid(*((f"{h:02d}:00", 1, 50, []) for h in range(9, 19))),
                    off={date(2026, 3, 2), date(2026, 5, 5), date(2026, 5, 25), date(2026, 6, 3)})
    courses = [
        Course("경영학원론", 1, 2, 3, weeks("1-16"), "경영관 B104", ("박지훈",)),
        Course("경영학원론", 3, 2, 2, weeks("1-16"), "경영관 B104", ("박지훈",)),
        Course("한국어 중급 2", 2, 1, 2, weeks("1-16"), "국제교육관 305", ("이수진",)),
        Course("한국어 중급 2", 4, 1, 2, weeks("1-16"), "국제교육관 305", ("이수진",)),
        Course("회계원리", 2, 5, 6, weeks("1-16"), "경영관 407", ("최민호",)),
        Course("회계원리", 4, 5, 5, weeks("1-16"), "경영관 407", ("최민호",)),
        Course("통계학개론", 3, 6, 8, weeks("1-16"), "이과대학 201", ()),
        Course("글쓰기와 소통", 5, 3, 4, weeks("1-15"), "인문관 112", ("정하늘",)),
    ]
    occs = all_occurrences(school, courses)
    lines = ["BEGIN:VCALENDAR", "PRODID:Naver Calendar", "VERSION:2.0", "CALSCALE:GREGORIAN",
             *fixed_vtimezone("Asia/Seoul", "+0900", "KST")]
    for i, c in enumerate(courses):
        (r,), _ = runs(school, c)
        last = r.nominals[-1]
        lines += ["BEGIN:VEVENT", f"SEQUENCE:{i % 3}", "CLASS:PUBLIC", "TRANSP:OPAQUE",
                  f"UID:{20260227101500 + i * 37}-{i:03d}@calendar.naver.com",
                  f"DTSTART;TZID=Asia/Seoul:{local(r.first, r.start)}", f"DTEND;TZID=Asia/Seoul:{local(r.first, r.end)}",
                  f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}"]
        if c.teachers:
            lines.append(f"DESCRIPTION:{esc('교수: ' + c.teacher)}")
        lines.append(f"RRULE:FREQ=WEEKLY;BYDAY={'MO TU WE TH FR'.split()[c.day - 1]};"
                     f"UNTIL={utc(last, '23:59', school.zone)[:-3]}59Z")
        lines += [f"EXDATE;TZID=Asia/Seoul:{local(d, r.start)}" for d in r.exdates]
        lines += ["CREATED:20260227T011500Z", "LAST-MODIFIED:20260302T224011Z", "DTSTAMP:20260302T224011Z",
                  "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "DESCRIPTION:This is an event reminder",
                  "END:VALARM", "END:VEVENT"]
    # the student's own entries: the midterm week (all day) and a midterm exam typed over a class
    exam_day = date(2026, 4, 22)
    exam = next(o for o in occs if o.date == exam_day and o.course.title == "경영학원론")
    lines += ["BEGIN:VEVENT", "SEQUENCE:0", "CLASS:PUBLIC", "TRANSP:TRANSPARENT",
              "UID:20260315200112-901@calendar.naver.com", "DTSTART;VALUE=DATE:20260420",
              "DTEND;VALUE=DATE:20260425", "SUMMARY:중간고사 기간", "CREATED:20260315T110112Z",
              "LAST-MODIFIED:20260315T110112Z", "DTSTAMP:20260315T110112Z", "END:VEVENT",
              "BEGIN:VEVENT", "SEQUENCE:0", "CLASS:PUBLIC", "TRANSP:OPAQUE",
              "UID:20260315200301-902@calendar.naver.com",
              f"DTSTART;TZID=Asia/Seoul:{local(exam_day, exam.start)}",
              f"DTEND;TZID=Asia/Seoul:{local(exam_day, exam.end)}", "SUMMARY:경영학원론 중간고사",
              "LOCATION:경영관 B104", "DESCRIPTION:범위: 1~6장", "CREATED:20260315T110301Z",
              "LAST-MODIFIED:20260315T110301Z", "DTSTAMP:20260315T110301Z", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    skipped = [{"summary": "중간고사 기간", "why": "all_day", "date": "2026-04-20"},
               {"summary": "경영학원론 중간고사", "why": "overlap", "date": exam_day.isoformat(),
                "detail": "period 2 already holds 경영학원론, listed earlier in the file"}]
    write("ics_korea_naver_manual.ics", render(lines),
          expected(school, occs, skipped, "A Chinese student in Seoul typed the timetable into Naver Calendar and "
                   "exported it: Asia/Seoul VTIMEZONE, one weekly series per course and weekday (a course meets "
                   "on two days with different lengths), UNTIL in UTC at 23:59:59 KST, one EXDATE line per "
                   "public holiday (substitute holidays, local election day), VALARM; hourly 50-minute periods "
                   "(교시) from 09:00; Korean course names, DESCRIPTION '교수: name', one course without teacher; "
                   "an all-day midterm week and a midterm exam typed over its own class (kept: the class)."))


# --------------------------------------------------------------------------- 7. New Zealand

NZ_VTIMEZONE = ["BEGIN:VTIMEZONE", "TZID:Pacific/Auckland", "X-LIC-LOCATION:Pacific/Auckland",
                "BEGIN:DAYLIGHT", "TZOFFSETFROM:+1200", "TZOFFSETTO:+1300", "TZNAME:NZDT",
                "DTSTART:19700927T020000", "RRULE:FREQ=YEARLY;BYMONTH=9;BYDAY=-1SU", "END:DAYLIGHT",
                "BEGIN:STANDARD", "TZOFFSETFROM:+1300", "TZOFFSETTO:+1200", "TZNAME:NZST",
                "DTSTART:19700405T030000", "RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU", "END:STANDARD",
                "END:VTIMEZONE"]


def nz_timetable_dst() -> None:
    teaching = weeks("1-6,9-14")
    school = School("Waitematā University (Auckland)", "Pacific/Auckland", date(2026, 7, 20), 14,
                    grid(*((f"{h:02d}:00", 1, 60, []) for h in range(8, 19))),
                    off=days(date(2026, 8, 31), date(2026, 9, 13)))
    cls = [  # code, name, kind, day, first, last, weeks, room, staff
        ("COMPSCI 220", "Algorithms and Data Structures", "Lecture", 1, 3, 3, teaching, "302-G20", "Dr Aroha Ngata"),
        ("COMPSCI 220", "Algorithms and Data Structures", "Lecture", 3, 3, 3, teaching, "302-G20", "Dr Aroha Ngata"),
        ("COMPSCI 220", "Algorithms and Data Structures", "Tutorial", 4, 7, 7, [w for w in teaching if w >= 2],
         "303-B09", "Sam Liu"),
        ("STATS 201", "Data Analysis", "Lecture", 2, 4, 4, teaching, "260-092", "Prof. James Walker"),
        ("STATS 201", "Data Analysis", "Lecture", 4, 4, 4, teaching, "260-092", "Prof. James Walker"),
        ("STATS 201", "Data Analysis", "Computer Lab", 5, 6, 7, [w for w in teaching if w >= 2], "303S-175", ""),
        ("ACADENG 104", "Academic English Writing", "Seminar", 2, 8, 9, teaching, "206-201", "Hannah Moore"),
    ]
    courses = [Course(name, d, a, b, wk, room, tuple(x for x in [staff.removeprefix("Dr ").removeprefix("Prof. ")] if x),
                      {"code": code, "kind": kind, "staff": staff}) for code, name, kind, d, a, b, wk, room, staff in cls]
    occs = all_occurrences(school, courses)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Waitemata University//Student Timetable//EN",
             "METHOD:PUBLISH", "X-WR-CALNAME:My Timetable - Semester Two 2026", "X-WR-TIMEZONE:Pacific/Auckland",
             *NZ_VTIMEZONE]
    for i, c in enumerate(courses):
        # one series per activity: DTSTART its first class, the mid-semester break as EXDATE
        first = school.nominal(c.weeks[0], c.day)
        last = school.nominal(c.weeks[-1], c.day)
        gaps = [school.nominal(w, c.day) for w in range(c.weeks[0], c.weeks[-1] + 1) if w not in c.weeks]
        s, e = school.times(first, c.first, c.last)
        dates = [school.nominal(w, c.day) for w in c.weeks]
        spans = [(a, b) for a, b in ((dates[0], max(d for d in dates if d < gaps[0])),
                                     (min(d for d in dates if d > gaps[-1]), dates[-1]))]
        desc = f"{c.info['code']} {c.info['kind']}\n" + (f"Staff: {c.info['staff']}\n" if c.info["staff"] else "") + \
            "Weeks: " + ", ".join(f"{a.day}/{a.month}-{b.day}/{b.month}" for a, b in spans)
        lines += ["BEGIN:VEVENT", f"UID:2265-{c.info['code'].replace(' ', '')}-{i:02d}@timetable.waitemata.ac.nz",
                  "DTSTAMP:20260714T201500Z", f"DTSTART;TZID=Pacific/Auckland:{local(first, s)}",
                  f"DTEND;TZID=Pacific/Auckland:{local(first, e)}",
                  f"RRULE:FREQ=WEEKLY;UNTIL={utc(last, e, school.zone)}",
                  "EXDATE;TZID=Pacific/Auckland:" + ",".join(local(d, s) for d in gaps),
                  f"SUMMARY:{esc(c.info['code'] + ' ' + c.title + ' - ' + c.info['kind'])}",
                  f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    exam = date(2026, 10, 30)
    lines += ["BEGIN:VEVENT", "UID:2265-COMPSCI220-EXAM@timetable.waitemata.ac.nz", "DTSTAMP:20260714T201500Z",
              f"DTSTART;TZID=Pacific/Auckland:{local(exam, '14:00')}", f"DTEND;TZID=Pacific/Auckland:{local(exam, '16:00')}",
              "SUMMARY:COMPSCI 220 Algorithms and Data Structures - Exam", "LOCATION:Recreation Centre",
              "DESCRIPTION:COMPSCI 220 Exam\\nSeat numbers are released one week before the exam", "END:VEVENT",
              "END:VCALENDAR"]
    skipped = [{"summary": "COMPSCI 220 Algorithms and Data Structures - Exam", "why": "outside_semester",
                "date": exam.isoformat()}]
    write("ics_nz_timetable_dst.ics", render(lines),
          expected(school, occs, skipped, "A Chinese student in Auckland: the university timetable's calendar "
                   "export for Semester Two: TZID=Pacific/Auckland with a DST VTIMEZONE, one weekly series per "
                   "activity with UNTIL in UTC at the last class's end and the two-week mid-semester break as an "
                   "EXDATE list; daylight saving starts in week 10 and classes keep their wall-clock times; "
                   "hourly sections with no breaks; SUMMARY 'CODE Course - Activity', staff with Dr/Prof., a lab "
                   "without staff; the exam is after the semester."))


# --------------------------------------------------------------------------- 8. campus app (Android)

def mining_campusapp_even_weeks() -> None:
    spring = grid(("08:00", 4, 50, [10, 20, 10]), ("14:30", 4, 50, [10, 20, 10]), ("19:30", 3, 50, [10, 10]))
    summer = grid(("08:00", 4, 50, [10, 20, 10]), ("15:00", 4, 50, [10, 20, 10]), ("20:00", 3, 50, [10, 10]))
    school = School("晋中矿业大学", "Asia/Shanghai", date(2025, 2, 17), 18, spring, second=(date(2025, 5, 6), summer),
                    off={date(2025, 4, 4), date(2025, 6, 2)} | days(date(2025, 5, 1), date(2025, 5, 5)),
                    makeup={date(2025, 4, 27): date(2025, 5, 5)})
    courses = [
        Course("高等数学A(下)", 1, 1, 2, weeks("1-16"), "逸夫楼 302", ("郭建平",)),
        Course("高等数学A(下)", 3, 3, 4, weeks("1-16"), "逸夫楼 302", ("郭建平",)),
        Course("大学物理B", 2, 1, 2, weeks("2-16"), "理科楼 105", ("白晓东",)),
        Course("大学物理实验", 2, 5, 7, weeks("4-16双"), "物理实验中心 211", ("白晓东", "乔慧")),
        Course("矿山测量", 4, 5, 6, weeks("1-14"), "采矿楼 A408", ("阎志强",)),
        Course("工程制图", 5, 1, 3, weeks("1-11单"), "机械楼 制图室 3", ("温彩霞",)),
        Course("中国近现代史纲要", 1, 9, 10, weeks("1-12"), "文科楼 201", ("段丽",)),
        Course("大学英语(二)", 4, 1, 2, weeks("1-16"), "外语楼 507", ("Emily Grant",)),
    ]
    occs = all_occurrences(school, courses)
    lines = ["BEGIN:VCALENDAR", "PRODID:-//JZMU Helper//Android 4.8.2//CN", "VERSION:2.0", "CALSCALE:GREGORIAN",
             "X-WR-CALNAME:我的课表", "BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "TZURL:http://tzurl.org/zoneinfo/Asia/Shanghai",
             "X-LIC-LOCATION:Asia/Shanghai", "BEGIN:STANDARD", "TZOFFSETFROM:+0805", "TZOFFSETTO:+0800", "TZNAME:CST",
             "DTSTART:19010101T000000", "RDATE:19010101T000000", "END:STANDARD", "END:VTIMEZONE"]
    n = 0
    for c in courses:
        rs, moved = runs(school, c)
        spec = (f"{c.weeks[0]}-{c.weeks[-1]}" + ("双" if len(c.weeks) > 1 and c.weeks[1] - c.weeks[0] == 2 and
                                                 c.weeks[0] % 2 == 0 else "单" if len(c.weeks) > 1 and
                                                 c.weeks[1] - c.weeks[0] == 2 else "") + "周")
        desc = f"任课老师：{'；'.join(c.teachers)}\n周次：{spec}\n节次：周{WEEKDAY_ZH[c.day - 1]} 第{sections_label(c)}节"
        for r in rs:
            n += 1
            lines += ["BEGIN:VEVENT", "DTSTAMP:20250216T120533Z", f"UID:jzmu-{n:03d}-{r.first:%Y%m%d}@helper",
                      f"DTSTART;TZID=Asia/Shanghai:{local(r.first, r.start)}",
                      f"DTEND;TZID=Asia/Shanghai:{local(r.first, r.end)}",
                      f"RRULE:FREQ=WEEKLY;COUNT={r.count}" + (f";INTERVAL={r.interval}" if r.interval > 1 else "")]
            if r.exdates:
                lines.append("EXDATE;TZID=Asia/Shanghai:" + ",".join(local(d, r.start) for d in r.exdates))
            lines += [f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
        for o in moved:
            n += 1
            lines += ["BEGIN:VEVENT", "DTSTAMP:20250216T120533Z", f"UID:jzmu-{n:03d}-tiaoxiu@helper",
                      f"DTSTART;TZID=Asia/Shanghai:{local(o.date, o.start)}",
                      f"DTEND;TZID=Asia/Shanghai:{local(o.date, o.end)}", f"SUMMARY:{esc(c.title)}",
                      f"LOCATION:{esc(c.room)}",
                      f"DESCRIPTION:{esc(desc + chr(10) + f'调休：补{o.nominal.month}月{o.nominal.day}日的课')}",
                      "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_mining_campusapp_even_weeks.ics", render(lines),
          expected(school, occs, [], "A student-made campus app (Android) 'export timetable to calendar': tzurl "
                   "VTIMEZONE, one weekly RRULE COUNT per course and run, INTERVAL=2 for odd/even-week courses, "
                   "series split where summer hours begin after 劳动节 (afternoon 14:30 -> 15:00, evening 19:30 -> "
                   "20:00, second grid), holidays as EXDATE lists, the 调休 Sunday as a one-off event; DESCRIPTION "
                   "'任课老师：A；B' plus week and section lines."))


# --------------------------------------------------------------------------- 9. Ical.Net desktop tool

def maritime_icalnet_training() -> None:
    school = School("闽东海事职业技术学院", "Asia/Shanghai", date(2025, 9, 1), 19,
                    grid(("08:10", 4, 45, [10, 20, 10]), ("14:00", 4, 45, [10, 20, 10]), ("19:00", 2, 45, [10])),
                    off=days(date(2025, 10, 1), date(2025, 10, 8)),
                    makeup={date(2025, 9, 28): date(2025, 10, 8), date(2025, 10, 11): date(2025, 10, 7)})
    normal = weeks("1-8,11-18")
    training = weeks("9-10")
    courses = [
        Course("航海学", 1, 1, 2, normal, "航海楼 301", ("林海生",)),
        Course("船舶结构与设备", 2, 3, 4, normal, "航海楼 205", ("陈振宇",)),
        Course("航海英语", 3, 1, 2, normal, "航海楼 408", ("Paul Adams", "郑雯")),
        Course("船舶值班与避碰", 4, 5, 6, normal, "航海楼 302", ("林海生",)),
        Course("海上安全与救生", 5, 1, 3, weeks("1-8,11-12"), "救生训练馆", ("黄国栋",)),
        Course("轮机概论", 2, 6, 7, weeks("1-8,11-17单"), "轮机楼 112", ("吴德明",)),
    ]
    courses += [Course("船舶操纵模拟实训", d, a, b, training, "航海实训中心 模拟器室", ("王振华", "李航"))
                for d in range(1, 6) for a, b in ((1, 4), (5, 8))]
    occs = all_occurrences(school, courses)
    lines = ["BEGIN:VCALENDAR", "PRODID:-//github.com/rianjs/ical.net//NONSGML ical.net 4.0//EN", "VERSION:2.0"]

    def event(c: Course, start: str, end: str, first: date, extra: list[str]) -> list[str]:
        desc = f"指导教师：{'、'.join(c.teachers)}\n第{sections_label(c)}节" if "实训" in c.title else \
            f"教师：{'、'.join(c.teachers)}\n第{sections_label(c)}节"
        props = {"DESCRIPTION": f"DESCRIPTION:{esc(desc)}", "DTEND": f"DTEND;TZID=Asia/Shanghai:{local(first, end)}",
                 "DTSTAMP": "DTSTAMP:20250830T081244Z", "DTSTART": f"DTSTART;TZID=Asia/Shanghai:{local(first, start)}",
                 "LOCATION": f"LOCATION:{esc(c.room)}", "SEQUENCE": "SEQUENCE:0", "SUMMARY": f"SUMMARY:{esc(c.title)}",
                 "UID": f"UID:{uuid.uuid5(uuid.NAMESPACE_URL, f'mdmc/{c.title}/{c.day}/{c.first}/{first}')}"}
        for x in extra:
            props[x.split(";")[0].split(":")[0]] = x
        return ["BEGIN:VEVENT", *(props[k] for k in sorted(props)), "END:VEVENT"]

    for c in [x for x in courses if "实训" not in x.title]:
        rs, moved = runs(school, c)
        for r in rs:
            last = r.nominals[-1]
            step = f";INTERVAL={r.interval}" if r.interval > 1 else ""
            extra = [f"RRULE:FREQ=WEEKLY;UNTIL={local(last, '23:59')[:-2]}59{step}"]
            if r.exdates:
                extra.append("EXDATE;TZID=Asia/Shanghai:" + ",".join(local(d, r.start) for d in r.exdates))
            lines += event(c, r.start, r.end, r.first, extra)
        for o in moved:
            lines += event(c, o.start, o.end, o.date, [])
    # the training fortnight: one Monday-to-Friday series per half day
    for a, b in ((1, 4), (5, 8)):
        c = next(x for x in courses if "实训" in x.title and x.first == a)
        first = school.nominal(training[0], 1)
        s, e = school.times(first, a, b)
        lines += event(c, s, e, first, ["RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO,TU,WE,TH,FR"])
    lines.append("END:VCALENDAR")
    write("ics_maritime_icalnet_training.ics", "\ufeff" + render(lines),
          expected(school, occs, [], "A maritime vocational college (semi-military) class's timetable written by a "
                   "student's C# desktop tool with Ical.Net: UTF-8 BOM, CRLF, properties in alphabetical order (DTEND "
                   "before DTSTART), TZID without VTIMEZONE, weekly RRULE with a floating UNTIL 23:59:59, "
                   "INTERVAL=2, EXDATE lists for 国庆, make-up days as one-off events; two 实训 weeks of full "
                   "days as BYDAY=MO..FR series with COUNT during which the normal courses stop; 08:10 start."))


# --------------------------------------------------------------------------- 10. Macau portal

KIND_CODE = {"講課": "LEC", "實驗": "LAB", "導修": "TUT"}


def macau_portal_trad() -> None:
    school = School("澳門氹仔大學", "Asia/Macau", date(2025, 8, 25), 15,
                    grid(*((f"{h:02d}:30", 1, 50, []) for h in range(8, 20))),
                    off={date(2025, 10, 1), date(2025, 10, 2), date(2025, 10, 7), date(2025, 10, 29)})
    cls = [  # code, name, kind, day, first, last, weeks, room, teacher with title
        ("CISB110", "計算機程序設計", "講課", 1, 2, 3, "1-14", "E11-1025", "陳家豪教授"),
        ("CISB110", "計算機程序設計", "實驗", 3, 7, 8, "2-14", "E11-G015", "梁詠詩"),
        ("MATH111", "微積分I", "講課", 2, 1, 2, "1-14", "E2-1031", "何志明博士"),
        ("MATH111", "微積分I", "講課", 4, 1, 2, "1-14", "E2-1031", "何志明博士"),
        ("GELA101", "葡萄牙語入門", "講課", 2, 6, 7, "1-14", "E21-2019", "Ana Sousa"),
        ("ENGB101", "大學英語寫作", "導修", 3, 3, 4, "1-14", "E22-G012", "Mark Evans"),
        ("GEST105", "澳門歷史與社會", "講課", 5, 10, 11, "1-13", "E4-1045", "黃綺雯副教授"),
    ]
    titles = ("副教授", "教授", "博士")
    courses = []
    for code, name, kind, d, a, b, wk, room, who in cls:
        plain = who
        for t in titles:
            plain = plain.removesuffix(t)
        courses.append(Course(name, d, a, b, weeks(wk), room, (plain,), {"code": code, "kind": kind, "who": who}))
    occs = all_occurrences(school, courses)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//UTM//Student Information System//ZH-MO", "METHOD:PUBLISH",
             "X-WR-CALNAME:2025/2026 第一學期 個人課表", *fixed_vtimezone("Asia/Macau", "+0800", "CST")]
    for o in sorted(occs, key=lambda o: (o.course.info["code"], o.date)):
        c = o.course
        desc = f"科目編號：{c.info['code']}\n課堂類型：{c.info['kind']}\n任課老師：{c.info['who']}\n教學週：第{o.week}週"
        lines += ["BEGIN:VEVENT", f"UID:{c.info['code']}-{KIND_CODE[c.info['kind']]}-{o.date:%Y%m%d}@sis.utm.edu.mo",
                  "DTSTAMP:20250818T020000Z", f"DTSTART;TZID=Asia/Macau:{local(o.date, o.start)}",
                  f"DTEND;TZID=Asia/Macau:{local(o.date, o.end)}",
                  f"SUMMARY:{esc(c.info['code'] + ' ' + c.title + ' (' + c.info['kind'] + ')')}",
                  f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_macau_portal_trad.ics", render(lines),
          expected(school, occs, [], "A mainland student at a Macau university: the student information system's "
                   "'匯出至日曆' file in 繁體: TZID=Asia/Macau with a fixed VTIMEZONE, CRLF, one event per meeting "
                   "grouped by course, SUMMARY 'CODE 課程 (講課/實驗/導修)', DESCRIPTION with 任課老師 and the "
                   "title written straight after the name (教授/博士/副教授); Macau holidays (國慶, 中秋翌日, "
                   "重陽) have no events; hourly 50-minute sections from 08:30."))


def main() -> None:
    for make in (agri_node_icalgen, media_icsjs_extension, sinous_sessions_portal, med_teaching_progress_csv,
                 grad_system_count_exdate, korea_naver_manual, nz_timetable_dst, mining_campusapp_even_weeks,
                 maritime_icalnet_training, macau_portal_trad):
        make()


if __name__ == "__main__":
    main()
