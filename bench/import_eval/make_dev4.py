"""Write ``files/dev4/``: files in the shapes of public student calendar generators (for development).

    python -m bench.import_eval.make_dev4

Each file is rendered from a fictional school (week-1 Monday, section grid) and a student's courses
(weekday, sections, weeks, room, teacher) in the way a popular generator lays its events out; the
expected meetings come from the same description, as in ``make_files.py``:

* ``ics_generator_room_in_summary``: one event per meeting, lines cut at 72 characters, an empty
  VTIMEZONE, SUMMARY ``课程 - 教室``, DESCRIPTION ``任课教师：X。``, LOCATION a building with its street
  address on a second line (the room a student goes to is the one in the summary).
* ``ics_graduate_pairs_no_break``: one event per meeting, sections of a pair with no break between
  them, DESCRIPTION ``课程编码: C\\n主讲教师: X``, an ORGANIZER line.
* ``ics_elective_two_uids``: one weekly RRULE with COUNT per course (INTERVAL=2 for a fortnightly
  lab), each event with two UID lines, an Apple VTIMEZONE.
* ``wakeup_reordered_remarks.csv``: a WakeUp table whose columns were reordered in a spreadsheet, with
  a 备注 column, saved as GBK with CRLF.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

OUT = Path(__file__).resolve().parent / "files" / "dev4"


@dataclass(frozen=True)
class Course:
    name: str
    teacher: str
    room: str
    day: int
    sections: tuple[int, int]
    weeks: tuple[int, ...]


def clock(text: str) -> datetime:
    return datetime.strptime(text, "%H:%M")


def grid(starts: list[str], minutes: int) -> list[tuple[str, str]]:
    return [(s, (clock(s) + timedelta(minutes=minutes)).strftime("%H:%M")) for s in starts]


def meetings(monday: date, sections: list[tuple[str, str]], courses: list[Course]) -> list[dict]:
    rows = []
    for c in courses:
        for week in c.weeks:
            day = monday + timedelta(weeks=week - 1, days=c.day - 1)
            rows.append({"date": day.isoformat(), "start": sections[c.sections[0] - 1][0],
                         "end": sections[c.sections[1] - 1][1], "title": c.name, "location": c.room,
                         "teacher": c.teacher})
    return sorted(rows, key=lambda m: (m["date"], m["start"]))


def expected(school: str, monday: date, weeks: int, sections: list[tuple[str, str]], courses: list[Course],
             notes: str) -> dict:
    return {"school": school, "time_zone": "Asia/Shanghai", "week1_monday": monday.isoformat(),
            "semester_weeks": weeks, "sections": [list(s) for s in sections], "second_grid": None,
            "meetings": meetings(monday, sections, courses), "skipped": [], "notes": notes}


def stamp(day: date, text: str) -> str:
    return datetime.combine(day, clock(text).time()).strftime("%Y%m%dT%H%M%S")


def folded(lines: list[str], width: int = 72) -> str:
    out = []
    for line in lines:
        out.append(line[:width])
        out += [" " + line[i:i + width] for i in range(width, len(line), width)]
    return "\n".join(out)


def room_in_summary() -> tuple[str, dict]:
    monday = date(2024, 2, 26)
    sections = grid(["08:00", "08:50", "09:55", "10:45", "14:00", "14:50", "15:55", "16:45", "19:00", "19:50",
                     "20:40"], 45)
    courses = [Course("数字信号处理", "陈可", "明理楼C305", 1, (3, 4), tuple(range(1, 13))),
               Course("大学物理实验", "林枫", "实验中心B201", 3, (5, 7), tuple(range(2, 17, 2))),
               Course("中国近现代史纲要", "黄河", "博文楼402", 4, (9, 10), (*range(1, 9), 10, 11))]
    buildings = {"明理楼C305": "某某大学明理楼C区\\n大学路88号", "博文楼402": "某某大学博文楼\\n大学路88号"}
    lines = ["BEGIN:VCALENDAR", "METHOD:PUBLISH", "VERSION:2.0", "X-WR-CALNAME:课表", "X-WR-TIMEZONE:Asia/Shanghai",
             "CALSCALE:GREGORIAN", "BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "END:VTIMEZONE"]
    for m_index, c in enumerate(courses):
        for week in c.weeks:
            day = monday + timedelta(weeks=week - 1, days=c.day - 1)
            lines += ["BEGIN:VEVENT", f"SUMMARY:{c.name} - {c.room}", f"DESCRIPTION:任课教师：{c.teacher}。",
                      f"DTSTART;TZID=Asia/Shanghai:{stamp(day, sections[c.sections[0] - 1][0])}",
                      f"DTEND;TZID=Asia/Shanghai:{stamp(day, sections[c.sections[1] - 1][1])}",
                      "DTSTAMP:20240220T120000Z", f"UID:{m_index:02d}{week:02d}{c.day}a7f3e9", "URL;VALUE=URI:"]
            if c.room in buildings:
                lines += [f"LOCATION:{buildings[c.room]}", "GEO:30.1;104.2"]
            lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    notes = "Room from the summary; LOCATION names the building and street (kept in the note)."
    return folded(lines), expected("某某大学", monday, 16, sections, courses, notes)


def graduate_pairs() -> tuple[str, dict]:
    monday = date(2023, 8, 28)
    starts = ["08:30", "09:20", "10:30", "11:20", "13:30", "14:20", "15:30", "16:20", "18:10", "19:00", "20:10",
              "21:00"]
    sections = grid(starts, 50)
    courses = [Course("高等量子力学", "周远", "教一楼404", 2, (1, 2), (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)),
               Course("高级人工智能", "王静、刘涛", "教二楼209", 4, (3, 4), tuple(range(1, 16))),
               Course("新时代中国特色社会主义理论与实践", "孙强", "阶梯教室103", 5, (9, 11), (*range(1, 10), 11)),
               Course("计算机体系结构", "郑华", "教一楼112", 1, (5, 8), tuple(range(3, 19)))]
    codes = ["070100M01001H", "081203M04002H", "030500MGB001H-05", "081201M05009H"]
    lines = ["BEGIN:VCALENDAR", "PRODID:-//example//graduate-timetable//ZH", "VERSION:2.0", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH", "BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "X-LIC-LOCATION:Asia/Shanghai",
             "BEGIN:STANDARD", "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800", "TZNAME:CST", "DTSTART:19700101T000000",
             "END:STANDARD", "END:VTIMEZONE"]
    for code, c in zip(codes, courses, strict=True):
        for week in c.weeks:
            day = monday + timedelta(weeks=week - 1, days=c.day - 1)
            lines += ["BEGIN:VEVENT", "DTSTAMP:20230820T121455Z",
                      f"DTSTART;TZID=Asia/Shanghai:{stamp(day, sections[c.sections[0] - 1][0])}",
                      f"DTEND;TZID=Asia/Shanghai:{stamp(day, sections[c.sections[1] - 1][1])}",
                      f"SUMMARY:{c.name}", f"LOCATION:{c.room}", f"DESCRIPTION:课程编码: {code}\\n主讲教师: {c.teacher}",
                      "TRANSP:OPAQUE", "ORGANIZER:UCAS", f"UID:{code}-{week}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    notes = "Sections of a pair run on with no break (08:30-09:20, 09:20-10:10)."
    return "\n".join(lines), expected("某研究生院", monday, 18, sections, courses, notes)


def elective_two_uids() -> tuple[str, dict]:
    monday = date(2016, 2, 29)
    sections = grid(["08:00", "09:00", "10:10", "11:10", "13:00", "14:00", "15:10", "16:10", "17:10", "18:40",
                     "19:40", "20:40"], 50)
    courses = [Course("普通物理", "", "理教105", 1, (1, 2), tuple(range(1, 17))),
               Course("线性代数（II）", "", "二教301", 2, (1, 2), tuple(range(1, 17))),
               Course("计算概论", "", "理教412", 4, (5, 6), tuple(range(1, 17))),
               Course("计算概论上机", "", "理教412", 2, (7, 8), tuple(range(1, 17, 2))),
               Course("线性代数习题", "", "一教201", 5, (10, 11), tuple(range(1, 17)))]
    lines = ["BEGIN:VCALENDAR", "CALSCALE:GREGORIAN", "VERSION:2.0", "METHOD:PUBLISH", "X-WR-CALNAME:课程",
             "X-WR-TIMEZONE:Asia/Shanghai", "BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "BEGIN:STANDARD",
             "TZOFFSETFROM:+0900", "DTSTART:19890917T000000", "TZNAME:GMT+8", "TZOFFSETTO:+0800", "END:STANDARD",
             "END:VTIMEZONE"]
    for index, c in enumerate(courses):
        day = monday + timedelta(days=c.day - 1)
        rule = "FREQ=WEEKLY;INTERVAL=2;COUNT=8" if len(c.weeks) == 8 else "FREQ=WEEKLY;COUNT=16"
        lines += ["BEGIN:VEVENT", "TRANSP:OPAQUE", "SEQUENCE:0", "DTSTAMP:20160305T080000Z", "UID:timetable-tool",
                  f"UID:timetable-tool{index}", f"SUMMARY:{c.name}", f"LOCATION:{c.room}", f"RRULE:{rule}",
                  f"DTSTART;TZID=Asia/Shanghai:{stamp(day, sections[c.sections[0] - 1][0])}",
                  f"DTEND;TZID=Asia/Shanghai:{stamp(day, sections[c.sections[1] - 1][1])}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    notes = "Two UID lines per event; a fortnightly lab as INTERVAL=2."
    return "\n".join(lines), expected("某某大学", monday, 16, sections, courses, notes)


def reordered_csv() -> tuple[bytes, dict]:
    monday = date(2025, 9, 8)
    sections = grid(["08:00", "08:55", "10:00", "10:55", "14:00", "14:55", "16:00", "16:55", "19:00", "19:55",
                     "20:50", "21:45"], 45)
    courses = [Course("高等数学A(2)", "张三", "博文楼201", 1, (1, 2), tuple(range(1, 17))),
               Course("大学英语(二)", "李四", "外语楼305", 3, (3, 4), tuple(range(1, 16, 2))),
               Course("体育(篮球)", "王五", "东操场", 5, (7, 8), tuple(range(2, 17, 2))),
               Course("数据结构", "赵六", "信息楼B102", 2, (5, 6), (*range(1, 9), *range(10, 17)))]
    rows = ["星期,课程名称,开始节数,结束节数,周数,地点,老师,备注", "1,高等数学A(2),1,2,1-16,博文楼201,张三,",
            "3,大学英语(二),3,4,1-16单,外语楼305,李四,带词典", "5,体育(篮球),7,8,2-16双,东操场,王五,",
            '2,数据结构,5,6,"1-8,10-16",信息楼B102,赵六,第9周停课']
    notes = "WakeUp columns reordered, a 备注 column (kept as the course's note), GBK, CRLF."
    return "\r\n".join(rows).encode("gbk"), expected("某某学院", monday, 16, sections, courses, notes)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    files: dict[str, tuple[str | bytes, dict]] = {
        "ics_generator_room_in_summary.ics": room_in_summary(), "ics_graduate_pairs_no_break.ics": graduate_pairs(),
        "ics_elective_two_uids.ics": elective_two_uids(), "wakeup_reordered_remarks.csv": reordered_csv()}
    for name, (body, exp) in files.items():
        (OUT / name).write_bytes(body if isinstance(body, bytes) else body.encode("utf-8"))
        stem = name.rsplit(".", 1)[0]
        (OUT / f"{stem}.expected.json").write_text(json.dumps(exp, ensure_ascii=False, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
