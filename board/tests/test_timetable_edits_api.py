"""Course changes and re-imports through the API and the import page: dry runs, 404s, idempotency, undo."""

from __future__ import annotations

import pytest

from schedule.models import ChangeSet, Course, ScheduleEvent, ScheduleSlot
from schedule.tests.factories import DEMO_CSV, csv_bytes, import_csv
from taskclasses.models import TaskItem
from taskclasses.tests.factories import embed_item, make_task_class, place_item

pytestmark = pytest.mark.usefixtures("before_week_three")


@pytest.fixture
def embedded(user) -> tuple[TaskItem, ScheduleEvent]:
    item = make_task_class(user, items=1).items.get()
    host = embed_item(item)
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.PLACED)
    return item, host


def _meeting_url(host: ScheduleEvent) -> str:
    return f"/api/v1/schedule/courses/{host.course_id}/meetings/{host.pk}/"


def test_a_dry_run_deletion_lists_the_blocks_and_keeps_the_meeting(auth_client, embedded):
    item, host = embedded
    body = auth_client.delete(_meeting_url(host) + "?dry_run=true").json()
    assert body["dry_run"] is True and body["changeset_id"] is None
    assert [(b["kind"], b["id"], b["title"], b["start_section"]) for b in body["displaced"]] == [
        ("item", item.pk, item.content, 9)]
    assert ScheduleEvent.objects.filter(pk=host.pk).exists()


