"""Task-class pages over the Django test client: list and create, detail, edit, blocks, delete."""

from __future__ import annotations

import pytest

from schedule.models import ScheduleEvent
from taskclasses.models import TaskClass, TaskItem
from taskclasses.tests.factories import NOW, embed_item, item_contents, make_task_class, place_item

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
FORM = {"name": "概率论复习", "strategy": "steady", "start_date": "2026-09-14", "end_date": "2026-10-11",
        "item_count": "16", "items_text": "", "allow_filler": "on"}


@pytest.fixture
def student(client, user):
    client.force_login(user)
    return user


def ids_of(task_class: TaskClass) -> list[int]:
    return list(task_class.items.order_by("order").values_list("pk", flat=True))


def test_creating_with_a_number_of_blocks_opens_the_new_class(client, student):
    response = client.post("/plans/", {**FORM, "excluded_pairs": ["6"], "excluded_days": ["7"]})
    task_class = TaskClass.objects.get(user=student)
    assert response["Location"] == f"/plans/{task_class.pk}/"
    assert (task_class.items.count(), task_class.excluded_pairs, task_class.excluded_days, task_class.allow_filler) == (
        16, [6], [7], True)


def test_creating_with_one_block_per_line_skips_blank_lines(client, student):
    client.post("/plans/", {**FORM, "strategy": "rapid", "items_text": "链表\r\n\r\n  树  \r\n图\r\n"})
    task_class = TaskClass.objects.get(user=student)
    assert (item_contents(task_class), task_class.strategy, task_class.allow_filler) == (["链表", "树", "图"], "rapid",
                                                                                        True)


def test_an_unticked_filler_box_means_no_filler_courses(client, student):
    client.post("/plans/", {key: value for key, value in FORM.items() if key != "allow_filler"})
    assert TaskClass.objects.get(user=student).allow_filler is False


@pytest.mark.parametrize(("changes", "message"), [
    ({"end_date": "2026-09-01"}, "The last day (2026-09-01) comes before the first day (2026-09-14)."),
    ({"end_date": "2027-02-01"}, "The window is outside the semester: pick days from 2026-09-07 to 2027-01-24."),
    ({"item_count": ""}, "A task class needs at least one block."),
    ({"item_count": "300"}, "A task class has at most 200 blocks."),
    ({"excluded_days": ["1", "2", "3", "4", "5", "6", "7"]}, "Excluding all seven days leaves no time for the plan."),
    ({"excluded_pairs": ["1", "2", "3", "4", "5", "6"]},
     "Excluding every block of the day leaves no time for the plan."),
])
def test_a_refused_class_shows_why_and_keeps_what_was_typed(client, student, changes, message):
    response = client.post("/plans/", {**FORM, "name": "保留我", **changes}, **EN)
    html = response.content.decode()
    assert response.status_code == 400
    assert message in html and 'value="保留我"' in html
    assert not TaskClass.objects.exists()


def test_the_list_shows_each_class_with_placed_and_total_blocks(client, student):
    task_class = make_task_class(student, items=4)
    place_item(task_class.items.get(order=1))
    html = client.get("/plans/", **EN).content.decode()
    assert "概率论复习" in html and "1 / 4 placed" in html
    assert 'aria-current="page"' in html and 'data-nav="taskclasses"' in html


def test_the_create_form_starts_this_monday_for_four_weeks(client, student, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)  # Wednesday 2 December 2026
    html = client.get("/plans/").content.decode()
    assert 'name="start_date" value="2026-11-30"' in html and 'name="end_date" value="2026-12-27"' in html


def test_the_block_checkboxes_show_the_times_of_the_students_pairs(client, student):
    html = client.get("/plans/").content.decode()
    assert "1 · 08:00–09:40" in html and "6 · 20:50–22:30" in html


def test_the_detail_page_shows_each_block_placed_or_not_and_the_planning_panel(client, student):
    task_class = make_task_class(student, items=3)
    first, second, _third = task_class.items.order_by("order")
    place_item(first, week=3, day=2, start=5)
    embed_item(second)
    html = client.get(f"/plans/{task_class.pk}/", **EN).content.decode()
    assert html.count(">Placed</span>") == 2 and html.count(">Not placed</span>") == 1
    assert "09-22 Tue 14:00–15:40" in html and "in 形势与政策" in html
    assert 'data-test="planning-panel"' in html


