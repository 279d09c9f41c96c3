from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from schedule.core.importers import (
    MAX_IMPORT_BYTES,
    ImportedCourse,
    ParseReport,
    find_clashes,
    parse_timetable,
)
from schedule.core.importers.notices import MergedDuplicate, WeeksClipped
from schedule.core.time_model import SectionTemplate, Semester, SlotKey

DEMO = Path(__file__).resolve().parents[2] / "demo_data" / "demo_timetable.csv"
HEADER = "课程名称,星期,开始节数,结束节数,老师,地点,周数\n"
SEMESTER = Semester(date(2026, 3, 2), 20)
TEMPLATE = SectionTemplate.default_cqupt()


def parse(text: str | bytes) -> ParseReport:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse_timetable(data, "csv", SEMESTER, TEMPLATE)


def only_problem(report: ParseReport) -> tuple:
    assert len(report.problems) == 1, report.problems
    found = report.problems[0]
    return found.row, found.field, found.code, found.message


# The demo fixture


def test_the_demo_timetable_parses_without_problems():
    report = parse(DEMO.read_bytes())
    assert report.ok, report.problems
    assert len(report.courses) == 24


def test_the_demo_timetable_fills_twenty_to_thirty_sections_every_teaching_week():
    per_week = Counter(key.week for key in parse(DEMO.read_bytes()).slot_keys())
    assert sorted(per_week) == list(range(1, 17))
    assert all(20 <= count <= 30 for count in per_week.values()), per_week


def test_the_demo_timetable_has_odd_and_even_week_courses():
    texts = {course.weeks_text for course in parse(DEMO.read_bytes()).courses}
    assert {"1-15单", "2-16双", "1,3,5-7"} <= texts


def test_a_row_is_read_into_a_course_with_its_source_row():
    report = parse(HEADER + "高等数学A(下),1,1,2,王建华,二教2305,1-16单\n")
    assert report.courses == (
        ImportedCourse(2, "高等数学A(下)", 1, 1, 2, tuple(range(1, 17, 2)), "王建华", "二教2305"),
    )


def test_occurrences_expand_a_course_into_one_block_per_week_in_time_order():
    report = parse(HEADER + "线性代数,2,3,4,陈,二教,2-6双\n高数,1,1,2,王,二教,3\n")
    assert [(o.week, o.day, o.course.name) for o in report.occurrences()] == [
        (2, 2, "线性代数"),
        (3, 1, "高数"),
        (4, 2, "线性代数"),
        (6, 2, "线性代数"),
    ]


# Encodings and size


def test_a_utf8_file_with_a_byte_order_mark_is_read():
    report = parse(b"\xef\xbb\xbf" + (HEADER + "体育,2,5,6,孙伟,风华运动场,1-16\n").encode())
    assert report.ok and report.courses[0].name == "体育"


def test_a_gbk_file_saved_by_excel_is_read():
    report = parse((HEADER + "大学物理,3,3,4,刘海燕,二教3108,1-16\n").encode("gbk"))
    assert report.ok and report.courses[0].location == "二教3108"


def test_the_demo_timetable_saved_as_gbk_reads_the_same_as_utf8():
    utf8 = DEMO.read_bytes()
    assert parse(utf8.decode("utf-8").encode("gbk")).courses == parse(utf8).courses


def test_a_big5_file_from_taiwan_or_hong_kong_is_read_as_big5_not_as_gbk_noise():
    from schedule.core.importers.decoding import decode_text

    text = "SUMMARY:微積分(一)\nLOCATION:理工大樓 E301\nDESCRIPTION:授課教師：王大明\n台灣文學欣賞 人文館 H101\n"
    assert decode_text(text.encode("big5")) == text
    assert decode_text("高等数学 二教3108 刘海燕".encode("gbk")) == "高等数学 二教3108 刘海燕"


def test_utf8_with_a_damaged_byte_is_refused_rather_than_read_as_gbk_mojibake():
    damaged = (
        (HEADER + "高等数学,1,1,2,王建华,二教2305,1-16\n").encode()[:-12] + b"\xff" + b"305,1-16\n"
    )
    assert only_problem(parse(damaged))[2] == "undecodable"


def test_a_utf16_file_with_a_byte_order_mark_is_read():
    report = parse((HEADER + "体育,2,5,6,孙伟,操场,1-16\n").encode("utf-16"))
    assert report.ok and report.courses[0].teacher == "孙伟"


def test_pasted_cells_give_the_course_name_and_teachers_without_codes_or_titles():
    report = parse(HEADER + '【TRA2101】交通工程学,1,1,2,刘洋 副教授,南校区 交通楼305 ,1-16\n'
                   '道路勘测设计,2,5,6,"张敏,李强",土木楼 B-210,1-15单\n'
                   '交通运输经济学,4,9,10,Prof. 赵晨,线上（腾讯会议）,1-8\n')
    assert report.ok
    assert [(c.name, c.teacher, c.location) for c in report.courses] == [
        ("交通工程学", "刘洋", "南校区 交通楼305"),
        ("道路勘测设计", "张敏、李强", "土木楼 B-210"),
        ("交通运输经济学", "赵晨", "线上（腾讯会议）"),
    ]


