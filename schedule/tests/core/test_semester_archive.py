"""The frozen semester document: a JSON round trip, the next term's guessed start, the figures it answers."""

from __future__ import annotations

from datetime import date

import pytest

from schedule.core.semester_archive import (
    ArchivedCourse,
    ArchivedEvent,
    ArchivedExam,
    ArchivedItem,
    ArchivedNote,
    ArchivedPlan,
    ArchiveFormatError,
    BlockCount,
    SemesterArchive,
    next_semester_start,
    season_of,
    study_blocks_by_plan,
    week_events,
    workload_of,
)


def block(title: str, week: int, status: str, *, plan: str = "高数复习", day: int = 2, first: int = 5,
          kind: str = "task_item", course: str = "") -> ArchivedEvent:
    return ArchivedEvent(kind=kind, title=title, week=week, day=day, first=first, last=first + 1,
                         on=date(2026, 9, 7), starts_at="2026-09-08T14:00:00+08:00", ends_at="2026-09-08T15:40:00+08:00",
                         plan=plan if kind == "task_item" else "", status=status, course=course)


def autumn(*events: ArchivedEvent) -> SemesterArchive:
    return SemesterArchive(
        season="autumn", year=2026, first_monday=date(2026, 9, 7), weeks=3, time_zone="Asia/Shanghai",
        section_times=(("08:00", "08:45"), ("08:55", "09:40")),
        courses=(ArchivedCourse(name="高等数学", teacher="王", location="二教", is_filler=False),),
        events=events,
        plans=(ArchivedPlan(name="高数复习", strategy="steady", first_day=date(2026, 9, 7), last_day=date(2026, 9, 27),
                            items=(ArchivedItem(order=1, content="高数复习 #1", sections=2, status="done"),)),),
        exams=(ArchivedExam(title="高数期末", on=date(2027, 1, 12), start_time="09:00", end_time="11:00"),),
        notes=(ArchivedNote(title="还图书馆的书", quadrant=2),),
        rules={"daily_cap": 3}, restore=({"model": "schedule.course", "pk": 7, "fields": {"name": "高等数学"}},))


def test_an_archive_reads_back_equal_from_its_json():
    archive = autumn(block("高数复习 #1", 1, "done"), block("高等数学", 1, "", kind="course"))

    assert SemesterArchive.from_json(archive.to_json()) == archive


def test_a_document_of_another_version_is_refused_by_name():
    document = {**autumn().to_json(), "version": 99}

    with pytest.raises(ArchiveFormatError, match="v99"):
        SemesterArchive.from_json(document)


@pytest.mark.parametrize(("first_monday", "expected"), [
    (date(2026, 9, 7), (2026, "autumn")), (date(2027, 1, 4), (2026, "autumn")), (date(2027, 3, 1), (2027, "spring"))])
def test_a_semester_is_named_by_the_year_and_season_it_starts_in(first_monday, expected):
    assert season_of(first_monday) == expected


def test_the_next_term_starts_at_the_usual_time_after_a_break():
    assert next_semester_start(date(2027, 1, 24)) == date(2027, 3, 1)
    assert next_semester_start(date(2027, 7, 11)) == date(2027, 9, 6)


def test_a_vacation_on_the_school_calendar_sets_the_next_week_one():
    winter = (date(2027, 1, 25), date(2027, 2, 21))

    assert next_semester_start(date(2027, 1, 24), [winter]) == date(2027, 2, 22)


def test_a_short_holiday_does_not_move_the_next_term():
    new_year = (date(2027, 1, 1), date(2027, 1, 3))

    assert next_semester_start(date(2026, 12, 27), [new_year]) == date(2027, 3, 1)


def test_study_blocks_are_counted_per_plan_by_outcome_and_keyword():
    archive = autumn(block("高数复习 #1", 1, "done"), block("高数复习 #2", 2, "done"), block("高数复习 #3", 3, "missed"),
                     block("英语 #1", 1, "done", plan="英语单词"))

    assert study_blocks_by_plan(archive, "高数") == (BlockCount(name="高数复习", done=2, missed=1),)
    assert [count.name for count in study_blocks_by_plan(archive)] == ["英语单词", "高数复习"]


def test_the_workload_sums_course_and_study_sections_by_week():
    archive = autumn(block("高数复习 #1", 1, "done"), block("高等数学", 1, "", kind="course", first=1),
                     block("高数复习 #2", 2, "missed"))

    workload = workload_of(archive)

    assert [(w.week, w.course_sections, w.study_sections, w.done_blocks, w.missed_blocks) for w in workload.weeks] == [
        (1, 2, 2, 1, 0), (2, 0, 2, 0, 1), (3, 0, 0, 0, 0)]
    assert (workload.course_sections, workload.study_sections) == (2, 4)


def test_a_week_lists_its_blocks_by_day_and_section():
    late, early = block("b", 1, "done", day=3), block("a", 1, "done", day=1, first=1)

    assert week_events(autumn(late, early, block("c", 2, "done")), 1) == (early, late)
