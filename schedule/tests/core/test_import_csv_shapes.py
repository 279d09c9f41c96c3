"""The CSV shapes besides WakeUp's own: its 9-column variant, clock times, 教务 grid exports, and refusal.

Fixtures are fictional files in the shapes real exporters write (names, teachers and rooms made up).
"""

from datetime import date, time, timedelta

import pytest

from schedule.core.importers import ParseReport, parse_timetable
from schedule.core.importers.csv_grid import parse_label
from schedule.core.importers.grid_cells import CellCourse, read_cell
from schedule.core.importers.notices import SnappedToSections
from schedule.core.time_model import SectionTemplate, Semester

SEMESTER = Semester(date(2026, 3, 2), 16)
TEMPLATE = SectionTemplate.default_cqupt()


def parse(text: str | bytes, fit: str = "mine", template: SectionTemplate = TEMPLATE) -> ParseReport:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse_timetable(data, "csv", SEMESTER, template, fit=fit)  # type: ignore[arg-type]


def codes(report: ParseReport) -> list[tuple[int | None, str]]:
    return [(p.row, p.code) for p in report.problems]


def summary(report: ParseReport) -> list[tuple]:
    return [(c.name, c.day, c.start_section, c.end_section, c.weeks_text, c.teacher, c.location)
            for c in report.courses]


# --- WakeUp's 9-column variant ---------------------------------------------------------------------

NINE_HEADER = "课程名称,星期,开始节数,结束节数,老师,地点,开始周,结束周,单双周(0全1单2双)"


def test_the_nine_column_variant_with_bom_crlf_and_no_final_newline_reads_like_wakeup():
    text = "\r\n".join([NINE_HEADER, "编译原理,2,1,2,林老师,致远楼A101,1,16,0",
                        "数值分析,4,3,4,周老师,致远楼B202,1,15,1", "电路实验,5,5,6,许老师,实验楼305,2,16,2"])
    report = parse(b"\xef\xbb\xbf" + text.encode())
    assert report.ok, report.problems
    assert summary(report) == [
        ("编译原理", 2, 1, 2, "1-16", "林老师", "致远楼A101"),
        ("数值分析", 4, 3, 4, "1-15单", "周老师", "致远楼B202"),
        ("电路实验", 5, 5, 6, "2-16双", "许老师", "实验楼305"),
    ]
    assert [c.row for c in report.courses] == [2, 3, 4]


def test_a_sheet_naming_its_section_columns_kaishijie_and_jieshujie_is_read():
    """开始节 / 结束节 are the section columns as some schools' sheets name them."""
    text = "课程名称,星期,开始节,结束节,教师,教室,周数,备注\n机械制图,周一,1,2,王建国,教学楼 301,\"1-8,11-16\",\n"
    report = parse(text.encode("gbk"))
    assert report.ok, report.problems
    assert summary(report) == [("机械制图", 1, 1, 2, "1-8,11-16", "王建国", "教学楼 301")]


def test_a_dated_teaching_progress_sheet_reads_week_and_day_from_each_rows_date():
    """教学进度表: one row per meeting, 节次 as one column; a make-up Sunday keeps the 周次 of the class
    it replaces, so the date decides (week 1 is where most rows' 周次 and 日期 agree)."""
    text = ("周次,日期,星期,节次,课程名称,类型,授课内容,授课教师,上课地点,备注\n"
            "1,2026/3/2,星期一,1-3,内科学,理论,绪论,韦明,第二教学楼 301,\n"
            "2,2026/3/9,星期一,1-3,内科学,理论,第一章,韦明,第二教学楼 301,\n"
            "3,2026/3/16,星期一,第1-2节,内科学,理论,第二章,韦明,第二教学楼 301,\n"
            "5,2026/3/22,星期日,5-8,外科学,见习,第一章（见习）,覃志刚,附属第一医院 示教室,调课\n")
    report = parse(text)
    assert report.ok, report.problems
    assert {(c.name, c.day, c.start_section, c.end_section, c.weeks_text) for c in report.courses} >= {
        ("内科学", 1, 1, 3, "1"), ("内科学", 1, 1, 2, "3"), ("外科学", 7, 5, 8, "3")}
    assert {c.teacher for c in report.courses} == {"韦明", "覃志刚"}