def test_saving_the_settings_keeps_the_same_blocks(client, student):
    task_class = make_task_class(student, items=5)
    before = ids_of(task_class)
    response = client.post(f"/plans/{task_class.pk}/", {**FORM, "name": "概率论总复习", "excluded_days": ["6", "7"]})
    task_class.refresh_from_db()
    assert response.status_code == 302
    assert (task_class.name, task_class.excluded_days, ids_of(task_class)) == ("概率论总复习", [6, 7], before)
    assert TaskItem.objects.count() == 5


def test_refused_settings_are_shown_on_the_detail_page(client, student):
    task_class = make_task_class(student)
    response = client.post(f"/plans/{task_class.pk}/", {**FORM, "start_date": "2026-08-31"}, **EN)
    assert response.status_code == 400
    assert "The window is outside the semester" in response.content.decode()


def test_adding_renaming_and_removing_blocks(client, student):
    task_class = make_task_class(student, items=2)
    first, second = ids_of(task_class)
    client.post(f"/plans/{task_class.pk}/items/", {"content": "开头", "position": "1"})
    client.post(f"/plans/{task_class.pk}/items/{second}/rename/", {"content": "第二章 重做"})
    response = client.post(f"/plans/{task_class.pk}/items/{first}/remove/")
    assert response["Location"] == f"/plans/{task_class.pk}/#items"
    assert item_contents(task_class) == ["开头", "第二章 重做"]


def test_moving_a_block_down_and_back_up(client, student):
    task_class = make_task_class(student, items=3)
    first, second, third = ids_of(task_class)
    client.post(f"/plans/{task_class.pk}/items/{first}/move/", {"position": "2"})
    assert ids_of(task_class) == [second, first, third]
    client.post(f"/plans/{task_class.pk}/items/{first}/move/", {"position": "1"})
    assert ids_of(task_class) == [first, second, third]


def test_a_refused_block_change_is_reported_as_a_message(client, student):
    task_class = make_task_class(student, items=1)
    item = task_class.items.get()
    response = client.post(f"/plans/{task_class.pk}/items/{item.pk}/rename/", {"content": "  "}, follow=True, **EN)
    assert "Write what the block is about." in response.content.decode()
    item.refresh_from_db()
    assert item.content == "概率论复习 #1"


def test_deleting_a_class_from_its_page_clears_its_placements(client, student):
    task_class = make_task_class(student, items=1)
    place_item(task_class.items.get())
    response = client.post(f"/plans/{task_class.pk}/delete/")
    assert response["Location"] == "/plans/"
    assert not TaskClass.objects.exists() and not ScheduleEvent.objects.exists()


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/plans/{c}/"),
    ("post", "/plans/{c}/"),
    ("post", "/plans/{c}/delete/"),
    ("post", "/plans/{c}/items/"),
    ("post", "/plans/{c}/items/{i}/rename/"),
    ("post", "/plans/{c}/items/{i}/move/"),
    ("post", "/plans/{c}/items/{i}/remove/"),
])
def test_another_students_class_is_404_on_every_page(client, student, other_user, method, path):
    theirs = make_task_class(other_user)
    item = theirs.items.get(order=2)
    payload = {**FORM, "content": "偷改", "position": "1"} if method == "post" else None
    response = getattr(client, method)(path.format(c=theirs.pk, i=item.pk), payload)
    assert response.status_code == 404
    assert item_contents(theirs) == ["概率论复习 #1", "概率论复习 #2", "概率论复习 #3"]


def test_another_students_block_under_my_class_is_404(client, student, other_user):
    mine = make_task_class(student)
    item = make_task_class(other_user).items.get(order=1)
    assert client.post(f"/plans/{mine.pk}/items/{item.pk}/remove/").status_code == 404
    assert TaskItem.objects.filter(pk=item.pk).exists()


def test_block_actions_only_take_posts(client, student):
    task_class = make_task_class(student)
    assert client.get(f"/plans/{task_class.pk}/items/{ids_of(task_class)[0]}/remove/").status_code == 405


def test_the_pages_need_a_login(client):
    response = client.get("/plans/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
