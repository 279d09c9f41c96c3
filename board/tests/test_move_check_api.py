"""The "move to…" picker asks first: a move's dry run says where the block would go, or refuses as the move
would, and writes nothing."""

from __future__ import annotations

import pytest

from board.tests.test_direct_edits_api import BLOCKS, item  # noqa: F401 - the item fixture
from schedule.models import ChangeSet, ScheduleEvent
from schedule.tests.factories import import_csv

pytestmark = pytest.mark.usefixtures("before_week_three")


def _check(client, block, **place):
    return client.post(f"{BLOCKS}/item/{block.pk}/move/", {**place, "dry_run": True}, format="json",
                       HTTP_ACCEPT_LANGUAGE="zh-hans")


def test_a_dry_run_says_where_the_block_would_go_and_moves_nothing(auth_client, item):  # noqa: F811 - the fixture imported above
    response = _check(auth_client, item, week=3, day=4, start_section=9)
    assert response.status_code == 200
    place = response.json()["place"]
    assert response.json()["dry_run"] is True
    assert (place["week"], place["day"], place["start_section"], place["end_section"]) == (3, 4, 9, 10)
    assert place["starts_at"] == "2026-09-24T19:00:00+08:00" and place["host_title"] is None
    assert (ScheduleEvent.objects.get(task_item=item).day, ChangeSet.objects.count()) == (2, 0)


def test_a_dry_run_onto_a_course_is_refused_as_the_move_would_be(auth_client, user, item):  # noqa: F811 - the fixture imported above
    import_csv(user, "高等数学,4,1,2,李老师,一教101,3")
    changes = ChangeSet.objects.count()  # the import's
    checked = _check(auth_client, item, week=3, day=4, start_section=1)
    assert checked.status_code == 409
    assert checked.json()["message"] == "2026-09-24（周四） 第 1-2 节已被“高等数学”占用。"
    assert len(checked.json()["detail"]["suggestions"]) == 3
    assert ChangeSet.objects.count() == changes


def test_a_dry_run_outside_the_semester_says_so(auth_client, item):  # noqa: F811 - the fixture imported above
    checked = _check(auth_client, item, week=30, day=1, start_section=1)
    assert checked.status_code == 400
    assert (checked.json()["code"], checked.json()["message"]) == ("outside_semester", "这个时间不在学期内。")


def test_another_students_block_is_a_404_even_for_a_dry_run(auth_client, other_user):
    from taskclasses.tests.factories import make_task_class, place_item

    theirs = make_task_class(other_user, items=1).items.get()
    place_item(theirs, week=3, day=2, start=5)
    assert _check(auth_client, theirs, week=3, day=4, start_section=9).status_code == 404