def test_a_spreadsheet_with_only_a_date_column_is_no_timetable():
    report = parse("日期,摘要,金额\n2026-03-01,食堂,-12.5\n")
    assert codes(report) == [(None, "unknown_csv_shape")]


def test_columns_in_any_order_in_gbk_keep_a_remark_column_as_the_courses_note():
    text = "\r\n".join(["星期,课程名称,开始节数,结束节数,周数,地点,老师,备注", "3,大学英语(二),3,4,1-16单,外语楼305,李四,带词典",
                        '2,数据结构,5,6,"1-8,10-16",信息楼B102,赵六,'])
    report = parse(text.encode("gbk"))
    assert report.ok, report.problems
    assert summary(report) == [("大学英语(二)", 3, 3, 4, "1-15单", "李四", "外语楼305"),
                               ("数据结构", 2, 5, 6, "1-8,10-16", "赵六", "信息楼B102")]
    assert [c.note for c in report.courses] == ["带词典", ""]


@pytest.mark.parametrize(("parity", "weeks"), [("单", "1-15单"), ("双周", "2-16双"), ("全", "1-16"), ("", "1-16")])
def test_the_parity_column_also_takes_words(parity, weeks):
    report = parse(f"{NINE_HEADER}\n概率论,1,1,2,韩老师,二教201,1,16,{parity}\n")
    assert [c.weeks_text for c in report.courses] == [weeks]


def test_a_single_week_needs_no_end_week():
    report = parse(f"{NINE_HEADER}\n讲座,3,7,8,沈老师,报告厅,5,,0\n")
    assert [c.weeks for c in report.courses] == [(5,)]


def test_an_unknown_parity_is_a_weeks_problem_on_its_row():
    report = parse(f"{NINE_HEADER}\n概率论,1,1,2,韩老师,二教201,1,16,3\n")
    assert codes(report) == [(2, "invalid_weeks")]
    assert report.problems[0].field == "weeks" and "单双周3" in report.problems[0].message


def test_the_nine_columns_are_recognised_without_a_header():
    report = parse("编译原理,2,1,2,林老师,致远楼A101,1,16,1\n")
    assert summary(report) == [("编译原理", 2, 1, 2, "1-15单", "林老师", "致远楼A101")]


def test_a_start_week_without_an_end_week_column_asks_for_the_weeks():
    report = parse("课程名称,星期,开始节数,结束节数,开始周\n概率论,1,1,2,1\n")
    assert [(p.row, p.code, p.field) for p in report.problems] == [(1, "missing_column", "weeks")]


# --- Weekday and clock times -----------------------------------------------------------------------

CLOCK = """课程名,星期几,开始时间,结束时间
高等数学,星期一,8:30,10:05
大学物理,星期一,10:25,12:00
线性代数,星期二,8:30,10:05
程序设计,星期二,14:00,15:35
体育,星期三,8:30,10:05
英语,星期三,10:25,12:00
概率论,星期四,14:00,15:35
"""


def test_a_clock_csv_is_read_on_the_grid_its_times_imply():
    report = parse(CLOCK, fit="file")
    assert report.ok and not report.skipped
    assert report.proposal is not None and report.proposal.sections is not None
    assert report.proposal.start_monday is None  # the file has no dates: the student's semester stays
    assert report.proposal.sections[:4] == ((time(8, 30), time(9, 15)), (time(9, 20), time(10, 5)),
                                            (time(10, 25), time(11, 10)), (time(11, 15), time(12, 0)))
    assert summary(report)[:2] == [("高等数学", 1, 1, 2, "1-16", "", ""), ("大学物理", 1, 3, 4, "1-16", "", "")]
    assert all(c.clock is None for c in report.courses)


