"""Task classes over the API: list, create, read, change, delete, and the blocks' own endpoints."""

from __future__ import annotations

import pytest

from schedule.models import ScheduleEvent
from taskclasses.models import TaskClass, TaskItem
from taskclasses.tests.factories import embed_item, item_contents, make_task_class, place_item

URL = "/api/v1/task-classes/"
NEW = {"name": "概率论复习", "start_date": "2026-09-14", "end_date": "2026-10-11", "item_count": 16}


def ids_of(task_class: TaskClass) -> list[int]:
    return list(task_class.items.order_by("order").values_list("pk", flat=True))


def test_create_with_a_count_answers_the_class_with_its_blocks(auth_client, user):
    response = auth_client.post(URL, {**NEW, "excluded_pairs": [6], "excluded_days": [7]}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["name"], body["strategy"], body["excluded_pairs"], body["excluded_days"], body["allow_filler"],
            body["item_count"], body["placed_count"]) == ("概率论复习", "steady", [6], [7], True, 16, 0)
    assert body["items"][0] == {"id": TaskItem.objects.get(order=1).pk, "order": 1, "content": "概率论复习 #1",
                                "sections": 2, "status": "pending", "placement": None}


def test_create_with_contents_keeps_them_in_order(auth_client, user):
    body = auth_client.post(URL, {"name": "数据结构刷题", "start_date": "2026-09-14", "end_date": "2026-09-27",
                                  "items": ["链表", "树"], "item_count": None, "strategy": "rapid"}, format="json").json()
    assert ([item["content"] for item in body["items"]], body["strategy"]) == (["链表", "树"], "rapid")


