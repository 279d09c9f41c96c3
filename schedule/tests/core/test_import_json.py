import json
from dataclasses import replace
from datetime import date
from pathlib import Path

from schedule.core.importers import (
    FORMAT_ID,
    ImportedCourse,
    ParseReport,
    dump_json,
    parse_timetable,
)
from schedule.core.time_model import SectionTemplate, Semester

SEMESTER = Semester(date(2026, 3, 2), 20)
TEMPLATE = SectionTemplate.default_cqupt()
DEMO = Path(__file__).resolve().parents[2] / "demo_data" / "demo_timetable.csv"
MATH = {
    "name": "高等数学A(下)",
    "teacher": "王建华",
    "location": "二教2305",
    "day": 1,
    "start_section": 1,
    "end_section": 2,
    "weeks": "1-16",
}


def parse(document: object) -> ParseReport:
    data = (
        document
        if isinstance(document, bytes)
        else json.dumps(document, ensure_ascii=False).encode()
    )
    return parse_timetable(data, "json", SEMESTER, TEMPLATE)


def timetable(*courses: object) -> dict:
    return {"format": FORMAT_ID, "courses": list(courses)}


def without_rows(courses: tuple[ImportedCourse, ...]) -> list[ImportedCourse]:
    return sorted(
        (replace(c, row=0) for c in courses), key=lambda c: (c.day, c.start_section, c.weeks)
    )


def only_problem(report: ParseReport) -> tuple:
    assert len(report.problems) == 1, report.problems
    found = report.problems[0]
    return found.row, found.field, found.code, found.message


def test_a_smartmate_timetable_is_read_into_courses():
    report = parse(timetable(MATH))
    assert report.courses == (
        ImportedCourse(1, "高等数学A(下)", 1, 1, 2, tuple(range(1, 17)), "王建华", "二教2305"),
    )


def test_weeks_may_be_a_list_of_numbers():
    assert parse(timetable({**MATH, "weeks": [1, 3, 5]})).courses[0].weeks == (1, 3, 5)


def test_a_day_may_be_a_chinese_name_and_a_course_may_be_a_filler():
    course = parse(timetable({**MATH, "day": "周三", "is_filler": True})).courses[0]
    assert (course.day, course.is_filler) == (3, True)


def test_unknown_keys_are_ignored():
    assert parse(timetable({**MATH, "color": "#ff0000"})).ok


def test_dumped_courses_read_back_unchanged_except_for_their_rows():
    courses = parse_timetable(DEMO.read_bytes(), "csv", SEMESTER, TEMPLATE).courses
    assert without_rows(parse(dump_json(courses)).courses) == without_rows(courses)


def test_dump_json_writes_weeks_compactly_and_chinese_readably():
    course = ImportedCourse(1, "线性代数", 5, 1, 2, (1, 3, 5, 7), "陈志强", "二教2412")
    assert json.loads(dump_json([course]))["courses"][0]["weeks"] == "1-7单"
    assert "线性代数" in dump_json([course]).decode("utf-8")


def test_invalid_json_is_reported_with_its_line():
    assert only_problem(parse(b'{"format": "smartmate-timetable/1",\n "courses": [}')) == (
        2,
        None,
        "invalid_json",
        "The file is not valid JSON: Expecting value at line 2, column 14.",
    )


def test_a_document_in_another_format_is_refused():
    assert only_problem(parse({"format": "other/2", "courses": []})) == (
        None,
        None,
        "unknown_json_format",
        'Expected a JSON object with "format": "smartmate-timetable/1" and a "courses" list.',
    )


def test_a_top_level_list_is_refused():
    assert only_problem(parse([MATH]))[2] == "unknown_json_format"


def test_an_entry_that_is_not_an_object_is_reported_with_its_position():
    assert only_problem(parse(timetable(MATH, "高数"))) == (
        2,
        "course",
        "invalid_value",
        "course has an unreadable value '高数'.",
    )


def test_a_missing_field_is_reported_with_its_position():
    course = {k: v for k, v in MATH.items() if k != "start_section"}
    assert only_problem(parse(timetable(MATH, {**course, "day": 2}))) == (
        2,
        "start_section",
        "missing_value",
        "start_section is empty.",
    )


def test_weeks_as_a_list_of_non_numbers_are_reported():
    assert only_problem(parse(timetable({**MATH, "weeks": ["1-16"]})))[1:3] == (
        "weeks",
        "invalid_value",
    )


def test_an_unreadable_filler_flag_is_reported():
    assert only_problem(parse(timetable({**MATH, "is_filler": "maybe"})))[1:3] == (
        "is_filler",
        "invalid_value",
    )


def test_an_empty_course_list_has_no_courses():
    assert only_problem(parse(timetable()))[2:] == ("no_courses", "The file contains no courses.")


def test_of_rows_of_the_same_file_that_clash_the_later_is_kept_beside():
    report = parse(timetable(MATH, {**MATH, "name": "英语", "weeks": "2"}))
    assert report.skipped == ()
    assert [(c.name, c.weeks_text, c.beside) for c in report.courses] == [(MATH["name"], "1-16", False),
                                                                          ("英语", "2", True)]


def test_the_original_products_course_format_is_read():
    original = {
        "courses": [
            {
                "course_name": "形势与政策",
                "location": "二教1101",
                "is_allow_tasks": True,
                "arrangements": [
                    {
                        "start_week": 1,
                        "end_week": 8,
                        "day_of_week": 1,
                        "start_section": 9,
                        "end_section": 10,
                        "week_type": "all",
                    },
                    {
                        "start_week": 1,
                        "end_week": 16,
                        "day_of_week": 3,
                        "start_section": 9,
                        "end_section": 10,
                        "week_type": "even",
                    },
                ],
            }
        ]
    }
    report = parse(original)
    assert [(c.row, c.day, c.weeks_text, c.is_filler) for c in report.courses] == [
        (1, 1, "1-8", True),
        (1, 3, "2-16双", True),
    ]


def test_an_unknown_week_type_in_the_original_format_is_reported():
    original = {
        "courses": [
            {
                "course_name": "体育",
                "arrangements": [
                    {
                        "start_week": 1,
                        "end_week": 16,
                        "day_of_week": 2,
                        "start_section": 5,
                        "end_section": 6,
                        "week_type": "sometimes",
                    }
                ],
            }
        ]
    }
    assert only_problem(parse(original))[1:3] == ("weeks", "invalid_weeks")