def test_a_clock_csv_meets_every_week_of_the_semester_unless_weeks_are_given():
    report = parse("课程名,星期几,开始时间,结束时间,周数,地点,教师\n"
                   "高等数学,周一,08:00,09:40,1-8,二教101,王老师\n"
                   "大学物理,周二,08:00,09:40,,三教202,李老师\n")
    assert summary(report) == [("高等数学", 1, 1, 2, "1-8", "王老师", "二教101"),
                               ("大学物理", 2, 1, 2, "1-16", "李老师", "三教202")]


def test_a_clock_csv_under_the_students_sections_is_snapped_with_a_notice():
    report = parse("课程名,星期几,开始时间,结束时间\n高等数学,星期一,8:05,9:45\n", fit="mine")
    assert report.proposal is None
    assert summary(report) == [("高等数学", 1, 1, 2, "1-16", "", "")]
    assert [type(n) for n in report.notices] == [SnappedToSections]


def test_a_clock_csv_reads_as_a_calendar_with_the_same_meetings_does():
    own_time = CLOCK + "讲座,星期五,9:00,10:30\n"
    from_csv = parse(own_time, fit="file")
    from_ics = parse_timetable(_weekly_calendar(own_time).encode(), "ics", SEMESTER, TEMPLATE, fit="file")
    assert from_csv.proposal == from_ics.proposal and from_csv.proposal is not None
    assert _placed(from_csv) == _placed(from_ics)
    assert ("讲座", 5, time(9, 0), time(10, 30)) in [(c.name, c.day, *c.clock) for c in from_csv.courses if c.clock]


def _weekly_calendar(clock_csv: str) -> str:
    """The clock CSV's rows as weekly iCalendar events over the semester."""
    events = []
    for row in clock_csv.strip().splitlines()[1:]:
        name, day, start, end = row.split(",")
        first = SEMESTER.start_monday + timedelta(days="一二三四五六日".index(day[-1]))
        events.append(f"BEGIN:VEVENT\nSUMMARY:{name}\nDTSTART:{first:%Y%m%d}T{_hhmm(start)}00\n"
                      f"DTEND:{first:%Y%m%d}T{_hhmm(end)}00\nRRULE:FREQ=WEEKLY;COUNT={SEMESTER.weeks}\nEND:VEVENT")
    return "BEGIN:VCALENDAR\nVERSION:2.0\n" + "\n".join(events) + "\nEND:VCALENDAR\n"


def _hhmm(clock: str) -> str:
    hours, minutes = clock.split(":")
    return f"{int(hours):02d}{minutes}"


def _placed(report: ParseReport) -> list[tuple]:
    return sorted((c.name, c.day, c.start_section, c.end_section, c.weeks, c.clock) for c in report.courses)


def test_a_clock_csv_names_the_course_without_its_code_and_the_teachers_without_titles():
    report = parse("课程名,星期几,开始时间,结束时间,地点,教师\n"
                   "[MAT1201]线性代数,周一,08:00,09:40,东校区 教三-201 ,\"Dr. 林海, 王芳 讲师\"\n")
    assert summary(report) == [("线性代数", 1, 1, 2, "1-16", "林海、王芳", "东校区 教三-201")]


def test_a_clock_csv_without_a_header_is_read_in_its_column_order():
    report = parse("高等数学,星期一,8:00,9:40\n大学物理,星期二,10:15,11:55\n")
    assert summary(report) == [("高等数学", 1, 1, 2, "1-16", "", ""), ("大学物理", 2, 3, 4, "1-16", "", "")]


