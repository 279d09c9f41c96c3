"""Quick-add parsing: the phrase fixture's exact-match rates and the rules behind them.

Pure tests: no database, no Django settings. Run with
    python -m pytest taskclasses/tests/notes/test_quick_add.py -p no:django
"""

from __future__ import annotations

import ast
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bench.quick_add_report import (
    DEFAULT_FIXTURE,
    FIELDS,
    FixtureReport,
    evaluate,
    format_report,
    load_phrases,
    main,
)
from taskclasses.notes.core.quick_add import (
    AmbiguityReason,
    NoDeadlineReason,
    QuadrantReason,
    lesson_keyword,
    matching_keyword,
    parse_quick_note,
    quadrant_from_lesson,
)
from taskclasses.tests.notes.quick_add_cases import SHANGHAI, WEDNESDAY, parse

SATURDAY = datetime.fromisoformat("2026-03-14T09:00:00+08:00")
SUNDAY_EVENING = datetime.fromisoformat("2026-03-15T21:00:00+08:00")
MONDAY = datetime.fromisoformat("2026-03-16T09:00:00+08:00")
PHRASES = load_phrases()



def at(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


@pytest.fixture(scope="module")
def report() -> FixtureReport:
    return evaluate(PHRASES)


# --- the fixture as a whole -------------------------------------------------------------------


def test_fixture_has_at_least_150_phrases_about_60_percent_chinese() -> None:
    chinese = sum(1 for phrase in PHRASES if phrase["lang"] == "zh")

    assert len(PHRASES) >= 150
    assert 0.55 <= chinese / len(PHRASES) <= 0.65


@pytest.mark.parametrize("field", [*FIELDS, None], ids=[*FIELDS, "all_fields"])
def test_fixture_exact_match_rate_is_at_least_95_percent(report: FixtureReport, field: str | None) -> None:
    assert report.rate(field) >= 0.95, format_report(report)


def test_no_phrase_the_fixture_calls_ambiguous_gets_a_date(report: FixtureReport) -> None:
    assert report.ambiguous_phrases_dated == ()


@pytest.mark.parametrize("phrase", PHRASES, ids=[phrase["id"] for phrase in PHRASES])
def test_every_fixture_phrase_keeps_the_result_invariants(phrase: dict[str, object]) -> None:
    parsed = parse(str(phrase["text"]), now=at(str(phrase["now"])))

    assert (parsed.deadline is None) == (parsed.no_deadline_reason is not None)
    assert not (parsed.ambiguous and parsed.deadline)
    assert parsed.ambiguous == (parsed.ambiguity_reason is not None)
    assert not (parsed.readings and not parsed.ambiguous)  # readings are offered instead of a date, never beside one
    assert [reading.deadline for reading in parsed.readings] == sorted({r.deadline for r in parsed.readings})
    assert parsed.confidence == 0.0 if parsed.ambiguous else parsed.confidence in (0.8, 1.0)
    if parsed.deadline is not None:
        assert parsed.deadline.tzinfo == ZoneInfo(SHANGHAI)
        assert parsed.urgency_threshold_at is not None
        assert parsed.urgency_threshold_at <= parsed.deadline


def test_report_lists_each_mismatch_with_expected_and_actual(tmp_path: Path) -> None:
    fixture = tmp_path / "phrases.json"
    fixture.write_text(
        '{"phrases": [{"id": "x-1", "lang": "zh", "now": "2026-03-11T10:15:00+08:00", "text": "明天交作业",'
        ' "expected": {"deadline": null, "ambiguous": false, "title": "交作业", "quadrant": 1}}]}',
        encoding="utf-8",
    )

    text = format_report(evaluate(load_phrases(fixture)))

    assert "- x-1 [2026-03-11T10:15:00+08:00] '明天交作业'" in text
    assert "deadline: expected None, got '2026-03-12T23:59:00+08:00'" in text


def test_report_exits_zero_on_the_committed_fixture(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(DEFAULT_FIXTURE)]) == 0
    assert "ambiguous phrases given a date: 0" in capsys.readouterr().out


