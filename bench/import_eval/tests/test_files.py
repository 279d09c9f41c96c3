"""The fixtures agree with an independent reading of them by expand.py.

The expected meetings were computed from the school/course descriptions in make_files.py; here every
file is read back with expand.py, consecutive meetings of one summary on one day (gap <= 30 min) are
merged, and the (date, start, end) set must equal the expected meetings plus the meetings the expected
file lists as skipped for overlap / outside_semester (which are in the file but not wanted). For
dev5-dev15 the expected title, room and teachers must also be written in the file's meeting at
that time, and a file expected to be refused must be unreadable as every CSV shape expand.py knows.
A dev7, dev8 or dev15 CSV whose header has 开始节 is read as the WakeUp shape (columns are found by name).
A dev9 CSV whose header has 日期 and 节次 is a dated teaching-progress sheet (one row per meeting).
A dev10 CSV whose header has 上课周次 is a class sheet (one row per block, weeks as a spec).
A dev11 CSV whose header has 节次 and 周次 is a phone app's export (one row per block, sections 'a-b').
A file named ``*big5*`` is Big5 (cp950); expand.py reads only UTF-8 and GB18030, so it gets the text.
"""
import csv
import io
import json
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from bench.import_eval.expand import (
    Meeting,
    expand_csv_clock,
    expand_csv_grid,
    expand_csv_wakeup,
    expand_ics,
    parse_week_spec,
    parse_weekday,
)

FILES = Path(__file__).resolve().parents[1] / "files"
ALL = sorted(p for p in FILES.glob("*/*") if not p.name.endswith(".expected.json"))


def merged(ms):
    out = []
    for m in sorted(ms, key=lambda m: (m.date, m.summary, m.start)):
        if out and out[-1][0] == m.date and out[-1][3] == m.summary:
            gap = datetime.combine(m.date, m.start) - datetime.combine(m.date, out[-1][2])
            if timedelta(0) <= gap <= timedelta(minutes=30):
                out[-1][2] = max(out[-1][2], m.end)
                continue
        out.append([m.date, m.start, m.end, m.summary])
    return {(d.isoformat(), s.strftime("%H:%M"), e.strftime("%H:%M")) for d, s, e, _ in out}


def test_all_sets_exist():
    assert len([p for p in ALL if p.parent.name == "dev"]) >= 8
    assert len([p for p in ALL if p.parent.name == "dev2"]) >= 8
    assert len([p for p in ALL if p.parent.name == "dev3"]) >= 8
    assert len([p for p in ALL if p.parent.name == "dev4"]) >= 4
    assert len([p for p in ALL if p.parent.name == "dev5"]) >= 10
    assert len([p for p in ALL if p.parent.name == "dev6"]) >= 10
    assert len([p for p in ALL if p.parent.name == "dev7"]) == 10
    for name in ("dev8", "dev9", "dev10", "dev11", "dev12", "dev13", "dev14", "dev15"):  # the blind sets of ten
        assert len([p for p in ALL if p.parent.name == name]) == 10, name


def refused(exp: dict) -> bool:
    return any(s["why"] == "refused" for s in exp["skipped"])


def unreadable(data: bytes, week1: date, exp: dict) -> bool:
    """No CSV shape expand.py knows yields a meeting from ``data``."""
    readers = [lambda: expand_csv_wakeup(data, week1, exp["sections"]), lambda: expand_csv_grid(data, week1),
               lambda: expand_csv_clock(data, week1, exp["semester_weeks"])]
    for read in readers:
        try:
            if read():
                return False
        except (ValueError, TypeError, IndexError):
            continue
    return True


@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_expected_matches_file(path: Path):
    exp = json.loads(path.with_name(path.name.rsplit(".", 1)[0] + ".expected.json").read_text("utf-8"))
    week1 = date.fromisoformat(exp["week1_monday"])
    last = week1 + timedelta(weeks=exp["semester_weeks"], days=-1)
    data = path.read_bytes()
    if "big5" in path.name:  # calendar apps decode it by the system code page; expand.py does not guess Big5
        data = data.decode("cp950").encode("utf-8")
    if refused(exp):  # a file the board should refuse: nothing expected, and no known shape reads it
        assert exp["meetings"] == [] and path.suffix == ".csv" and unreadable(data, week1, exp)
        return
    if path.suffix == ".ics":
        ex = expand_ics(data, exp["time_zone"], until=last)
        read = ex.timed
        got = merged(ex.timed)
        assert sorted(p.summary for p in ex.skipped) == sorted(
            s["summary"] for s in exp["skipped"] if s["why"] == "damaged")
        assert len(ex.all_day) == sum(s["why"] == "all_day" for s in exp["skipped"])
    elif week_column_rows(path, data):
        read = read_week_column_rows(data, week1, exp["sections"])
        got = merged(read)
    elif section_range_rows(path, data):
        read = read_section_range_rows(data, week1, exp["sections"])
        got = merged(read)
    elif dated_rows(path, data):
        read = read_dated_rows(data, exp["sections"])
        got = merged(read)
    elif path.name.startswith("wakeup") or section_columns(path, data):
        read = expand_csv_wakeup(data, week1, exp["sections"])
        got = merged(read)
    elif "grid" in path.name:
        read = expand_csv_grid(data, week1)
        got = merged(read)
    else:
        read = expand_csv_clock(data, week1, exp["semester_weeks"])
        got = merged(read)
    want = {(m["date"], m["start"], m["end"]) for m in exp["meetings"]}
    assert want <= got, sorted(want - got)[:5]
    extra = got - want
    for d, s, e in extra:  # only meetings the expected file explains
        assert not (week1.isoformat() <= d <= last.isoformat()) or any(
            k.get("date") == d and k["why"] in ("overlap",) for k in exp["skipped"]), (d, s, e)
    assert all(m["title"] and m["start"] < m["end"] for m in exp["meetings"])
    if path.parent.name in ("dev5", "dev6", "dev7", "dev8", "dev9", "dev10", "dev11", "dev12", "dev13",
                            "dev14", "dev15"):
        assert_words_in_file(exp["meetings"], read)