def test_unreadable_and_reversed_clock_times_are_problems_of_their_rows():
    report = parse("课程名,星期几,开始时间,结束时间\n高等数学,星期一,八点,9:40\n大学物理,星期二,11:55,10:15\n")
    assert [(p.row, p.code, p.field) for p in report.problems] == [
        (2, "invalid_time", "start_time"), (3, "reversed_times", "end_time")]


def test_a_clock_header_without_a_day_column_is_refused_naming_it():
    report = parse("课程名,开始时间,结束时间\n高等数学,8:00,9:40\n")
    assert [(p.row, p.code, p.field) for p in report.problems] == [(1, "missing_column", "day")]


# --- 教务 grid exports -----------------------------------------------------------------------------

GRID = "\ufeff" + "\n".join([
    "时段,节次,星期一,星期二,星期三,星期四,星期五,星期六,星期日,",
    "上午,1(08:00-08:45),大学英语 教师甲(1-16单周 明德楼101),数据库 教师乙(1-16 明德楼202), , , , , ,",
    ",2(08:50-09:35),大学英语 教师甲(1-16单周 明德楼101),数据库 教师乙(1-16 明德楼202), , , , , ,",
    ",3(09:55-10:40), , ,操作系统 教师丙、教师丁(1-8 致知楼303), , , , ,",
    ",4(10:45-11:30), , ,操作系统 教师丙、教师丁(1-8 致知楼303), , , , ,",
    ",5(11:35-12:20), , ,操作系统 教师丙、教师丁(1-8 致知楼303), , , , ,",
    "下午,6(14:00-14:45),体育 教师戊(1-16 东操场), , , , , , ,",
    ",7(14:50-15:35),体育 教师戊(1-16 东操场), , , ,数据库 教师乙(1-16 明德楼202), , ,",
    "晚上,8(18:40-19:25), , , , , , , ,",
    ",,,,,,,,,",
])


def test_a_grid_export_is_read_into_blocks_of_consecutive_rows():
    report = parse(GRID)
    assert report.ok, report.problems
    assert summary(report) == [
        ("大学英语", 1, 1, 2, "1-15单", "教师甲", "明德楼101"),
        ("数据库", 2, 1, 2, "1-16", "教师乙", "明德楼202"),
        ("操作系统", 3, 3, 5, "1-8", "教师丙、教师丁", "致知楼303"),
        ("体育", 1, 6, 7, "1-16", "教师戊", "东操场"),
        ("数据库", 5, 7, 7, "1-16", "教师乙", "明德楼202"),
    ]
    assert [c.row for c in report.courses] == [2, 2, 4, 7, 8]


def test_a_grid_exports_row_labels_are_proposed_as_the_section_times():
    report = parse(GRID, fit="file")
    assert report.proposal is not None and report.proposal.start_monday is None
    assert report.proposal.sections is not None and len(report.proposal.sections) == 8
    assert report.proposal.sections[0] == (time(8, 0), time(8, 45))
    assert report.proposal.sections[7] == (time(18, 40), time(19, 25))
    assert report.proposal.section_uses == (24, 24, 8, 8, 8, 16, 32, 0)
    assert parse(GRID).proposal is None  # fit="mine": the student's sections stay


def test_a_grid_with_the_students_section_times_proposes_nothing():
    rows = [",".join(["节次", "星期一", "星期二", "星期三"])]
    rows += [f"{i}({a}-{b}),{'高数 王(1-16 二教101)' if i <= 2 else ''},," for i, (a, b) in
             enumerate(TEMPLATE.to_hhmm(), start=1)]
    report = parse("\n".join(rows), fit="file")
    assert report.proposal is None
    assert summary(report) == [("高数", 1, 1, 2, "1-16", "王", "二教101")]


def test_a_grid_labelled_by_section_only_reads_on_the_students_sections():
    text = "节次,周一,周二,周三,周四,周五\n第1节,,线代 钱(2-16双周 一教201),,,\n第2节,,线代 钱(2-16双周 一教201),,,\n"
    report = parse(text, fit="file")
    assert report.proposal is None
    assert summary(report) == [("线代", 2, 1, 2, "2-16双", "钱", "一教201")]