# --- weeks and weekdays -----------------------------------------------------------------------


def test_next_week_sunday_means_sunday_of_next_week() -> None:
    parsed = parse("下周日之前交概率论作业")

    assert parsed.deadline == at("2026-03-22T23:59:00+08:00")  # not this week's 03-15
    assert parsed.deadline_text == "下周日之前"


def test_next_week_sunday_said_on_a_sunday_is_a_week_later() -> None:
    assert parse("下周日交", now=SUNDAY_EVENING).deadline == at("2026-03-22T23:59:00+08:00")


def test_doubled_week_prefix_still_means_next_week() -> None:
    assert parse("下周周日之前交作业").deadline == at("2026-03-22T23:59:00+08:00")


def test_week_after_next_is_two_weeks_ahead() -> None:
    assert parse("下下周三交课程设计").deadline == at("2026-03-25T23:59:00+08:00")


def test_bare_weekday_already_passed_means_the_next_one() -> None:
    assert parse("周一交请假条").deadline == at("2026-03-16T23:59:00+08:00")


def test_bare_weekday_today_with_a_passed_time_moves_a_week() -> None:
    evening = datetime.fromisoformat("2026-03-11T16:00:00+08:00")

    assert parse("周三下午3点开会", now=evening).deadline == at("2026-03-18T15:00:00+08:00")


def test_this_week_weekday_already_passed_is_kept_and_flagged_past() -> None:
    parsed = parse("这周五前交团费", now=SATURDAY)

    assert parsed.deadline == at("2026-03-13T23:59:00+08:00")
    assert parsed.is_past
    assert not parsed.ambiguous


def test_before_the_weekend_means_by_its_sunday() -> None:
    # Product promise (tuning4): "X前 / before X" is the end of day X, and the weekend ends on Sunday.
    assert parse("周末前交周记").deadline == at("2026-03-15T23:59:00+08:00")
    assert parse("下周末之前整理实验数据").deadline == at("2026-03-22T23:59:00+08:00")
    assert parse("Read two papers before the weekend").deadline == at("2026-03-15T23:59:00+08:00")
    assert parse("这周末打扫宿舍").deadline == at("2026-03-15T23:59:00+08:00")


def test_this_weekend_said_on_sunday_evening_is_today() -> None:
    assert parse("这周末打扫宿舍", now=SUNDAY_EVENING).deadline == at("2026-03-15T23:59:00+08:00")
    assert parse("this weekend do laundry", now=SUNDAY_EVENING).deadline == at("2026-03-15T23:59:00+08:00")


@pytest.mark.parametrize("text", ["周末打扫宿舍", "weekend: do laundry"])
def test_weekend_alone_said_on_sunday_offers_today_and_next_sunday(text: str) -> None:
    parsed = parse(text, now=SUNDAY_EVENING)

    assert (parsed.deadline, parsed.ambiguity_reason) == (None, AmbiguityReason.WEEKEND)
    assert [reading.deadline for reading in parsed.readings] == [
        at("2026-03-15T23:59:00+08:00"), at("2026-03-22T23:59:00+08:00")]
    assert parsed.confidence == 0.0


def test_weekend_alone_said_on_a_wednesday_offers_saturday_and_sunday() -> None:
    parsed = parse("周末晚上 聚餐")

    assert [reading.deadline for reading in parsed.readings] == [
        at("2026-03-14T20:00:00+08:00"), at("2026-03-15T20:00:00+08:00")]
    assert all(reading.has_time and not reading.is_past for reading in parsed.readings)


@pytest.mark.parametrize("now", [SATURDAY, SUNDAY_EVENING], ids=["saturday", "sunday"])
@pytest.mark.parametrize("text", ["周末之前交读书笔记", "周末前交周报", "before the weekend: return the projector"])
def test_before_the_weekend_said_on_the_weekend_is_never_in_the_past(text: str, now: datetime) -> None:
    parsed = parse(text, now=now)

    assert parsed.deadline == at("2026-03-15T23:59:00+08:00")  # this weekend's Sunday: still ahead
    assert not parsed.is_past
    assert parsed.quadrant in (1, 3)  # due within 48 h


