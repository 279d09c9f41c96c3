"""Writes files/dev14/: ten timetable files written blind (see README "### dev14/").

Each file comes from a description of a fictional school (week-1 Monday, zone, weeks, section grid,
optionally a second grid from a date, days off, make-up days) and of one student's courses. The expected
board is computed from that description alone (``board``); the file is then rendered from the same
description in the shape of the tool the student would use. Shares no code with the other generators.

    python -m bench.import_eval.make_dev14
"""
import json
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().parent / "files" / "dev14"
STAMP = "20270828T101500Z"


def grid(*blocks: tuple[str, int, int, list[int]]) -> list[list[str]]:
    """Blocks of (first start, n sections, minutes each, breaks after each section but the last)."""
    out = []
    for first, n, minutes, breaks in blocks:
        t = datetime.strptime(first, "%H:%M")
        for i in range(n):
            end = t + timedelta(minutes=minutes)
            out.append([t.strftime("%H:%M"), end.strftime("%H:%M")])
            t = end + timedelta(minutes=breaks[i] if i < len(breaks) else 0)
    return out


@dataclass
class Course:
    name: str
    teachers: list[str]
    room: str
    weekday: int
    first: int
    last: int
    weeks: list[int]


@dataclass
class School:
    key: str
    school: str
    zone: str
    week1: date
    weeks: int
    sections: list[list[str]]
    courses: list[Course]
    notes: str
    second: tuple[date, list[list[str]]] | None = None
    days_off: set[date] = field(default_factory=set)
    makeup: dict[date, date] = field(default_factory=dict)  # make-up day -> the day off whose classes it holds
    clashes: list[tuple[Course, int]] = field(default_factory=list)  # (course, week): later in the file

    def grid_on(self, d: date) -> list[list[str]]:
        return self.second[1] if self.second and d >= self.second[0] else self.sections

    def day(self, c: Course, w: int) -> date:
        return self.week1 + timedelta(weeks=w - 1, days=c.weekday - 1)

    def last_day(self) -> date:
        return self.week1 + timedelta(weeks=self.weeks, days=-1)


def span(s: School, c: Course, d: date) -> tuple[str, str]:
    g = s.grid_on(d)
    return g[c.first - 1][0], g[c.last - 1][1]


def occurrences(s: School) -> list[tuple[Course, date]]:
    """Every meeting in file order: the courses' weeks minus days off, plus make-up days, plus clashes."""
    out = []
    for c in s.courses:
        for w in c.weeks:
            d = s.day(c, w)
            if d not in s.days_off:
                out.append((c, d))
        for on, off in s.makeup.items():
            if any(s.day(c, w) == off for w in c.weeks):
                out.append((c, on))
    out += [(c, s.day(c, w)) for c, w in s.clashes]
    return out


def board(s: School) -> tuple[list[dict], list[dict]]:
    meetings: list[dict] = []
    skipped: list[dict] = []
    taken: dict[tuple[date, int], bool] = {}
    for c, d in occurrences(s):
        start, end = span(s, c, d)
        if not s.week1 <= d <= s.last_day():
            skipped.append({"summary": c.name, "why": "outside_semester", "date": d.isoformat()})
            continue
        if any(taken.get((d, n)) for n in range(c.first, c.last + 1)):
            skipped.append({"summary": c.name, "why": "overlap", "date": d.isoformat()})
            continue
        taken.update({(d, n): True for n in range(c.first, c.last + 1)})
        meetings.append({"date": d.isoformat(), "start": start, "end": end, "title": c.name,
                         "location": c.room, "teacher": "、".join(c.teachers)})
    meetings.sort(key=lambda m: (m["date"], m["start"]))
    return meetings, skipped


# ---- ICS text -------------------------------------------------------------------------------------

def esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str) -> str:
    """RFC 5545 folding at 75 octets without splitting a UTF-8 character."""
    parts: list[str] = []
    cur, size = "", 0
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > (75 if not parts else 74):
            parts.append(cur)
            cur, size = "", 0
        cur += ch
        size += n
    parts.append(cur)
    return parts[0] + "".join("\r\n " + p for p in parts[1:]) if len(parts) > 1 else parts[0]


def local(d: date, hm: str) -> str:
    return f"{d:%Y%m%d}T{hm.replace(':', '')}00"


def utc(d: date, hm: str, zone: str) -> str:
    t = datetime.combine(d, time.fromisoformat(hm), ZoneInfo(zone)).astimezone(ZoneInfo("UTC"))
    return t.strftime("%Y%m%dT%H%M%SZ")


