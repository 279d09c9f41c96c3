"""Write files/dev15/: ten timetable files from descriptions of fictional schools, with expected boards.

Written blind (without reading the importer, the other generators or earlier held-out files). Each case
describes a school (week-1 Monday, zone, weeks, section grid, optional second grid from a date, days off,
make-up days) and a student's courses; the expected meetings come from that description alone, then the
file is rendered in the shape of the tool the student would use.

    python -m bench.import_eval.make_dev15
"""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().parent / "files" / "dev15"
STAMP = "20270820T093000Z"


def grid(*blocks: tuple[str, int, int, list[int]]) -> list[list[str]]:
    """Blocks of (first start, n sections, minutes, breaks after each section but the last)."""
    out = []
    for first, n, minutes, breaks in blocks:
        t = datetime.strptime(first, "%H:%M")
        for i in range(n):
            end = t + timedelta(minutes=minutes)
            out.append([t.strftime("%H:%M"), end.strftime("%H:%M")])
            t = end + timedelta(minutes=breaks[i] if i < len(breaks) else 0)
    return out


def weeks(spec: str) -> list[int]:
    """'1-16', '1-15单', '2-16双', '1-8,10-16' -> week numbers."""
    out: list[int] = []
    for part in spec.split(","):
        parity = part[-1] if part[-1] in "单双" else ""
        a, _, b = part.rstrip("单双").partition("-")
        out += [w for w in range(int(a), int(b or a) + 1)
                if not parity or (w % 2 == 1) == (parity == "单")]
    return out


@dataclass
class Course:
    title: str
    day: int
    first: int
    last: int
    weeks: str
    room: str = ""
    teacher: str = ""          # as the board should show it (、-joined, no titles)
    written_teacher: str = ""  # as the file writes it (defaults to teacher)
    extra: dict = field(default_factory=dict)

    @property
    def file_teacher(self) -> str:
        return self.written_teacher or self.teacher


@dataclass
class School:
    name: str
    zone: str
    week1: date
    n_weeks: int
    sections: list[list[str]]
    second: tuple[date, list[list[str]]] | None = None
    days_off: tuple[date, ...] = ()
    makeups: dict[date, date] = field(default_factory=dict)  # make-up day -> the day off whose classes it holds

    def grid_on(self, d: date) -> list[list[str]]:
        return self.second[1] if self.second and d >= self.second[0] else self.sections

    def times(self, d: date, first: int, last: int) -> tuple[str, str]:
        g = self.grid_on(d)
        return g[first - 1][0], g[last - 1][1]

    def day_of(self, c: Course, w: int) -> date:
        return self.week1 + timedelta(weeks=w - 1, days=c.day - 1)


@dataclass
class Occ:
    course: Course
    date: date
    start: str
    end: str
    week: int


def occurrences(s: School, c: Course) -> list[Occ]:
    """The course's meetings: days off dropped, their classes moved to the make-up day that holds them."""
    back = {v: k for k, v in s.makeups.items()}
    out = []
    for w in weeks(c.weeks):
        d = s.day_of(c, w)
        if d in back:
            d = back[d]
        elif d in s.days_off:
            continue
        out.append(Occ(c, d, *s.times(d, c.first, c.last), w))
    return out


def board(s: School, courses: list[Course]) -> tuple[list[dict], list[dict]]:
    """Expected meetings and overlap skips: a section holds one meeting, the earlier course in the file wins."""
    taken: dict[tuple[date, int], str] = {}
    meetings, skipped = [], []
    for c in courses:
        for o in occurrences(s, c):
            secs = range(c.first, c.last + 1)
            holder = next((taken[(o.date, k)] for k in secs if (o.date, k) in taken), None)
            if holder:
                skipped.append({"summary": c.extra.get("summary", c.title), "why": "overlap",
                                "date": o.date.isoformat(),
                                "detail": f"its sections already hold {holder}, listed earlier in the file"})
                continue
            for k in secs:
                taken[(o.date, k)] = c.title
            meetings.append({"date": o.date.isoformat(), "start": o.start, "end": o.end, "title": c.title,
                             "location": c.room, "teacher": c.teacher})
    meetings.sort(key=lambda m: (m["date"], m["start"]))
    return meetings, skipped


# --------------------------------------------------------------------------- rendering helpers

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


def ics(lines: list[str], *, eol: str = "\r\n", folded: bool = True, bom: bool = False) -> bytes:
    flat = [p for ln in lines for p in (fold(ln) if folded else [ln])]
    return (("\ufeff" if bom else "") + eol.join(flat) + eol).encode()


def local(d: date, hm: str) -> datetime:
    return datetime.combine(d, time.fromisoformat(hm))


def fmt_local(d: date, hm: str) -> str:
    return local(d, hm).strftime("%Y%m%dT%H%M%S")


def fmt_utc(d: date, hm: str, zone: str) -> str:
    return local(d, hm).replace(tzinfo=ZoneInfo(zone)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def uid(*parts: object) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "heldout12/" + "/".join(map(str, parts))))  # the name it was written under