def test_english_next_friday_is_friday_of_next_week() -> None:
    assert parse("Report due next Friday", now=MONDAY).deadline == at("2026-03-27T23:59:00+08:00")


def test_english_this_friday_said_on_saturday_offers_the_past_friday_and_the_coming_one() -> None:
    parsed = parse("Pay tuition this Friday", now=SATURDAY)

    assert (parsed.deadline, parsed.ambiguity_reason) == (None, AmbiguityReason.WEEKDAY_PASSED)
    assert [(reading.deadline, reading.is_past) for reading in parsed.readings] == [
        (at("2026-03-13T23:59:00+08:00"), True), (at("2026-03-20T23:59:00+08:00"), False)]


@pytest.mark.parametrize("text", ["周三交英语作文", "周三前交英语作文", "essay due wed"])
def test_a_bare_weekday_that_is_today_without_a_time_offers_today_and_next_week(text: str) -> None:
    parsed = parse(text)  # said on Wednesday 10:15

    assert (parsed.deadline, parsed.ambiguity_reason) == (None, AmbiguityReason.WEEKDAY_IS_TODAY)
    assert [reading.deadline for reading in parsed.readings] == [
        at("2026-03-11T23:59:00+08:00"), at("2026-03-18T23:59:00+08:00")]


def test_a_bare_weekday_that_is_today_with_a_time_ahead_is_today() -> None:
    parsed = parse("周三下午3点交英语作文")

    assert (parsed.deadline, parsed.readings, parsed.confidence) == (at("2026-03-11T15:00:00+08:00"), (), 1.0)


def test_a_bare_weekday_that_is_today_with_a_time_gone_is_next_week_by_convention() -> None:
    parsed = parse("周三早上8点交英语作文")

    assert (parsed.deadline, parsed.confidence) == (at("2026-03-18T08:00:00+08:00"), 0.8)


def test_two_named_days_are_offered_as_readings() -> None:
    parsed = parse("明天或者后天去取快递")

    assert [reading.deadline for reading in parsed.readings] == [
        at("2026-03-12T23:59:00+08:00"), at("2026-03-13T23:59:00+08:00")]


# --- days, times and their defaults -----------------------------------------------------------


def test_date_only_deadline_is_end_of_day_without_a_time() -> None:
    parsed = parse("明天交计网实验报告")

    assert parsed.deadline == at("2026-03-12T23:59:00+08:00")
    assert not parsed.has_time


def test_clock_time_sets_the_time_of_day() -> None:
    parsed = parse("明天下午3点开组会")

    assert parsed.deadline == at("2026-03-12T15:00:00+08:00")
    assert parsed.has_time


def test_evening_without_a_clock_means_eight_pm() -> None:
    assert parse("后天晚上看电影").deadline == at("2026-03-13T20:00:00+08:00")


def test_midnight_tonight_is_the_last_minute_of_today() -> None:
    assert parse("今晚12点前交作业").deadline == at("2026-03-11T23:59:00+08:00")


def test_bare_afternoon_hour_is_read_as_pm() -> None:
    assert parse("明天3点开组会").deadline == at("2026-03-12T15:00:00+08:00")


def test_time_alone_already_past_means_tomorrow() -> None:
    assert parse("Pick up package at 9am").deadline == at("2026-03-12T09:00:00+08:00")


def test_yi_dian_meaning_a_bit_is_not_one_oclock() -> None:
    parsed = parse("快一点交作业")

    assert parsed.deadline is None
    assert parsed.title == "快一点交作业"


def test_month_end_is_a_day_but_the_start_and_middle_are_ranges() -> None:
    assert parse("月底前交论文初稿").deadline == at("2026-03-31T23:59:00+08:00")
    for text in ("下个月初交实习证明", "月中交社会实践报告", "下旬去办签证", "月中左右还信用卡",
                 "early next month visit grandma", "pay the bill mid next month", "clean the fridge mid-April",
                 "beginning of next month renew the bus pass", "下半月交房租"):
        parsed = parse(text)
        assert (parsed.deadline, parsed.ambiguity_reason) == (None, AmbiguityReason.VAGUE_TIME), text
    assert parse("月中左右还信用卡").title == "还信用卡"
    assert parse("late next month submit the form").title == "submit the form"