SHANGHAI_TZ = ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "X-LIC-LOCATION:Asia/Shanghai", "BEGIN:STANDARD",
               "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "DTSTART:19700101T000000",
               "END:STANDARD", "END:VTIMEZONE"]


def calendar(head: list[str], events: list[list[str]], eol: str = "\r\n") -> bytes:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", *head]
    for ev in events:
        lines += ["BEGIN:VEVENT", *ev, "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return (eol.join(fold(line).replace("\r\n", eol) for line in lines) + eol).encode("utf-8")


def uid(s: School, *parts: object) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "/".join([s.key, *map(str, parts)])))


def week_of(s: School, d: date) -> int:
    return (d - s.week1).days // 7 + 1


def runs(weeks: list[int]) -> list[tuple[int, int, int]]:
    """Week lists as (first, count, step) series: consecutive runs step 1, odd/even runs step 2."""
    out, i = [], 0
    while i < len(weeks):
        step = weeks[i + 1] - weeks[i] if i + 1 < len(weeks) and weeks[i + 1] - weeks[i] in (1, 2) else 1
        j = i
        while j + 1 < len(weeks) and weeks[j + 1] - weeks[j] == step:
            j += 1
        out.append((weeks[i], j - i + 1, step))
        i = j + 1
    return out


def wk(a: int, b: int, step: int = 1) -> list[int]:
    return list(range(a, b + 1, step))


CN_DAY = "一二三四五六日"


# ---- the ten schools and their renderings -----------------------------------------------------------

