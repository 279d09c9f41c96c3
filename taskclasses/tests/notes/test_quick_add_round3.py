"""Quick-add round 3: importance by category, ranges that never get a date, titles.

Pure tests: no database, no Django settings. Run with
    python -m pytest taskclasses/tests/notes/test_quick_add_round3.py -p no:django
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from bench.quick_add_report import evaluate, format_report, load_phrases
from taskclasses.notes.core.quick_add import AmbiguityReason, QuadrantReason
from taskclasses.notes.core.quick_add.categories import importance_category
from taskclasses.tests.notes.quick_add_cases import assert_dated, parse

FIXTURES = Path(__file__).resolve().parent / "fixtures"



# --- importance comes from the task's category ------------------------------------------------


@pytest.mark.parametrize(
    ("title", "category"),
    [
        ("计量经济学期中考试", "exam"), ("oral exam", "exam"), ("考研初试", "exam"),
        ("英美文学pre", "coursework"), ("统计学quiz", "exam"), ("hw3", "coursework"), ("finish the film analysis", "coursework"),
        ("解剖课别迟到", "coursework"), ("复习计量", "coursework"), ("reorganize my notes for anatomy", "coursework"),
        ("交住宿申请", "submission"), ("turn in the survey", "submission"),
        ("奶茶店兼职", "career"), ("shift at the cafe", "career"), ("reply to recruiter", "career"),
        ("离校手续", "admin"), ("get the diploma copy notarized", "admin"),
        ("给房东转押金", "money"), ("pay the deposit", "money"),
        ("去校医院拿药", "medical"), ("pick up my prescription", "medical"),
        ("找导师聊聊", "advisor"), ("office hours", "advisor"),
    ],
)
def test_each_category_makes_a_task_important(title: str, category: str) -> None:
    assert importance_category(title) == category


@pytest.mark.parametrize(
    "title",
    ["看电影", "回老家", "约高中同学吃饭", "去爬山", "watch the new dune movie", "visit grandparents",
     "学吉他", "learn some spanish", "把《西方哲学史》第三章看完", "buy textbooks", "晚上看网课"],
)
def test_pastimes_chores_books_and_skills_are_not_important(title: str) -> None:
    assert importance_category(title) is None


@pytest.mark.parametrize(
    ("text", "quadrant", "reason"),
    [
        ("下周末去爬山", 3, QuadrantReason.UNIMPORTANT_DEFAULT),  # an outing: quick, however far away
        ("watch the new dune movie", 3, QuadrantReason.UNIMPORTANT_DEFAULT),
        ("今晚和朋友看电影", 3, QuadrantReason.UNIMPORTANT_DEFAULT),
        ("周六洗衣服", 3, QuadrantReason.UNIMPORTANT_SIMPLE),  # a chore
        ("有空学做饭", 4, QuadrantReason.UNIMPORTANT_COMPLEX),
        ("周日晚上复习计量", 2, QuadrantReason.IMPORTANT_NOT_URGENT),  # course study, 4 days away
        ("明天早八英语课别迟到", 1, QuadrantReason.IMPORTANT_URGENT),
        ("周六上午 兼职 奶茶店", 2, QuadrantReason.IMPORTANT_NOT_URGENT),
    ],
)
def test_quadrant_follows_the_convention(text: str, quadrant: int, reason: QuadrantReason) -> None:
    parsed = parse(text)

    assert (parsed.quadrant, parsed.quadrant_reason) == (quadrant, reason)


def test_a_clubs_event_is_a_pastime_but_a_hackathon_alone_is_coursework() -> None:
    assert parse("dec 5 cs club hackathon").quadrant == 3  # a club's event to attend: quick
    assert parse("register for the hackathon by tomorrow").quadrant_reason is QuadrantReason.IMPORTANT_URGENT


# --- ranges, repetition, lunar holidays and hedges never get a date ---------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("20号左右交材料", AmbiguityReason.VAGUE_TIME), ("国庆后交作业", AmbiguityReason.VAGUE_TIME),
        ("周五以后再说", AmbiguityReason.VAGUE_TIME), ("pay rent around the 1st", AmbiguityReason.VAGUE_TIME),
        ("next thursday-ish call mom", AmbiguityReason.VAGUE_TIME), ("call mom after 8pm", AmbiguityReason.VAGUE_TIME),
        ("期中前交作业", AmbiguityReason.VAGUE_TIME), ("一两天内回复老师", AmbiguityReason.VAGUE_TIME),
        ("周中约心理咨询中心", AmbiguityReason.VAGUE_TIME), ("later this month start a sketchbook", AmbiguityReason.VAGUE_TIME),
        ("in a week or two", AmbiguityReason.VAGUE_TIME), ("before finals", AmbiguityReason.VAGUE_TIME),
        ("end of the semester", AmbiguityReason.VAGUE_TIME), ("clean fridge sometime this wk", AmbiguityReason.VAGUE_TIME),
        ("renew passport before summer", AmbiguityReason.VAGUE_TIME),
        ("每两周交一次周报", AmbiguityReason.RECURRING), ("每隔一天跑步", AmbiguityReason.RECURRING),
        ("隔周组会", AmbiguityReason.RECURRING), ("每周一三五健身", AmbiguityReason.RECURRING),
        ("gym on mondays", AmbiguityReason.RECURRING), ("twice a week gym", AmbiguityReason.RECURRING),
        ("every other week", AmbiguityReason.RECURRING), ("every mon & wed 6pm tutoring", AmbiguityReason.RECURRING),
        ("下周三四去医院", AmbiguityReason.CONFLICTING_DATES),
        ("by tomorrow or the day after", AmbiguityReason.CONFLICTING_DATES),
        ("this weekend or next", AmbiguityReason.CONFLICTING_DATES),
        ("by chinese new year", AmbiguityReason.MOVABLE_HOLIDAY), ("冬至吃饺子", AmbiguityReason.MOVABLE_HOLIDAY),
        ("during the Dragon Boat Festival visit grandparents", AmbiguityReason.MOVABLE_HOLIDAY),
    ],
)
def test_vague_phrases_are_refused(text: str, reason: AmbiguityReason) -> None:
    parsed = parse(text)

    assert parsed.deadline is None
    assert parsed.ambiguity_reason is reason


def test_a_hedge_leaves_the_title_with_its_date() -> None:
    assert parse("20号左右交材料").title == "交材料"
    assert parse("pay rent around the 1st").title == "pay rent"


def test_a_subjects_xue_is_not_the_semester() -> None:
    parsed = parse("明早8点 药理学期末")

    assert parsed.deadline == datetime.fromisoformat("2026-03-12T08:00:00+08:00")
    assert parsed.title == "药理学期末"


# --- dates students write ---------------------------------------------------------------------


def test_dotted_month_day_in_a_chinese_note() -> None:
    parsed = parse("3.15 体检")

    assert parsed.deadline == datetime.fromisoformat("2026-03-15T23:59:00+08:00")
    assert parsed.title == "体检"
    assert parse("3.5小时写完报告").deadline is None  # an amount, not a date


@pytest.mark.parametrize(
    ("text", "deadline", "title"),
    [
        ("laundry tn", "2026-03-11T20:00:00+08:00", "laundry"),
        ("this wknd call grandma", "2026-03-15T23:59:00+08:00", "call grandma"),
        ("sun call mom", "2026-03-15T23:59:00+08:00", "call mom"),
    ],
)
def test_texting_spellings(text: str, deadline: str, title: str) -> None:
    assert_dated(text, deadline, title)


@pytest.mark.parametrize(
    ("text", "deadline", "title"),
    [
        ("周五前 确认周末值班表", "2026-03-13T23:59:00+08:00", "确认周末值班表"),
        ("this weekend buy christmas gifts", "2026-03-15T23:59:00+08:00", "buy christmas gifts"),
        ("mon submit weekend hours to payroll", "2026-03-16T23:59:00+08:00", "submit weekend hours to payroll"),
        ("before Friday proofread the Monday group presentation script", "2026-03-13T23:59:00+08:00",
         "proofread the Monday group presentation script"),
        ("这周 复习近代史纲要（下周三考）", "2026-03-15T23:59:00+08:00", "复习近代史纲要（下周三考）"),
        ("月底 交下学期的住宿申请", "2026-03-31T23:59:00+08:00", "交下学期的住宿申请"),
    ],
)
def test_a_time_word_inside_the_task_names_it_when_another_dates_the_note(text: str, deadline: str, title: str) -> None:
    assert_dated(text, deadline, title)


def test_a_time_word_inside_the_task_still_dates_a_note_with_no_other() -> None:
    assert parse("我周五交报告").deadline == datetime.fromisoformat("2026-03-13T23:59:00+08:00")
    assert parse("下周一或周二交作业").ambiguity_reason is AmbiguityReason.CONFLICTING_DATES


# --- titles -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("明天 盖章 实习三方协议", "盖章 实习三方协议"),  # the student's own spaces stay
        ("下周的组会PPT 明天做完", "下周的组会PPT 做完"),  # the space before the cut stays
        ("下周的组会PPT明天做完", "下周的组会PPT做完"),  # a cut inside words is closed
        ("下午 去教务处盖章（成绩证明）", "去教务处盖章（成绩证明）"),
        ("urgent tidy my desk before the dorm check", "tidy my desk before the dorm check"),
        ("urgent care visit friday", "urgent care visit"),
        ("我想学吉他", "学吉他"),
        ("gotta call mom tmr", "call mom"),
        ("prep for friday's quiz", "prep quiz"),
    ],
)
def test_titles_keep_the_tasks_own_words(text: str, title: str) -> None:
    assert parse(text).title == title


# --- the fresh sets written from the promises -------------------------------------------------


@pytest.mark.parametrize(
    "name", ["quick_add_tuning5.json", "quick_add_tuning6.json", "quick_add_tuning7.json", "quick_add_tuning8.json"]
)
def test_fresh_sets_reach_95_percent_and_date_no_ambiguous_phrase(name: str) -> None:
    path = FIXTURES / name
    if not path.exists():
        pytest.skip(f"{name} is not in this tree")
    report = evaluate(load_phrases(path))

    assert report.rate() >= 0.95, format_report(report)
    assert report.ambiguous_phrases_dated == ()