def test_day_of_month_already_passed_means_next_month() -> None:
    assert parse("5号之前还书").deadline == at("2026-04-05T23:59:00+08:00")


def test_explicit_month_day_long_past_means_next_year() -> None:
    december = datetime.fromisoformat("2026-12-28T14:00:00+08:00")

    assert parse("1月5日考线代", now=december).deadline == at("2027-01-05T23:59:00+08:00")


def test_relative_days_and_hours() -> None:
    assert parse("3天后考试").deadline == at("2026-03-14T23:59:00+08:00")
    assert parse("in 2 hours call back").deadline == at("2026-03-11T12:15:00+08:00")


def test_slash_date_in_english_is_ambiguous_unless_a_part_exceeds_twelve() -> None:
    assert parse("Submit form 12/5").ambiguity_reason is AmbiguityReason.DAY_MONTH_ORDER
    assert parse("Submit form 25/3").deadline == at("2026-03-25T23:59:00+08:00")


def test_slash_date_in_chinese_text_is_month_then_day() -> None:
    assert parse("12/5交报告").deadline == at("2026-12-05T23:59:00+08:00")


# --- refusing to guess ------------------------------------------------------------------------


def test_free_time_phrase_has_no_deadline() -> None:
    parsed = parse("有空的时候整理桌面")

    assert parsed.deadline is None
    assert parsed.no_deadline_reason is NoDeadlineReason.FREE_TIME
    assert not parsed.ambiguous
    assert parsed.title == "整理桌面"
    assert parsed.quadrant == 3


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("改天去看电影", AmbiguityReason.VAGUE_TIME),
        ("过几天把充电宝还给室友", AmbiguityReason.VAGUE_TIME),
        ("Reply to Alex soon", AmbiguityReason.VAGUE_TIME),
        ("明天或者后天去银行", AmbiguityReason.CONFLICTING_DATES),
        ("下周末或者下下周去爬山", AmbiguityReason.WEEK_WITHOUT_DAY),  # 下下周 alone names no day
        ("下周去体检", AmbiguityReason.WEEK_WITHOUT_DAY),
        ("Learn React next month", AmbiguityReason.MONTH_WITHOUT_DAY),
        ("每周五交周报", AmbiguityReason.RECURRING),
        ("中秋回家", AmbiguityReason.MOVABLE_HOLIDAY),
        ("2026-13-45 25:99", AmbiguityReason.INVALID_DATE),
        ("下个月中旬交论文", AmbiguityReason.VAGUE_TIME),
    ],
)
def test_ambiguous_phrase_gets_no_date_and_a_flag(text: str, reason: AmbiguityReason) -> None:
    parsed = parse(text)

    assert parsed.deadline is None
    assert parsed.ambiguous
    assert parsed.ambiguity_reason is reason
    assert parsed.no_deadline_reason is NoDeadlineReason.AMBIGUOUS


def test_soft_vague_word_yields_to_a_date_in_the_same_note() -> None:
    assert parse("今天晚点交作业").deadline == at("2026-03-11T23:59:00+08:00")
    assert parse("call mom later today").deadline == at("2026-03-11T23:59:00+08:00")


def test_note_without_any_time_phrase_has_no_deadline_and_says_so() -> None:
    parsed = parse("整理桌面")

    assert parsed.deadline is None
    assert parsed.no_deadline_reason is NoDeadlineReason.NOT_GIVEN
    assert not parsed.ambiguous


# --- time zones -------------------------------------------------------------------------------


def test_deadline_is_timezone_aware_in_user_zone() -> None:
    parsed = parse("tomorrow 8pm call mom", tz="America/New_York", now=at("2026-03-11T10:15:00-05:00"))

    assert parsed.deadline == datetime(2026, 3, 12, 20, 0, tzinfo=ZoneInfo("America/New_York"))
    assert parsed.deadline is not None and parsed.deadline.tzinfo == ZoneInfo("America/New_York")