def vtimezone_cst(tzid: str = "Asia/Shanghai") -> list[str]:
    return ["BEGIN:VTIMEZONE", f"TZID:{tzid}", f"X-LIC-LOCATION:{tzid}", "BEGIN:STANDARD",
            "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "DTSTART:19700101T000000",
            "END:STANDARD", "END:VTIMEZONE"]


def runs(ws: list[int]) -> list[tuple[int, int, int]]:
    """Week list -> (first, step, count) runs with step 1 or 2 (how apps split a block into series)."""
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(ws):
        step = ws[i + 1] - ws[i] if i + 1 < len(ws) and ws[i + 1] - ws[i] in (1, 2) else 1
        j = i
        while j + 1 < len(ws) and ws[j + 1] - ws[j] == step:
            j += 1
        out.append((ws[i], step, j - i + 1))
        i = j + 1
    return out


def write(name: str, data: bytes, s: School, meetings: list[dict], skipped: list[dict], notes: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_bytes(data)
    exp = {"school": s.name, "time_zone": s.zone, "week1_monday": s.week1.isoformat(), "semester_weeks": s.n_weeks,
           "sections": s.sections,
           "second_grid": {"from": s.second[0].isoformat(), "sections": s.second[1]} if s.second else None,
           "meetings": meetings, "skipped": skipped, "notes": notes}
    stem = name.rsplit(".", 1)[0]
    (OUT / f"{stem}.expected.json").write_text(json.dumps(exp, ensure_ascii=False, indent=1) + "\n", "utf-8")


def span_text(c: Course) -> str:
    return f"{c.first}-{c.last}节"


def joined(c: Course, sep: str) -> str:
    return c.teacher.replace("、", sep)


def week_text(c: Course) -> str:
    return c.weeks.replace(",", "、")


# --------------------------------------------------------------------------- 1. Henan agricultural, script over 强智

def henan_agri() -> None:
    s = School("豫中农业大学", "Asia/Shanghai", date(2028, 2, 21), 18,
               grid(("08:00", 4, 50, [10, 20, 10]), ("14:30", 4, 50, [10, 20, 10]), ("19:30", 2, 50, [10])),
               days_off=(date(2028, 4, 4), date(2028, 5, 1), date(2028, 5, 2)))
    cs = [Course("植物生理学", 1, 1, 2, "1-16", "博学楼A302", "郭永红"),
          Course("作物栽培学", 2, 3, 4, "1-16", "农科楼205", "孙建伟"),
          Course("农业气象学", 2, 5, 6, "1-15单", "博学楼B116", "马丽娟"),
          Course("土壤肥料学实验", 3, 5, 8, "3-14", "资环楼实验室412", "杜海燕、冯涛"),
          Course("大学英语(四)", 4, 1, 2, "1-16", "公教楼C204", "韩雪"),
          Course("概率论与数理统计", 5, 3, 4, "1-8,10-17", "公教楼A101", "程立新"),
          Course("形势与政策", 1, 9, 10, "2-8双", "公教楼A203", "秦玉梅")]
    meetings, skipped = board(s, cs)
    z = s.zone
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//qz-timetable-ics//python-icalendar//CN",
             "CALSCALE:GREGORIAN", "X-WR-CALNAME:2027-2028-2课表", *vtimezone_cst()]
    for c in cs:
        for first, step, count in runs(weeks(c.weeks)):
            d0 = s.week1 + timedelta(weeks=first - 1, days=c.day - 1)
            last = d0 + timedelta(weeks=step * (count - 1))
            start, end = s.times(d0, c.first, c.last)
            ex = [d0 + timedelta(weeks=step * i) for i in range(count)]
            ex = [d for d in ex if d in s.days_off]
            lines += ["BEGIN:VEVENT", f"SUMMARY:{esc(c.title)}",
                      f"DTSTART;TZID=Asia/Shanghai:{fmt_local(d0, start)}",
                      f"DTEND;TZID=Asia/Shanghai:{fmt_local(d0, end)}", f"DTSTAMP:{STAMP}",
                      f"UID:{uid('henan', c.title, first)}",
                      f"RRULE:FREQ=WEEKLY;UNTIL={fmt_utc(last, end, z)};INTERVAL={step}"]
            for d in ex:
                lines.append(f"EXDATE;TZID=Asia/Shanghai:{fmt_local(d, start)}")
            lines += ["DESCRIPTION:" + esc(f"教师: {joined(c, ',')}\n周次: {week_text(c)}周\n节次: {span_text(c)}"),
                      f"LOCATION:{esc(c.room)}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_henan_agri_qz_pyscript_series_exdate.ics", ics(lines), s, meetings, skipped,
          "A Henan agricultural university (4+4+2 x 50 min, 10/20-min breaks). A student's Python script over the "
          "强智 system: one weekly series per run of weeks (INTERVAL=2 for odd weeks, a block split around week 9), "
          "TZID with VTIMEZONE, UNTIL in UTC, EXDATE for 清明 and 劳动节. Teacher, weeks and sections in DESCRIPTION. Spring.")