def test_a_grid_may_have_a_title_above_its_header():
    text = "2025-2026学年第二学期 学生课表,,,\n节次,星期一,星期二,星期三\n第一节,线代 钱(1-16 一教201),,\n"
    assert summary(parse(text)) == [("线代", 1, 1, 1, "1-16", "钱", "一教201")]


def test_stacked_cells_and_cells_with_two_courses_are_read():
    text = ('节次,星期一,星期二,星期三\n'
            '1,"计算机网络\n教师庚\n信息楼401\n1-16周",英语 甲(1-15单 外语楼1) 法语 乙(2-16双 外语楼2),\n'
            '2,"计算机网络\n教师庚\n信息楼401\n1-16周",英语 甲(1-15单 外语楼1) 法语 乙(2-16双 外语楼2),\n')
    report = parse(text)
    assert report.ok, report.problems
    assert summary(report) == [("计算机网络", 1, 1, 2, "1-16", "教师庚", "信息楼401"),
                               ("英语", 2, 1, 2, "1-15单", "甲", "外语楼1"),
                               ("法语", 2, 1, 2, "2-16双", "乙", "外语楼2")]


def test_the_same_text_in_rows_that_do_not_follow_each_other_is_two_blocks():
    text = "节次,星期一,星期二,星期三\n1,自习 无(1-16 图书馆),,\n2,,,\n3,自习 无(1-16 图书馆),,\n"
    assert [(c.start_section, c.end_section) for c in parse(text).courses] == [(1, 1), (3, 3)]


def test_an_unreadable_cell_is_a_problem_naming_its_row_and_column():
    text = "节次,星期一,星期二,星期三\n1,线代 钱(1-16 一教201),随便写点什么,\n"
    report = parse(text)
    assert codes(report) == [(2, "grid_cell_unreadable")]
    assert report.problems[0].params["column"] == "星期二"
    assert "随便写点什么" in report.problems[0].message
    assert summary(report) == [("线代", 1, 1, 1, "1-16", "钱", "一教201")]


def test_a_course_in_a_row_without_a_section_label_is_a_problem():
    text = "节次,星期一,星期二,星期三\n1,线代 钱(1-16 一教201),,\n备注,网课 赵(1-16 线上),,\n"
    assert codes(parse(text)) == [(3, "grid_cell_unreadable")]


def test_a_grid_where_nothing_can_be_read_is_refused_in_one_line():
    text = "节次,星期一,星期二,星期三\n1,线代,高数,英语\n2,线代,高数,英语\n3,物理,化学,生物\n"
    report = parse(text)
    assert codes(report) == [(1, "grid_export_unreadable")]
    assert report.problems[0].message.startswith("This looks like a grid timetable")


def test_a_grid_without_section_labels_is_refused_in_one_line():
    assert codes(parse("星期一,星期二,星期三\n线代 钱(1-16 一教201),,\n")) == [(1, "grid_export_unreadable")]


def test_an_empty_grid_has_no_courses():
    assert codes(parse("节次,星期一,星期二,星期三\n1,,,\n2, , ,\n")) == [(None, "no_courses")]


@pytest.mark.parametrize(("label", "expected"), [
    ("1(08:00-08:45)", (1, 1, (time(8, 0), time(8, 45)))),
    ("第3节", (3, 3, None)),
    ("第十一节", (11, 11, None)),
    ("1-2节", (1, 2, None)),
    ("第1节\n08:00\n08:45", (1, 1, (time(8, 0), time(8, 45)))),
    ("08:00～08:45", (None, None, (time(8, 0), time(8, 45)))),
])
def test_section_labels(label, expected):
    found = parse_label(label)
    assert found is not None and (found.first, found.last, found.span) == expected


