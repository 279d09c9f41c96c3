"""Import notices: every adjustment the importer makes is listed per row, in the student's language; a dry
run counts exactly what the real import creates; problem messages fill their templates from the core's data."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation

from schedule.core.importers import Fit
from schedule.exceptions import ImportRejectedError
from schedule.models import Course, ScheduleEvent
from schedule.services.imports import timetable_import
from schedule.tests.factories import HEADER, csv_bytes, custom_event

# The test student's semester starts on Monday 2026-09-07 and has 20 weeks.
OFF_GRID_ICS = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//test//EN\r\n"
    "BEGIN:VEVENT\r\nUID:a\r\nSUMMARY:高等数学\r\nDTSTART;TZID=Asia/Shanghai:20260907T080500\r\n"
    "DTEND;TZID=Asia/Shanghai:20260907T094000\r\nRRULE:FREQ=WEEKLY\r\nEND:VEVENT\r\n"
    "BEGIN:VEVENT\r\nUID:b\r\nSUMMARY:大学英语\r\nDTSTART;TZID=Asia/Shanghai:20260831T101500\r\n"
    "DTEND;TZID=Asia/Shanghai:20260831T115500\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\nEND:VEVENT\r\n"
    "END:VCALENDAR\r\n"
).encode()
# Two arrangements of one course (so one course, not two), a duplicated line, a range past week 20.
ADJUSTED_CSV = csv_bytes(
    "线性代数,2,1,2,陈志强,二教2412,1-16",
    "线性代数,4,3,4,陈志强,二教2412,1-16",
    "线性代数,4,3,4,陈志强,二教2412,9-16",
    "体育,3,5,6,孙伟,操场,1-24",
)
CJK = re.compile(r"[\u4e00-\u9fff]")


def zh_preview(user, data: bytes, fmt: str, fit: Fit = "mine"):
    # Under the student's own settings (fit="mine") an off-grid time is moved onto sections, with a notice.
    with translation.override("zh-hans"):
        return timetable_import(user=user, data=data, fmt=fmt, dry_run=True, fit=fit)


def test_off_grid_times_and_clipped_repetitions_are_listed_per_event_in_chinese(user):
    outcome = zh_preview(user, OFF_GRID_ICS, "ics")
    notices = {course.name: course.notices for course in outcome.courses}
    assert notices["高等数学"] == (
        "高等数学（08:05–09:40）与节次时间不一致，已对齐到第 1–2 节（08:00–09:40）。",
        "高等数学的重复超出了本学期，只保留到学期最后一天（1月24日）为止的课。",
    )
    assert notices["大学英语"] == ("大学英语有 1 次课不在学期内（9月7日 至 1月24日），已略去。",)
    assert outcome.notice_count == 3


def test_clipped_weeks_and_merged_duplicates_are_listed_on_their_rows_in_chinese(user):
    outcome = zh_preview(user, ADJUSTED_CSV, "csv")
    by_row = {course.row: course for course in outcome.courses}
    assert sorted(by_row) == [2, 3, 5]  # row 4 was merged into row 3
    assert by_row[3].notices == ("第 4 行重复了线性代数（第 9-16 周），两行已合并为一行。",)
    assert by_row[5].notices == ("体育的第 21-24 周在学期之后（本学期共 20 周），已略去。",)
    assert by_row[5].weeks_text == "1-20"
    assert by_row[2].notices == ()


def test_the_preview_shows_day_sections_and_clock_times(user):
    outcome = zh_preview(user, ADJUSTED_CSV, "csv")
    first = outcome.courses[0]
    with translation.override("zh-hans"):
        assert (first.day_label, first.sections_label, first.start_time, first.end_time) == (
            "周二", "第 1–2 节", "08:00", "09:40")


@pytest.mark.parametrize("data, fmt", [(ADJUSTED_CSV, "csv"), (OFF_GRID_ICS, "ics")])
def test_a_dry_run_counts_exactly_what_the_import_then_creates(user, data, fmt):
    dry = timetable_import(user=user, data=data, fmt=fmt, dry_run=True)
    assert not Course.objects.exists()
    # The one confirm: adopt the file's frame and leave out what cannot be taken, as the preview said.
    done = timetable_import(user=user, data=data, fmt=fmt, adopt=dry.frame is not None,
                            accept_skips=bool(dry.skipped))
    assert (dry.created_courses, dry.created_events) == (done.created_courses, done.created_events)
    assert done.created_courses == Course.objects.filter(user=user).count()
    assert done.created_events == ScheduleEvent.objects.filter(user=user).count()


def test_a_dry_run_does_not_count_courses_the_student_already_has(user):
    timetable_import(user=user, data=csv_bytes("线性代数,2,1,2,陈志强,二教2412,1-8"), fmt="csv")
    dry = timetable_import(user=user, data=ADJUSTED_CSV, fmt="csv", dry_run=True)
    done = timetable_import(user=user, data=ADJUSTED_CSV, fmt="csv")
    assert (dry.created_courses, dry.created_events, dry.skipped_existing) == (
        done.created_courses, done.created_events, done.skipped_existing) == (1, 44, 8)


@pytest.mark.parametrize("data, name", [(ADJUSTED_CSV, "t.csv"), (OFF_GRID_ICS, "t.ics")])
def test_the_command_dry_run_reports_the_counts_the_real_command_creates(user, tmp_path: Path, data, name):
    path = tmp_path / name
    path.write_bytes(data)

    def run(*flags: str) -> str:
        out = StringIO()
        call_command("import_timetable", user.username, str(path), *flags, stdout=out)
        return out.getvalue()

    dry, real = run("--dry-run"), run()
    counts = re.compile(r"(\d+) courses / (\d+) meetings")
    assert counts.search(dry).groups() == counts.search(real).groups()  # type: ignore[union-attr]
    assert ("adjusted:" in dry) and (Course.objects.filter(user=user).count()
                                     == int(counts.search(real)[1]))  # type: ignore[index]


def rejected_messages(user, data: bytes, fmt: str = "csv") -> list[str]:
    with translation.override("zh-hans"), pytest.raises(ImportRejectedError) as error:
        timetable_import(user=user, data=data, fmt=fmt, dry_run=True)
    return [problem["message"] for problem in error.value.detail["problems"]]


def test_a_missing_column_names_the_header_to_write(user):
    messages = rejected_messages(user, "课程名称,星期,开始节数,周数\n高数,1,1,1-16\n".encode())
    assert messages == ["表头缺少“结束节数”列（结束节数）。"]
    assert "end_section" not in messages[0]


def test_clash_messages_read_as_chinese_sections(user):
    custom_event(user, title="社团活动", week=3, day=2, start=1, end=2)
    existing = rejected_messages(user, csv_bytes("线性代数,2,1,2,陈,二教,1-16"))
    assert existing == ["线性代数与社团活动冲突：周二 第 1–2 节，第 3 周。"]


@pytest.mark.parametrize("rows, expected", [
    ("高数,1,1,2,王,二教,0-16", "第 0 周不在学期内（本学期共 20 周）。"),
    ("高数,1,1,2,王,二教,22-24", "第 24 周不在学期内（本学期共 20 周）。"),
    ("高数,1,1,2,王,二教,16-3", None),
    ("高数,1,1,2,王,二教,一到三", None),
    ("高数,1,1,2,王,二教,", None),
    ("高数,8,1,2,王,二教,1-16", None),
    ("高数,1,1,14,王,二教,1-16", None),
])
def test_every_row_problem_fills_its_chinese_template(user, rows, expected):
    (message,) = rejected_messages(user, (HEADER + rows + "\n").encode())
    assert CJK.search(message) and "{" not in message and not re.search(r"[A-Za-z]{3,}", message), message
    if expected is not None:
        assert message == expected


def test_an_ics_event_far_off_the_grid_is_moved_onto_its_sections_with_a_chinese_notice(user):
    data = OFF_GRID_ICS.replace(b"T080500", b"T083000")
    outcome = zh_preview(user, data, "ics")
    notices = {course.name: course.notices for course in outcome.courses}
    assert notices["高等数学"][0] == "高等数学（08:30–09:40）与节次时间不一致，已对齐到第 1–2 节（08:00–09:40）。"


def test_under_the_files_own_frame_an_off_grid_time_proposes_section_times(user):
    data = OFF_GRID_ICS.replace(b"T080500", b"T083000")
    outcome = zh_preview(user, data, "ics", fit="file")
    assert outcome.frame is not None and outcome.frame.start is None  # the semester fits
    proposed = {(s.start, s.end) for s in outcome.frame.sections if s.uses}
    assert ("08:30", "09:40") in proposed
    assert [(c.name, c.start_time, c.end_time) for c in outcome.courses][0] == ("高等数学", "08:30", "09:40")


def test_a_reimport_lists_the_adjustments_in_its_diff(client, user):
    timetable_import(user=user, data=csv_bytes("线性代数,2,1,2,陈志强,二教2412,1-16"), fmt="csv")
    client.force_login(user)
    response = client.post("/schedule/import/", {"content": ADJUSTED_CSV.decode(), "action": "preview",
                                                 "mode": "replace"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    page = response.content.decode()
    assert 'data-test="import-diff"' in page
    assert "体育的第 21-24 周在学期之后（本学期共 20 周），已略去。" in page
    assert "第 4 行重复了线性代数（第 9-16 周），两行已合并为一行。" in page


@pytest.mark.parametrize("content", [ADJUSTED_CSV.decode(), OFF_GRID_ICS.decode(),
                                     HEADER + "高数,1,1,2,王,二教,0-16\n", "课程名称,星期,周数\n高数,1,1-16\n"])
def test_the_import_page_reads_in_chinese_whatever_the_file(client, user, content):
    from smartmate.tests.test_chinese_pages import english_in

    client.force_login(user)
    page = client.post("/schedule/import/", {"content": content, "action": "preview"},
                       HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert english_in(page) == []
    assert "sections" not in page and "start_section" not in page
