"""Course changes and re-imports: blocks they displace wait again, and undo restores everything exactly."""

from __future__ import annotations

import pytest
from django.utils import translation

from board.previews import changeset_undo
from board.timetable_edits import course_change, course_remove, meeting_remove, timetable_sync
from schedule.exceptions import ImportRejectedError, SlotConflictError
from schedule.models import ChangeSet, Course, ScheduleEvent, ScheduleSlot
from schedule.tests.factories import DEMO_CSV, csv_bytes, custom_event, import_csv
from smartmate.platform.exceptions import AppError, ConflictError, NotFoundError
from taskclasses.models import TaskItem
from taskclasses.tests.factories import embed_item, make_task, make_task_class, place_item

pytestmark = pytest.mark.usefixtures("before_week_three")


def _rows(user) -> list[list]:
    """Everything the timetable and board hold, with row ids: undo must bring back the very rows."""
    courses = sorted(Course.objects.filter(user=user).values_list("pk", "name", "teacher", "location", "is_filler"))
    events = sorted(ScheduleEvent.objects.filter(user=user).values_list(
        "pk", "kind", "course_id", "title", "location", "week", "day", "start_section", "end_section",
        "starts_at", "task_item_id", "task_id"))
    slots = sorted(ScheduleSlot.objects.filter(user=user, event__kind="course").values_list(
        "pk", "event_id", "week", "day", "section", "embedded_item_id"))
    free_blocks = sorted(ScheduleEvent.objects.filter(user=user).exclude(kind="course").values_list(
        "kind", "title", "week", "day", "start_section", "task_item_id", "task_id"))
    statuses = sorted(TaskItem.objects.filter(task_class__user=user).values_list("pk", "status"))
    return [courses, [e for e in events if e[1] == "course"], slots, free_blocks, statuses]


@pytest.fixture
def embedded(user) -> tuple[TaskItem, ScheduleEvent]:
    item = make_task_class(user, items=1).items.get()
    host = embed_item(item)
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.PLACED)
    return item, host


def test_a_dry_run_lists_the_embedded_block_and_writes_nothing(user, embedded):
    item, host = embedded
    before, changes = _rows(user), ChangeSet.objects.count()
    result = meeting_remove(user=user, event_id=host.pk, dry_run=True)
    assert result.dry_run and [(b.kind, b.id, b.start_section) for b in result.displaced] == [("item", item.pk, 9)]
    assert _rows(user) == before and ChangeSet.objects.count() == changes


def test_deleting_one_meeting_frees_its_block_and_undo_restores_the_very_rows(user, embedded):
    item, host = embedded
    before = _rows(user)
    with translation.override("zh-hans"):
        result = meeting_remove(user=user, event_id=host.pk)
    assert not ScheduleEvent.objects.filter(pk=host.pk).exists()
    assert TaskItem.objects.get(pk=item.pk).status == TaskItem.Status.PENDING
    assert result.summary == "已删除「形势与政策」09-21 的一次课（1 个学习块回到待安排）"
    assert ChangeSet.objects.get(pk=result.changeset_id).kind == ChangeSet.Kind.COURSE
    changeset_undo(user=user, changeset_id=result.changeset_id)
    assert _rows(user) == before


def test_a_done_block_in_a_deleted_meeting_stays_done_and_undo_puts_it_back(user, embedded):
    item, host = embedded
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.DONE)
    before = _rows(user)
    result = meeting_remove(user=user, event_id=host.pk)
    assert TaskItem.objects.get(pk=item.pk).status == TaskItem.Status.DONE
    assert not ScheduleSlot.objects.filter(embedded_item=item).exists()
    changeset_undo(user=user, changeset_id=result.changeset_id)
    assert _rows(user) == before


def test_deleting_a_whole_course_and_undoing_it_keeps_its_ids(user, embedded):
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-16")
    item, host = embedded
    before = _rows(user)
    result = course_remove(user=user, course_id=host.course_id)
    assert not Course.objects.filter(pk=host.course_id).exists()
    assert [b.id for b in result.displaced] == [item.pk]
    changeset_undo(user=user, changeset_id=result.changeset_id)
    assert _rows(user) == before


def test_turning_the_filler_mark_off_frees_the_blocks_and_undo_embeds_them_again(user, embedded):
    item, host = embedded
    before = _rows(user)
    with translation.override("zh-hans"):
        result = course_change(user=user, course_id=host.course_id, values={"is_filler": False})
    assert result.summary == "「形势与政策」不再是水课（1 个学习块回到待安排）"
    assert not ScheduleSlot.objects.filter(embedded_item=item).exists()
    changeset_undo(user=user, changeset_id=result.changeset_id)
    assert _rows(user) == before