def test_a_binary_file_is_not_readable_text():
    assert only_problem(parse(b"PK\x03\x04\x00\x00binary\xff\xfe\x00")) == (
        None,
        None,
        "undecodable",
        "The file is not readable text; save it as UTF-8 (or GBK) and try again.",
    )


def test_a_file_over_the_size_limit_is_refused_before_reading():
    data = (HEADER + "x" * MAX_IMPORT_BYTES).encode()
    assert only_problem(parse(data)) == (
        None,
        None,
        "file_too_large",
        f"The file is {len(data)} bytes; imports are limited to 1048576 bytes.",
    )


def test_an_empty_file_is_refused():
    assert only_problem(parse(b"  \n")) == (None, None, "empty_file", "The file is empty.")


def test_a_header_without_rows_has_no_courses():
    assert only_problem(parse(HEADER)) == (
        None,
        None,
        "no_courses",
        "The file contains no courses.",
    )


# Layout


def test_without_a_header_the_wakeup_column_order_is_assumed():
    report = parse("数据结构,3,1,2,张永,B401,1-16\n")
    assert report.courses[0].row == 1 and report.courses[0].location == "B401"


def test_header_columns_may_come_in_any_order_and_in_english():
    report = parse("Weeks,Name,Day,Start Section,End Section,Room\n1-8,Calculus,Mon,1,2,A101\n")
    course = report.courses[0]
    assert (course.name, course.day, course.weeks, course.location) == (
        "Calculus",
        1,
        tuple(range(1, 9)),
        "A101",
    )


def test_a_header_missing_a_required_column_is_reported_on_row_one():
    assert only_problem(parse("课程名称,星期,开始节数,结束节数\n高数,1,1,2\n")) == (
        1,
        "weeks",
        "missing_column",
        'The header has no "周数" column (weeks).',
    )


def test_blank_lines_are_skipped_but_rows_keep_their_line_numbers():
    report = parse(HEADER + "\n高数,1,1,2,王,二教,1-16\n\n,,,,,,\n英语,1,3,4,李,三教,1-16\n")
    assert [c.row for c in report.courses] == [3, 6]


def test_tab_separated_text_is_read():
    report = parse(HEADER.replace(",", "\t") + "高数\t1\t1\t2\t王\t二教\t1-16\n")
    assert report.ok and report.courses[0].name == "高数"


def test_weeks_with_commas_in_quotes_are_read():
    report = parse(HEADER + '习题课,6,3,4,王,二教,"1,3,5-7"\n')
    assert report.courses[0].weeks == (1, 3, 5, 6, 7)


def test_a_filler_column_marks_filler_courses():
    report = parse(
        "课程名称,星期,开始节数,结束节数,周数,水课\n形势与政策,1,9,10,1-8,是\n高数,1,1,2,1-16,否\n"
    )
    assert [c.is_filler for c in report.courses] == [True, False]


@pytest.mark.parametrize(
    ("day", "number"),
    [("周一", 1), ("星期三", 3), ("礼拜天", 7), ("周日", 7), ("7", 7), ("Fri", 5)],
)
def test_days_may_be_numbers_or_chinese_or_english_names(day, number):
    assert parse(HEADER + f"高数,{day},1,2,王,二教,1-16\n").courses[0].day == number


# Row problems


def test_a_day_outside_one_to_seven_is_reported_with_its_row():
    assert only_problem(parse(HEADER + "高数,8,1,2,王,二教,1-16\n")) == (
        2,
        "day",
        "invalid_day",
        "'8' is not a day of the week; use 1-7 (1 = Monday) or 周一..周日.",
    )


def test_a_section_outside_the_template_is_reported():
    assert only_problem(parse(HEADER + "晚课,1,11,13,王,二教,1-16\n")) == (
        2,
        "end_section",
        "unknown_section",
        "Section 13 is outside the section template (sections 1..12).",
    )


def test_a_section_that_is_not_a_number_is_reported():
    assert only_problem(parse(HEADER + "高数,1,一,2,王,二教,1-16\n")) == (
        2,
        "start_section",
        "invalid_section",
        "start_section '一' is not a section number.",
    )


def test_sections_that_run_backwards_are_reported():
    assert only_problem(parse(HEADER + "高数,1,4,3,王,二教,1-16\n")) == (
        2,
        "end_section",
        "reversed_sections",
        "The course starts at section 4 but ends at section 3.",
    )


def test_weeks_beyond_the_semester_are_left_out_with_a_notice():
    report = parse(HEADER + "高数,1,1,2,王,二教,1-24\n")
    assert [c.weeks_text for c in report.courses] == ["1-20"]
    assert report.notices == (WeeksClipped(2, "高数", (21, 22, 23, 24), 20),)