# --------------------------------------------------------------------------- 2. Beijing language, 新正方 export

def beijing_language() -> None:
    s = School("京西语言大学", "Asia/Shanghai", date(2027, 9, 13), 17,
               grid(("08:00", 4, 45, [5, 20, 5]), ("13:30", 4, 45, [5, 20, 5]), ("18:30", 3, 45, [5, 5])),
               days_off=(date(2027, 10, 1), date(2027, 10, 4), date(2027, 10, 5), date(2027, 10, 6),
                         date(2027, 10, 7)),
               makeups={date(2027, 9, 26): date(2027, 10, 7), date(2027, 10, 9): date(2027, 10, 6)})
    cs = [Course("综合英语（三）", 1, 1, 2, "1-16", "教三楼205", "刘洋", "刘洋（副教授）"),
          Course("英语语音", 3, 3, 4, "1-16", "语音实验楼312", "Sarah Miller", "Sarah Miller（外籍教师）"),
          Course("第二外语（日语）", 4, 1, 2, "1-16", "教三楼118", "高桥美咲、王晓冬", "高桥美咲（讲师）,王晓冬（讲师）"),
          Course("中国文化概论", 2, 5, 6, "1-16", "主楼A408", "许文清", "许文清（教授）"),
          Course("英语视听说", 4, 5, 6, "1-17单", "语音实验楼206", "陈曦", "陈曦（讲师）"),
          Course("跨文化交际", 3, 9, 10, "2-16双", "主楼B101", "林婉如", "林婉如（副教授）")]
    meetings, skipped = board(s, cs)
    occ = sorted((o for c in cs for o in occurrences(s, c)), key=lambda o: (o.date, o.start))
    lines = ["BEGIN:VCALENDAR", "PRODID:-//ZFSOFT//jwglxt kbcx//CN", "VERSION:2.0", "METHOD:PUBLISH"]
    for i, o in enumerate(occ):
        c = o.course
        lines += ["BEGIN:VEVENT", f"UID:zfkb-{uid('bj', i)}", f"DTSTAMP:{STAMP}",
                  f"DTSTART:{fmt_local(o.date, o.start)}", f"DTEND:{fmt_local(o.date, o.end)}",
                  f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
                  f"DESCRIPTION:{esc(f'教师：{c.file_teacher}；周次：{week_text(c)}周；节次：第{span_text(c)}；第{o.week}周')}",
                  "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_beijing_language_newzf_export_floating_makeup.ics", ics(lines), s, meetings, skipped,
          "A Beijing language university (4+4+3 x 45 min). The 新正方 system's own export: one VEVENT per meeting, "
          "floating times, CRLF, folded. National Day week off; make-up days 09-26 (holds Thursday 10-07) and "
          "10-09 (holds Wednesday 10-06). Teachers with titles in brackets in DESCRIPTION. Autumn.")


# --------------------------------------------------------------------------- 3. Qinghai medical, userscript over URP

def qinghai_medical() -> None:
    s = School("湟水医学院", "Asia/Shanghai", date(2027, 9, 6), 19,
               grid(("08:30", 4, 45, [5, 20, 5]), ("14:30", 4, 45, [5, 20, 5]), ("19:30", 2, 45, [5])),
               days_off=tuple(date(2027, 10, d) for d in range(1, 8)))
    cs = [Course("系统解剖学", 1, 1, 4, "1-18", "基础医学楼解剖实验室2", "赵德明"),
          Course("组织学与胚胎学", 2, 1, 2, "1-16", "医教楼301", "李春燕"),
          Course("医用化学", 3, 3, 4, "1-12", "医教楼204", "马国栋"),
          Course("组织学与胚胎学实验", 4, 5, 7, "2-16双", "形态学实验室405", "李春燕、何静"),
          Course("高原医学概论", 5, 1, 2, "1-9", "医教楼112", "才让多吉"),
          Course("医学心理学（公选）", 4, 6, 7, "9-14", "医教楼108", "孔令华")]
    meetings, skipped = board(s, cs)
    occ = [o for c in cs for o in occurrences(s, c)]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//urp-kb-export userscript//EN", "X-WR-CALNAME:我的课表"]
    for c in cs:
        for o in (o for o in occ if o.course is c):
            for k in range(c.first, c.last + 1):
                a, b = s.times(o.date, k, k)
                lines += ["BEGIN:VEVENT", f"UID:{uid('qh', c.title, o.date, k)}@urp", f"DTSTAMP:{STAMP}",
                          f"DTSTART:{fmt_utc(o.date, a, s.zone)}", f"DTEND:{fmt_utc(o.date, b, s.zone)}",
                          f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
                          "DESCRIPTION:" + esc(f"授课教师:{joined(c, ' ')} 第{o.week}周 第{k}节"),
                          "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_qinghai_medical_urp_userscript_per_section_utc.ics", ics(lines, eol="\n", folded=False), s,
          meetings, skipped,
          "A Qinghai medical college (4+4+2 x 45 min from 08:30, afternoon from 14:30). A browser userscript over "
          "URP's week-by-week view (so the National Day week is simply absent): one VEVENT per section per week in "
          "UTC, LF line ends, no folding. A later elective clashes with the "
          "even-week lab (overlap). Autumn, 19 weeks.")


