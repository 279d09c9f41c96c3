"""Write files/dev12/: ten timetable files of fictional schools, written blind (issue #32).

Each file comes from a description of a school (week-1 Monday, zone, weeks, section grid, optionally a
second grid from a date, days off and make-up days) and of a student's courses. The expected board is
computed from that description alone; the file is then rendered in the shape of the tool the student
would use. Run: ``python -m bench.import_eval.make_dev12``. Shares no code with the other generators.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().parent / "files" / "dev12"
STAMP = "20260828T020000Z"


def grid(*blocks: tuple[str, int, int, list[int]]) -> list[tuple[str, str]]:
    """Blocks of (first start, n sections, minutes each, the n-1 breaks) -> [(start, end), ...]."""
    out = []
    for first, n, minutes, breaks in blocks:
        t = datetime.strptime(first, "%H:%M")
        for i in range(n):
            end = t + timedelta(minutes=minutes)
            out.append((t.strftime("%H:%M"), end.strftime("%H:%M")))
            if i < n - 1:
                t = end + timedelta(minutes=breaks[i])
    return out


@dataclass
class Course:
    title: str
    teachers: list[tuple[str, str]]  # (name, title as the tool writes it, "" if none)
    room: str
    weekday: int
    first: int
    last: int
    weeks: list[int] = field(default_factory=list)
    on: date | None = None  # a one-off meeting on this date instead of weeks
    tag: str = ""  # extra words a tool writes (course code, class number)

    @property
    def teacher(self) -> str:
        return "、".join(n for n, _ in self.teachers)


@dataclass
class School:
    key: str
    name: str
    zone: str
    week1: date
    weeks: int
    sections: list[tuple[str, str]]
    second: tuple[date, list[tuple[str, str]]] | None = None
    off: set[date] = field(default_factory=set)
    makeup: dict[date, date] = field(default_factory=dict)  # make-up day -> the day off whose classes it runs
    notes: str = ""

    def times(self, day: date, first: int, last: int) -> tuple[str, str]:
        secs = self.second[1] if self.second and day >= self.second[0] else self.sections
        return secs[first - 1][0], secs[last - 1][1]


@dataclass
class Occ:
    course: Course
    day: date
    start: str
    end: str


def weeks(a: int, b: int, step: int = 1) -> list[int]:
    return list(range(a, b + 1, step))


def occurrences(s: School, c: Course, honour_off: bool = True) -> list[Occ]:
    if c.on:
        return [Occ(c, c.on, *s.times(c.on, c.first, c.last))]
    out = []
    for w in c.weeks:
        day = s.week1 + timedelta(weeks=w - 1, days=c.weekday - 1)
        if honour_off and day in s.off:
            for mk, orig in s.makeup.items():
                if orig == day:
                    out.append(Occ(c, mk, *s.times(mk, c.first, c.last)))
            continue
        out.append(Occ(c, day, *s.times(day, c.first, c.last)))
    return sorted(out, key=lambda o: o.day)


def expected(s: School, courses: list[Course], extra_skipped: list[dict], honour_off: bool = True,
             title=lambda c: c.title) -> dict:
    """The board from the description: file order decides overlaps (the earlier course keeps the slot)."""
    last = s.week1 + timedelta(weeks=s.weeks, days=-1)
    kept: list[Occ] = []
    skipped = []
    for c in courses:
        for o in occurrences(s, c, honour_off):
            if not s.week1 <= o.day <= last:
                skipped.append({"summary": title(c), "why": "outside_semester", "date": o.day.isoformat()})
                continue
            clash = next((k for k in kept if k.day == o.day and k.start < o.end and o.start < k.end), None)
            if clash:
                skipped.append({"summary": title(c), "why": "overlap", "date": o.day.isoformat(),
                                "detail": f"its time already holds {clash.course.title}, listed earlier in the file"})
                continue
            kept.append(o)
    kept.sort(key=lambda o: (o.day, o.start))
    return {
        "school": s.name, "time_zone": s.zone, "week1_monday": s.week1.isoformat(), "semester_weeks": s.weeks,
        "sections": [list(x) for x in s.sections],
        "second_grid": {"from": s.second[0].isoformat(), "sections": [list(x) for x in s.second[1]]}
        if s.second else None,
        "meetings": [{"date": o.day.isoformat(), "start": o.start, "end": o.end, "title": o.course.title,
                      "location": o.course.room, "teacher": o.course.teacher} for o in kept],
        "skipped": skipped + extra_skipped,
        "notes": s.notes,
    }


# ---------------------------------------------------------------- iCalendar writing


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


def write_ics(lines: list[str], eol: str = "\r\n", folding: bool = True) -> bytes:
    out = []
    for ln in lines:
        out.extend(fold(ln) if folding else [ln])
    return (eol.join(out) + eol).encode("utf-8")


def local(s: School, day: date, hm: str) -> datetime:
    return datetime.combine(day, time.fromisoformat(hm), ZoneInfo(s.zone))


def stamp(s: School, day: date, hm: str, how: str) -> str:
    """DTSTART/DTEND value with parameters: utc, floating, or tzid."""
    dt = local(s, day, hm)
    if how == "utc":
        return ":" + dt.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    if how == "floating":
        return ":" + dt.strftime("%Y%m%dT%H%M%S")
    return f";TZID={how}:" + dt.strftime("%Y%m%dT%H%M%S")


VTZ_SHANGHAI = ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "END:STANDARD", "END:VTIMEZONE"]
VTZ_WINDOWS = ["BEGIN:VTIMEZONE", "TZID:China Standard Time", "BEGIN:STANDARD", "DTSTART:16010101T000000",
               "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:STANDARD", "BEGIN:DAYLIGHT",
               "DTSTART:16010101T000000", "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:DAYLIGHT",
               "END:VTIMEZONE"]


def event(uid: str, s: School, day: date, start: str, end: str, how: str, props: list[str]) -> list[str]:
    return ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{STAMP}", "DTSTART" + stamp(s, day, start, how),
            "DTEND" + stamp(s, day, end, how), *props, "END:VEVENT"]


def runs(ws: list[int]) -> list[tuple[int, int, int]]:
    """Week list -> arithmetic runs (first, last, step) with step 1 or 2."""
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(ws):
        step = ws[i + 1] - ws[i] if i + 1 < len(ws) and ws[i + 1] - ws[i] in (1, 2) else 1
        j = i
        while j + 1 < len(ws) and ws[j + 1] - ws[j] == step:
            j += 1
        out.append((ws[i], ws[j], step))
        i = j + 1
    return out


def series(s: School, c: Course, how: str, props: list[str], uid: str, *, until: str = "utc",
           exdates: bool = True) -> list[str]:
    """One weekly RRULE per run of weeks; days off as EXDATE (make-up days are written separately)."""
    out = []
    for n, (a, b, step) in enumerate(runs(c.weeks)):
        first = s.week1 + timedelta(weeks=a - 1, days=c.weekday - 1)
        lastday = s.week1 + timedelta(weeks=b - 1, days=c.weekday - 1)
        start, end = s.times(first, c.first, c.last)
        if until == "count":
            rule = f"FREQ=WEEKLY;INTERVAL={step};COUNT={(b - a) // step + 1}"
        elif until == "date":
            rule = f"FREQ=WEEKLY;INTERVAL={step};UNTIL={lastday.strftime('%Y%m%d')}"
        elif until == "floating":
            rule = f"FREQ=WEEKLY;INTERVAL={step};UNTIL={lastday.strftime('%Y%m%d')}T235959"
        else:
            u = local(s, lastday, start).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
            rule = f"FREQ=WEEKLY;UNTIL={u};INTERVAL={step}" + (";WKST=MO" if step == 1 else "")
        name, at, domain = uid.partition("@")
        ev = event(f"{name}-{n}{at}{domain}", s, first, start, end, how, [f"RRULE:{rule}", *props])
        ex = [d for d in (s.week1 + timedelta(weeks=w - 1, days=c.weekday - 1) for w in range(a, b + 1, step))
              if d in s.off]
        if ex and exdates:  # properties come before any VALARM
            at_alarm = ev.index("BEGIN:VALARM") if "BEGIN:VALARM" in ev else len(ev) - 1
            ev[at_alarm:at_alarm] = ["EXDATE" + stamp(s, d, start, how) for d in ex]
        out += ev
    return out


def makeups(s: School, c: Course, how: str, props: list[str], uid: str) -> list[str]:
    out = []
    for o in occurrences(s, c):
        if o.day in s.makeup:
            out += event(f"{uid}-mk{o.day:%m%d}", s, o.day, o.start, o.end, how, props)
    return out


def allday(uid: str, summary: str, first: date, days: int, extra: Sequence[str] = ()) -> list[str]:
    return ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{STAMP}", f"DTSTART;VALUE=DATE:{first:%Y%m%d}",
            f"DTEND;VALUE=DATE:{first + timedelta(days=days):%Y%m%d}", f"SUMMARY:{esc(summary)}", *extra,
            "END:VEVENT"]


def days_off(first: date, n: int) -> set[date]:
    return {first + timedelta(days=i) for i in range(n)}


def save(name: str, data: bytes, exp: dict) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_bytes(data)
    stem = name.rsplit(".", 1)[0]
    (OUT / f"{stem}.expected.json").write_text(json.dumps(exp, ensure_ascii=False, indent=1) + "\n", "utf-8")


WD = "一二三四五六日"


def week_text(ws: list[int]) -> str:
    parts = []
    for a, b, step in runs(ws):
        tail = "" if step == 1 or a == b else ("单" if a % 2 else "双")
        parts.append(f"{a}-{b}{tail}" if a != b else f"{a}")
    return ",".join(parts)


# ---------------------------------------------------------------- the ten files

AUTUMN = date(2026, 9, 7)
NATIONAL_DAY = days_off(date(2026, 10, 1), 7)


def gansu_transport() -> None:
    """甘肃: a transport university's 新正方 own calendar export, one event per meeting, TZID + VTIMEZONE."""
    s = School("gansu", "陇原交通大学", "Asia/Shanghai", AUTUMN, 18,
               grid(("08:30", 4, 50, [10, 20, 10]), ("14:30", 4, 50, [10, 20, 10]), ("19:30", 3, 50, [10, 10])),
               off=NATIONAL_DAY, makeup={date(2026, 10, 10): date(2026, 10, 7)},
               notes="A Gansu transport university (11 x 50 min from 08:30, 14:30, 19:30); the 教务 system's own "
                     "export: one event per meeting with TZID and a VTIMEZONE, CRLF, folded; the system knows "
                     "National Day (1-7 Oct off, Sat 10 Oct runs Wednesday's classes), so the file has no meetings "
                     "on days off and the make-up meetings on the Saturday.")
    cs = [Course("铁道工程概论", [("马建军", "教授")], "A区教101", 1, 1, 2, weeks(1, 16)),
          Course("结构力学", [("祁红", "副教授")], "A区教205", 1, 5, 6, weeks(1, 16)),
          Course("大学物理(下)", [("李文斌", "讲师")], "B区理203", 2, 3, 4, weeks(1, 16)),
          Course("土木工程材料", [("陈静", "副教授"), ("石磊", "讲师")], "A区教312", 3, 1, 2, weeks(1, 12)),
          Course("概率论与数理统计", [("张海燕", "副教授")], "B区理105", 3, 5, 6, weeks(1, 16)),
          Course("工程测量", [("杨志强", "讲师")], "测量实训楼204", 4, 1, 4, weeks(3, 14)),
          Course("形势与政策", [("何玉兰", "")], "A区教101", 4, 9, 10, weeks(2, 16, 2)),
          Course("大学英语(三)", [("王娜", "讲师")], "外语楼408", 5, 3, 4, weeks(1, 16))]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Zfsoft//JWGLXT Calendar//CN", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH", "X-WR-CALNAME:2026-2027学年第1学期课表", "X-WR-TIMEZONE:Asia/Shanghai", *VTZ_SHANGHAI]
    for i, c in enumerate(cs):
        for o in occurrences(s, c):
            w = (o.day - s.week1).days // 7 + 1
            desc = (f"教师：{'，'.join(n + ('(' + t + ')' if t else '') for n, t in c.teachers)}\n"
                    f"节次：{c.first}-{c.last}节\n周次：{week_text(c.weeks)}周\n当前第{w}周")
            lines += event(f"zf{i:02d}{o.day:%m%d}@jwgl", s, o.day, o.start, o.end, "Asia/Shanghai",
                           [f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}"])
    lines.append("END:VCALENDAR")
    save("ics_gansu_transport_newzf_export_tzid.ics", write_ics(lines), expected(s, cs, []))


def hubei_geo() -> None:
    """湖北: a geosciences university; a student's Python script over URP: weekly RRULE UNTIL in UTC, floating."""
    s = School("hubei", "荆楚地质大学", "Asia/Shanghai", date(2027, 3, 1), 18,
               grid(("08:00", 5, 45, [10, 20, 10, 10]), ("14:00", 4, 45, [10, 20, 10]), ("18:30", 4, 45, [10, 10, 10])),
               notes="A Hubei geosciences university (13 x 45 min, five in the morning from 08:00); a student's "
                     "Python script over the URP course table: floating DTSTART, one weekly RRULE per block with a "
                     "UTC UNTIL, INTERVAL=2 for odd/even weeks, LF; the script knows no holidays. Two blocks of the "
                     "same course on different days; a field trip listed in week 19 is outside the semester.")
    cs = [Course("普通地质学", [("胡新华", "")], "东区教一楼201", 1, 1, 3, weeks(1, 16), tag="0401021"),
          Course("矿物学", [("熊伟", "")], "东区教二楼305", 2, 3, 5, weeks(1, 12), tag="0402033"),
          Course("普通地质学", [("胡新华", "")], "东区教一楼201", 3, 3, 4, weeks(1, 15, 2), tag="0401021"),
          Course("线性代数", [("汪洋", "")], "西区公教楼B104", 3, 6, 7, weeks(1, 16), tag="1101005"),
          Course("地球化学", [("刘春梅", ""), ("黄涛", "")], "东区教二楼108", 4, 1, 2, weeks(2, 16, 2), tag="0403011"),
          Course("大学英语(四)", [("郑晓琳", "")], "外语楼312", 4, 6, 7, weeks(1, 16), tag="1201004"),
          Course("Python程序设计", [("吴斌", "")], "计算中心机房3", 5, 10, 12, weeks(5, 12), tag="0901017"),
          Course("野外地质实习动员", [("胡新华", "")], "东区教一楼201", 1, 6, 7, weeks(19, 19), tag="0401099")]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//urp2ics//python//", "X-WR-CALNAME:课表"]
    for i, c in enumerate(cs):
        props = [f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
                 f"DESCRIPTION:{esc(f'课程号: {c.tag}  教师: {c.teacher.replace(chr(12289), chr(32))}  第{c.first}-{c.last}节')}"]
        lines += series(s, c, "floating", props, f"urp-{c.tag}-{i}", until="utc")
    lines.append("END:VCALENDAR")
    exp = expected(s, cs, [])
    save("ics_hubei_geo_urp_pyscript_until_utc.ics", write_ics(lines, eol="\n", folding=False), exp)


def app_note(c: Course) -> str:
    return "老师：" + "、".join(n for n, _ in c.teachers) + f"\n第{c.first}-{c.last}节 {week_text(c.weeks)}周"


def jiangsu_pharma() -> None:
    """江苏: a pharmaceutical university; a phone timetable app's export: COUNT series, EXDATE for days off."""
    s = School("jiangsu", "金陵药科大学", "Asia/Shanghai", AUTUMN, 19,
               grid(("08:00", 4, 45, [5, 15, 5]), ("13:30", 4, 45, [5, 15, 5]), ("18:30", 3, 45, [5, 5])),
               off=NATIONAL_DAY | {date(2026, 9, 25)}, makeup={date(2026, 9, 27): date(2026, 10, 2)},
               notes="A Jiangsu pharmaceutical university (11 x 45 min, 5/15-min breaks); a phone timetable app's "
                     "calendar export: TZID Asia/Shanghai without a VTIMEZONE, one weekly series per block with "
                     "COUNT, days off (Mid-Autumn 25 Sep, National Day 1-7 Oct) removed by EXDATE, the make-up "
                     "Sunday 27 Sep (running Friday 2 Oct's classes) as one-off events; two reminders (VALARM); "
                     "an all-day exam-week marker.")
    cs = [Course("有机化学", [("孙立", "教授")], "江宁校区3号楼101", 1, 1, 3, weeks(1, 16)),
          Course("药用植物学", [("钱敏", "副教授")], "江宁校区5号楼210", 2, 1, 2, weeks(1, 16)),
          Course("医用高等数学", [("周晓东", "讲师")], "江宁校区3号楼204", 2, 5, 6, weeks(1, 14)),
          Course("分析化学实验", [("吴倩", "讲师"), ("顾磊", "实验师")], "实验楼B302", 3, 5, 8, weeks(3, 15)),
          Course("人体解剖生理学", [("徐丹", "副教授")], "江宁校区5号楼102", 4, 3, 4, weeks(1, 16)),
          Course("大学体育(三)", [("韩冰", "")], "体育馆", 5, 1, 2, weeks(1, 16)),
          Course("药学导论", [("沈国华", "教授")], "江宁校区3号楼101", 5, 3, 4, weeks(1, 8))]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//TimetableApp//iCal Export 3.2//ZH", "CALSCALE:GREGORIAN"]
    for i, c in enumerate(cs):
        props = [f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
                 f"DESCRIPTION:{esc(app_note(c))}",
                 "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "DESCRIPTION:上课提醒", "END:VALARM"]
        lines += series(s, c, "Asia/Shanghai", props, f"tt{i}", until="count")
        lines += makeups(s, c, "Asia/Shanghai", props, f"tt{i}")
    lines += allday("exam-wk", "期末考试周", date(2027, 1, 4), 5)
    lines.append("END:VCALENDAR")
    exp = expected(s, cs, [{"summary": "期末考试周", "why": "all_day", "date": "2027-01-04"}])
    save("ics_jiangsu_pharma_app_count_exdate.ics", write_ics(lines), exp)


def hebei_power() -> None:
    """河北: an electric-power university; a student typed the week into Outlook (Windows zone name), BYDAY."""
    s = School("hebei", "燕赵电力大学", "Asia/Shanghai", date(2027, 2, 22), 18,
               grid(("08:00", 4, 50, [10, 20, 10]), ("14:00", 4, 50, [10, 20, 10]), ("19:00", 2, 50, [10])),
               notes="A Hebei electric-power university (10 x 50 min); the student typed each course into Outlook "
                     "on Windows: TZID 'China Standard Time' with its VTIMEZONE, one weekly series per course "
                     "with UNTIL (UTC), a course on two weekdays written as BYDAY=MO,TH; no teachers' titles, the "
                     "teacher in the notes; Qingming (Mon 5 Apr) removed by EXDATE.",
               off={date(2027, 4, 5)})
    cs = [Course("电路原理", [("赵永刚", "")], "教5-203", 1, 1, 2, weeks(1, 16)),
          Course("电路原理", [("赵永刚", "")], "教5-203", 4, 1, 2, weeks(1, 16)),
          Course("电机学", [("孟凡华", "")], "教5-310", 2, 3, 4, weeks(1, 16)),
          Course("复变函数与积分变换", [("高丽", "")], "教1-105", 3, 1, 2, weeks(1, 12)),
          Course("电力系统分析", [("魏国庆", "")], "教5-401", 3, 5, 6, weeks(1, 16)),
          Course("马克思主义基本原理", [("李娟", "")], "教2-101", 5, 3, 4, weeks(1, 16))]
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN", "VERSION:2.0",
             "METHOD:PUBLISH", "X-MS-OLK-FORCEINSPECTOROPEN:TRUE", *VTZ_WINDOWS]
    for i, c in enumerate(cs):
        if i == 1:
            continue  # written together with the Monday block
        start, end = s.times(s.week1, c.first, c.last)
        first = s.week1 + timedelta(days=c.weekday - 1)
        lastday = s.week1 + timedelta(weeks=c.weeks[-1] - 1, days=(3 if i == 0 else c.weekday - 1))
        u = local(s, lastday, end).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        byday = "MO,TH" if i == 0 else ["MO", "TU", "WE", "TH", "FR"][c.weekday - 1]
        ex = [d for d in occurrences(s, c, honour_off=False) if d.day in s.off]
        lines += ["BEGIN:VEVENT", "CLASS:PUBLIC", f"CREATED:{STAMP}", f"DESCRIPTION:老师：{c.teacher}\\n",
                  "DTEND" + stamp(s, first, end, "China Standard Time"), f"DTSTAMP:{STAMP}",
                  "DTSTART" + stamp(s, first, start, "China Standard Time"),
                  *["EXDATE" + stamp(s, o.day, start, "China Standard Time") for o in ex],
                  f"LOCATION:{esc(c.room)}", "PRIORITY:5", f"RRULE:FREQ=WEEKLY;UNTIL={u};BYDAY={byday}",
                  "SEQUENCE:0", f"SUMMARY;LANGUAGE=zh-cn:{esc(c.title)}", "TRANSP:OPAQUE",
                  f"UID:040000008200E00074C5B7101A82E0080000000{i}A1B2C3D4E5F60000000000000000",
                  "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
                  "BEGIN:VALARM", "TRIGGER:-PT15M", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "END:VALARM",
                  "END:VEVENT"]
    lines.append("END:VCALENDAR")
    save("ics_hebei_power_outlook_manual_cst.ics", write_ics(lines), expected(s, cs, []))


def nanjing_meteo() -> None:
    """江苏南京: a meteorology/information university; a Tampermonkey userscript: one event per section."""
    s = School("nanjing", "钟山信息工程大学", "Asia/Shanghai", date(2026, 8, 31), 18,
               grid(("08:00", 5, 45, [5, 20, 5, 5]), ("13:45", 4, 45, [5, 20, 5]), ("18:45", 3, 45, [5, 5])),
               notes="A Nanjing meteorology/information university (12 x 45 min, five in the morning); a browser "
                     "userscript over the 教务 page: one floating event per section per week, SUMMARY "
                     "'课程 @ 教室', teacher and week list in DESCRIPTION, LF, no UID/DTSTAMP; knows no holidays. "
                     "A public elective that shares Thursday 11-12 with a lab in weeks 9-12 is listed later in "
                     "the file (overlap).")
    cs = [Course("大气科学概论", [("钱云飞", "")], "气象楼A201", 1, 1, 2, weeks(1, 16)),
          Course("天气学原理", [("蒋红", "")], "气象楼A305", 1, 3, 5, weeks(1, 16)),
          Course("数学物理方法", [("朱剑", "")], "文德楼E1-302", 2, 6, 7, weeks(1, 16)),
          Course("Fortran程序设计", [("陶然", "")], "计算中心204", 3, 1, 2, weeks(2, 16, 2)),
          Course("大学物理实验", [("龚小平", ""), ("葛伟", "")], "物理实验楼316", 4, 10, 12, weeks(5, 12)),
          Course("中国近现代史纲要", [("许慧", "")], "明德楼D102", 5, 3, 4, weeks(1, 16)),
          Course("昆曲鉴赏", [("秦素梅", "")], "明德楼D201", 4, 11, 12, weeks(9, 14))]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//jwxt-to-ics userscript//CN"]
    secs = s.sections
    for c in cs:
        for w in c.weeks:
            day = s.week1 + timedelta(weeks=w - 1, days=c.weekday - 1)
            for n in range(c.first, c.last + 1):
                desc = f"{c.teacher.replace('、', ',')} | 第{week_text(c.weeks)}周 | 星期{WD[c.weekday - 1]} 第{n}节"
                lines += ["BEGIN:VEVENT", "DTSTART" + stamp(s, day, secs[n - 1][0], "floating"),
                          "DTEND" + stamp(s, day, secs[n - 1][1], "floating"),
                          f"SUMMARY:{esc(c.title + ' @ ' + c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    save("ics_nanjing_meteo_userscript_per_section.ics", write_ics(lines, eol="\n", folding=False),
         expected(s, cs, [], honour_off=False))


def chongqing_business() -> None:
    """重庆: a business university; WakeUp-style app CSV export."""
    s = School("chongqing", "渝州工商大学", "Asia/Shanghai", date(2027, 3, 1), 17,
               grid(("08:30", 4, 40, [10, 20, 10]), ("14:00", 4, 40, [10, 20, 10]), ("19:00", 3, 40, [10, 10])),
               notes="A Chongqing business university (11 x 40 min from 08:30); a phone timetable app's CSV "
                     "export (UTF-8 with BOM, CRLF): 课程名称,星期,开始节数,结束节数,老师,地点,周数 with week specs "
                     "such as '1-16', '1-15单', '2-16双', '3-10'; a CSV has no holidays, so every listed week is on "
                     "the board. An elective that shares Wednesday 9-10 with a seminar is a later row (overlap).")
    cs = [Course("管理学原理", [("邓丽", "")], "弘文楼301", 1, 1, 2, weeks(1, 16)),
          Course("微观经济学", [("冉小兵", "")], "弘文楼205", 1, 5, 7, weeks(1, 16)),
          Course("会计学基础", [("罗敏", "")], "明志楼112", 2, 3, 4, weeks(1, 15, 2)),
          Course("市场营销学", [("彭宇", ""), ("谢婷", "")], "明志楼408", 3, 1, 2, weeks(1, 16)),
          Course("创业基础", [("唐军", "")], "创新创业中心201", 3, 9, 10, weeks(3, 10)),
          Course("统计学", [("付强", "")], "弘文楼205", 4, 3, 4, weeks(2, 16, 2)),
          Course("大学英语(二)", [("蒋雪", "")], "外语楼506", 5, 1, 2, weeks(1, 16)),
          Course("影视鉴赏", [("陈露", "")], "图书馆报告厅", 3, 9, 10, weeks(8, 12))]
    rows = ["课程名称,星期,开始节数,结束节数,老师,地点,周数"]
    for c in cs:
        rows.append(f"{c.title},{c.weekday},{c.first},{c.last},{c.teacher.replace('、', ' ')},{c.room},{week_text(c.weeks)}")
    save("wakeup_chongqing_business_export.csv", ("\ufeff" + "\r\n".join(rows) + "\r\n").encode("utf-8"),
         expected(s, cs, [], honour_off=False))


def per_meeting(s: School, cs: list[Course], header: list[str], how: str, props, uid: str,
                honour_off: bool = True) -> list[str]:
    lines = list(header)
    for i, c in enumerate(cs):
        for o in occurrences(s, c, honour_off):
            lines += event(f"{uid}{i:02d}{o.day:%Y%m%d}", s, o.day, o.start, o.end, how, props(c, o))
    return lines


def guangxi_electronics() -> None:
    """广西: an electronics university in the south; a campus app's subscription feed, UTC, one per meeting."""
    s = School("guangxi", "桂水电子科技大学", "Asia/Shanghai", AUTUMN, 18,
               grid(("08:30", 4, 40, [10, 20, 10]), ("14:30", 4, 40, [10, 20, 10]), ("19:30", 3, 40, [10, 10])),
               second=(date(2026, 10, 12),
                       grid(("08:30", 4, 40, [10, 20, 10]), ("14:00", 4, 40, [10, 20, 10]), ("19:00", 3, 40, [10, 10]))),
               off=NATIONAL_DAY, makeup={date(2026, 10, 10): date(2026, 10, 5)},
               notes="A Guangxi electronics university (11 x 40 min; afternoon and evening half an hour earlier "
                     "from Mon 12 Oct); a campus app's calendar subscription: one event per meeting in UTC, "
                     "SUMMARY '课程', LOCATION '校区 教室' written as the room, teacher in DESCRIPTION; knows "
                     "National Day (Sat 10 Oct runs Monday 5 Oct's classes); a final exam in week 19.")
    cs = [Course("模拟电子技术", [("覃志明", "副教授")], "花江校区10105", 1, 1, 2, weeks(1, 16)),
          Course("信号与系统", [("黄丽萍", "教授")], "花江校区10203", 1, 5, 6, weeks(1, 16)),
          Course("C语言程序设计", [("莫晓", "讲师")], "花江校区计算机楼306", 2, 5, 7, weeks(1, 12)),
          Course("复变函数", [("韦春燕", "讲师")], "花江校区2305", 3, 3, 4, weeks(1, 16)),
          Course("电子工艺实习", [("蒙刚", "实验师")], "工程训练中心", 4, 5, 8, weeks(6, 9)),
          Course("大学英语(三)", [("梁倩", "讲师")], "花江校区1408", 5, 1, 2, weeks(1, 16)),
          Course("模拟电子技术期末考试", [], "花江校区10105", 0, 1, 2, on=date(2027, 1, 12))]

    def props(c: Course, o: Occ) -> list[str]:
        desc = "教师：" + "，".join(f"{n}（{t}）" for n, t in c.teachers) if c.teachers else "考试"
        return [f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}",
                "STATUS:CONFIRMED", "TRANSP:OPAQUE"]
    head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//campus-app//course-feed 2.1//CN", "METHOD:PUBLISH",
            "X-WR-CALNAME:我的课表", "X-PUBLISHED-TTL:PT12H", "REFRESH-INTERVAL;VALUE=DURATION:PT12H"]
    lines = per_meeting(s, cs, head, "utc", props, "feed-") + ["END:VCALENDAR"]
    save("ics_guangxi_electronics_campusapp_feed_utc.ics", write_ics(lines), expected(s, cs, []))