def test_deleting_a_meeting_then_undoing_it_through_the_api(auth_client, embedded):
    item, host = embedded
    body = auth_client.delete(_meeting_url(host), HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert body["summary"] == "已删除「形势与政策」09-21 的一次课（1 个学习块回到待安排）"
    assert not ScheduleEvent.objects.filter(pk=host.pk).exists()
    undo = auth_client.post(f"/api/v1/changesets/{body['changeset_id']}/undo/")
    assert undo.status_code == 200
    assert ScheduleSlot.objects.filter(event_id=host.pk, embedded_item=item).count() == 2


def test_a_meeting_of_another_course_or_student_is_not_found(auth_client, user, other_user, embedded):
    _item, host = embedded
    import_csv(other_user, "线性代数,2,1,2,陈志强,二教2412,1-2")
    foreign = ScheduleEvent.objects.filter(user=other_user).first()
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-2")
    mine = Course.objects.get(user=user, name="线性代数")
    assert auth_client.delete(f"/api/v1/schedule/courses/{foreign.course_id}/meetings/{foreign.pk}/").status_code == 404
    wrong = auth_client.delete(f"/api/v1/schedule/courses/{mine.pk}/meetings/{host.pk}/")
    assert wrong.status_code == 404 and wrong.json()["code"] == "meeting_not_found"
    assert ScheduleEvent.objects.filter(pk=host.pk).exists() and ScheduleEvent.objects.filter(pk=foreign.pk).exists()


def test_a_course_deletion_is_idempotent_by_key(auth_client, embedded):
    _item, host = embedded
    url = f"/api/v1/schedule/courses/{host.course_id}/"
    first = auth_client.delete(url, HTTP_X_IDEMPOTENCY_KEY="del-1")
    again = auth_client.delete(url, HTTP_X_IDEMPOTENCY_KEY="del-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert ChangeSet.objects.filter(kind=ChangeSet.Kind.COURSE).count() == 1


def test_turning_the_filler_mark_off_in_a_dry_run_lists_the_blocks(auth_client, embedded):
    item, host = embedded
    url = f"/api/v1/schedule/courses/{host.course_id}/"
    body = auth_client.patch(url, {"is_filler": False, "dry_run": True}, format="json").json()
    assert [b["id"] for b in body["displaced"]] == [item.pk] and body["course"]["is_filler"] is True


def test_an_empty_course_name_is_a_validation_error(auth_client, embedded):
    _item, host = embedded
    response = auth_client.patch(f"/api/v1/schedule/courses/{host.course_id}/", {"name": ""}, format="json")
    assert response.status_code == 400 and "name" in response.json()["detail"]


def test_renaming_onto_an_existing_course_is_a_conflict(auth_client, user):
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-2", "高等数学,3,1,2,陈志强,二教2412,1-2")
    course = Course.objects.get(user=user, name="高等数学")
    response = auth_client.patch(f"/api/v1/schedule/courses/{course.pk}/", {"name": "线性代数"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "course_exists"
    assert Course.objects.filter(user=user, name="高等数学").exists()


# --- Re-import --------------------------------------------------------------------------------------------

def _moved_demo() -> bytes:
    rows = DEMO_CSV.read_text("utf-8").strip().splitlines()[1:]
    rows = [r.replace("大学英语(二),1,3,4", "大学英语(二),1,11,12") for r in rows if not r.startswith("离散数学,")]
    return csv_bytes(*rows)


def test_a_reimport_dry_run_answers_the_diff_and_a_confirm_with_its_digest_syncs(auth_client, user):
    import_csv(user, *DEMO_CSV.read_text("utf-8").strip().splitlines()[1:])
    content = _moved_demo().decode()
    diff = auth_client.post("/api/v1/schedule/import/", {"content": content, "dry_run": True}, format="json").json()
    assert diff["mode"] == "sync" and {c["name"]: c["status"] for c in diff["courses"]} == {
        "离散数学": "removed", "大学英语(二)": "changed"}
    done = auth_client.post("/api/v1/schedule/import/", {"content": content, "expected": diff["digest"]},
                            format="json")
    assert done.status_code == 201 and done.json()["changeset_id"] is not None
    assert not Course.objects.filter(user=user, name="离散数学").exists()


def test_a_stale_reimport_confirm_is_a_409(auth_client, user):
    import_csv(user, *DEMO_CSV.read_text("utf-8").strip().splitlines()[1:])
    item = make_task_class(user, items=1).items.get()
    place_item(item, week=4, day=1, start=11)
    response = auth_client.post("/api/v1/schedule/import/", {"content": _moved_demo().decode(), "expected": "0" * 16},
                                format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 409 and response.json()["code"] == "import_stale"
    assert "课表有了变动" in response.json()["message"]
    assert ScheduleEvent.objects.filter(task_item=item).exists()


def test_the_import_page_shows_the_diff_in_chinese_and_confirming_lands_on_the_board(client, user):
    import_csv(user, *DEMO_CSV.read_text("utf-8").strip().splitlines()[1:])
    item = make_task_class(user, items=1).items.get()
    place_item(item, week=3, day=1, start=11)
    client.force_login(user)
    content = _moved_demo().decode()
    page = client.post("/schedule/import/", {"content": content, "action": "preview", "mode": "replace"},
                       HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "新增 0 门课程，变更 1 门，删除 1 门" in page and "将删除" in page
    assert "之前：<span class=\"arrangement\">周一 第 3–4 节 · 1-16周" in page
    assert "之后：<span class=\"arrangement\">周一 第 11–12 节 · 1-16周" in page
    assert f"{item.content}（第 3 周周一 第 11–12 节）" in page
    digest = page.split('name="expected" value="')[1].split('"')[0]
    response = client.post("/schedule/import/", {"content": content, "action": "import", "expected": digest,
                                                 "mode": "replace"})
    assert response.status_code == 302 and response["Location"] == "/board/"
    assert ChangeSet.objects.filter(user=user).latest("pk").kind == ChangeSet.Kind.IMPORT


def test_a_week_outside_the_semester_reads_in_chinese_on_the_import_page(client, user):
    client.force_login(user)
    page = client.post("/schedule/import/", {"content": csv_bytes("线性代数,2,1,2,陈志强,二教2412,21-25").decode(),
                                             "action": "preview"}, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "第 25 周不在学期内（本学期共 20 周）。" in page