def test_now_given_in_utc_is_read_as_the_users_local_date() -> None:
    # 17:00 UTC on 03-11 is already 01:00 on 03-12 in Shanghai, so 明天 is 03-13.
    parsed = parse("明天交作业", now=datetime(2026, 3, 11, 17, 0, tzinfo=UTC))

    assert parsed.deadline == at("2026-03-13T23:59:00+08:00")


def test_relative_hours_across_a_dst_change_count_elapsed_time() -> None:
    new_york = ZoneInfo("America/New_York")
    before_spring_forward = datetime(2026, 3, 8, 1, 30, tzinfo=new_york)

    parsed = parse("in 2 hours", now=before_spring_forward, tz="America/New_York")

    assert parsed.deadline == datetime(2026, 3, 8, 4, 30, tzinfo=new_york)


def test_naive_now_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"^now must be timezone-aware$"):
        parse_quick_note("明天", now=datetime(2026, 3, 11, 10, 15), tz=SHANGHAI)


def test_unknown_time_zone_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"^unknown time zone: 'Mars/Olympus'$"):
        parse_quick_note("明天", now=WEDNESDAY, tz="Mars/Olympus")


# --- titles -----------------------------------------------------------------------------------


def test_title_drops_the_date_phrase() -> None:
    assert parse("下周日之前交概率论作业").title == "交概率论作业"
    assert parse("Submit lab report by Friday").title == "Submit lab report"


def test_title_drops_request_prefixes() -> None:
    assert parse("提醒我明天早上8点去图书馆占座").title == "去图书馆占座"
    assert parse("remind me to submit the survey tomorrow").title == "submit the survey"


def test_title_drops_joined_alternatives() -> None:
    assert parse("明天或者后天去银行").title == "去银行"


@pytest.mark.parametrize(
    ("text", "title", "important", "urgent"),
    [
        ("周五前完成实验报告 重要", "完成实验报告", True, False),
        ("重要：下周三前交助学贷款材料", "交助学贷款材料", True, False),
        ("整理错题本（重要）", "整理错题本", True, False),
        ("急急急 周四前寄快递", "寄快递", False, True),
        ("去银行开卡 急", "去银行开卡", False, True),
        ("URGENT call the landlord", "call the landlord", False, True),
        ("urgent: fix bike tire", "fix bike tire", False, True),
        ("fix the printer!! important", "fix the printer", True, False),
        ("交报告 重要 明天", "交报告", True, False),
    ],
)
def test_priority_marker_leaves_the_title_and_counts(text: str, title: str, important: bool, urgent: bool) -> None:
    parsed = parse(text)
    unmarked = parse(title)

    assert parsed.title == title
    assert parsed.quadrant in ((1, 2) if important else (3, 4))
    if important:
        assert parsed.quadrant_reason in (QuadrantReason.IMPORTANT_URGENT, QuadrantReason.IMPORTANT_NOT_URGENT)
    if urgent and important:
        assert parsed.quadrant_reason is QuadrantReason.IMPORTANT_URGENT
        assert unmarked.quadrant_reason is not QuadrantReason.IMPORTANT_URGENT  # the marker made the difference
    if not important:  # urgency does not split the unimportant: effort does (QUICK-ADD.md)
        assert parsed.quadrant == unmarked.quadrant


@pytest.mark.parametrize("text", ["急诊挂号", "important meeting with prof", "Urgent care visit", "这个很重要"])
def test_marker_words_inside_the_task_are_kept(text: str) -> None:
    assert parse(text).title == text


