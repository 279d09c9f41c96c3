"""A make-up-day notice read as schools write it; two clear dates or nothing guessed."""

from __future__ import annotations

from datetime import date

import pytest

from schedule.core.makeup_notice import MakeupNotice, NoticeError, NoticeProblem, makeup_notice_parse

NEAR = date(2026, 11, 15)  # the middle of an autumn semester


@pytest.mark.parametrize("text", [
    "12-13 补 12-11 的课",
    "12月13日（周日）上12月11日（周五）的课",
    "12月13日(星期日)按12月11日(星期五)课表上课",
    "12.13补12.11",
    "2026年12月13日补2026年12月11日课程",
    "12月11日（周五）的课调到12月13日（周日）上",
    "12月11日的课程移至12月13日",
    "12月11日放假，12月13日补课",
])
def test_each_common_shape_gives_the_makeup_day_and_the_day_it_runs(text):
    assert makeup_notice_parse(text, near=NEAR) == MakeupNotice(on=date(2026, 12, 13), runs=date(2026, 12, 11))


def test_a_january_notice_of_an_autumn_semester_lands_in_the_next_year():
    assert makeup_notice_parse("1月9日（周六）补1月1日（周五）的课", near=NEAR) == \
        MakeupNotice(on=date(2027, 1, 9), runs=date(2027, 1, 1))


@pytest.mark.parametrize(("text", "code"), [
    ("12月13日补课", NoticeProblem.NOT_TWO_DATES),
    ("12-13、12-14 补 12-11 的课", NoticeProblem.NOT_TWO_DATES),
    ("2-30 补 2-27 的课", NoticeProblem.BAD_DATE),
    ("12月13日（周一）上12月11日的课", NoticeProblem.WEEKDAY_MISMATCH),
    ("12-13 补 12-13 的课", NoticeProblem.SAME_DAY),
    ("", NoticeProblem.NOT_TWO_DATES),
])
def test_what_cannot_be_read_for_sure_is_refused_with_a_code(text, code):
    with pytest.raises(NoticeError) as refused:
        makeup_notice_parse(text, near=NEAR)
    assert refused.value.code == code
