"""Task classes and their blocks through the services and selectors."""

from __future__ import annotations

from datetime import date

import pytest

from schedule.models import CalendarSettings, ScheduleEvent, ScheduleSlot
from taskclasses.exceptions import TaskClassInputError, TaskClassNotFoundError, TaskItemNotFoundError
from taskclasses.models import TaskClass, TaskItem
from taskclasses.plans import selectors, services
from taskclasses.tests.factories import NOW, WINDOW, embed_item, item_contents, make_task_class, place_item

VALID = {"name": "概率论复习", "start_date": WINDOW[0], "end_date": WINDOW[1], "item_count": 4}


def create(user, **changes):
    return services.task_class_create(user=user, **{**VALID, **changes})


def item_ids(task_class: TaskClass) -> list[int]:
    return list(task_class.items.order_by("order").values_list("pk", flat=True))


# --- Creating ------------------------------------------------------------------------------------

def test_create_with_a_count_names_the_blocks_after_the_class(user):
    task_class = create(user, item_count=3)
    assert item_contents(task_class) == ["概率论复习 #1", "概率论复习 #2", "概率论复习 #3"]
    assert list(task_class.items.values_list("order", "sections").order_by("order")) == [(1, 2), (2, 2), (3, 2)]


def test_create_with_contents_keeps_them_in_order_and_tidies_spaces(user):
    task_class = create(user, item_count=None, items=["  第一章  习题 ", "第二章", "第三章"])
    assert item_contents(task_class) == ["第一章 习题", "第二章", "第三章"]


def test_create_stores_the_fields_with_exclusions_sorted_and_unique(user):
    task_class = create(user, name="  数据结构   刷题 ", strategy="rapid", excluded_pairs=[6, 1, 6],
                        excluded_days=[7, 6], allow_filler=False, section_budget=20)
    task_class.refresh_from_db()
    assert (task_class.name, task_class.strategy, task_class.excluded_pairs, task_class.excluded_days,
            task_class.allow_filler, task_class.section_budget) == ("数据结构 刷题", "rapid", [1, 6], [6, 7], False, 20)


def test_a_window_on_the_first_and_last_days_of_the_semester_is_accepted(user):
    task_class = create(user, start_date=date(2026, 9, 7), end_date=date(2027, 1, 24))
    assert task_class.pk is not None


def test_two_hundred_blocks_and_a_name_of_a_hundred_characters_are_accepted(user):
    task_class = create(user, name="x" * 100, item_count=200)
    assert task_class.items.count() == 200