@pytest.mark.parametrize(
    ("text", "now", "deadline", "title"),
    [
        ("交周一实验课的报告 周五前", WEDNESDAY, "2026-03-13T23:59:00+08:00", "交周一实验课的报告"),
        ("下周的组会PPT 明天做完", WEDNESDAY, "2026-03-12T23:59:00+08:00", "下周的组会PPT 做完"),
        ("周四之前看完下周一组会要讲的论文", WEDNESDAY, "2026-03-12T23:59:00+08:00", "看完下周一组会要讲的论文"),
        ("prep slides for friday's seminar by wednesday", MONDAY, "2026-03-18T23:59:00+08:00",
         "prep slides for friday's seminar"),
        ("print handouts for the friday seminar tomorrow", WEDNESDAY, "2026-03-12T23:59:00+08:00",
         "print handouts for the friday seminar"),
        ("周一早八的课 今晚预习", WEDNESDAY, "2026-03-11T20:00:00+08:00", "周一早八的课 预习"),  # day + its time
    ],
)
def test_a_day_naming_the_task_leaves_the_deadline_to_the_other_phrase(
    text: str, now: datetime, deadline: str, title: str
) -> None:
    parsed = parse(text, now=now)

    assert (parsed.deadline, parsed.title, parsed.ambiguous) == (at(deadline), title, False)


def test_a_day_naming_the_task_is_still_the_deadline_when_it_is_the_only_one() -> None:
    assert parse("准备周六的面试").deadline == at("2026-03-14T23:59:00+08:00")
    assert parse("3天后的早上去医院复诊").deadline == at("2026-03-14T09:00:00+08:00")  # one phrase


def test_ddl_and_due_are_connectors_not_title_words() -> None:
    assert parse("ddl周日 概率论作业").title == "概率论作业"
    assert parse("概率论作业 ddl周日").title == "概率论作业"
    assert parse("截止周五 投简历").title == "投简历"
    assert parse("ddl是周五 交报告").title == "交报告"
    assert parse("stats hw ddl fri").title == "stats hw"
    assert parse("lab report due: thursday 5pm").title == "lab report"
    assert parse("DDL 3月20日 课程论文").quadrant == 2  # a stated ddl marks an obligation


def test_bare_hour_after_a_day_is_its_time_unless_it_counts_something() -> None:
    dentist = parse("tomorrow 3 dentist")

    assert (dentist.deadline, dentist.title) == (at("2026-03-12T15:00:00+08:00"), "dentist")
    assert parse("mon 9 advisor meeting").deadline == at("2026-03-16T09:00:00+08:00")
    assert parse("tomorrow 2 exams").deadline == at("2026-03-12T23:59:00+08:00")


def test_title_keeps_a_time_word_that_names_the_task() -> None:
    parsed = parse("Movie night on Saturday at 8")

    assert parsed.title == "Movie night"
    assert parsed.deadline == at("2026-03-14T20:00:00+08:00")


# --- quadrant, effort and threshold -----------------------------------------------------------


def test_important_task_due_within_48_hours_is_quadrant_1() -> None:
    parsed = parse("明天交作业")

    assert (parsed.quadrant, parsed.quadrant_reason) == (1, QuadrantReason.IMPORTANT_URGENT)
    assert parsed.urgency_threshold_at == WEDNESDAY  # already urgent


def test_important_task_due_later_is_quadrant_2_until_48_hours_before() -> None:
    parsed = parse("下周日之前交概率论作业")

    assert (parsed.quadrant, parsed.quadrant_reason) == (2, QuadrantReason.IMPORTANT_NOT_URGENT)
    assert parsed.urgency_threshold_at == at("2026-03-20T23:59:00+08:00")


def test_unimportant_complex_task_without_deadline_is_quadrant_4() -> None:
    parsed = parse("有空学一下吉他")

    assert (parsed.quadrant, parsed.quadrant_reason) == (4, QuadrantReason.UNIMPORTANT_COMPLEX)


@pytest.mark.parametrize("text", ["今晚练吉他", "明天把塞尔达主线打完", "tonight finish the lego set"])
def test_an_unimportant_task_that_takes_time_stays_4_even_when_due_soon(text: str) -> None:
    assert (parse(text).quadrant, parse(text).quadrant_reason) == (4, QuadrantReason.UNIMPORTANT_COMPLEX)


@pytest.mark.parametrize("text", ["明天跟室友吃火锅", "周五去剪头发", "下周三 吉他社例会", "把钥匙还给楼管",
                                  "next fri dinner w/ roommates"])
def test_an_unimportant_quick_task_is_3_however_far_away(text: str) -> None:
    assert parse(text).quadrant == 3


