"""Timetable files in the shapes real students bring (fictional content): the project's own fixtures.

Each builder writes one shape that students' tools and university systems produce: an event per section
(正方 exports turned into .ics by students' scripts), WakeUp's own .ics export with a course at its own
times, a Google Calendar export with all-day events and last year's series, a school that moves to
winter hours mid-term, a damaged file (CR CR LF, no END:VCALENDAR).
"""

from __future__ import annotations

from datetime import date, timedelta

WEEK1 = date(2025, 2, 17)  # a spring semester, not the test student's (2026-09-07)
# The school's day: 45-minute sections; 08:00, 08:50 | 10:00, 10:50 | 14:00, 14:50 | 16:00, 16:50.
SECTIONS = [("0800", "0845"), ("0850", "0935"), ("1000", "1045"), ("1050", "1135"),
            ("1400", "1445"), ("1450", "1535"), ("1600", "1645"), ("1650", "1735")]


def calendar(*events: str, end: bool = True, newline: str = "\r\n") -> bytes:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//school//timetable//CN", *events]
    if end:
        lines.append("END:VCALENDAR")
    return (newline.join(lines) + newline).encode()


def vevent(summary: str, day: date, start: str, end: str, *extra: str, tz: str = "floating", uid: str = "") -> str:
    stamp = "" if tz == "floating" else f";TZID={tz}"
    lines = ["BEGIN:VEVENT", f"UID:{uid or summary}-{day:%Y%m%d}-{start}", f"SUMMARY:{summary}",
             f"DTSTART{stamp}:{day:%Y%m%d}T{start}00", f"DTEND{stamp}:{day:%Y%m%d}T{end}00", *extra, "END:VEVENT"]
    return "\r\n".join(lines)


def per_section_ics(weeks: int = 16) -> bytes:
    """An event per section per week: 数据结构 Mon sections 1-2, 大学英语 Wed sections 5-6 odd weeks."""
    events = []
    for week in range(weeks):
        monday = WEEK1 + timedelta(weeks=week)
        for start, end in SECTIONS[0:2]:
            events.append(vevent("数据结构 - 致远楼A203", monday, start, end, "DESCRIPTION:任课教师：顾明川。"))
        if week % 2 == 0:
            for start, end in SECTIONS[4:6]:
                events.append(vevent("大学英语", monday + timedelta(days=2), start, end, "LOCATION:外语楼301",
                                     "DESCRIPTION:课程号：ENG1001\\n教师：林晓"))
    return calendar(*events)


def wakeup_export() -> bytes:
    """WakeUp's .ics export: weekly RRULEs on the school's grid, one course at its own 08:30 start."""
    until = "RRULE:FREQ=WEEKLY;UNTIL=20250608T160000Z;INTERVAL=1"
    return calendar(
        vevent("高等数学", WEEK1, "0800", "0935", until, "LOCATION:209 ", tz="Asia/Shanghai"),
        vevent("线性代数", WEEK1 + timedelta(days=1), "1000", "1135", until, "LOCATION:310", tz="Asia/Shanghai"),
        vevent("体育", WEEK1 + timedelta(days=3), "0830", "1005", until, "LOCATION:操场", tz="Asia/Shanghai"),
        vevent("电路", WEEK1 + timedelta(days=4), "1400", "1535", until, "LOCATION:实验楼", tz="Asia/Shanghai"),
    )


def google_export() -> bytes:
    """A Google Calendar export: a lecture series, all-day week markers, and last year's series."""
    lecture = vevent("Lecture", WEEK1 + timedelta(days=1), "1000", "1135",
                     "RRULE:FREQ=WEEKLY;UNTIL=20250527T025959Z", tz="Asia/Shanghai")
    old = vevent("Lecture", date(2024, 3, 5), "1000", "1135", "RRULE:FREQ=WEEKLY;COUNT=10", tz="Asia/Shanghai",
                 uid="old")
    markers = [f"BEGIN:VEVENT\r\nUID:w{n}\r\nSUMMARY:Week {n + 1}\r\nDTSTART;VALUE=DATE:"
               f"{WEEK1 + timedelta(weeks=n):%Y%m%d}\r\nEND:VEVENT" for n in range(3)]
    return calendar(lecture, *markers, old)


def winter_hours_ics() -> bytes:
    """HUST-style (adamgibbons/ics): UTC times, afternoon classes at 14:30 until week 4, then at 14:00 (winter
    hours); the teacher in DESCRIPTION ("由…老师任教") and an ORGANIZER line with no value."""
    events = []
    for week in range(8):
        wednesday = WEEK1 + timedelta(weeks=week, days=2)
        start, end = ("0630", "0815") if week < 4 else ("0600", "0735")  # 14:30-16:15 / 14:00-15:35 local
        events.append(vevent("计算机图形学", wednesday, start, end, "LOCATION:东十二楼F301",
                             "DESCRIPTION:星期三 从第1周到第8周\\,由严锋老师任教", "ORGANIZER;CN=严锋").replace(
            f"DTSTART:{wednesday:%Y%m%d}T{start}00", f"DTSTART:{wednesday:%Y%m%d}T{start}00Z").replace(
            f"DTEND:{wednesday:%Y%m%d}T{end}00", f"DTEND:{wednesday:%Y%m%d}T{end}00Z"))
        monday = WEEK1 + timedelta(weeks=week)
        events.append(vevent("操作系统", monday, "0200", "0335", "LOCATION:东九楼B101",
                             "DESCRIPTION:星期一 从第1周到第8周\\,由戴维老师任教", "ORGANIZER;CN=戴维").replace(
            "T020000", "T020000Z").replace("T033500", "T033500Z"))
    return calendar(*events)


def damaged_ics() -> bytes:
    """CR CR LF line endings, a blank line, a property line with no value, and no END:VCALENDAR."""
    text = calendar(
        vevent("概率论", WEEK1, "0800", "0935", "RRULE:FREQ=WEEKLY;COUNT=16", "ORGANIZER;CN=老师", ""),
        end=False,
    ).decode()
    return text.replace("\r\n", "\r\r\n").encode()
