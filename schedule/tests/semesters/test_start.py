"""Starting the next semester: the old one frozen whole, the live tables cleared, what was chosen kept."""

from __future__ import annotations

from datetime import date

import pytest

from schedule.core.semester_archive import SemesterArchive, study_blocks_by_plan
from schedule.exams.models import Exam
from schedule.models import CalendarDay, CalendarSettings, Course, ScheduleEvent
from schedule.semesters.exceptions import SemesterInputError
from schedule.semesters.models import Semester
from schedule.student_rules.models import StudyRules
from schedule.tests.factories import import_csv
from schedule.tests.semesters.helpers import LUNCH, SPRING, autumn_semester, start_spring
from smartmate.platform.exceptions import NotFoundError
from taskclasses.models import Task, TaskClass, TaskItem
from taskclasses.semesters.rows import semester_rows_dump
from taskclasses.semesters.services import Carry, semester_next_guess, semester_next_start

pytestmark = pytest.mark.django_db


def test_starting_spring_freezes_autumn_into_a_past_semester_with_every_block(user):
    autumn_semester(user)

    past = start_spring(user, list(Task.objects.filter(user=user, completed=False).order_by("pk")))

    archive = SemesterArchive.from_json(past.document)
    assert (past.label, past.first_monday, past.weeks) == ("2026 autumn semester", date(2026, 9, 7), 20)
    assert {c.name for c in archive.courses} == {"高等数学", "大学英语", "形势与政策"}
    assert len([e for e in archive.events if e.kind == "course"]) == 33
    assert study_blocks_by_plan(archive, "高数")[0].done == 1
    assert [(e.title, e.embedded, e.course) for e in archive.events if e.embedded] == [("英语单词 #1", True, "形势与政策")]
    assert [exam.title for exam in archive.exams] == ["高数期末"]
    assert [note.title for note in archive.notes] == ["买台灯"]


def test_the_live_tables_hold_only_what_came_along(user):
    rows = autumn_semester(user)

    start_spring(user, rows["notes"])

    assert ScheduleEvent.objects.filter(user=user).count() == 0
    assert Course.objects.filter(user=user).count() == 0
    assert not Exam.objects.filter(user=user).exists() and not CalendarDay.objects.filter(user=user).exists()
    assert list(Task.objects.filter(user=user, completed=False).values_list("title", flat=True).order_by("pk")) == [
        "还图书馆的书", "交体检表"]
    assert list(TaskClass.objects.filter(user=user).values_list("name", flat=True)) == ["高数复习"]


def test_an_unfinished_plan_comes_along_with_its_placed_block_waiting_again_in_the_new_weeks(user):
    rows = autumn_semester(user)

    start_spring(user, rows["notes"])

    plan = TaskClass.objects.get(user=user)
    assert (plan.start_date, plan.end_date) == (SPRING, date(2027, 7, 4))
    assert list(plan.items.order_by("order").values_list("status", flat=True)) == ["done", "missed", "pending"]


def test_the_chosen_protected_time_stays_and_the_rules_stay(user):
    rows = autumn_semester(user)

    start_spring(user, rows["notes"])

    rules = StudyRules.objects.get(user=user)
    assert (rules.daily_cap, rules.buffer_sections, rules.protected_times) == (3, 1, [LUNCH])


def test_rules_left_behind_are_cleared_and_kept_in_the_document(user):
    rows = autumn_semester(user)

    past = start_spring(user, rows["notes"], rules=False, protected=())

    rules = StudyRules.objects.get(user=user)
    assert (rules.daily_cap, rules.buffer_sections, rules.protected_times) == (None, 0, [])
    assert past.document["rules"]["daily_cap"] == 3


def test_the_calendar_moves_to_the_new_week_one(user):
    rows = autumn_semester(user)

    start_spring(user, rows["notes"])

    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.semester_start, calendar.semester_weeks) == (SPRING, 18)


def test_the_new_timetable_marks_last_semesters_filler_courses_by_name(user):
    rows = autumn_semester(user)
    start_spring(user, rows["notes"])

    import_csv(user, "形势与政策,2,9,10,钱老师,二教1101,1-8", "线性代数,1,1,2,孙老师,二教2305,1-16")

    assert dict(Course.objects.filter(user=user).values_list("name", "is_filler")) == {
        "形势与政策": True, "线性代数": False}