def test_undoing_a_filler_mark_is_refused_once_a_block_sits_in_the_course(user):
    import_csv(user, "形势与政策,1,9,10,赵立新,二教1101,3")
    course = Course.objects.get(user=user)
    result = course_change(user=user, course_id=course.pk, values={"is_filler": True})
    item = make_task_class(user, items=1).items.get()
    ScheduleSlot.objects.filter(event__course=course).update(embedded_item=item)
    with pytest.raises(ConflictError) as caught:
        changeset_undo(user=user, changeset_id=result.changeset_id)
    assert caught.value.code == "undo_conflict" and Course.objects.get(pk=course.pk).is_filler


def test_renaming_a_course_renames_its_meetings_and_undo_renames_them_back(user):
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-2")
    course = Course.objects.get(user=user)
    before = _rows(user)
    result = course_change(user=user, course_id=course.pk, values={"name": "线性代数B", "location": "一教101"})
    assert set(ScheduleEvent.objects.filter(course=course).values_list("title", flat=True)) == {"线性代数B"}
    assert result.displaced == ()
    changeset_undo(user=user, changeset_id=result.changeset_id)
    assert _rows(user) == before


def test_a_new_room_reaches_the_meetings_held_in_the_old_one_and_undo_moves_them_back(user):
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-4", "线性代数,4,3,4,陈志强,实验楼101,1-4")
    course = Course.objects.get(user=user)
    result = course_change(user=user, course_id=course.pk, values={"location": "一教101"})
    rooms = sorted(set(ScheduleEvent.objects.filter(user=user).values_list("day", "location")))
    assert rooms == [(2, "一教101"), (4, "实验楼101")]  # the lab meetings were never in the old room
    changeset_undo(user=user, changeset_id=result.changeset_id)
    rooms = sorted(set(ScheduleEvent.objects.filter(user=user).values_list("day", "location")))
    assert rooms == [(2, "二教2412"), (4, "实验楼101")]


def test_a_change_that_changes_nothing_is_refused(user):
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-2")
    course = Course.objects.get(user=user)
    with pytest.raises(AppError) as caught:
        course_change(user=user, course_id=course.pk, values={"name": "线性代数"})
    assert caught.value.code == "course_unchanged"


def test_another_students_course_and_meeting_are_not_found(user, other_user):
    import_csv(other_user, "线性代数,2,1,2,陈志强,二教2412,1-2")
    course = Course.objects.get(user=other_user)
    with pytest.raises(NotFoundError):
        course_remove(user=user, course_id=course.pk)
    with pytest.raises(NotFoundError):
        meeting_remove(user=user, event_id=course.events.first().pk)


def test_a_custom_event_is_not_a_meeting(user):
    event = custom_event(user)
    with pytest.raises(NotFoundError) as caught:
        meeting_remove(user=user, event_id=event.pk)
    assert caught.value.code == "meeting_not_found"


def test_undo_is_refused_when_the_freed_sections_were_taken_meanwhile(user, embedded):
    _item, host = embedded
    result = meeting_remove(user=user, event_id=host.pk)
    custom_event(user, title="补课", week=3, day=1, start=9, end=10)
    with pytest.raises(SlotConflictError) as caught:
        changeset_undo(user=user, changeset_id=result.changeset_id)
    assert "补课" in caught.value.message
    assert ChangeSet.objects.get(pk=result.changeset_id).undone_at is None


def test_undo_is_refused_when_the_course_changed_again(user):
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-2")
    course = Course.objects.get(user=user)
    first = course_change(user=user, course_id=course.pk, values={"location": "一教101"})
    course_change(user=user, course_id=course.pk, values={"location": "一教202"})
    with pytest.raises(ConflictError) as caught:
        changeset_undo(user=user, changeset_id=first.changeset_id)
    assert caught.value.code == "undo_conflict"


# --- Re-import ---------------------------------------------------------------------------------------------

def _demo_rows() -> list[str]:
    return DEMO_CSV.read_text("utf-8").strip().splitlines()[1:]


def _edited_demo(drop: str, move: tuple[str, str]) -> bytes:
    rows = [r for r in _demo_rows() if not r.startswith(drop + ",")]
    rows = [r.replace(*move) if r.startswith(move[0].split(",")[0] + ",") else r for r in rows]
    return csv_bytes(*rows)


def test_reimporting_the_same_file_changes_nothing(user):
    import_csv(user, *_demo_rows())
    result = timetable_sync(user=user, data=DEMO_CSV.read_bytes(), fmt="csv", dry_run=True)
    assert result.plan is not None and result.plan.courses == [] and not result.plan.has_changes