@pytest.mark.parametrize(("changes", "code", "message"), [
    ({"end_date": date(2026, 9, 13)}, "window_reversed",
     "The last day (2026-09-13) comes before the first day (2026-09-14)."),
    ({"start_date": date(2026, 9, 6)}, "window_outside_semester",
     "The window is outside the semester: pick days from 2026-09-07 to 2027-01-24."),
    ({"end_date": date(2027, 1, 25)}, "window_outside_semester",
     "The window is outside the semester: pick days from 2026-09-07 to 2027-01-24."),
    ({"excluded_pairs": [0]}, "invalid_excluded_pairs", "Excluded blocks are numbers from 1 to 6."),
    ({"excluded_pairs": [7]}, "invalid_excluded_pairs", "Excluded blocks are numbers from 1 to 6."),
    ({"excluded_pairs": [True]}, "invalid_excluded_pairs", "Excluded blocks are numbers from 1 to 6."),
    ({"excluded_pairs": [1, 2, 3, 4, 5, 6]}, "all_pairs_excluded",
     "Excluding every block of the day leaves no time for the plan."),
    ({"excluded_days": [8]}, "invalid_excluded_days", "Excluded days are numbers from 1 (Monday) to 7 (Sunday)."),
    ({"excluded_days": [0]}, "invalid_excluded_days", "Excluded days are numbers from 1 (Monday) to 7 (Sunday)."),
    ({"excluded_days": [1, 2, 3, 4, 5, 6, 7]}, "all_days_excluded",
     "Excluding all seven days leaves no time for the plan."),
    ({"item_count": 0}, "empty_class", "A task class needs at least one block."),
    ({"item_count": None}, "empty_class", "A task class needs at least one block."),
    ({"item_count": None, "items": []}, "empty_class", "A task class needs at least one block."),
    ({"item_count": 201}, "too_many_items", "A task class has at most 200 blocks."),
    ({"item_count": None, "items": ["x"] * 201}, "too_many_items", "A task class has at most 200 blocks."),
    ({"items": ["第一章"]}, "items_and_count", "Give either the blocks' contents or their number, not both."),
    ({"item_count": None, "items": ["第一章", "  "]}, "empty_item", "Block 2 has no content."),
    ({"item_count": None, "items": ["x" * 201]}, "item_too_long", "A block's content has at most 200 characters."),
    ({"name": "   "}, "empty_name", "Give the task class a name."),
    ({"name": "x" * 101}, "name_too_long", "A name has at most 100 characters."),
    ({"strategy": "lazy"}, "invalid_strategy", "The strategy is steady, rapid or spaced."),
    ({"section_budget": 0}, "invalid_section_budget", "The section budget is a whole number from 1 to 400."),
])
def test_bad_classes_are_refused_with_a_clear_reason_and_nothing_is_saved(user, changes, code, message):
    with pytest.raises(TaskClassInputError) as error:
        create(user, **changes)
    assert (error.value.code, error.value.message, error.value.status) == (code, message, 400)
    assert not TaskClass.objects.exists() and not TaskItem.objects.exists()


def test_excluded_blocks_follow_the_students_own_section_template(user):
    CalendarSettings.objects.filter(user=user).update(
        section_times=[["08:00", "08:45"], ["08:55", "09:40"], ["10:00", "10:45"], ["10:55", "11:40"]])
    with pytest.raises(TaskClassInputError) as error:
        create(user, excluded_pairs=[3])
    assert error.value.message == "Excluded blocks are numbers from 1 to 2."


# --- Changing the class --------------------------------------------------------------------------

def test_editing_a_class_keeps_the_same_blocks_without_duplicates(user):
    task_class = create(user, item_count=5)
    before = list(task_class.items.order_by("order").values_list("pk", "order", "content"))
    services.task_class_update(user=user, task_class_id=task_class.pk, name="概率论总复习", strategy="rapid",
                               start_date=date(2026, 9, 21), excluded_pairs=[6], excluded_days=[7],
                               allow_filler=False, section_budget=10)
    assert list(task_class.items.order_by("order").values_list("pk", "order", "content")) == before
    assert TaskItem.objects.count() == 5


def test_editing_changes_only_the_given_fields(user):
    task_class = create(user, excluded_days=[7])
    services.task_class_update(user=user, task_class_id=task_class.pk, name="新名字")
    task_class.refresh_from_db()
    assert (task_class.name, task_class.excluded_days, task_class.start_date) == ("新名字", [7], WINDOW[0])


def test_editing_checks_the_new_window_against_the_old_end(user):
    task_class = create(user)
    with pytest.raises(TaskClassInputError) as error:
        services.task_class_update(user=user, task_class_id=task_class.pk, start_date=date(2026, 10, 12))
    assert error.value.code == "window_reversed"


def test_a_class_left_outside_a_moved_semester_can_still_be_renamed(user):
    task_class = create(user)
    CalendarSettings.objects.filter(user=user).update(semester_start=date(2027, 2, 22))
    services.task_class_update(user=user, task_class_id=task_class.pk, name="旧学期的复习")
    with pytest.raises(TaskClassInputError) as error:
        services.task_class_update(user=user, task_class_id=task_class.pk, end_date=date(2026, 10, 12))
    assert error.value.code == "window_outside_semester"


def test_editing_an_unknown_field_is_a_programming_error(user):
    task_class = create(user)
    with pytest.raises(TypeError, match="unexpected fields: items"):
        services.task_class_update(user=user, task_class_id=task_class.pk, items=["x"])


