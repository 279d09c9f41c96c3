"""What a remembered sentence claims about the timetable, and when a timetable contradicts it."""

from datetime import time

import pytest

from memory.core.timetable_claims import Meeting, Part, TimetableClaim, timetable_claim

WEDNESDAY_EIGHT = Meeting(3, time(8, 0), time(9, 35))
WEDNESDAY_TEN = Meeting(3, time(10, 0), time(11, 35))
FRIDAY_TWO = Meeting(5, time(14, 0), time(15, 35))
TUESDAY_EVENING = Meeting(2, time(19, 0), time(20, 35))


@pytest.mark.parametrize(("text", "claim"), [
    ("我周三有早八", TimetableClaim(frozenset({3}), Part.EARLY, True)),
    ("周二、四有早八", TimetableClaim(frozenset({2, 4}), Part.EARLY, True)),
    ("周五下午没课", TimetableClaim(frozenset({5}), Part.AFTERNOON, False)),
    ("星期五没有课", TimetableClaim(frozenset({5}), Part.DAY, False)),
    ("每周一上午都有高数课", TimetableClaim(frozenset({1}), Part.MORNING, True)),
    ("周二周四晚上有课", TimetableClaim(frozenset({2, 4}), Part.EVENING, True)),
    ("周四第1-2节有课", TimetableClaim(frozenset({4}), Part.EARLY, True)),
    ("I have an 8am class on Wednesday", TimetableClaim(frozenset({3}), Part.EARLY, True)),
    ("No classes on Friday afternoon", TimetableClaim(frozenset({5}), Part.AFTERNOON, False)),
])
def test_a_plain_claim_about_the_timetable_is_read(text, claim):
    assert timetable_claim(text) == claim


@pytest.mark.parametrize("text", [
    "我喜欢早上学习",  # no weekday, no class
    "周六要去奶茶店兼职",  # a weekday, but not about classes
    "周三没课但周四有课",  # two claims at once: not a plain one
    "周三上午和下午都有课",  # two parts of the day
])
def test_anything_else_is_no_claim_and_is_never_judged(text):
    assert timetable_claim(text) is None


def test_an_early_class_the_new_timetable_does_not_have_is_contradicted():
    claim = timetable_claim("我周三有早八")
    assert claim is not None
    assert not claim.contradicted([WEDNESDAY_EIGHT])
    assert claim.contradicted([WEDNESDAY_TEN, FRIDAY_TWO])  # Wednesday starts at ten now


def test_a_free_afternoon_the_new_timetable_fills_is_contradicted():
    claim = timetable_claim("周五下午没课")
    assert claim is not None
    assert claim.contradicted([FRIDAY_TWO])
    assert not claim.contradicted([WEDNESDAY_EIGHT])


def test_several_weekdays_each_must_hold():
    claim = timetable_claim("周二周四晚上有课")
    assert claim is not None
    assert claim.contradicted([TUESDAY_EVENING])  # Thursday evening is free now
    assert not claim.contradicted([TUESDAY_EVENING, Meeting(4, time(18, 30), time(20, 5))])