@pytest.mark.parametrize(("changes", "code", "message"), [
    ({"end_date": "2026-09-13"}, "window_reversed",
     "The last day (2026-09-13) comes before the first day (2026-09-14)."),
    ({"end_date": "2027-03-01"}, "window_outside_semester",
     "The window is outside the semester: pick days from 2026-09-07 to 2027-01-24."),
    ({"excluded_pairs": [7]}, "invalid_excluded_pairs", "Excluded blocks are numbers from 1 to 6."),
    ({"excluded_days": [1, 2, 3, 4, 5, 6, 7]}, "all_days_excluded",
     "Excluding all seven days leaves no time for the plan."),
    ({"excluded_days": [9]}, "invalid_excluded_days", "Excluded days are numbers from 1 (Monday) to 7 (Sunday)."),
    ({"item_count": 0}, "empty_class", "A task class needs at least one block."),
    ({"item_count": 201}, "too_many_items", "A task class has at most 200 blocks."),
    ({"name": ""}, "empty_name", "Give the task class a name."),
    ({"name": "长" * 101}, "name_too_long", "A name has at most 100 characters."),
])
def test_bad_classes_are_refused_in_the_common_error_shape(auth_client, changes, code, message):
    response = auth_client.post(URL, {**NEW, **changes}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"] == message
    assert not TaskClass.objects.exists()


@pytest.mark.parametrize(("payload", "field"), [
    ({**NEW, "start_date": "next monday"}, "start_date"),
    ({key: value for key, value in NEW.items() if key != "end_date"}, "end_date"),
    ({**NEW, "strategy": "lazy"}, "strategy"),
    ({**NEW, "excluded_days": "7"}, "excluded_days"),
    ({**NEW, "items": "第一章"}, "items"),
])
def test_malformed_input_is_refused_by_field(auth_client, payload, field):
    response = auth_client.post(URL, payload, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and field in response.json()["detail"]


def test_list_shows_only_my_classes_with_placed_counts(auth_client, user, other_user):
    mine = make_task_class(user, items=3)
    place_item(mine.items.get(order=1))
    make_task_class(other_user, name="别人的")
    body = auth_client.get(URL).json()
    assert [(c["id"], c["name"], c["item_count"], c["placed_count"]) for c in body] == [(mine.pk, "概率论复习", 3, 1)]


def test_detail_shows_where_each_block_is_placed(auth_client, user):
    task_class = make_task_class(user, items=2)
    first, second = task_class.items.order_by("order")
    event = place_item(first, week=3, day=2, start=5)
    host = embed_item(second)
    items = auth_client.get(f"{URL}{task_class.pk}/").json()["items"]
    assert items[0]["placement"] == {"kind": "event", "event_id": event.pk, "week": 3, "day": 2, "start_section": 5,
                                     "end_section": 6, "starts_at": "2026-09-22T14:00:00+08:00",
                                     "ends_at": "2026-09-22T15:40:00+08:00", "host_title": ""}
    assert (items[1]["status"], items[1]["placement"]["kind"], items[1]["placement"]["event_id"],
            items[1]["placement"]["host_title"]) == ("placed", "embedded", host.pk, "形势与政策")


def test_patching_a_class_keeps_its_block_ids_and_adds_none(auth_client, user):
    task_class = make_task_class(user, items=4)
    before = ids_of(task_class)
    response = auth_client.patch(f"{URL}{task_class.pk}/", {"name": "概率论总复习", "strategy": "rapid",
                                                             "end_date": "2026-10-18", "excluded_pairs": [1]},
                                 format="json")
    assert response.status_code == 200
    assert [item["id"] for item in response.json()["items"]] == before
    assert (response.json()["name"], ids_of(task_class), TaskItem.objects.count()) == ("概率论总复习", before, 4)


def test_patching_with_a_bad_window_is_refused(auth_client, user):
    task_class = make_task_class(user)
    response = auth_client.patch(f"{URL}{task_class.pk}/", {"start_date": "2026-10-12"}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "window_reversed")


def test_deleting_a_class_answers_204_and_clears_its_placements(auth_client, user):
    task_class = make_task_class(user, items=2)
    first, second = task_class.items.order_by("order")
    place_item(first)
    host = embed_item(second)
    assert auth_client.delete(f"{URL}{task_class.pk}/").status_code == 204
    assert not TaskClass.objects.exists()
    assert list(ScheduleEvent.objects.values_list("kind", flat=True)) == ["course"]
    assert list(host.slots.values_list("embedded_item", flat=True)) == [None, None]


def test_adding_a_block_at_a_position(auth_client, user):
    task_class = make_task_class(user, items=2)
    response = auth_client.post(f"{URL}{task_class.pk}/items/", {"content": "插入的", "position": 1}, format="json")
    assert response.status_code == 201
    assert (response.json()["order"], response.json()["status"]) == (1, "pending")
    assert item_contents(task_class) == ["插入的", "概率论复习 #1", "概率论复习 #2"]


def test_a_block_longer_than_a_pair_is_refused(auth_client, user):
    task_class = make_task_class(user, items=1)
    response = auth_client.post(f"{URL}{task_class.pk}/items/", {"content": "长块", "sections": 4}, format="json")
    assert response.status_code == 400
    assert response.json() == {"code": "unsupported_sections",
                               "message": "A block is one pair of sections (2); other lengths are not supported yet.",
                               "detail": {"sections": 4, "supported": [2]}}


def test_renaming_a_block_keeps_its_id(auth_client, user):
    task_class = make_task_class(user, items=2)
    item = task_class.items.get(order=2)
    response = auth_client.patch(f"{URL}{task_class.pk}/items/{item.pk}/", {"content": "第二章 重做"}, format="json")
    assert (response.status_code, response.json()["id"], response.json()["content"]) == (200, item.pk, "第二章 重做")


def test_removing_a_block_numbers_the_rest_again(auth_client, user):
    task_class = make_task_class(user, items=3)
    first, second, third = ids_of(task_class)
    assert auth_client.delete(f"{URL}{task_class.pk}/items/{first}/").status_code == 204
    assert list(task_class.items.order_by("order").values_list("pk", "order")) == [(second, 1), (third, 2)]


def test_reordering_answers_the_class_in_the_new_order(auth_client, user):
    task_class = make_task_class(user, items=3)
    first, second, third = ids_of(task_class)
    response = auth_client.post(f"{URL}{task_class.pk}/items/reorder/", {"item_ids": [third, first, second]},
                                format="json")
    assert response.status_code == 200
    assert [(item["id"], item["order"]) for item in response.json()["items"]] == [(third, 1), (first, 2), (second, 3)]


def test_reordering_with_a_wrong_id_set_is_refused(auth_client, user):
    task_class = make_task_class(user, items=3)
    first, second, third = ids_of(task_class)
    response = auth_client.post(f"{URL}{task_class.pk}/items/reorder/", {"item_ids": [first, second, second]},
                                format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "item_ids_mismatch"
    assert response.json()["detail"] == {"missing": [third], "unexpected": [], "duplicates": [second]}
    assert ids_of(task_class) == [first, second, third]


ENDPOINTS: list[tuple[str, str, dict | None]] = [
    ("get", "{c}/", None),
    ("patch", "{c}/", {"name": "偷改"}),
    ("delete", "{c}/", None),
    ("post", "{c}/items/", {"content": "偷加"}),
    ("post", "{c}/items/reorder/", {"item_ids": []}),
    ("patch", "{c}/items/{i}/", {"content": "偷改"}),
    ("delete", "{c}/items/{i}/", None),
]


@pytest.mark.parametrize(("method", "path", "payload"), ENDPOINTS)
def test_another_students_class_is_not_found_on_every_endpoint(auth_client, other_user, method, path, payload):
    theirs = make_task_class(other_user)
    item = theirs.items.get(order=1)
    response = getattr(auth_client, method)(URL + path.format(c=theirs.pk, i=item.pk), payload, format="json")
    assert (response.status_code, response.json()["code"]) == (404, "task_class_not_found")
    assert item_contents(theirs) == ["概率论复习 #1", "概率论复习 #2", "概率论复习 #3"]
    assert TaskClass.objects.get().name == "概率论复习"


@pytest.mark.parametrize(("method", "payload"), [("patch", {"content": "偷改"}), ("delete", None)])
def test_another_students_block_under_my_class_is_not_found(auth_client, user, other_user, method, payload):
    mine = make_task_class(user)
    item = make_task_class(other_user).items.get(order=1)
    response = getattr(auth_client, method)(f"{URL}{mine.pk}/items/{item.pk}/", payload, format="json")
    assert (response.status_code, response.json()["code"]) == (404, "task_item_not_found")
    item.refresh_from_db()
    assert item.content == "概率论复习 #1"


def test_a_foreign_class_is_not_found_even_with_an_invalid_body(auth_client, other_user):
    theirs = make_task_class(other_user)
    response = auth_client.patch(f"{URL}{theirs.pk}/", {"start_date": "soon"}, format="json")
    assert (response.status_code, response.json()["code"]) == (404, "task_class_not_found")


def test_a_retried_create_with_the_same_idempotency_key_creates_one_class(auth_client, user):
    first = auth_client.post(URL, NEW, format="json", HTTP_X_IDEMPOTENCY_KEY="create-1")
    again = auth_client.post(URL, NEW, format="json", HTTP_X_IDEMPOTENCY_KEY="create-1")
    assert (first.status_code, again.status_code, again["Idempotent-Replayed"]) == (201, 201, "true")
    assert again.json()["id"] == first.json()["id"] and TaskClass.objects.count() == 1


def test_the_api_needs_a_logged_in_student(api_client):
    assert api_client.get(URL).status_code in (401, 403)