# --- Deleting ------------------------------------------------------------------------------------

def test_deleting_a_class_removes_its_blocks_their_events_and_embedded_marks(user):
    task_class = make_task_class(user, items=2)
    first, second = task_class.items.order_by("order")
    own = place_item(first, week=3, day=2, start=5)
    host = embed_item(second)
    services.task_class_delete(user=user, task_class_id=task_class.pk)
    assert not TaskItem.objects.exists()
    assert not ScheduleEvent.objects.filter(pk=own.pk).exists()
    assert not ScheduleSlot.objects.filter(event_id=own.pk).exists()
    assert ScheduleEvent.objects.filter(pk=host.pk).exists()  # the course itself stays
    assert list(host.slots.values_list("embedded_item", flat=True)) == [None, None]


def test_deleting_a_class_leaves_other_classes_and_their_placements(user):
    kept = make_task_class(user, name="数据结构刷题", items=1)
    event = place_item(kept.items.get())
    services.task_class_delete(user=user, task_class_id=make_task_class(user).pk)
    assert ScheduleEvent.objects.filter(pk=event.pk).exists() and kept.items.count() == 1


# --- Blocks ---------------------------------------------------------------------------------------

def test_adding_a_block_without_a_position_puts_it_last(user):
    task_class = make_task_class(user, items=2)
    item = services.task_item_add(user=user, task_class_id=task_class.pk, content=" 错题  整理 ")
    assert (item.order, item.content, item.sections) == (3, "错题 整理", 2)


def test_adding_a_block_at_a_position_moves_the_later_blocks_down(user):
    task_class = make_task_class(user, items=3)
    ids = item_ids(task_class)
    item = services.task_item_add(user=user, task_class_id=task_class.pk, content="插入", position=2)
    assert item_ids(task_class) == [ids[0], item.pk, ids[1], ids[2]]
    assert list(task_class.items.order_by("order").values_list("order", flat=True)) == [1, 2, 3, 4]


@pytest.mark.parametrize(("kwargs", "code", "message"), [
    ({"content": "  "}, "empty_item", "Write what the block is about."),
    ({"content": "x" * 201}, "item_too_long", "A block's content has at most 200 characters."),
    ({"content": "x", "position": 5}, "invalid_position", "A position is a number from 1 to 4."),
    ({"content": "x", "position": 0}, "invalid_position", "A position is a number from 1 to 4."),
    ({"content": "x", "sections": 3}, "unsupported_sections",
     "A block is one pair of sections (2); other lengths are not supported yet."),
])
def test_bad_blocks_are_refused(user, kwargs, code, message):
    task_class = make_task_class(user, items=3)
    with pytest.raises(TaskClassInputError) as error:
        services.task_item_add(user=user, task_class_id=task_class.pk, **kwargs)
    assert (error.value.code, error.value.message) == (code, message)
    assert task_class.items.count() == 3


def test_a_two_hundred_and_first_block_is_refused(user):
    task_class = make_task_class(user, items=200)
    with pytest.raises(TaskClassInputError) as error:
        services.task_item_add(user=user, task_class_id=task_class.pk, content="多一个")
    assert error.value.message == "A task class has at most 200 blocks."


def test_renaming_a_block_keeps_its_id_order_and_placement(user):
    task_class = make_task_class(user, items=2)
    item = task_class.items.get(order=2)
    event = place_item(item)
    services.task_item_update(user=user, item_id=item.pk, content="第二章 重做")
    item.refresh_from_db()
    assert (item.content, item.order, list(item.events.all())) == ("第二章 重做", 2, [event])


def test_a_block_can_not_be_made_longer_than_a_pair_yet(user):
    item = make_task_class(user, items=1).items.get()
    with pytest.raises(TaskClassInputError) as error:
        services.task_item_update(user=user, item_id=item.pk, sections=4)
    assert error.value.code == "unsupported_sections"