# --------------------------------------------------------------------------- 4. Tibet, 教务 system's own export

def tibet_univ() -> None:
    summer = grid(("09:30", 4, 45, [10, 20, 10]), ("15:30", 4, 45, [10, 20, 10]), ("20:30", 2, 45, [10]))
    winter = grid(("09:30", 4, 45, [10, 20, 10]), ("15:00", 4, 45, [10, 20, 10]), ("20:00", 2, 45, [10]))
    s = School("雪域高原大学", "Asia/Shanghai", date(2027, 9, 6), 18, summer, second=(date(2027, 10, 8), winter),
               days_off=tuple(date(2027, 10, d) for d in range(1, 8)))
    cs = [Course("高等数学（上）", 1, 1, 2, "1-18", "理工楼302", "次仁旺堆"),
          Course("藏族历史文化", 2, 3, 4, "1-16", "人文楼205", "格桑卓玛"),
          Course("程序设计基础", 3, 5, 6, "1-16", "理工楼机房508", "周建平"),
          Course("程序设计基础（上机）", 5, 7, 8, "3-16", "理工楼机房508", "周建平、拉巴"),
          Course("大学体育（一）", 4, 3, 4, "2-17", "东区体育场", "索朗平措"),
          Course("思想道德与法治", 2, 9, 10, "1-12", "公教楼101", "王红梅")]
    meetings, skipped = board(s, cs)
    occ = sorted((o for c in cs for o in occurrences(s, c)), key=lambda o: (o.date, o.start))
    exam = date(2028, 1, 12)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//jwxt//Course Schedule Export 2.1//ZH", "METHOD:PUBLISH",
             "X-WR-CALNAME:2027-2028学年第一学期 学生课表", "X-WR-TIMEZONE:Asia/Shanghai"]
    for i, o in enumerate(occ):
        c = o.course
        lines += ["BEGIN:VEVENT", f"UID:KB{20270000 + i}@jwxt", f"DTSTAMP:{STAMP}",
                  f"DTSTART;TZID=Asia/Shanghai:{fmt_local(o.date, o.start)}",
                  f"DTEND;TZID=Asia/Shanghai:{fmt_local(o.date, o.end)}",
                  f"SUMMARY:{esc(c.title)}", f"LOCATION:{esc(c.room)}",
                  "DESCRIPTION:" + esc(f"任课教师：{c.teacher}\n上课周次：第{o.week}周\n上课节次：{span_text(c)}"),
                  "END:VEVENT"]
    a, b = s.times(exam, 3, 4)
    lines += ["BEGIN:VEVENT", "UID:KS20280112001@jwxt", f"DTSTAMP:{STAMP}",
              f"DTSTART;TZID=Asia/Shanghai:{fmt_local(exam, a)}", f"DTEND;TZID=Asia/Shanghai:{fmt_local(exam, b)}",
              "SUMMARY:高等数学（上）期末考试", "LOCATION:理工楼302", "DESCRIPTION:考试", "END:VEVENT",
              "END:VCALENDAR"]
    skipped.append({"summary": "高等数学（上）期末考试", "why": "outside_semester", "date": exam.isoformat()})
    write("ics_tibet_univ_jw_export_tzid_second_grid.ics", ics(lines), s, meetings, skipped,
          "A Tibet university (Lhasa hours: 09:30 start, afternoon 15:30, evening 20:30; from 2027-10-08 the "
          "winter grid moves afternoon to 15:00 and evening to 20:00). The 教务 system's own export: one VEVENT "
          "per meeting, TZID=Asia/Shanghai without a VTIMEZONE, CRLF, folded. National Day week off. A final exam "
          "after week 18 (outside_semester). Autumn.")


# --------------------------------------------------------------------------- 5. Beijing art academy, timetable app

