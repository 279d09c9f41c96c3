"""Quick add against QUICK-ADD.md: clock times as phones type them, make-up workdays,
holidays that name a thing, and months without a day. Pure: no database."""

from __future__ import annotations

from datetime import datetime

import pytest

from taskclasses.notes.core.quick_add import AmbiguityReason
from taskclasses.tests.notes.quick_add_cases import parse

FRIDAY_EVENING = datetime.fromisoformat("2026-05-08T21:45:00+08:00")


@pytest.mark.parametrize(
    ("text", "deadline", "title"),
    [
        ("下周五 8.30pm 羽毛球社活动", "2026-05-15T20:30:00+08:00", "羽毛球社活动"),  # a dot, not a date
        ("明天晚八 社团例会", "2026-05-09T20:00:00+08:00", "社团例会"),  # 晚八 as 早八
        ("周日晚 八点半 社团例会", "2026-05-10T20:30:00+08:00", "社团例会"),  # a lone 晚 after the day
        ("明天下五三点 线带作业", "2026-05-09T15:00:00+08:00", "线带作业"),  # 下五 typed for 下午
        ("明天晚上八点伴 开会", "2026-05-09T20:30:00+08:00", "开会"),  # 伴 typed for 半
        ("tomorow 9am call the bank", "2026-05-09T09:00:00+08:00", "call the bank"),
        ("十一前交大创项目申报书", "2026-10-01T23:59:00+08:00", "交大创项目申报书"),  # National Day
    ],
)
def test_clock_times_and_days_as_students_type_them(text: str, deadline: str, title: str) -> None:
    parsed = parse(text, now=FRIDAY_EVENING)

    assert (parsed.deadline, parsed.title) == (datetime.fromisoformat(deadline), title)


@pytest.mark.parametrize(("text", "title"), [("明天调休 下午去驿站拿快递", "去驿站拿快递"),
                                             ("tmr make-up workday, 9am 数电 lab", "数电 lab")])
def test_a_make_up_workday_dates_nothing_and_leaves_the_title(text: str, title: str) -> None:
    parsed = parse(text, now=FRIDAY_EVENING)

    assert (parsed.deadline is not None, parsed.title) == (True, title)


def test_the_make_up_day_itself_needs_the_holiday_calendar() -> None:
    parsed = parse("调休那天早八的线代小测", now=FRIDAY_EVENING)

    assert (parsed.deadline, parsed.ambiguous) == (None, True)


@pytest.mark.parametrize(("text", "title"), [("劳动节拍的照片 有空修一下", "劳动节拍的照片 修一下"),
                                             ("国庆回家的高铁票 尽快抢", "国庆回家的高铁票 抢"),
                                             ("假期拍的vlog 剪出来", "假期拍的vlog 剪出来")])
def test_a_holiday_that_says_which_thing_is_no_deadline(text: str, title: str) -> None:
    parsed = parse(text, now=FRIDAY_EVENING)

    assert (parsed.deadline, parsed.ambiguous, parsed.title) == (None, False, title)


@pytest.mark.parametrize("text", ["6月份毕业旅行 攻略做一下", "寒假 学会弹 卡农"])
def test_a_month_or_a_holiday_stretch_is_a_time_too_wide_to_date(text: str) -> None:
    parsed = parse(text, now=FRIDAY_EVENING)

    assert (parsed.deadline, parsed.ambiguous, parsed.quadrant) == (None, True, 4)


def test_a_month_naming_the_bill_is_not_a_time() -> None:
    parsed = parse("月底 交五月房租", now=datetime.fromisoformat("2026-04-30T19:45:00+08:00"))

    assert (parsed.deadline, parsed.title) == (datetime.fromisoformat("2026-04-30T23:59:00+08:00"), "交五月房租")


def test_an_exam_the_note_waits_for_stays_in_the_title_when_a_day_dates_it() -> None:
    parsed = parse("考完试聚餐 周五晚上六点半 小龙坎", now=datetime.fromisoformat("2027-01-06T09:00:00+08:00"))

    assert (parsed.deadline, parsed.title, parsed.quadrant) == (
        datetime.fromisoformat("2027-01-08T18:30:00+08:00"), "考完试聚餐 小龙坎", 3)


def test_weekday_is_today_refusal_names_its_reason() -> None:
    parsed = parse("周五交实习周记", now=datetime.fromisoformat("2026-10-09T09:00:00+08:00"))

    assert (parsed.ambiguity_reason, len(parsed.readings)) == (AmbiguityReason.WEEKDAY_IS_TODAY, 2)