def liaoning_chem() -> None:
    """辽宁: a chemical-technology university; a student's Node script over 强智: COUNT + INTERVAL, UTC, LF."""
    s = School("liaoning", "辽海化工大学", "Asia/Shanghai", date(2027, 3, 8), 16,
               grid(("08:00", 2, 50, [5]), ("10:00", 2, 50, [5]), ("13:30", 2, 50, [5]), ("15:30", 2, 50, [5]),
                    ("18:00", 2, 50, [5])),
               notes="A Liaoning chemical-technology university (five pairs of 50-min sections, 08:00/10:00/13:30/"
                     "15:30/18:00); a student's Node script (ical-generator style) over the 强智 timetable: "
                     "UTC, one series per block with COUNT and INTERVAL=2 for odd/even weeks, SUMMARY '课程 "
                     "(教室)', DESCRIPTION with teacher and weeks, LF, folded; no holidays.")
    cs = [Course("化工原理", [("于洪涛", "")], "化工楼C201", 1, 1, 2, weeks(1, 16)),
          Course("物理化学", [("丁雪", "")], "化工楼C305", 1, 5, 6, weeks(1, 16)),
          Course("化工制图", [("关鹏", "")], "综合楼412", 2, 3, 4, weeks(1, 15, 2)),
          Course("仪器分析", [("佟丽", ""), ("孙博", "")], "化工楼C110", 3, 1, 2, weeks(2, 16, 2)),
          Course("大学物理实验", [("白云", "")], "物理实验中心205", 4, 5, 8, weeks(3, 10)),
          Course("体育(四)", [("崔健", "")], "北操场", 5, 3, 4, weeks(1, 16)),
          Course("化工安全概论", [("于洪涛", "")], "化工楼C201", 5, 9, 10, weeks(1, 8))]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//sebbo.net//ical-generator//EN", "NAME:强智课表",
             "X-WR-CALNAME:强智课表", "TIMEZONE-ID:Asia/Shanghai", "X-WR-TIMEZONE:Asia/Shanghai"]
    for i, c in enumerate(cs):
        desc = (f"任课教师：{c.teacher.replace('、', ',')}\n上课周次：{week_text(c.weeks)}(周)\n"
                f"节次：[{c.first:02d}-{c.last:02d}节]")
        props = [f"SUMMARY:{esc(c.title + ' (' + c.room + ')')}", f"LOCATION:{esc(c.room)}",
                 f"DESCRIPTION:{esc(desc)}"]
        lines += series(s, c, "utc", props, f"{i:04x}qz-{c.weekday}", until="count")
    lines.append("END:VCALENDAR")
    save("ics_liaoning_chem_qz_nodescript_count_utc.ics", write_ics(lines, eol="\n"),
         expected(s, cs, [], honour_off=False))