def beijing_art() -> None:
    s = School("京华美术学院", "Asia/Shanghai", date(2028, 2, 28), 16,
               grid(("08:30", 4, 45, [10, 15, 10]), ("13:30", 4, 45, [10, 15, 10]), ("18:30", 2, 45, [10])))
    cs = [Course("素描人物写生", 1, 1, 4, "1-8", "造型楼502画室", "孟庆和"),
          Course("色彩风景写生", 1, 1, 4, "11-16", "造型楼503画室", "欧阳静"),
          Course("中国美术史", 2, 1, 2, "1-16", "美术馆报告厅", "唐思远"),
          Course("速写", 3, 5, 8, "1-12", "造型楼502画室", "孟庆和"),
          Course("设计构成", 4, 1, 4, "2-16双", "设计楼305", "白露"),
          Course("艺术概论", 5, 3, 4, "1-15单", "公教楼206", "林松"),
          Course("大学英语（二）", 2, 5, 6, "1-16", "公教楼311", "Emily Zhang")]
    meetings, skipped = board(s, cs)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//SuperSchedule//Timetable Export 3.2//CN"]
    for c in cs:
        for first, step, count in runs(weeks(c.weeks)):
            d0 = s.week1 + timedelta(weeks=first - 1, days=c.day - 1)
            a, b = s.times(d0, c.first, c.last)
            lines += ["BEGIN:VEVENT", f"UID:{uid('art', c.title, first)}", f"DTSTAMP:{STAMP}",
                      f"DTSTART:{fmt_local(d0, a)}", f"DTEND:{fmt_local(d0, b)}",
                      f"RRULE:FREQ=WEEKLY;INTERVAL={step};COUNT={count}", f"SUMMARY:{esc(c.title)}",
                      f"LOCATION:{esc(c.room)}",
                      f"DESCRIPTION:{esc(f'老师: {c.teacher} | 第{week_text(c)}周 | {span_text(c)}')}",
                      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT20M", f"DESCRIPTION:{esc(c.title)}",
                      "END:VALARM", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_beijing_art_academy_app_series_count_floating.ics", ics(lines, eol="\n"), s, meetings, skipped,
          "A Beijing art academy (4+4+2 x 45 min; half-day studio blocks of four sections). A phone timetable "
          "app's .ics export: one weekly series per run with COUNT (INTERVAL=2 for odd/even weeks), floating "
          "times, LF, a VALARM per event; two studio courses share Monday mornings in different weeks. Spring.")


# --------------------------------------------------------------------------- 6. Suzhou Sino-foreign, Outlook