def test_removing_a_block_numbers_the_rest_again(user):
    task_class = make_task_class(user, items=4)
    ids = item_ids(task_class)
    services.task_item_remove(user=user, item_id=ids[1])
    assert list(task_class.items.order_by("order").values_list("pk", "order")) == [(ids[0], 1), (ids[2], 2),
                                                                                  (ids[3], 3)]


def test_removing_a_placed_block_takes_it_off_the_schedule(user):
    item = make_task_class(user, items=1).items.get()
    event = place_item(item)
    services.task_item_remove(user=user, item_id=item.pk)
    assert not ScheduleEvent.objects.filter(pk=event.pk).exists()


def test_reordering_puts_the_blocks_in_the_given_order(user):
    task_class = make_task_class(user, items=4)
    ids = item_ids(task_class)
    new_order = [ids[3], ids[0], ids[2], ids[1]]
    services.task_items_reorder(user=user, task_class_id=task_class.pk, item_ids=new_order)
    assert item_ids(task_class) == new_order


@pytest.mark.parametrize(("pick", "detail"), [
    (lambda ids, other: ids[:2], lambda ids, other: {"missing": [ids[2]], "unexpected": [], "duplicates": []}),
    (lambda ids, other: [*ids, other], lambda ids, other: {"missing": [], "unexpected": [other], "duplicates": []}),
    (lambda ids, other: [ids[0], ids[0], ids[1], ids[2]],
     lambda ids, other: {"missing": [], "unexpected": [], "duplicates": [ids[0]]}),
])
def test_reordering_with_a_wrong_set_of_ids_is_refused_and_changes_nothing(user, pick, detail):
    task_class = make_task_class(user, items=3)
    other = make_task_class(user, name="其他", items=1).items.get().pk
    ids = item_ids(task_class)
    with pytest.raises(TaskClassInputError) as error:
        services.task_items_reorder(user=user, task_class_id=task_class.pk, item_ids=pick(ids, other))
    assert (error.value.code, error.value.message) == ("item_ids_mismatch",
                                                       "Send every block of this task class exactly once.")
    assert error.value.detail == detail(ids, other)
    assert item_ids(task_class) == ids


def test_moving_a_block_shifts_the_ones_in_between(user):
    task_class = make_task_class(user, items=4)
    ids = item_ids(task_class)
    services.task_item_move(user=user, item_id=ids[3], position=2)
    assert item_ids(task_class) == [ids[0], ids[3], ids[1], ids[2]]


def test_moving_past_the_end_is_refused(user):
    task_class = make_task_class(user, items=2)
    with pytest.raises(TaskClassInputError) as error:
        services.task_item_move(user=user, item_id=item_ids(task_class)[0], position=3)
    assert error.value.message == "A position is a number from 1 to 2."


# --- Other students ------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda user, tc: services.task_class_update(user=user, task_class_id=tc.pk, name="偷改"),
    lambda user, tc: services.task_class_delete(user=user, task_class_id=tc.pk),
    lambda user, tc: services.task_item_add(user=user, task_class_id=tc.pk, content="x"),
    lambda user, tc: services.task_items_reorder(user=user, task_class_id=tc.pk, item_ids=item_ids(tc)),
    lambda user, tc: selectors.task_class_detail_get(user=user, task_class_id=tc.pk),
])
def test_another_students_class_is_not_found(user, other_user, call):
    theirs = make_task_class(other_user)
    with pytest.raises(TaskClassNotFoundError) as error:
        call(user, theirs)
    assert (error.value.code, error.value.status) == ("task_class_not_found", 404)
    assert theirs.items.count() == 3 and TaskClass.objects.get().name == "概率论复习"


@pytest.mark.parametrize("call", [
    lambda user, item: services.task_item_update(user=user, item_id=item.pk, content="偷改"),
    lambda user, item: services.task_item_remove(user=user, item_id=item.pk),
    lambda user, item: services.task_item_move(user=user, item_id=item.pk, position=1),
    lambda user, item: selectors.task_item_detail_get(user=user, item_id=item.pk),
])
def test_another_students_block_is_not_found(user, other_user, call):
    item = make_task_class(other_user).items.get(order=2)
    with pytest.raises(TaskItemNotFoundError) as error:
        call(user, item)
    assert error.value.code == "task_item_not_found"
    item.refresh_from_db()
    assert (item.content, item.order) == ("概率论复习 #2", 2)