def test_filler_marks_left_behind_do_not_follow(user):
    rows = autumn_semester(user)
    start_spring(user, rows["notes"], filler=False)

    import_csv(user, "形势与政策,2,9,10,钱老师,二教1101,1-8")

    assert not Course.objects.get(user=user).is_filler


def test_a_week_one_not_on_a_monday_is_refused_and_nothing_is_written(user):
    rows = autumn_semester(user)
    before = semester_rows_dump(user)

    with pytest.raises(SemesterInputError, match="Week 1 must start on a Monday."):
        semester_next_start(user=user, first_monday=date(2027, 3, 2), weeks=18, carry=Carry())

    assert semester_rows_dump(user) == before and not Semester.objects.exists()
    assert rows["exam"].pk in set(Exam.objects.values_list("pk", flat=True))


def test_a_week_one_before_the_current_semester_is_refused(user):
    with pytest.raises(SemesterInputError, match="must start after the current one began"):
        semester_next_start(user=user, first_monday=date(2026, 8, 31), weeks=18, carry=Carry())


def test_another_students_note_is_not_found_and_nothing_is_written(user, other_user):
    autumn_semester(user)
    theirs = Task.objects.create(user=other_user, title="别人的便签", quadrant=2)

    with pytest.raises(NotFoundError) as refused:
        semester_next_start(user=user, first_monday=SPRING, weeks=18, carry=Carry(note_ids=(theirs.pk,)))

    assert refused.value.detail == {"note_ids": [theirs.pk]}
    assert ScheduleEvent.objects.filter(user=user).exists() and not Semester.objects.exists()


def test_an_unknown_protected_time_is_refused_by_name(user):
    autumn_semester(user)

    with pytest.raises(SemesterInputError, match="no protected time called 早饭"):
        semester_next_start(user=user, first_monday=SPRING, weeks=18, carry=Carry(protected=("早饭",)))


def test_the_next_week_one_is_guessed_after_the_winter_vacation_on_the_school_calendar(user):
    CalendarDay.objects.create(user=user, kind="holiday", name="寒假", first_date=date(2027, 1, 25),
                               last_date=date(2027, 2, 21))

    guess = semester_next_guess(user=user)

    assert (guess.first_monday, guess.weeks, guess.from_school_calendar) == (date(2027, 2, 22), 20, True)


def test_without_a_school_calendar_the_usual_spring_start_is_guessed(user):
    guess = semester_next_guess(user=user)

    assert (guess.first_monday, guess.from_school_calendar) == (SPRING, False)


def test_items_placed_in_autumn_are_no_longer_counted_as_placed(user):
    rows = autumn_semester(user)

    start_spring(user, rows["notes"])

    assert not TaskItem.objects.filter(task_class__user=user, status="placed").exists()


def test_winter_hours_begun_in_autumn_become_springs_grid_instead_of_applying_from_a_past_date(user):
    autumn_semester(user)
    calendar = CalendarSettings.objects.for_user(user)
    summer = list(calendar.section_times)
    winter = [[start, end] for start, end in summer]
    winter[4] = ["14:00", "14:45"]  # the afternoon starts half an hour earlier from October
    CalendarSettings.objects.filter(pk=calendar.pk).update(later_section_times=winter,
                                                           later_sections_from=date(2026, 10, 8))

    start_spring(user, list(Task.objects.filter(user=user, completed=False).order_by("pk")))

    spring = CalendarSettings.objects.for_user(user)
    assert spring.section_times == winter and spring.later_section_times == [] and spring.later_sections_from is None


def test_a_second_grid_from_a_date_inside_spring_stays_for_spring(user):
    autumn_semester(user)
    calendar = CalendarSettings.objects.for_user(user)
    summer = list(calendar.section_times)
    CalendarSettings.objects.filter(pk=calendar.pk).update(later_section_times=summer,
                                                           later_sections_from=date(2027, 5, 1))
    start_spring(user, list(Task.objects.filter(user=user, completed=False).order_by("pk")))

    assert CalendarSettings.objects.for_user(user).later_sections_from == date(2027, 5, 1)