def shanxi_continuing() -> None:
    """山西: a continuing-education (adult) college, weekend classes typed into Google Calendar by hand."""
    s = School("shanxi", "晋阳开放学院", "Asia/Shanghai", date(2026, 9, 14), 16,
               grid(("08:30", 3, 60, [10, 20]), ("14:00", 3, 60, [10, 20]), ("19:00", 2, 60, [10])),
               off=NATIONAL_DAY,
               notes="A Shanxi continuing-education college with weekend classes (8 x 60 min); the student typed "
                     "each course into Google Calendar (one weekly series, TZID Asia/Shanghai with VTIMEZONE, "
                     "UNTIL in UTC, National Day weekend removed by EXDATE) and exported it; the teacher and the "
                     "room as the student wrote them; two all-day reminders.")
    cs = [Course("行政管理学", [("冯瑞", "")], "迎泽校区教学楼305", 6, 1, 3, weeks(1, 16)),
          Course("公共政策分析", [("郭丽华", "")], "迎泽校区教学楼305", 6, 4, 6, weeks(1, 12)),
          Course("公文写作", [("阎敏", "")], "迎泽校区教学楼210", 7, 1, 2, weeks(1, 16)),
          Course("管理心理学", [("杜建平", "")], "迎泽校区教学楼210", 7, 4, 5, weeks(3, 14))]
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:成教课表", "X-WR-TIMEZONE:Asia/Shanghai",
             *VTZ_SHANGHAI]
    for i, c in enumerate(cs):
        props = [f"DESCRIPTION:{esc(c.teacher + '老师')}", f"LOCATION:{esc(c.room)}", "SEQUENCE:0",
                 "STATUS:CONFIRMED", f"SUMMARY:{esc(c.title)}", "TRANSP:OPAQUE"]
        lines += series(s, c, "Asia/Shanghai", props, f"{i}g7k2m9q4c1r5t8@google.com", until="utc")
    lines += allday("a1@google.com", "交学费截止", date(2026, 9, 20), 1)
    lines += allday("a2@google.com", "期末考试（线上）", date(2027, 1, 2), 2)
    lines.append("END:VCALENDAR")
    exp = expected(s, cs, [{"summary": "交学费截止", "why": "all_day", "date": "2026-09-20"},
                           {"summary": "期末考试（线上）", "why": "all_day", "date": "2027-01-02"}])
    save("ics_shanxi_continuing_google_weekend.ics", write_ics(lines), exp)