def test_weeks_entirely_after_the_semester_are_reported_with_the_week_spec_code():
    assert only_problem(parse(HEADER + "高数,1,1,2,王,二教,22-24\n")) == (
        2,
        "weeks",
        "week_out_of_range",
        "Week 24 is outside the semester (weeks 1..20).",
    )


def test_week_zero_is_reported_not_clipped():
    assert only_problem(parse(HEADER + "高数,1,1,2,王,二教,0-16\n"))[2] == "week_out_of_range"


def test_a_row_without_a_name_is_reported():
    assert only_problem(parse(HEADER + ",1,1,2,王,二教,1-16\n")) == (
        2,
        "name",
        "missing_value",
        "name is empty.",
    )


def test_a_short_row_reports_its_missing_weeks():
    assert only_problem(parse(HEADER + "高数,1,1,2\n")) == (
        2,
        "weeks",
        "empty_weeks",
        "No weeks given.",
    )


def test_every_bad_row_is_reported_and_nothing_is_half_accepted():
    report = parse(HEADER + "高数,1,1,2,王,二教,1-16\n坏,9,1,2,,,1-16\n也坏,1,1,2,,,abc\n")
    assert not report.ok
    assert [(p.row, p.code) for p in report.problems] == [(3, "invalid_day"), (4, "invalid_weeks")]


# Clashes


def test_a_row_at_the_same_time_as_an_earlier_row_is_kept_beside_it_naming_it():
    report = parse(HEADER + "高数,1,1,2,王,二教,1-16\n英语,周一,2,3,李,三教,1-16单\n")
    assert [(c.name, c.weeks_text, c.beside) for c in report.courses] == [("高数", "1-16", False), ("英语", "1-15单", True)]
    assert report.skipped == ()
    assert [n.message for n in report.notices] == [
        "英语 meets at the same time as 高数 in weeks 1-15单; both are kept, side by side."]


def test_a_row_clashing_in_some_weeks_holds_its_sections_in_its_other_weeks():
    report = parse(HEADER + "高数,1,1,2,王,二教,1-8\n英语,周一,1,2,李,三教,1-16\n")
    assert [(c.name, c.weeks_text, c.beside) for c in report.courses] == [
        ("高数", "1-8", False), ("英语", "1-8", True), ("英语", "9-16", False)]
    beside = report.courses[1]
    assert beside.occurrences()[0].slot_keys() == ()  # shown beside 高数, it holds no sections


def test_odd_and_even_week_courses_on_the_same_sections_do_not_clash():
    report = parse(HEADER + "线代,5,1,2,陈,二教,1-16单\n概率,5,1,2,杨,二教,2-16双\n")
    assert report.ok


def test_a_duplicated_row_is_merged_into_its_original_with_a_notice():
    report = parse(HEADER + "高数,1,1,2,王,二教,1-16\n" + "高数,1,1,2,王,二教,9-18\n")
    assert report.ok
    assert [(c.row, c.weeks_text) for c in report.courses] == [(2, "1-18")]
    assert report.notices == (MergedDuplicate(2, "高数", 3, tuple(range(9, 17))),)


def test_the_same_course_in_other_weeks_is_kept_as_its_own_row_without_a_notice():
    report = parse(HEADER + "高数,1,1,2,王,二教,1-8\n" + "高数,1,1,2,王,二教,9-16\n")
    assert [c.row for c in report.courses] == [2, 3]
    assert report.notices == ()


def test_a_repeat_in_another_room_is_shown_beside_not_merged():
    report = parse(HEADER + "高数,1,1,2,王,二教,1-16\n" + "高数,1,1,2,王,三教,1-16\n")
    assert [(c.location, c.beside) for c in report.courses] == [("二教", False), ("三教", True)]


def test_find_clashes_lists_meetings_on_slots_already_taken():
    report = parse(HEADER + "高数,1,1,2,王,二教,1-4\n")
    clashes = find_clashes(
        report.occurrences(), {SlotKey(3, 1, 2), SlotKey(4, 1, 2), SlotKey(3, 2, 1)}
    )
    assert [(p.row, p.code, p.message) for p in clashes] == [
        (
            2,
            "clash_with_existing",
            "高数 clashes with an existing entry on Monday, section 2, weeks 3-4.",
        )
    ]


def test_find_clashes_names_the_occupants_when_given_a_mapping():
    report = parse(HEADER + "高数,1,1,2,王,二教,1-4\n")
    clashes = find_clashes(
        report.occurrences(), {(2, 1, 1): "概率论复习 #1", (2, 1, 2): "概率论复习 #1"}
    )
    assert clashes[0].message == "高数 clashes with 概率论复习 #1 on Monday, sections 1-2, weeks 2."


def test_find_clashes_is_empty_when_nothing_is_taken():
    assert find_clashes(parse(DEMO.read_bytes()).occurrences(), set()) == ()


def test_an_unknown_format_is_reported():
    report = parse_timetable(b"x", "xlsx", SEMESTER, TEMPLATE)  # type: ignore[arg-type]
    assert only_problem(report) == (
        None,
        None,
        "unknown_format",
        "Unknown timetable format 'xlsx'; use csv, ics or json.",
    )