@pytest.mark.parametrize("text", ["考完试聚餐", "考完马原去吃海底捞", "面完试跟室友去吃火锅"])
def test_an_exam_the_note_waits_for_does_not_make_the_meal_important(text: str) -> None:
    parsed = parse(text)

    assert (parsed.quadrant, parsed.deadline, parsed.ambiguous) == (3, None, True)


@pytest.mark.parametrize("text", ["尽快把报销单交了", "马上去教务处交材料", "Submit CV ASAP"])
def test_urgency_word_makes_an_undated_important_task_quadrant_1(text: str) -> None:
    # Product promise (tuning4): 尽快/马上/ASAP rank the task; they are no (vague) time.
    parsed = parse(text)

    assert parsed.deadline is None
    assert not parsed.ambiguous
    assert parsed.no_deadline_reason == NoDeadlineReason.NOT_GIVEN
    assert parsed.quadrant == 1
    assert not any(word in parsed.title for word in ("尽快", "马上", "ASAP"))


@pytest.mark.parametrize(
    "text",
    ["缴学费", "去医院复查", "看牙医", "去教务处盖章", "开在读证明", "打印成绩单", "报销差旅费", "办护照",
     "充话费", "还钱给小王", "还书 不然要罚款", "pay the phone bill", "dentist appointment", "annual checkup",
     "get the form signed by the dean", "request official transcript", "return library books or pay a fine"],
)
def test_everyday_obligations_are_important(text: str) -> None:
    assert parse(text).quadrant_reason is QuadrantReason.IMPORTANT_NOT_URGENT


def test_studying_a_course_is_important_but_learning_a_skill_is_not() -> None:
    # Round 3 convention (tuning5/6 writers): reviewing a course's material is coursework.
    assert parse("周四前读完讨论课的文献").quadrant == 1
    assert parse("read the chapters for tuesday's lecture by monday").quadrant == 2
    assert parse("Review lecture notes in 4 days").quadrant_reason is QuadrantReason.IMPORTANT_NOT_URGENT
    assert parse("learn guitar in 4 days").quadrant_reason is QuadrantReason.UNIMPORTANT_COMPLEX
    assert parse("做证明题").quadrant_reason is not QuadrantReason.IMPORTANT_NOT_URGENT  # a proof, not a paper


def test_stated_duration_sets_sections_and_lengthens_the_lead() -> None:
    parsed = parse("周六花2小时复习线代")

    assert parsed.estimated_sections == 3  # 120 min / 45 min per section, rounded up
    assert parsed.urgency_threshold_at == at("2026-03-14T23:59:00+08:00") - timedelta(hours=72)
    assert parsed.title == "复习线代"


def test_threshold_of_a_past_deadline_is_the_deadline() -> None:
    parsed = parse("这周一的作业还没交")

    assert parsed.urgency_threshold_at == parsed.deadline == at("2026-03-09T23:59:00+08:00")


def test_parsing_is_deterministic() -> None:
    assert parse("下周三15:00组会汇报") == parse("下周三15:00组会汇报")


# --- learning from corrections (pure rules; storage in test_lessons.py) ------------------------


@pytest.mark.parametrize(
    ("title", "keyword"),
    [("去缴费", "缴费"), ("把宿舍网费交了", "宿舍网费交"), ("Problem set 4", "problem set"), ("go to the gym", "gym"),
     ("去 12", "")],
)
def test_lesson_keyword_drops_filler_and_numbers(title: str, keyword: str) -> None:
    assert lesson_keyword(title) == keyword


def test_matching_keyword_is_the_longest_contained_one() -> None:
    assert matching_keyword("下周整理实验数据", ["实验", "整理实验数据", "快递"]) == "整理实验数据"
    assert matching_keyword("取快递", ["实验"]) is None


@pytest.mark.parametrize(
    ("learned", "urgent", "quadrant"),
    [(2, True, 1), (1, False, 2), (4, False, 4), (4, True, 4), (3, False, 3)],
)
def test_a_lesson_keeps_the_kind_of_task_and_the_new_notes_urgency(learned: int, urgent: bool, quadrant: int) -> None:
    assert quadrant_from_lesson(learned, urgent=urgent) == quadrant