def uk_scientia() -> None:
    """A Chinese student in England: the university's timetable export, UTC, across the October clock change."""
    s = School("uk", "University of Northmoor", "Europe/London", date(2026, 9, 28), 11,
               [(f"{h:02d}:00", f"{h:02d}:50") for h in range(9, 18)],
               notes="An English university (hourly 50-min slots 09:00-17:50, Europe/London); the university "
                     "timetable's export: one event per meeting in UTC (BST until 25 Oct, GMT after), SUMMARY "
                     "'CODE Module - Lecture', LOCATION room, staff in DESCRIPTION; reading week (week 6) has no "
                     "classes in the file; wall-clock times stay the same across the change.",
               off=days_off(date(2026, 11, 2), 5))
    cs = [Course("Introduction to Econometrics", [("Dr Helen Price", "")], "Bowland Lecture Theatre 2", 1, 2, 3,
                 weeks(1, 11), tag="ECON201"),
          Course("Macroeconomic Theory", [("Prof. Martin Ellis", "")], "George Fox LT1", 2, 3, 4, weeks(1, 11),
                 tag="ECON203"),
          Course("Academic English for Economists", [("Sarah Whitfield", "")], "County South C14", 4, 6, 6,
                 weeks(1, 11), tag="LANG110")]
    for c in cs:
        c.teachers = [(n.replace("Dr ", "").replace("Prof. ", ""), "") for n, _ in c.teachers]

    def props(c: Course, o: Occ) -> list[str]:
        staff = {"Helen Price": "Dr Helen Price", "Martin Ellis": "Prof. Martin Ellis"}.get(c.teacher, c.teacher)
        return [f"SUMMARY:{esc(c.tag + ' ' + c.title)}", f"LOCATION:{esc(c.room)}",
                f"DESCRIPTION:{esc('Staff: ' + staff + chr(10) + 'Activity: Lecture')}"]
    head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Scientia//Timetable Export//EN", "METHOD:PUBLISH"]
    lines = per_meeting(s, cs, head, "utc", props, "sci-") + ["END:VCALENDAR"]
    save("ics_uk_scientia_utc_dst.ics", write_ics(lines), expected(s, cs, []))


def main() -> None:
    for make in (gansu_transport, hubei_geo, jiangsu_pharma, hebei_power, nanjing_meteo, chongqing_business,
                 guangxi_electronics, liaoning_chem, shanxi_continuing, uk_scientia):
        make()


if __name__ == "__main__":
    main()