def shandong() -> tuple[School, bytes]:
    """A Shandong normal university; a student's Python script over 正方: one VEVENT per meeting, UTC."""
    summer = grid(("08:00", 5, 45, [10, 20, 10, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:00", 3, 45, [10, 10]))
    winter = grid(("08:00", 5, 45, [10, 20, 10, 10]), ("14:00", 4, 45, [10, 20, 10]), ("18:30", 3, 45, [10, 10]))
    s = School("ics_shandong_normal_zf_pyscript_utc", "齐鲁师范大学", "Asia/Shanghai", date(2027, 9, 6), 18, summer, [
        Course("教育心理学", ["孔令华"], "教学楼A区203", 1, 1, 2, wk(1, 16)),
        Course("中国现代文学史", ["王秀英"], "文史楼305", 1, 6, 7, wk(1, 18)),
        Course("古代汉语", ["刘海燕", "张志强"], "文史楼112", 2, 3, 5, wk(1, 16)),
        Course("大学英语（三）", ["宋佳"], "外语楼410", 3, 1, 2, wk(1, 16)),
        Course("形势与政策", ["高建国"], "教学楼B区101", 3, 10, 11, wk(3, 10)),
        Course("写作学", ["李红梅"], "文史楼207", 4, 6, 8, wk(1, 18, 2)),
        Course("体育（三）", ["马强"], "东操场", 5, 3, 4, wk(1, 16)),
    ], "", second=(date(2027, 10, 8), winter),
        days_off={date(2027, 10, 1) + timedelta(days=i) for i in range(7)},
        makeup={date(2027, 9, 26): date(2027, 10, 6), date(2027, 10, 9): date(2027, 10, 7)})
    s.notes = ("A Shandong normal university (5+4+3 x 45 min; summer afternoon 14:30 and evening 19:00 until 10-07, "
               "winter 14:00 / 18:30 from 10-08). A student's Python script over 正方: one VEVENT per meeting in UTC, "
               "CRLF; the script knows the National Day days off and the make-up Sunday 09-26 (Wednesday 10-06's "
               "classes) and Saturday 10-09 (Thursday 10-07's). Teacher and week in DESCRIPTION.")
    events = []
    for c, d in occurrences(s):
        a, b = span(s, c, d)
        events.append([f"UID:{uid(s, c.name, d)}@zf-ics", f"DTSTAMP:{STAMP}", f"DTSTART:{utc(d, a, s.zone)}",
                       f"DTEND:{utc(d, b, s.zone)}", f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                       "DESCRIPTION:" + esc(f"任课教师：{','.join(c.teachers)}\n上课时间：第{week_of(s, d)}周 "
                                            f"星期{CN_DAY[d.weekday()]} 第{c.first}-{c.last}节")])
    return s, calendar(["PRODID:-//zf-ics//py//CN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"], events)


def series_events(s: School, c: Course, *, until_utc: bool, tzid: bool, summary: str, location: str,
                  description: str, extra: tuple[str, ...] = ()) -> list[list[str]]:
    """One RRULE per run of the course's weeks (step 2 for odd/even weeks)."""
    out = []
    for first, count, step in runs(c.weeks):
        d = s.day(c, first)
        a, b = span(s, c, d)
        last = d + timedelta(weeks=step * (count - 1))
        until = (utc(last + timedelta(days=1), "00:00", s.zone) if until_utc else f"{last:%Y%m%d}T235959")
        start = f"DTSTART;TZID={s.zone}:{local(d, a)}" if tzid else f"DTSTART:{local(d, a)}"
        end = f"DTEND;TZID={s.zone}:{local(d, b)}" if tzid else f"DTEND:{local(d, b)}"
        out.append([f"DTSTAMP:{STAMP}", f"UID:{uid(s, c.name, c.weekday, c.first, first)}", f"SUMMARY:{summary}",
                    start, end, f"RRULE:FREQ=WEEKLY;UNTIL={until};INTERVAL={step}", f"LOCATION:{location}",
                    f"DESCRIPTION:{description}", *extra])
    return out


def sichuan() -> tuple[School, bytes]:
    """A Sichuan finance university; WakeUp's own .ics export: weekly series, TZID + VTIMEZONE, UNTIL in UTC."""
    g = grid(("08:10", 4, 45, [5, 20, 5]), ("14:00", 4, 45, [5, 20, 5]), ("19:10", 3, 45, [5, 5]))
    s = School("ics_sichuan_finance_wakeup_series_until_utc", "锦江财经大学", "Asia/Shanghai", date(2028, 2, 21), 18, g, [
        Course("计量经济学", ["杨帆"], "通博楼B302", 1, 1, 2, wk(1, 16)),
        Course("公司金融", ["陈静"], "通博楼A205", 1, 5, 6, wk(1, 16)),
        Course("财政学", ["何志明"], "格致楼217", 2, 3, 4, wk(1, 15, 2)),
        Course("证券投资学", ["罗丹"], "格致楼109", 3, 1, 3, wk(1, 8) + wk(10, 17)),
        Course("习近平新时代中国特色社会主义思想概论", ["周晓燕"], "通博楼C101", 3, 9, 11, wk(2, 12)),
        Course("国际金融", ["吴涛"], "通博楼B410", 4, 5, 7, wk(1, 18)),
        Course("商务英语", ["Lisa Chen"], "外语楼305", 5, 1, 2, wk(2, 16, 2)),
    ], "")
    s.notes = ("A Sichuan finance university (4+4+3 x 45 min, 5/20-min breaks, morning from 08:10). WakeUp's own .ics "
               "export: one weekly series per block with INTERVAL=2 for odd/even weeks and a split block (weeks 1-8 and "
               "10-17) as two series; TZID=Asia/Shanghai with a VTIMEZONE; UNTIL is the local midnight after the last "
               "meeting, in UTC; a display VALARM per event. Room in LOCATION, teacher and weeks in DESCRIPTION. Spring.")
    events = []
    for c in s.courses:
        alarm = ("BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=START:-PT15M",
                 f"DESCRIPTION:{esc(c.name + '@' + c.room)}", "END:VALARM")
        weeks = "、".join(f"{a}-{a + (n - 1) * st}周" + ("" if st == 1 else ("单" if a % 2 else "双"))
                         for a, n, st in runs(c.weeks))
        events += series_events(s, c, until_utc=True, tzid=True, summary=esc(c.name), location=esc(c.room),
                                description=esc(f"{' '.join(c.teachers)} {weeks}"), extra=alarm)
    for ev in events:
        ev[1] = ev[1].replace("UID:", "UID:WakeUpSchedule-")
    return s, calendar(["PRODID:-//YZune//WakeUpSchedule//EN", *SHANGHAI_TZ], events)


def heilongjiang() -> tuple[School, bytes]:
    """A Heilongjiang forestry university; a browser userscript over 强智: COUNT series, TZID, LF, week labels."""
    g = grid(("08:00", 4, 45, [5, 20, 5]), ("13:30", 4, 45, [5, 20, 5]), ("18:00", 2, 45, [5]))
    s = School("ics_heilongjiang_forestry_qz_userscript_count_weeklabels", "北疆林业大学", "Asia/Shanghai",
               date(2027, 8, 30), 18, g, [
        Course("森林培育学", ["赵德林"], "林学楼301", 1, 1, 2, wk(1, 14)),
        Course("树木学", ["孙桂芝"], "林学楼105", 1, 5, 7, wk(1, 12)),
        Course("测量学", ["钱宏伟"], "理学楼212", 2, 3, 4, wk(1, 16)),
        Course("土壤学", ["李春生"], "林学楼208", 3, 1, 2, wk(2, 16, 2)),
        Course("大学物理B", ["周立新"], "理学楼108", 3, 5, 6, wk(1, 16)),
        Course("森林生态学", ["王雪松", "刘冰"], "林学楼402", 4, 3, 4, wk(1, 16)),
        Course("马克思主义基本原理", ["郑红"], "主楼阶梯教室3", 5, 1, 3, wk(1, 12)),
        Course("线性代数", ["韩春雷"], "理学楼305", 5, 9, 10, wk(3, 14)),
    ], "")
    s.notes = ("A Heilongjiang forestry university (4+4+2 x 45 min, afternoon from 13:30, evening 18:00; term from "
               "2027-08-30). A browser userscript over 强智: one weekly series per block with COUNT (INTERVAL=2 for "
               "even weeks), TZID=Asia/Shanghai with a VTIMEZONE, LF line ends; SUMMARY has the room in brackets, "
               "teacher in DESCRIPTION; the script adds an all-day label for every teaching week (skipped as all_day).")
    events = []
    for c in s.courses:
        for first, count, step in runs(c.weeks):
            d = s.day(c, first)
            a, b = span(s, c, d)
            events.append([f"UID:qz-{uid(s, c.name, first)}", f"DTSTAMP:{STAMP}",
                           f"SUMMARY:{esc(c.name + '(' + c.room + ')')}",
                           f"DTSTART;TZID=Asia/Shanghai:{local(d, a)}", f"DTEND;TZID=Asia/Shanghai:{local(d, b)}",
                           f"RRULE:FREQ=WEEKLY;WKST=MO;COUNT={count};INTERVAL={step}", f"LOCATION:{esc(c.room)}",
                           "DESCRIPTION:" + esc(f"教师: {'、'.join(c.teachers)}\n节次: {c.first}-{c.last}")])
    labels = []
    for w in range(1, s.weeks + 1):
        d = s.week1 + timedelta(weeks=w - 1)
        labels.append([f"UID:qz-week-{w}", f"DTSTAMP:{STAMP}", f"SUMMARY:第{w}周", f"DTSTART;VALUE=DATE:{d:%Y%m%d}",
                       f"DTEND;VALUE=DATE:{d + timedelta(days=1):%Y%m%d}", "TRANSP:TRANSPARENT"])
    return s, calendar(["PRODID:-//qz-userscript//CN", "X-WR-CALNAME:课表", *SHANGHAI_TZ], labels + events, "\n")


def tianjin() -> tuple[School, bytes]:
    """A Tianjin foreign-languages university; a phone timetable app: floating series, 'course @room' SUMMARY."""
    g = grid(("08:30", 4, 45, [10, 20, 10]), ("13:30", 4, 45, [10, 20, 10]), ("18:30", 2, 45, [10]))
    s = School("ics_tianjin_foreign_lang_app_floating_until_local", "津沽外国语大学", "Asia/Shanghai",
               date(2028, 2, 28), 18, g, [
        Course("高级英语（二）", ["Daniel Brooks"], "外语楼A408", 1, 1, 2, wk(1, 16)),
        Course("日语二外", ["佐藤美和", "田晓雪"], "外语楼B215", 1, 5, 6, wk(1, 16)),
        Course("英汉笔译", ["许文静"], "博学楼306", 2, 3, 4, wk(1, 16)),
        Course("英美文学选读", ["高原"], "博学楼201", 3, 1, 2, wk(1, 16)),
        Course("口译基础", ["郭明"], "同传实验室2", 3, 7, 8, wk(1, 15, 2)),
        Course("中国文化概论", ["金丽"], "博学楼105", 4, 5, 7, wk(2, 13)),
        Course("第二课堂：英语辩论", ["许文静"], "外语楼A101", 4, 9, 10, wk(4, 12)),
    ], "")
    s.notes = ("A Tianjin foreign-languages university (4+4+2 x 45 min, from 08:30). A phone timetable app's .ics "
               "export: one weekly series per block, floating times (no TZID), UNTIL floating at 23:59:59 of the last "
               "meeting day, INTERVAL=2 for odd weeks; SUMMARY 'course @room', room also in LOCATION, teacher in "
               "DESCRIPTION. Spring term, CRLF.")
    events = []
    for c in s.courses:
        events += series_events(s, c, until_utc=False, tzid=False, summary=esc(f"{c.name} @{c.room}"),
                                location=esc(c.room), description=esc("任课老师:" + "/".join(c.teachers)))
    return s, calendar(["PRODID:-//CourseTable App//ics export 3.2//ZH", "X-WR-CALNAME:我的课表"], events)


def fujian() -> tuple[School, bytes]:
    """A Fujian polytechnic; a student's Node script over 新正方: series in UTC with EXDATE for days off."""
    g = grid(("08:00", 4, 45, [10, 20, 10]), ("14:30", 4, 45, [10, 20, 10]), ("19:10", 3, 45, [10, 10]))
    off = {date(2027, 9, 15)} | {date(2027, 10, 1) + timedelta(days=i) for i in range(7)}
    s = School("ics_fujian_poly_newzf_nodescript_exdate_utc", "鹭江理工学院", "Asia/Shanghai", date(2027, 9, 13), 16, g, [
        Course("电路分析", ["林志强"], "工科楼C301", 1, 1, 2, wk(1, 16)),
        Course("C语言程序设计", ["陈思远"], "实训楼405", 1, 5, 6, wk(1, 12)),
        Course("高等数学A（一）", ["黄美玲"], "公教楼204", 2, 1, 2, wk(1, 16)),
        Course("工程制图", ["吴俊"], "工科楼A112", 3, 3, 4, wk(1, 16)),
        Course("电子技术实验", ["郑海涛", "许婷"], "电子实验中心201", 3, 5, 7, wk(2, 16, 2)),
        Course("大学英语（一）", ["蔡晓琳"], "公教楼310", 4, 1, 2, wk(1, 16)),
        Course("军事理论", ["王国栋"], "公教楼阶梯101", 5, 9, 10, wk(1, 8)),
    ], "", days_off=off)
    s.notes = ("A Fujian polytechnic (4+4+3 x 45 min; afternoon 14:30, evening 19:10; a 16-week term from 2027-09-13). "
               "A student's Node script over 新正方: one weekly series per block with COUNT, DTSTART/DTEND in UTC, "
               "EXDATE (UTC) for the Mid-Autumn day 09-15 and the National Day days 10-01..10-07; no make-up days. "
               "SUMMARY is the course, LOCATION the room, teachers in DESCRIPTION. CRLF.")
    events = []
    for c in s.courses:
        for first, count, step in runs(c.weeks):
            d = s.day(c, first)
            a, b = span(s, c, d)
            ex = [s.day(c, w) for w in range(first, first + step * count, step) if s.day(c, w) in off]
            ev = [f"UID:{uid(s, c.name, first)}", f"DTSTAMP:{STAMP}", f"DTSTART:{utc(d, a, s.zone)}",
                  f"DTEND:{utc(d, b, s.zone)}", f"RRULE:FREQ=WEEKLY;INTERVAL={step};COUNT={count}",
                  f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                  "DESCRIPTION:" + esc(f"教师：{'，'.join(c.teachers)}\n第{c.first}-{c.last}节")]
            if ex:
                ev.insert(5, "EXDATE:" + ",".join(utc(x, a, s.zone) for x in ex))
            events.append(ev)
    return s, calendar(["PRODID:-//newzf2ics//node//CN", "CALSCALE:GREGORIAN"], events)


def xinjiang() -> tuple[School, bytes]:
    """A Xinjiang university on a late Beijing-time grid; the 教务 system's own export, floating per meeting."""
    g = grid(("10:00", 4, 45, [10, 20, 10]), ("16:00", 4, 45, [10, 20, 10]), ("21:00", 2, 45, [10]))
    s = School("ics_xinjiang_univ_jw_export_floating_week19", "天山大学", "Asia/Shanghai", date(2027, 9, 6), 18, g, [
        Course("维吾尔语基础", ["阿依古丽·买买提"], "文科楼312", 1, 1, 2, wk(1, 18)),
        Course("数据结构", ["王建新"], "信息楼B204", 1, 5, 7, wk(1, 16)),
        Course("概率论与数理统计", ["艾尔肯·吐尔逊"], "理科楼105", 2, 1, 3, wk(1, 16)),
        Course("计算机组成原理", ["张立军"], "信息楼A301", 3, 3, 4, wk(1, 16)),
        Course("数据结构实验", ["王建新", "李娜"], "信息楼机房5", 3, 5, 6, wk(3, 17, 2)),
        Course("中国近现代史纲要", ["马晓红"], "文科楼阶梯一", 4, 9, 10, wk(1, 12)),
        Course("离散数学", ["古丽娜尔"], "理科楼208", 5, 1, 2, wk(1, 19)),
    ], "", days_off={date(2027, 10, 1) + timedelta(days=i) for i in range(7)})
    s.notes = ("A Xinjiang university on a Beijing-time grid that starts late (4+4+2 x 45 min: 10:00, 16:00, 21:00). "
               "The 教务 system's own export: one VEVENT per meeting, floating local times, CRLF; the system leaves out "
               "the National Day days; one course runs to week 19, beyond the 18-week term (outside_semester). "
               "SUMMARY is the course, LOCATION the room, DESCRIPTION teacher and sections.")
    events = []
    for c, d in occurrences(s):
        a, b = span(s, c, d)
        events.append([f"DTSTAMP:{STAMP}", f"UID:jw-{uid(s, c.name, d)}", f"DTSTART:{local(d, a)}",
                       f"DTEND:{local(d, b)}", f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                       "DESCRIPTION:" + esc(f"授课教师：{','.join(c.teachers)}；第{week_of(s, d)}周；"
                                            f"{c.first}-{c.last}节")])
    return s, calendar(["PRODID:-//JWXT//Course Schedule//CN", "METHOD:PUBLISH"], events)


def zhejiang() -> tuple[School, bytes]:
    """A Zhejiang independent college; typed by hand into a Xiaomi phone calendar, exported as .ics."""
    g = grid(("08:00", 5, 45, [5, 15, 5, 5]), ("13:30", 4, 45, [5, 15, 5]), ("18:30", 3, 45, [5, 5]))
    s = School("ics_zhejiang_independent_xiaomi_manual_byday", "钱塘学院", "Asia/Shanghai", date(2028, 2, 21), 17, g, [
        Course("大学英语", [], "3号楼205", 1, 3, 4, wk(1, 16)),
        Course("大学英语", [], "3号楼205", 3, 3, 4, wk(1, 16)),
        Course("微积分", [], "1号楼108", 2, 1, 2, wk(1, 16)),
        Course("微积分", [], "1号楼108", 4, 1, 2, wk(1, 16)),
        Course("管理学", [], "5号楼302", 2, 6, 8, wk(1, 16)),
        Course("市场调研", [], "机房2", 5, 6, 7, wk(1, 12)),
    ], "")
    s.notes = ("A Zhejiang independent college (5+4+3 x 45 min, 5/15-min breaks, afternoon 13:30). The student typed "
               "the courses into a Xiaomi phone calendar (course as title, room as location, no teachers; the two-a-week "
               "courses as one series with BYDAY=MO,WE / TU,TH) and exported it: TZID=Asia/Shanghai with a VTIMEZONE, "
               "UNTIL in UTC at the end of the last day, WKST=MO, reminders. Spring term.")
    events, done = [], set()
    for c in s.courses:
        if c.name in done:
            continue
        done.add(c.name)
        same = [x for x in s.courses if x.name == c.name]
        d = s.day(c, c.weeks[0])
        a, b = span(s, c, d)
        last = max(s.day(x, x.weeks[-1]) for x in same)
        byday = ",".join(["MO", "TU", "WE", "TH", "FR", "SA", "SU"][x.weekday - 1] for x in same)
        events.append([f"UID:{uid(s, c.name)}@calendar.xiaomi.com", f"DTSTAMP:{STAMP}", f"CREATED:{STAMP}",
                       f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                       f"DTSTART;TZID=Asia/Shanghai:{local(d, a)}", f"DTEND;TZID=Asia/Shanghai:{local(d, b)}",
                       f"RRULE:FREQ=WEEKLY;UNTIL={utc(last, '23:59', s.zone)[:-3]}59Z;WKST=MO;BYDAY={byday}",
                       "BEGIN:VALARM", "TRIGGER:-PT10M", "ACTION:DISPLAY", "DESCRIPTION:提醒", "END:VALARM"])
    return s, calendar(["PRODID:-//Xiaomi//Calendar//CN", "X-WR-TIMEZONE:Asia/Shanghai", *SHANGHAI_TZ], events)


def anhui() -> tuple[School, bytes]:
    """An Anhui teacher-training college; WakeUp's CSV export (one row per block, weeks as a spec)."""
    g = grid(("08:00", 4, 40, [10, 20, 10]), ("14:00", 4, 40, [10, 20, 10]), ("19:00", 2, 40, [10]))
    s = School("wakeup_anhui_teachers_college_export", "皖江师范专科学校", "Asia/Shanghai", date(2027, 9, 6), 18, g, [
        Course("儿童发展心理学", ["汪丽"], "育才楼201", 1, 1, 2, wk(1, 16)),
        Course("钢琴基础", ["方晓雯"], "琴房楼3层", 1, 5, 6, wk(1, 16, 2)),
        Course("学前教育学", ["程玉兰"], "育才楼305", 2, 3, 4, wk(1, 16)),
        Course("幼儿美术", ["吴敏", "章芳"], "艺术楼204", 3, 1, 3, wk(2, 16, 2)),
        Course("教师口语", ["疏建华"], "育才楼108", 4, 5, 6, wk(1, 12)),
        Course("舞蹈基础", ["江雪"], "舞蹈房2", 5, 3, 4, wk(1, 16)),
        Course("思想道德与法治", ["胡国平"], "明德楼101", 4, 9, 10, wk(1, 8)),
    ], "")
    s.notes = ("An Anhui teacher-training college (4+4+2 x 40 min). WakeUp's CSV export: 课程名称,星期,开始节数,结束节数,"
               "老师,地点,周数 with weeks as '1-16', '1-15单', '2-16双'; UTF-8 with BOM; several teachers separated by a "
               "space. No dates in the file: dates from week 1.")
    rows = ["课程名称,星期,开始节数,结束节数,老师,地点,周数"]
    for c in s.courses:
        spec = ",".join(f"{a}-{a + (n - 1) * st}" + ("" if st == 1 else ("单" if a % 2 else "双"))
                        for a, n, st in runs(c.weeks))
        rows.append(f"{c.name},{c.weekday},{c.first},{c.last},{' '.join(c.teachers)},{c.room},{spec}")
    return s, ("\ufeff" + "\r\n".join(rows) + "\r\n").encode("utf-8")


def shanghai_grad() -> tuple[School, bytes]:
    """A Shanghai graduate school; the 研究生 system's export, one VEVENT per meeting with TZID, and a clash."""
    g = grid(("08:00", 4, 45, [5, 15, 5]), ("13:00", 5, 45, [5, 15, 5, 5]), ("18:00", 3, 45, [5, 5]))
    lecture = Course("学术规范与论文写作", ["顾敏"], "研究生楼报告厅", 2, 6, 8, [9])
    s = School("ics_shanghai_graduate_system_tzid_clash", "申江大学研究生院", "Asia/Shanghai", date(2027, 9, 13), 17, g, [
        Course("数值分析", ["朱伟明"], "研究生楼301", 1, 1, 3, wk(1, 16)),
        Course("中国特色社会主义理论与实践研究", ["沈丽"], "第一教学楼102", 1, 10, 12, wk(1, 12)),
        Course("矩阵理论", ["陆振华"], "研究生楼205", 2, 6, 8, wk(1, 16)),
        Course("高级机器学习", ["徐家豪", "Kevin Zhang"], "信息楼410", 3, 1, 3, wk(1, 17)),
        Course("学术英语写作", ["Emma Wilson"], "外语楼208", 4, 6, 7, wk(1, 16)),
        Course("自然辩证法概论", ["钱慧"], "第一教学楼305", 5, 10, 12, wk(2, 9)),
    ], "", days_off={date(2027, 10, 1) + timedelta(days=i) for i in range(7)}, clashes=[(lecture, 9)])
    s.notes = ("A Shanghai graduate school (4+5+3 x 45 min, afternoon 13:00, evening 18:00; 17-week term from "
               "2027-09-13). The 研究生 system's own export: one VEVENT per meeting, TZID=Asia/Shanghai with a "
               "VTIMEZONE, CRLF; National Day days left out; SUMMARY '[code]course', teachers with titles in "
               "DESCRIPTION. A one-off lecture in week 9 sits on the 矩阵理论 slot and comes later in the file (overlap).")
    events = []
    for n, (c, d) in enumerate(occurrences(s)):
        a, b = span(s, c, d)
        code = f"GS{1000 + s.courses.index(c)}" if c in s.courses else "GS1999"
        events.append([f"UID:yjs-{uid(s, n)}", f"DTSTAMP:{STAMP}", f"DTSTART;TZID=Asia/Shanghai:{local(d, a)}",
                       f"DTEND;TZID=Asia/Shanghai:{local(d, b)}", f"SUMMARY:{esc(f'[{code}]{c.name}')}",
                       f"LOCATION:{esc(c.room)}",
                       "DESCRIPTION:" + esc("授课教师：" + "，".join(t + "（教授）" for t in c.teachers))])
    return s, calendar(["PRODID:-//GSMIS//Schedule Export//CN", *SHANGHAI_TZ], events)


def france() -> tuple[School, bytes]:
    """A Chinese student at a French university; the ADE timetable export, one VEVENT per session in UTC."""
    slots = [["08:00", "09:30"], ["09:45", "11:15"], ["11:30", "13:00"], ["13:30", "15:00"], ["15:15", "16:45"],
             ["17:00", "18:30"]]
    s = School("ics_france_ade_export_utc_dst", "Université de Garonne", "Europe/Paris", date(2027, 9, 6), 15, slots, [
        Course("Analyse numérique", ["DUPONT Claire"], "Amphi B", 1, 1, 1, wk(1, 15)),
        Course("Probabilités", ["MARTIN Julien"], "S-204", 1, 4, 4, wk(1, 12)),
        Course("Programmation orientée objet", ["LEROY Paul", "GARNIER Inès"], "Info-112", 2, 2, 3, wk(2, 14)),
        Course("Algèbre linéaire", ["BERNARD Sophie"], "Amphi A", 3, 1, 1, wk(1, 15)),
        Course("Anglais", ["SMITH Karen"], "L-05", 4, 5, 5, wk(1, 12)),
        Course("Français langue étrangère", ["MOREAU Anne"], "L-12", 5, 4, 5, wk(1, 15)),
    ], "", days_off={date(2027, 11, 1), date(2027, 11, 11)} | {date(2027, 10, 25) + timedelta(days=i) for i in range(5)})
    s.notes = ("A Chinese student at a French university (90-min sessions, 15-minute breaks; term from 2027-09-06, "
               "15 weeks). The ADE export: one VEVENT per session with times in UTC across the October 31 clock change; "
               "the autumn break week (10-25..10-29), 11-01 and 11-11 have no sessions. LOCATION the room; DESCRIPTION "
               "group, teacher and an export stamp. CRLF.")
    events = []
    for c, d in occurrences(s):
        a, b = span(s, c, d)
        events.append([f"DTSTAMP:{STAMP}", f"DTSTART:{utc(d, a, s.zone)}", f"DTEND:{utc(d, b, s.zone)}",
                       f"SUMMARY:{esc(c.name)}", f"LOCATION:{esc(c.room)}",
                       "DESCRIPTION:" + esc("\nL3 MATHS-INFO\nGr TD2\n" + "\n".join(c.teachers)
                                            + "\n(Exporté le:28/08/2027 12:15)\n"),
                       f"UID:ADE60{uid(s, c.name, d).replace('-', '')[:40]}", "CREATED:19700101T000000Z",
                       f"LAST-MODIFIED:{STAMP}", "SEQUENCE:2141"])
    return s, calendar(["PRODID:-//ADE/version 6.0", "CALSCALE:GREGORIAN", "METHOD:REQUEST"], events)


SCHOOLS = [shandong, sichuan, heilongjiang, tianjin, fujian, xinjiang, zhejiang, anhui, shanghai_grad, france]


def expected(s: School, extra_skipped: list[dict]) -> dict:
    meetings, skipped = board(s)
    second = {"from": s.second[0].isoformat(), "sections": s.second[1]} if s.second else None
    return {"school": s.school, "time_zone": s.zone, "week1_monday": s.week1.isoformat(),
            "semester_weeks": s.weeks, "sections": s.sections, "second_grid": second, "meetings": meetings,
            "skipped": skipped + extra_skipped, "notes": s.notes}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for make in SCHOOLS:
        s, data = make()
        ext = "csv" if s.key.startswith("wakeup") else "ics"
        extra = []
        if make is heilongjiang:
            extra = [{"summary": f"第{w}周", "why": "all_day",
                      "date": (s.week1 + timedelta(weeks=w - 1)).isoformat()} for w in range(1, s.weeks + 1)]
        (OUT / f"{s.key}.{ext}").write_bytes(data)
        (OUT / f"{s.key}.expected.json").write_text(
            json.dumps(expected(s, extra), ensure_ascii=False, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