def test_a_reimport_diff_names_the_dropped_and_the_moved_course_with_their_blocks(user):
    import_csv(user, *_demo_rows())
    item = make_task_class(user, items=1).items.get()
    place_item(item, week=3, day=1, start=11)  # Monday 11-12 of week 3: free in the demo timetable
    data = _edited_demo("离散数学", ("大学英语(二),1,3,4", "大学英语(二),1,11,12"))
    plan = timetable_sync(user=user, data=data, fmt="csv", dry_run=True).plan
    assert plan is not None
    assert {(c.name, c.status) for c in plan.courses} == {("离散数学", "removed"), ("大学英语(二)", "changed")}
    english = next(c for c in plan.courses if c.name == "大学英语(二)")
    assert [(a.day, a.start_section, a.weeks_text) for a in english.before] == [(1, 3, "1-16"), (4, 3, "2-16双")]
    assert [(a.day, a.start_section, a.weeks_text) for a in english.after] == [(1, 11, "1-16"), (4, 3, "2-16双")]
    assert [b.id for b in english.displaced] == [item.pk]
    assert ScheduleEvent.objects.filter(user=user, task_item=item).exists()  # a dry run writes nothing


def test_a_confirmed_reimport_applies_everything_and_undo_restores_the_old_timetable(user):
    import_csv(user, *_demo_rows())
    item = make_task_class(user, items=1).items.get()
    place_item(item, week=3, day=1, start=11)
    before = _rows(user)
    data = _edited_demo("离散数学", ("大学英语(二),1,3,4", "大学英语(二),1,11,12"))
    digest = timetable_sync(user=user, data=data, fmt="csv", dry_run=True).plan.digest
    with translation.override("zh-hans"):
        result = timetable_sync(user=user, data=data, fmt="csv", expected=digest)
    assert not Course.objects.filter(user=user, name="离散数学").exists()
    assert ScheduleEvent.objects.filter(user=user, title="大学英语(二)", week=3, start_section=11).exists()
    assert TaskItem.objects.get(pk=item.pk).status == TaskItem.Status.PENDING
    assert result.summary == "已重新导入课表：新增 0 门、变更 1 门、删除 1 门课程（1 个学习块回到待安排）"
    changeset_undo(user=user, changeset_id=result.changeset_id)
    assert _rows(user) == before


def test_a_stale_confirm_is_refused_and_changes_nothing(user):
    import_csv(user, *_demo_rows())
    data = _edited_demo("离散数学", ("大学英语(二),1,3,4", "大学英语(二),1,11,12"))
    digest = timetable_sync(user=user, data=data, fmt="csv", dry_run=True).plan.digest
    item = make_task_class(user, items=1).items.get()
    place_item(item, week=5, day=1, start=11)  # a block the new meeting would now displace
    before = _rows(user)
    with pytest.raises(ConflictError) as caught:
        timetable_sync(user=user, data=data, fmt="csv", expected=digest)
    assert caught.value.code == "import_stale" and _rows(user) == before


def test_a_custom_event_in_the_way_is_a_conflict_and_refuses_the_sync(user):
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-16")
    custom_event(user, title="社团活动", week=3, day=3, start=1, end=2)
    data = csv_bytes("线性代数,3,1,2,陈志强,二教2412,1-16")
    plan = timetable_sync(user=user, data=data, fmt="csv", dry_run=True).plan
    assert plan is not None and "社团活动" in plan.conflict_messages[0]
    before = _rows(user)
    with pytest.raises(ImportRejectedError):
        timetable_sync(user=user, data=data, fmt="csv")
    assert _rows(user) == before


def test_a_quick_note_in_the_way_of_a_new_meeting_is_unscheduled_and_comes_back_on_undo(user):
    from schedule.services.events import Span, event_create

    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-16")
    task = make_task(user, title="交实验报告")
    event_create(user=user, title=task.title, span=Span(4, 3, 1, 2), kind=ScheduleEvent.Kind.QUICK_NOTE, task=task)
    before = _rows(user)
    result = timetable_sync(user=user, data=csv_bytes("线性代数,3,1,2,陈志强,二教2412,1-16"), fmt="csv")
    assert not task.events.exists() and [b.kind for b in result.displaced] == ["note"]
    changeset_undo(user=user, changeset_id=result.changeset_id)
    assert _rows(user) == before


def test_a_file_with_problems_keeps_the_all_or_nothing_refusal(user):
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-16")
    before = _rows(user)
    with pytest.raises(ImportRejectedError) as caught:
        timetable_sync(user=user, data=csv_bytes("线性代数,9,1,2,陈志强,二教2412,1-16"), fmt="csv")
    assert caught.value.detail["problems"][0]["code"] == "invalid_day" and _rows(user) == before