def test_a_block_addressed_through_another_of_my_classes_is_not_found(user):
    item = make_task_class(user).items.get(order=1)
    elsewhere = make_task_class(user, name="数据结构刷题")
    with pytest.raises(TaskItemNotFoundError):
        services.task_item_update(user=user, item_id=item.pk, task_class_id=elsewhere.pk, content="x")


# --- Reads ---------------------------------------------------------------------------------------

def test_the_list_counts_placed_and_total_blocks(user, other_user):
    task_class = make_task_class(user, items=4)
    first, second, *_rest = task_class.items.order_by("order")
    place_item(first)
    embed_item(second)
    make_task_class(other_user)
    (listed,) = selectors.task_class_list(user=user)
    assert (listed.pk, listed.item_count, listed.placed_count) == (task_class.pk, 4, 2)


def test_detail_shows_each_blocks_status_and_where_it_is_placed(user):
    task_class = make_task_class(user, items=3)
    first, second, _third = task_class.items.order_by("order")
    own = place_item(first, week=3, day=2, start=5)
    host = embed_item(second)
    detail = selectors.task_class_detail_get(user=user, task_class_id=task_class.pk)
    assert [view.status for view in detail.items] == ["placed", "placed", "pending"]
    mine, embedded, none = (view.placement for view in detail.items)
    assert (mine.kind, mine.event_id, mine.week, mine.day, mine.start_section, mine.host_title) == (
        "event", own.pk, 3, 2, 5, "")
    assert (embedded.kind, embedded.event_id, embedded.start_section, embedded.end_section, embedded.host_title) == (
        "embedded", host.pk, 9, 10, "形势与政策")
    assert embedded.starts_at.isoformat() == "2026-09-21T19:00:00+08:00"
    assert none is None and (detail.placed_count, detail.item_count) == (2, 3)


def test_detail_reads_in_a_fixed_number_of_queries(user, django_assert_num_queries):
    task_class = make_task_class(user, items=30)
    for item in task_class.items.order_by("order")[:3]:
        place_item(item, week=3, day=item.order, start=1)
    selectors.task_class_detail_get(user=user, task_class_id=task_class.pk)  # calendar settings exist now
    with django_assert_num_queries(5):
        selectors.task_class_detail_get(user=user, task_class_id=task_class.pk)


def test_the_default_window_is_four_weeks_from_this_weeks_monday(user):
    # NOW is Wednesday 2 December 2026.
    assert selectors.default_window_get(user=user, now=NOW) == (date(2026, 11, 30), date(2026, 12, 27))


def test_the_default_window_stays_inside_the_semester(user):
    late = NOW.replace(year=2027, month=1, day=20)
    assert selectors.default_window_get(user=user, now=late) == (date(2026, 12, 28), date(2027, 1, 24))
    early = NOW.replace(month=8, day=1)
    assert selectors.default_window_get(user=user, now=early) == (date(2026, 9, 7), date(2026, 10, 4))


def test_demo_task_classes_are_added_once(user, monkeypatch):
    from taskclasses.demo import seed_demo_task_classes

    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    assert seed_demo_task_classes(user) == "task classes: 2 added, 0 already there"
    assert seed_demo_task_classes(user) == "task classes: 0 added, 2 already there"
    review, drills = TaskClass.objects.filter(user=user).order_by("-strategy")
    assert (review.name, review.strategy, review.items.count(), review.excluded_pairs, review.allow_filler,
            review.start_date, review.end_date) == (
        "概率论复习", "steady", 16, [6], True, date(2026, 11, 30), date(2027, 1, 3))
    assert (drills.name, drills.strategy, drills.items.count(), drills.excluded_days,
            drills.start_date, drills.end_date) == (
        "数据结构刷题", "rapid", 10, [7], date(2026, 12, 2), date(2026, 12, 22))