def suzhou_joint() -> None:
    s = School("Suzhou Lakeside Joint University", "Asia/Shanghai", date(2027, 9, 6), 14,
               [[f"{h:02}:00", f"{h:02}:50"] for h in range(9, 19)],
               days_off=tuple(date(2027, 10, d) for d in range(1, 8)))
    cs = [Course("Linear Algebra", 1, 1, 2, "1-13", "SB-222", "Wei Li", extra={"code": "MTH013", "kind": "Lecture",
                                                                                "staff": "Dr Wei Li"}),
          Course("Linear Algebra", 3, 6, 6, "2-13", "SD-425", "Mei Chen", extra={"code": "MTH013", "kind": "Tutorial",
                                                                                 "staff": "Dr Mei Chen"}),
          Course("English for Academic Purposes", 2, 2, 3, "1-14", "FB-112", "Helen Brooks",
                 extra={"code": "EAP111", "kind": "Seminar", "staff": "Ms Helen Brooks"}),
          Course("Introduction to Economics", 4, 5, 6, "1-13", "CB-G17", "James Patel",
                 extra={"code": "ECO101", "kind": "Lecture", "staff": "Prof. James Patel"}),
          Course("Programming Fundamentals", 5, 1, 3, "3-13", "SD-546", "Xin Zhao",
                 extra={"code": "CPT103", "kind": "Lab", "staff": "Dr Xin Zhao"})]
    meetings, skipped = board(s, cs)
    lines = ["BEGIN:VCALENDAR", "METHOD:PUBLISH", "PRODID:Microsoft Exchange Server 2010", "VERSION:2.0",
             "X-WR-CALNAME:Calendar",
             "BEGIN:VTIMEZONE", "TZID:China Standard Time", "BEGIN:STANDARD", "DTSTART:16010101T000000",
             "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T000000",
             "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "END:DAYLIGHT", "END:VTIMEZONE"]
    byday = ["MO", "TU", "WE", "TH", "FR"]
    for c in cs:
        ws = weeks(c.weeks)
        d0 = s.day_of(c, ws[0])
        a, b = s.times(d0, c.first, c.last)
        last = s.day_of(c, ws[-1])
        ex = [s.day_of(c, w) for w in ws if s.day_of(c, w) in s.days_off]
        x = c.extra
        desc = f"Module: {x['code']} {c.title}\nActivity: {x['kind']}\nStaff: {x['staff']}\nRoom: {c.room}\n"
        lines += ["BEGIN:VEVENT", f"DESCRIPTION:{esc(desc)}",
                  f"RRULE:FREQ=WEEKLY;UNTIL={fmt_utc(last, b, s.zone)};INTERVAL=1;BYDAY={byday[c.day - 1]};WKST=MO"]
        if ex:
            lines.append("EXDATE;TZID=China Standard Time:" + ",".join(fmt_local(d, a) for d in ex))
        lines += [f"UID:040000008200E00074C5B7101A82E008000000{uuid.uuid5(uuid.NAMESPACE_URL, c.title + x['kind']).hex}",
                  f"SUMMARY;LANGUAGE=en-GB:{esc(c.title)}",
                  f"DTSTART;TZID=China Standard Time:{fmt_local(d0, a)}",
                  f"DTEND;TZID=China Standard Time:{fmt_local(d0, b)}", "CLASS:PUBLIC", "PRIORITY:5",
                  f"DTSTAMP:{STAMP}", "TRANSP:OPAQUE", "STATUS:CONFIRMED", "SEQUENCE:0",
                  f"LOCATION;LANGUAGE=en-GB:{esc(c.room)}", "X-MICROSOFT-CDO-BUSYSTATUS:BUSY", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    write("ics_suzhou_joint_outlook_windows_tz_exdate.ics", ics(lines), s, meetings, skipped,
          "A Sino-foreign joint university in Suzhou (hourly 50-min slots from 09:00). The student added the "
          "timetable to Outlook (Exchange) and exported it: weekly series with BYDAY and UNTIL in UTC, the Windows "
          "zone name 'China Standard Time' with its VTIMEZONE, EXDATE list for the National Day week, English "
          "module code / activity / staff with academic titles in DESCRIPTION. Autumn, 14 weeks.")


# --------------------------------------------------------------------------- 7. Hainan vocational, app CSV

def hainan_vocational() -> None:
    s = School("琼海职业技术学院", "Asia/Shanghai", date(2027, 9, 13), 18,
               grid(("08:00", 4, 40, [10, 20, 10]), ("14:30", 4, 40, [10, 20, 10]), ("19:30", 2, 40, [10])))
    cs = [Course("旅游英语", 1, 1, 2, "1-16", "实训楼A201", "符海燕"),
          Course("酒店前厅服务实训", 2, 1, 4, "3-16", "酒店实训中心", "王家明、吉秀英"),
          Course("餐饮服务与管理", 3, 5, 6, "1-16", "教学楼305", "陈少琼"),
          Course("形体训练", 4, 3, 4, "1-15单", "形体训练室", "黎晓慧"),
          Course("信息技术基础", 4, 5, 7, "2-16双", "机房B402", "周文"),
          Course("海南旅游文化", 5, 1, 2, "1-12", "教学楼208", "林德才"),
          Course("职业生涯规划", 3, 9, 10, "1-8", "教学楼101", "吴海波")]
    meetings, skipped = board(s, cs)
    spec = {"1-15单": "1-15周(单)", "2-16双": "2-16周(双)"}
    rows = ["课程名称,星期,开始节,结束节,教师,教室,周数,备注"]
    notes = {"酒店前厅服务实训": "自带工装", "形体训练": "穿运动鞋"}
    day = "一二三四五六日"
    for c in cs:
        rows.append(",".join([c.title, f"星期{day[c.day - 1]}", str(c.first), str(c.last),
                              c.teacher.replace("、", "/"), c.room, spec.get(c.weeks, c.weeks + "周"),
                              notes.get(c.title, "")]))
    data = ("\ufeff" + "\r\n".join(rows) + "\r\n").encode()
    write("csv_hainan_vocational_app_sections_export.csv", data, s, meetings, skipped,
          "A Hainan vocational college (4+4+2 x 40 min, 10/20-min breaks). A phone timetable app's CSV export: "
          "one row per block with 星期 as 星期X, first/last section columns, weeks as '1-16周' / '1-15周(单)', "
          "teachers joined with '/', a remarks column; UTF-8 with BOM, CRLF. No dates: week 1 from the description.")


# --------------------------------------------------------------------------- 8. Henan police academy, iPhone manual

def henan_police() -> None:
    s = School("中原警官学院", "Asia/Shanghai", date(2028, 2, 21), 18,
               grid(("08:00", 4, 45, [10, 20, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:00", 2, 45, [10])))
    cs = [Course("警察体能训练", 1, 3, 4, "1-18", "训练馆", ""),
          Course("警察体能训练", 4, 3, 4, "1-18", "训练馆", ""),
          Course("刑法学", 2, 1, 2, "1-18", "警务楼305", "岳志刚"),
          Course("治安管理学", 3, 5, 6, "1-18", "警务楼210", "韩立"),
          Course("警务英语", 5, 1, 2, "1-18", "警务楼118", "")]
    meetings, skipped = board(s, cs)
    apple_tz = ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "BEGIN:STANDARD", "DTSTART:19910915T010000",
                "RDATE:19910915T010000", "TZNAME:GMT+8", "TZOFFSETFROM:+0900", "TZOFFSETTO:+0800", "END:STANDARD",
                "END:VTIMEZONE"]
    lines = ["BEGIN:VCALENDAR", "METHOD:PUBLISH", "VERSION:2.0", "X-WR-CALNAME:课程", "PRODID:-//Apple Inc.//macOS 14.4//EN",
             "X-APPLE-CALENDAR-COLOR:#1BADF8", "X-WR-TIMEZONE:Asia/Shanghai", "CALSCALE:GREGORIAN", *apple_tz]
    byday = ["MO", "TU", "WE", "TH", "FR"]
    last_day = s.week1 + timedelta(weeks=s.n_weeks - 1, days=6)
    until = datetime.combine(last_day, time(23, 59, 59)).replace(tzinfo=ZoneInfo(s.zone)).astimezone(UTC)
    entries = [(cs[0], [cs[0], cs[1]]), (cs[2], [cs[2]]), (cs[3], [cs[3]]), (cs[4], [cs[4]])]
    for c, group in entries:
        d0 = s.day_of(c, 1)
        a, b = s.times(d0, c.first, c.last)
        days = ",".join(byday[g.day - 1] for g in group)
        lines += ["BEGIN:VEVENT", "TRANSP:OPAQUE", f"DTEND;TZID=Asia/Shanghai:{fmt_local(d0, b)}",
                  f"UID:{uid('police', c.title, c.day).upper()}", f"DTSTAMP:{STAMP}",
                  f"LOCATION:{esc(c.room)}"]
        if c.teacher:
            lines.append(f"DESCRIPTION:{esc(c.teacher + '老师')}")
        lines += ["SEQUENCE:1", "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC", f"SUMMARY:{esc(c.title)}",
                  "LAST-MODIFIED:20280219T120314Z", "CREATED:20280219T115842Z",
                  f"DTSTART;TZID=Asia/Shanghai:{fmt_local(d0, a)}",
                  f"RRULE:FREQ=WEEKLY;UNTIL={until.strftime('%Y%m%dT%H%M%SZ')};BYDAY={days}",
                  "BEGIN:VALARM", "X-WR-ALARMUID:" + uid("alarm", c.title, c.day).upper(),
                  "TRIGGER:-PT10M", "ACTION:DISPLAY", "DESCRIPTION:提醒事项", "END:VALARM", "END:VEVENT"]
    fitness = date(2028, 4, 19)
    lines += ["BEGIN:VEVENT", "TRANSP:TRANSPARENT", f"DTEND;VALUE=DATE:{(fitness + timedelta(days=1)):%Y%m%d}",
              f"UID:{uid('police', 'fitness').upper()}", f"DTSTAMP:{STAMP}", "SUMMARY:体能达标测试",
              f"DTSTART;VALUE=DATE:{fitness:%Y%m%d}", "SEQUENCE:0", "END:VEVENT", "END:VCALENDAR"]
    skipped.append({"summary": "体能达标测试", "why": "all_day", "date": fitness.isoformat()})
    write("ics_henan_police_iphone_manual_byday.ics", ics(lines), s, meetings, skipped,
          "A Henan police academy (4+4+2 x 45 min). Typed by hand into an iPhone calendar and exported from a Mac: "
          "series with UNTIL = last day of the semester 23:59:59 local in UTC, one series with BYDAY=MO,TH, "
          "Apple's VTIMEZONE, teacher as 'X老师' in notes when typed at all, an all-day fitness test. Spring.")


# --------------------------------------------------------------------------- 9. Beijing graduate school, Google

def beijing_graduate() -> None:
    s = School("燕栖湖研究生院", "Asia/Shanghai", date(2027, 9, 6), 20,
               grid(("08:30", 4, 50, [10, 20, 10]), ("13:30", 4, 50, [10, 20, 10]), ("19:00", 3, 50, [10, 10])))
    cs = [Course("高级机器学习", 2, 1, 3, "1-20", "教一楼109", "沈嘉言"),
          Course("矩阵分析与应用", 4, 5, 7, "1-16", "教二楼阶梯教室202", "顾明远"),
          Course("中国特色社会主义理论与实践研究", 1, 9, 10, "1-18", "学园二报告厅", "钱立群"),
          Course("学术英语写作", 3, 3, 4, "1-16", "教一楼215", "Laura Evans"),
          Course("自然语言处理前沿（讨论班）", 4, 6, 7, "8-12", "计算所南楼403", "宋雨桐",
                 extra={"summary": "自然语言处理前沿（讨论班）"})]
    meetings, skipped = board(s, cs)
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:研一上课程", "X-WR-TIMEZONE:Asia/Shanghai",
             "BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "X-LIC-LOCATION:Asia/Shanghai", "BEGIN:STANDARD",
             "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "DTSTART:19700101T000000", "END:STANDARD",
             "END:VTIMEZONE"]
    byday = ["MO", "TU", "WE", "TH", "FR"]
    for c in cs:
        ws = weeks(c.weeks)
        d0 = s.day_of(c, ws[0])
        a, b = s.times(d0, c.first, c.last)
        last = s.day_of(c, ws[-1])
        until = datetime.combine(last, time(23, 59, 59)).replace(tzinfo=ZoneInfo(s.zone)).astimezone(UTC)
        lines += ["BEGIN:VEVENT", f"DTSTART;TZID=Asia/Shanghai:{fmt_local(d0, a)}",
                  f"DTEND;TZID=Asia/Shanghai:{fmt_local(d0, b)}",
                  f"RRULE:FREQ=WEEKLY;WKST=SU;UNTIL={until.strftime('%Y%m%dT%H%M%SZ')};BYDAY={byday[c.day - 1]}",
                  f"DTSTAMP:{STAMP}", f"UID:{uuid.uuid5(uuid.NAMESPACE_URL, c.title).hex[:26]}@google.com",
                  "CREATED:20270903T140211Z", f"DESCRIPTION:{esc(f'任课老师：{c.teacher}')}",
                  "LAST-MODIFIED:20270903T140211Z", f"LOCATION:{esc(c.room)}", "SEQUENCE:0", "STATUS:CONFIRMED",
                  f"SUMMARY:{esc(c.title)}", "TRANSP:OPAQUE", "END:VEVENT"]
    due = date(2027, 11, 30)
    lines += ["BEGIN:VEVENT", f"DTSTART;VALUE=DATE:{due:%Y%m%d}", f"DTEND;VALUE=DATE:{due + timedelta(days=1):%Y%m%d}",
              f"DTSTAMP:{STAMP}", "UID:0k3l9v1m2hq7s5t8ab4c6d2e1f@google.com", "CREATED:20270910T021500Z",
              "DESCRIPTION:", "LAST-MODIFIED:20270910T021500Z", "LOCATION:", "SEQUENCE:0", "STATUS:CONFIRMED",
              "SUMMARY:开题报告提交截止", "TRANSP:TRANSPARENT", "END:VEVENT", "END:VCALENDAR"]
    skipped.append({"summary": "开题报告提交截止", "why": "all_day", "date": due.isoformat()})
    write("ics_beijing_graduate_google_manual_clash.ics", ics(lines), s, meetings, skipped,
          "A Beijing graduate school (4+4+3 x 50 min, three-section blocks). Typed into Google Calendar by hand and "
          "exported: weekly series with WKST=SU, BYDAY, UNTIL = last class day 23:59:59 local in UTC, teacher in "
          "DESCRIPTION, an all-day deadline. A reading group added later clashes with the matrix-analysis course "
          "(overlap, the earlier entry wins). Autumn, 20 weeks.")


# --------------------------------------------------------------------------- 10. Melbourne, university timetable

def melbourne() -> None:
    s = School("University of Southbank (Melbourne)", "Australia/Melbourne", date(2028, 2, 28), 13,
               [[f"{h:02}:00", f"{h + 1:02}:00"] for h in range(8, 20)])
    cs = [Course("Algorithms and Data Structures", 1, 3, 4, "1-6,8-13", "Peter Hall-G03", "Rachel Nguyen",
                 extra={"code": "COMP20003", "kind": "Lecture 1"}),
          Course("Algorithms and Data Structures", 3, 7, 8, "2-6,8-13", "Alice Hoy-109 Lab", "Tom O'Brien",
                 extra={"code": "COMP20003", "kind": "Workshop 03"}),
          Course("Probability", 2, 2, 3, "1-6,8-13", "Old Arts-153", "Sophie Martin",
                 extra={"code": "MAST20006", "kind": "Lecture 1"}),
          Course("Introductory Mandarin 2", 4, 6, 7, "1-6,8-13", "Babel-G06", "Jing Wu",
                 extra={"code": "CHIN10002", "kind": "Seminar 02"})]
    meetings, skipped = board(s, cs)
    occ = sorted((o for c in cs for o in occurrences(s, c)), key=lambda o: (o.date, o.start))
    exam = date(2028, 6, 13)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Syllabus Plus//Student Timetable//EN",
             "X-WR-CALNAME:My Timetable Semester 1 2028"]
    for i, o in enumerate(occ):
        c = o.course
        desc = f"{c.extra['code']} {c.title}\n{c.extra['kind']}\nStaff: {c.teacher}\nWeek {o.week}"
        lines += ["BEGIN:VEVENT", f"UID:s1-2028-{c.extra['code']}-{i:03d}@timetable.example.edu.au",
                  f"DTSTAMP:{STAMP}", f"DTSTART:{fmt_utc(o.date, o.start, s.zone)}",
                  f"DTEND:{fmt_utc(o.date, o.end, s.zone)}", f"SUMMARY:{esc(c.title)}",
                  f"LOCATION:{esc(c.room)}", f"DESCRIPTION:{esc(desc)}", "END:VEVENT"]
    lines += ["BEGIN:VEVENT", "UID:s1-2028-exam-COMP20003@timetable.example.edu.au", f"DTSTAMP:{STAMP}",
              f"DTSTART:{fmt_utc(exam, '13:00', s.zone)}", f"DTEND:{fmt_utc(exam, '16:00', s.zone)}",
              "SUMMARY:Algorithms and Data Structures - Exam", "LOCATION:Royal Exhibition Building",
              "DESCRIPTION:COMP20003 Final exam", "END:VEVENT", "END:VCALENDAR"]
    skipped.append({"summary": "Algorithms and Data Structures - Exam", "why": "outside_semester",
                    "date": exam.isoformat()})
    write("ics_melbourne_uni_timetable_utc_dst_break.ics", ics(lines), s, meetings, skipped,
          "A Chinese student at a Melbourne university (hourly slots). The university timetable's export: one "
          "VEVENT per meeting in UTC across the end of daylight saving (2028-04-02: +11 to +10), a non-teaching "
          "week 7 (Easter break) simply absent, subject code and activity in DESCRIPTION, an exam in June "
          "(outside_semester). Semester 1, 13 weeks.")


CASES = (henan_agri, beijing_language, qinghai_medical, tibet_univ, beijing_art, suzhou_joint, hainan_vocational,
         henan_police, beijing_graduate, melbourne)


def main() -> None:
    for old in OUT.glob("*"):
        old.unlink()
    for case in CASES:
        case()


if __name__ == "__main__":
    main()