@pytest.mark.parametrize("label", ["上午", "", "备注", "2025-2026学年"])
def test_text_that_is_no_section_label(label):
    assert parse_label(label) is None


@pytest.mark.parametrize(("cell", "expected"), [
    ("高等数学(下) 王(1-16 二教101)", [CellCourse("高等数学(下)", "王", "二教101", "1-16")]),
    ("体育 孙(1-16周)", [CellCourse("体育", "孙", "", "1-16")]),
    ("线代 钱（1-8,10-16 单周 一教201）", [CellCourse("线代", "钱", "一教201", "1-8,10-16 单")]),
    ("物理\n实验楼305\n刘\n第2-16周[03-04节]", [CellCourse("物理", "刘", "实验楼305", "第2-16")]),
    ("A\n甲\n1-8\n\nB\n乙\n9-16", [CellCourse("A", "甲", "", "1-8"), CellCourse("B", "乙", "", "9-16")]),
    # Full-width forms are read as ASCII; a Roman numeral is part of the name as written.
    ("形势与政策Ⅲ 吕一（９－１２ 三教３３０１）", [CellCourse("形势与政策Ⅲ", "吕一", "三教3301", "9-12")]),
    ("", []),
])
def test_cells(cell, expected):
    assert read_cell(cell) == expected


@pytest.mark.parametrize("cell", ["线代", "线代 钱(周一)", "线代 钱(1-16 一教) 多余", "线代\n钱\n一教"])
def test_cells_that_cannot_be_read(cell):
    assert read_cell(cell) is None


# --- Files of no known shape ------------------------------------------------------------------------

def test_a_csv_of_no_known_shape_is_refused_in_one_line():
    text = "日期,摘要,金额,余额\n2026-03-01,食堂,-12.5,300\n2026-03-02,超市,-30,270\n" * 5
    report = parse(text)
    assert codes(report) == [(None, "unknown_csv_shape")]
    assert "WakeUp" in report.problems[0].message


def test_a_headerless_wakeup_file_with_a_bad_first_row_is_still_read_as_wakeup():
    report = parse("数据结构,8,1,2,张,B401,1-16\n操作系统,3,3,4,李,B402,1-16\n")
    assert codes(report) == [(1, "invalid_day")]


def test_a_headerless_wakeup_row_outside_the_students_sections_is_its_own_problem():
    assert codes(parse("数据结构,3,13,14,张,B401,1-16\n")) == [(1, "unknown_section")] * 2


def test_a_grid_with_more_sections_than_the_students_reads_on_its_own_under_fit_file():
    labels = [f"{i}({8 + i - 1:02d}:00-{8 + i - 1:02d}:45)" for i in range(1, 15)]
    rows = ["节次,星期一,星期二,星期三"] + [f"{label},{'晚课 周(1-16 一教101)' if i >= 13 else ''},,"
                                         for i, label in enumerate(labels, start=1)]
    text = "\n".join(rows)
    on_file = parse(text, fit="file")
    assert summary(on_file) == [("晚课", 1, 13, 14, "1-16", "周", "一教101")]
    assert on_file.proposal is not None and len(on_file.proposal.sections or ()) == 14
    assert {p.code for p in parse(text, fit="mine").problems} == {"unknown_section"}


def test_short_grid_rows_are_read_without_a_crash():
    text = "节次,星期一,星期二,星期三\n1,线代 钱(1-16 一教201)\n2\n"
    assert summary(parse(text)) == [("线代", 1, 1, 1, "1-16", "钱", "一教201")]


def test_clock_rows_with_weeks_past_the_semester_keep_the_rest_with_a_notice():
    report = parse("课程名,星期几,开始时间,结束时间,周数\n高等数学,周一,08:00,09:40,1-18\n")
    assert [c.weeks_text for c in report.courses] == ["1-16"]
    assert [type(n).__name__ for n in report.notices] == ["WeeksClipped"]