def section_columns(path: Path, data: bytes) -> bool:
    """A dev7/dev8/dev15 sheet with 开始节/结束节 columns: the WakeUp reader finds its columns by name."""
    if path.parent.name not in ("dev7", "dev8", "dev9", "dev15") or path.suffix != ".csv":
        return False
    return "开始节" in csv_text(data).splitlines()[0]


def csv_text(data: bytes) -> str:
    """A sheet's text: UTF-8 after a BOM, else what a Chinese spreadsheet saves (GB18030)."""
    return data.decode("utf-8-sig") if data.startswith(b"\xef\xbb\xbf") else data.decode("gb18030")


def csv_rows(data: bytes) -> list[list[str]]:
    """A sheet's non-blank rows, the header first."""
    return [r for r in csv.reader(io.StringIO(csv_text(data))) if any(c.strip() for c in r)]


def csv_header(data: bytes) -> list[str]:
    return csv_rows(data)[0]


def dated_rows(path: Path, data: bytes) -> bool:
    """A dev9 sheet with one row per meeting: a 日期 column and a 节次 column ('a-b')."""
    if path.parent.name != "dev9" or path.suffix != ".csv":
        return False
    header = csv_header(data)
    return "日期" in header and "节次" in header


def read_dated_rows(data: bytes, sections: list[list[str]]) -> list[Meeting]:
    """Rows 日期 (2025/9/1), 星期, 节次 'a-b', 课程名称, 授课教师, 上课地点 -> one Meeting per row on the grid."""
    rows = csv_rows(data)
    col = {name: i for i, name in enumerate(rows[0])}
    out = []
    for r in rows[1:]:
        y, m, d = (int(x) for x in r[col["日期"]].split("/"))
        day = date(y, m, d)
        assert day.isoweekday() == parse_weekday(r[col["星期"]]), r
        first, _, last = r[col["节次"]].partition("-")
        start, end = sections[int(first) - 1][0], sections[int(last or first) - 1][1]
        out.append(Meeting(day, datetime.strptime(start, "%H:%M").time(), datetime.strptime(end, "%H:%M").time(),
                           r[col["课程名称"]], r[col["上课地点"]], r[col["授课教师"]]))
    return sorted(out)


def week_column_rows(path: Path, data: bytes) -> bool:
    """A dev10 class sheet: 开始节/结束节 columns and the weeks as a spec in 上课周次."""
    if path.parent.name != "dev10" or path.suffix != ".csv":
        return False
    header = csv_header(data)
    return "上课周次" in header and "开始节" in header


def read_week_column_rows(data: bytes, week1: date, sections: list[list[str]]) -> list[Meeting]:
    """Rows 课程名称, 任课教师, 星期 (周一), 开始节, 结束节, 上课周次 ('2-16周(双)'), 上课地点 -> Meetings."""
    return read_block_rows(data, week1, sections, weeks="上课周次", teacher="任课教师",
                           span=lambda r: (int(r["开始节"]), int(r["结束节"])))


def read_block_rows(data: bytes, week1: date, sections: list[list[str]], *, weeks: str, teacher: str,
                    span: Callable[[dict[str, str]], tuple[int, int]]) -> list[Meeting]:
    """One row per block (课程名称, 星期, 上课地点, a weeks spec, a teacher column, sections via ``span``)."""
    rows = csv_rows(data)
    out = []
    for r in (dict(zip(rows[0], row)) for row in rows[1:]):
        first, last = span(r)
        start = datetime.strptime(sections[first - 1][0], "%H:%M").time()
        end = datetime.strptime(sections[last - 1][1], "%H:%M").time()
        for w in parse_week_spec(r[weeks]):
            day = week1 + timedelta(weeks=w - 1, days=parse_weekday(r["星期"]) - 1)
            out.append(Meeting(day, start, end, r["课程名称"], r["上课地点"], r[teacher]))
    return sorted(out)


def section_range_rows(path: Path, data: bytes) -> bool:
    """A dev11 app export: 节次 'a-b' and 周次 as a spec, one row per block."""
    if path.parent.name != "dev11" or path.suffix != ".csv":
        return False
    header = csv_header(data)
    return "节次" in header and "周次" in header


def read_section_range_rows(data: bytes, week1: date, sections: list[list[str]]) -> list[Meeting]:
    """Rows 课程名称, 上课老师, 上课地点, 星期 (星期四), 节次 ('9-11'), 周次 ('2-16双') -> Meetings on the grid."""
    return read_block_rows(data, week1, sections, weeks="周次", teacher="上课老师", span=section_range)


def section_range(row: dict[str, str]) -> tuple[int, int]:
    first, _, last = row["节次"].partition("-")
    return int(first), int(last or first)


def assert_words_in_file(meetings: list[dict], read: list) -> None:
    """Title, room and each teacher of an expected meeting are written in the file's meeting at that time."""
    at: dict[tuple[str, str], list[str]] = {}
    for m in read:
        text = " ".join((m.summary, m.location, m.description))
        at.setdefault((m.date.isoformat(), m.start.strftime("%H:%M")), []).append(text)
    for m in meetings:
        texts = at.get((m["date"], m["start"]), [])
        words = [m["title"], m["location"], *filter(None, m["teacher"].split("、"))]
        assert any(all(w in t for w in words) for t in texts), (m, texts)