# --- tuning4: quadrant and English -----------------------------------------------------------


@pytest.mark.parametrize(("text", "quadrant"), [("3点去社团活动室开会", 3), ("club meeting at 3", 3), ("明天下午3点开组会", 1)])
def test_a_clubs_meeting_is_not_coursework(text: str, quadrant: int) -> None:
    assert parse(text).quadrant == quadrant


@pytest.mark.parametrize(
    ("text", "quadrant"),
    [("周五前写完周报", 2), ("明天上午9点实验室周会", 1), ("4月20日下午2点半去大使馆面签", 2), ("有时间做个个人博客", 4)],
)
def test_tuning4_kinds_of_task(text: str, quadrant: int) -> None:
    assert parse(text).quadrant == quadrant


@pytest.mark.parametrize("text", ["finish weekly report by friday", "lab weekly meeting tomorrow 9am"])
def test_weekly_before_a_noun_names_the_task_and_is_not_recurring(text: str) -> None:
    parsed = parse(text)

    assert not parsed.ambiguous
    assert "weekly" in parsed.title


def test_weekly_alone_is_still_recurring() -> None:
    assert parse("call grandma weekly").ambiguity_reason is AmbiguityReason.RECURRING


def test_lower_case_sat_is_a_day_at_the_end_of_a_note_but_not_in_sat_prep() -> None:
    assert parse("movie night w roommates sat").deadline is not None
    assert parse("SAT prep book").deadline is None


def test_urgent_means_within_48_hours_of_now() -> None:
    friday_evening = datetime.fromisoformat("2026-04-17T19:40:00+08:00")

    assert parse("周日下午去看牙医", now=friday_evening).quadrant == 1  # 43 h
    assert parse("周日前交读书报告", now=friday_evening).quadrant == 2  # 52 h


@pytest.mark.parametrize(
    ("text", "title", "day"),
    [
        ("6月前完成个人项目", "完成个人项目", "2026-05-31"),
        ("personal project by june", "personal project", "2026-05-31"),
        ("before may: renew passport", "renew passport", "2026-04-30"),
    ],
)
def test_before_a_month_is_the_end_of_the_month_before(text: str, title: str, day: str) -> None:
    parsed = parse(text)

    assert parsed.deadline == at(f"{day}T23:59:00+08:00")
    assert parsed.title == title


def test_before_a_month_already_begun_is_next_years() -> None:
    assert parse("3月前交论文").deadline == at("2027-02-28T23:59:00+08:00")


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("call mom 2nite", "2026-03-11T20:00"),
        ("hw due 2moro", "2026-03-12T23:59"),
        ("pay phone bill b4 friday", "2026-03-13T23:59"),
        ("laundry sun night", "2026-03-15T20:00"),
    ],
)
def test_texting_spellings(text: str, day: str) -> None:
    parsed = parse(text)

    assert parsed.deadline == at(day + ":00+08:00")
    assert not any(word in parsed.title for word in ("2nite", "2moro", "b4", "sun"))


def test_some_other_day_is_vague() -> None:
    assert parse("watch a movie some other day").ambiguity_reason is AmbiguityReason.VAGUE_TIME


def test_a_day_before_the_object_stays_in_the_title() -> None:
    parsed = parse("今晚把周末读书会的书单发群里", now=SATURDAY)

    assert parsed.title == "把周末读书会的书单发群里"
    assert parsed.deadline == at("2026-03-14T20:00:00+08:00")


# --- purity -----------------------------------------------------------------------------------


def test_quick_add_modules_import_nothing_from_the_web_stack() -> None:
    core = Path(__file__).resolve().parents[3] / "taskclasses" / "notes" / "core"
    sources = sorted((core / "quick_add").glob("*.py"))
    forbidden = {"django", "rest_framework", "celery", "channels"}

    imported = {
        name.split(".")[0]
        for source in sources
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        for name in _imported_names(node)
    }

    assert imported & forbidden == set()


def _imported_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module]
    return []
