"""The direct-edit API of the week board: moves, removals and marks with their undo, refusals, keys, versions."""

from __future__ import annotations

import pytest

from schedule.models import ChangeSet, ScheduleEvent
from schedule.tests.factories import import_csv
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

pytestmark = pytest.mark.usefixtures("before_week_three")

BLOCKS = "/api/v1/board/blocks"


@pytest.fixture
def item(user) -> TaskItem:
    item = make_task_class(user, items=1).items.get()
    place_item(item, week=3, day=2, start=5)
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.PLACED)
    return item


def test_a_move_answers_with_the_change_set_to_undo_and_the_block_now(auth_client, item):
    response = auth_client.post(f"{BLOCKS}/item/{item.pk}/move/", {"week": 3, "day": 4, "start_section": 9},
                                format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    body = response.json()
    assert response.status_code == 200
    assert body["summary"] == "已把「概率论复习 #1」移到 第 3 周 周四 第 9–10 节"
    assert body["block"]["starts_at"] == "2026-09-24T19:00:00+08:00" and body["block"]["date"] == "2026-09-24"
    undone = auth_client.post(f"/api/v1/changesets/{body['changeset_id']}/undo/")
    assert undone.status_code == 200 and undone.json()["kind"] == "move"
    assert ScheduleEvent.objects.get(task_item=item).day == 2


def test_remove_done_and_missed_answer_with_their_summaries(auth_client, item):
    done = auth_client.post(f"{BLOCKS}/item/{item.pk}/done/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert done["summary"] == "已标记完成「概率论复习 #1」" and done["block"]["status"] == "done"
    missed = auth_client.post(f"{BLOCKS}/item/{item.pk}/missed/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert missed["summary"] == "已标记未完成「概率论复习 #1」"
    removed = auth_client.post(f"{BLOCKS}/item/{item.pk}/remove/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert removed["summary"] == "已移除「概率论复习 #1」（回到待安排）" and removed["block"] is None


def test_a_move_onto_a_course_is_a_409_in_chinese_naming_it(auth_client, user, item):
    import_csv(user, "高等数学,4,1,2,李老师,一教101,3")
    response = auth_client.post(f"{BLOCKS}/item/{item.pk}/move/", {"week": 3, "day": 4, "start_section": 1},
                                format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    body = response.json()
    assert response.status_code == 409
    assert body["code"] == "slot_taken"
    assert body["message"] == "2026-09-24（周四） 第 1-2 节已被“高等数学”占用。"
    assert len(body["detail"]["suggestions"]) == 3


def test_an_excluded_pair_is_a_400_with_the_reason(auth_client, user):
    item = make_task_class(user, items=1, excluded_pairs=[5]).items.get()
    place_item(item, week=3, day=2, start=5)
    response = auth_client.post(f"{BLOCKS}/item/{item.pk}/move/", {"week": 3, "day": 2, "start_section": 9},
                                format="json")
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["message"]) == ("excluded_block",
                                                                     "This plan excludes sections 9-10.")


def test_another_students_block_is_a_404(api_client, other_user, item):
    api_client.force_authenticate(user=other_user)
    for action in ("move", "remove", "done", "missed"):
        response = api_client.post(f"{BLOCKS}/item/{item.pk}/{action}/", {"week": 3, "day": 4, "start_section": 9},
                                   format="json")
        assert (response.status_code, response.json()["code"]) == (404, "block_not_found")
    assert api_client.get(f"{BLOCKS}/item/{item.pk}/suggestions/").status_code == 404


def test_an_id_past_the_64_bit_column_is_a_404(auth_client):
    assert auth_client.get(f"{BLOCKS}/note/9999999999999999999/").status_code == 404


def test_the_same_idempotency_key_replays_the_first_answer(auth_client, item):
    url = f"{BLOCKS}/item/{item.pk}/move/"
    first = auth_client.post(url, {"week": 3, "day": 4, "start_section": 9}, format="json",
                             HTTP_X_IDEMPOTENCY_KEY="move-1")
    again = auth_client.post(url, {"week": 3, "day": 4, "start_section": 9}, format="json",
                             HTTP_X_IDEMPOTENCY_KEY="move-1")
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert ChangeSet.objects.count() == 1


def test_of_two_tabs_editing_one_block_only_the_first_wins(auth_client, item):
    version = auth_client.get(f"{BLOCKS}/item/{item.pk}/").json()["version"]
    first = auth_client.post(f"{BLOCKS}/item/{item.pk}/move/",
                             {"week": 3, "day": 4, "start_section": 9, "version": version}, format="json")
    second = auth_client.post(f"{BLOCKS}/item/{item.pk}/move/",
                              {"week": 3, "day": 5, "start_section": 9, "version": version}, format="json",
                              HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert first.status_code == 200
    assert (second.status_code, second.json()["code"]) == (409, "block_changed")
    assert second.json()["message"] == "这个时间块已在另一个窗口中被修改，请刷新后重试。"
    assert ScheduleEvent.objects.get(task_item=item).day == 4


def test_suggestions_list_places_with_dates_and_times(auth_client, item):
    body = auth_client.get(f"{BLOCKS}/item/{item.pk}/suggestions/?limit=2").json()
    assert body["block"]["id"] == item.pk
    assert [(s["date"], s["start_section"], s["starts_at"]) for s in body["suggestions"]] == [
        ("2026-09-14", 1, "2026-09-14T08:00:00+08:00"), ("2026-09-14", 3, "2026-09-14T10:15:00+08:00")]


def test_a_quick_note_block_moves_and_its_move_undoes_over_the_api(auth_client, user):
    from schedule.services.events import Span, event_create
    from taskclasses.tests.factories import make_task

    task = make_task(user, title="交实验报告")
    event_create(user=user, title=task.title, span=Span(3, 3, 3, 4), kind=ScheduleEvent.Kind.QUICK_NOTE, task=task)
    moved = auth_client.post(f"{BLOCKS}/note/{task.pk}/move/", {"week": 3, "day": 3, "start_section": 7},
                             format="json", HTTP_X_IDEMPOTENCY_KEY="note-move-1")
    assert moved.status_code == 200 and moved.json()["block"]["kind"] == "note"
    assert auth_client.post(f"/api/v1/changesets/{moved.json()['changeset_id']}/undo/").status_code == 200
    assert ScheduleEvent.objects.get(task=task).start_section == 3
