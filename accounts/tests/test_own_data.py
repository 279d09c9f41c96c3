"""A student's own data: download all of it as one archive, delete all of it for good.

The deletion test fills a student with one of everything, a marker string in every text, deletes
them, then scans every table of every app, the vector store and the cache: nothing of theirs is left,
and another student is untouched.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.apps import apps
from django.db import models
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from accounts.data_erase import account_delete
from accounts.data_export import user_data_archive
from accounts.data_ports import user_data_counts
from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from agent.services.tickets import ticket_create, ticket_redeem
from agent.tests.factories import make_conversation, reply, route, run_turn
from bench.memory_eval.traces import cached_texts, vector_ids
from board.direct_edits import block_remove
from memory.cache import block_cache_generation, block_cache_set
from memory.models import MemoryItem
from memory.services.vectors import memory_vectors_sync
from memory.tests.factories import make_memory
from memory.vectorstore import get_vector_store
from schedule.models import Course
from schedule.services.feeds import calendar_feed_ensure
from schedule.services.imports import timetable_import
from schedule.tests.factories import custom_event, import_csv
from smartmate.platform.exceptions import AppError
from taskclasses.tests.factories import make_task, make_task_class, place_item

pytestmark = pytest.mark.django_db(transaction=True)

MARKER = "蓝鲸标记7Q"


def fill(user: User, fake_llm) -> dict:
    """One of everything, with the marker in every text the student wrote or the app wrote for them."""
    import_csv(user, f"{MARKER}高数,1,1,2,王老师,二教1101,1-16", f"{MARKER}英语,3,3,4,李老师,一教201,1-16")
    custom_event(user, title=f"{MARKER}社团", day=5)
    plan = make_task_class(user, name=f"{MARKER}复习", items=2)
    first, second = list(plan.items.order_by("order"))
    place_item(first, week=16)
    place_item(second, week=16, day=4)
    block_remove(user=user, kind="item", block_id=second.pk)  # a change set that remembers the block
    make_task(user, title=f"{MARKER}作业")
    fake_llm.script(route("reply"), reply(f"{MARKER}回答"), {"text": json.dumps({"facts": []})})
    run_turn(user, make_conversation(user, title=f"{MARKER}对话"), f"{MARKER}问题")
    memory = make_memory(user, f"{MARKER}喜欢早上学习")
    memory_vectors_sync(ids=[memory.pk])
    block_cache_set(user.pk, "q", f"- {MARKER}喜欢早上学习", generation=block_cache_generation(user.pk))
    feed = calendar_feed_ensure(user=user)
    ticket = ticket_create(user=user)
    return {"feed": feed.token, "ticket": ticket.ticket}


def api_for(user: User) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    pair = client.post(reverse("v1:auth-token"), {"username": user.username, "password": DEFAULT_PASSWORD},
                       format="json").json()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {pair['access']}")
    client.refresh = pair["refresh"]  # type: ignore[attr-defined]  # kept for the test's later refresh
    return client


def archive_of(user: User) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(b"".join(user_data_archive(user=user))))


def rows_mentioning(text: str) -> list[str]:
    """Every row of every table whose text fields contain ``text``."""
    found = []
    for model in apps.get_models():
        fields = [f.attname for f in model._meta.concrete_fields
                  if isinstance(f, (models.CharField, models.TextField, models.JSONField))]
        if not fields:
            continue
        for row in model._default_manager.values_list("pk", *fields).iterator():
            if text in json.dumps(row[1:], ensure_ascii=False, default=str):
                found.append(f"{model._meta.label} {row[0]}")
    return found


def rows_pointing_at(user_id: int) -> list[str]:
    """Every row with a foreign key to the user that still names them."""
    found = []
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is User:
                count = model._default_manager.filter(**{field.attname: user_id}).count()
                if count:
                    found.append(f"{model._meta.label}.{field.name}: {count}")
    return found


def test_the_archive_holds_every_area_and_the_timetable_but_no_secret_and_nothing_of_others(
        fake_llm, memory_on, user, other_user):
    fill(user, fake_llm)
    make_task(other_user, title="别人的笔记")

    archive = archive_of(user)

    manifest = json.loads(archive.read("manifest.json"))
    assert (manifest["format"], manifest["version"]) == ("smartmate-export", 1)
    assert set(archive.namelist()) == {"manifest.json", *manifest["files"]}
    assert {"account.json", "schedule.json", "plans.json", "conversations.json", "memory.json",
            "calendar.ics"} <= set(manifest["files"])
    plans = json.loads(archive.read("plans.json"))
    assert [row["title"] for row in plans["tables"]["task"]] == [f"{MARKER}作业"]
    assert len(plans["tables"]["taskitem"]) == 2
    talk = json.loads(archive.read("conversations.json"))["tables"]
    assert [m["content"] for m in talk["message"]] == [f"{MARKER}问题", f"{MARKER}回答"]
    assert talk["timelineevent"] and "checkpoint" not in talk
    memories = json.loads(archive.read("memory.json"))["tables"]["memoryitem"]
    assert [m["content"] for m in memories] == [f"{MARKER}喜欢早上学习"]
    schedule = json.loads(archive.read("schedule.json"))["tables"]
    assert {c["name"] for c in schedule["course"]} == {f"{MARKER}高数", f"{MARKER}英语"}
    assert len(schedule["changeset"]) == 2  # the timetable import and the change made after it
    assert f"{MARKER}高数".encode() in archive.read("calendar.ics")
    account = json.loads(archive.read("account.json"))["tables"]
    assert account["user"][0]["username"] == user.username and "password" not in account["user"][0]
    everything = b"".join(archive.read(name) for name in archive.namelist())
    assert "别人的笔记".encode() not in everything
    assert user.password.encode() not in everything


def test_a_student_with_nothing_gets_an_empty_but_valid_archive(user):
    archive = archive_of(user)

    plans = json.loads(archive.read("plans.json"))
    assert {"task", "taskclass", "taskitem"} <= set(plans["tables"])
    for name in ("plans.json", "conversations.json", "memory.json"):
        assert all(rows == [] for rows in json.loads(archive.read(name))["tables"].values()), name
    assert archive.testzip() is None


def test_export_delete_and_import_the_timetable_back_into_a_new_account(user):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16", "大学英语,3,3,4,李老师,一教201,1-8")
    mine = sorted(Course.objects.filter(user=user).values_list("name", "location"))
    ics = archive_of(user).read("calendar.ics")

    account_delete(user=user, password=DEFAULT_PASSWORD)
    again = UserFactory(username=user.username)  # the student comes back later
    outcome = timetable_import(user=again, data=ics, fmt="ics")

    assert outcome.created_events == 16 + 8
    assert sorted(Course.objects.filter(user=again).values_list("name", "location")) == mine


def test_deleting_leaves_no_trace_anywhere_and_other_students_untouched(fake_llm, memory_on, user, other_user,
                                                                        client):
    secrets = fill(user, fake_llm)
    other_note = make_task(other_user, title="别人的笔记")
    other_memory = make_memory(other_user, "别人喜欢晚上学习")
    memory_vectors_sync(ids=[other_memory.pk])
    api = api_for(user)
    client.force_login(user)
    assert api.patch(reverse("v1:me"), {"email": "new@example.edu"}, format="json",
                     HTTP_X_IDEMPOTENCY_KEY="k-1").status_code == 200
    user_id = user.pk
    before = user_data_counts(user=user)

    response = api.delete(reverse("v1:me"), {"password": DEFAULT_PASSWORD}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["deleted"]["schedule.course"] == before["schedule.course"] == 2
    assert not User.objects.filter(pk=user_id).exists()
    assert rows_mentioning(MARKER) == []
    assert rows_pointing_at(user_id) == []
    assert [key for key, text in cached_texts() if MARKER in text or f":{user_id}:" in key] == []
    assert vector_ids(user=User(pk=user_id), store=get_vector_store()) == []
    assert vector_ids(user=other_user, store=get_vector_store()) == [other_memory.pk]
    assert MemoryItem.objects.filter(pk=other_memory.pk).exists() and other_note.__class__.objects.filter(
        pk=other_note.pk).exists()
    # Every old way in is refused.
    assert api.get(reverse("v1:me")).status_code == 401
    assert APIClient().post(reverse("v1:auth-token-refresh"), {"refresh": api.refresh},  # type: ignore[attr-defined]
                            format="json").status_code == 401
    assert client.get(reverse("dashboard")).status_code == 302
    assert client.get(reverse("schedule:feed", args=[secrets["feed"]])).status_code == 404
    with pytest.raises(AppError):
        ticket_redeem(ticket=secrets["ticket"])


def test_a_wrong_or_missing_password_deletes_nothing(user, auth_client):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16")

    wrong = auth_client.delete(reverse("v1:me"), {"password": "not-it"}, format="json")
    missing = auth_client.delete(reverse("v1:me"), {}, format="json")

    assert (wrong.status_code, wrong.json()["code"]) == (403, "password_required")
    assert (missing.status_code, missing.json()["code"]) == (400, "invalid")
    assert User.objects.filter(pk=user.pk).exists() and Course.objects.filter(user=user).count() == 1


def test_the_api_streams_the_archive_one_at_a_time(user, auth_client):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16")

    first = auth_client.get(reverse("v1:me-export"))
    second = auth_client.get(reverse("v1:me-export"))  # the first is still streaming: nobody read it yet

    assert first.status_code == 200 and first["Content-Type"] == "application/zip"
    assert first.streaming and "attachment" in first["Content-Disposition"]
    assert (second.status_code, second.json()["code"]) == (409, "export_running")
    body = b"".join(first.streaming_content)
    assert "高等数学".encode() in zipfile.ZipFile(io.BytesIO(body)).read("schedule.json")
    third = auth_client.get(reverse("v1:me-export"))  # the first finished: the lock is free again
    assert third.status_code == 200
    b"".join(third.streaming_content)


def test_exports_are_rate_limited(user, auth_client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "data_export": "2/hour"}
    for _ in range(2):
        b"".join(auth_client.get(reverse("v1:me-export")).streaming_content)

    refused = auth_client.get(reverse("v1:me-export"))

    assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")


def test_the_page_lists_counts_in_chinese_and_deletes_with_the_password(client, user):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16")
    client.force_login(user)

    page = client.get(reverse("accounts:my-data"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    wrong = client.post(reverse("accounts:my-account-delete"), {"password": "nope", "confirm": "on"},
                        HTTP_ACCEPT_LANGUAGE="zh-hans")
    right = client.post(reverse("accounts:my-account-delete"), {"password": DEFAULT_PASSWORD, "confirm": "on"})

    assert "下载我的数据" in page.content.decode() and "注销账号" in page.content.decode()
    assert wrong.status_code == 400 and "密码不对" in wrong.content.decode()
    assert right.status_code == 302 and not User.objects.filter(pk=user.pk).exists()


def test_another_students_archive_is_not_reachable(user, other_user, auth_client):
    """There is no id in the address: the archive is always the signed-in student's own."""
    import_csv(other_user, "别人的课,1,1,2,王老师,二教1101,1-16")

    body = b"".join(auth_client.get(reverse("v1:me-export")).streaming_content)

    assert "别人的课".encode() not in body
    assert UserFactory._meta.model.objects.filter(pk=other_user.pk).exists()


def test_a_plain_get_of_the_download_page_starts_no_export(client, user, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "data_export": "1/hour"}
    client.force_login(user)

    page = client.get(reverse("accounts:my-data-download"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.get(reverse("accounts:my-data-download"))  # a second look spends nothing either
    download = client.post(reverse("accounts:my-data-download"))

    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    assert 'method="post"' in page.content.decode() and "按下按钮后才会打包你的数据" in page.content.decode()
    assert download["Content-Type"] == "application/zip"  # the hourly export was still there to spend
    assert "schedule.json" in zipfile.ZipFile(io.BytesIO(b"".join(download.streaming_content))).namelist()


def test_the_my_data_page_downloads_through_a_post_form(client, user):
    client.force_login(user)
    page = client.get(reverse("accounts:my-data")).content.decode()
    form = page.split('data-test="data-download"')[0].rsplit("<form", 1)[1]
    assert f'method="post" action="{reverse("accounts:my-data-download")}"' in form


def test_the_archive_explains_itself_in_the_students_language_with_times_in_her_zone(fake_llm, memory_on, user):
    fill(user, fake_llm)
    with translation.override("zh-hans"):
        archive = archive_of(user)
    manifest = json.loads(archive.read("manifest.json"))
    assert "说明.txt" in manifest["files"] and "说明.txt" in archive.namelist()
    readme = archive.read("说明.txt").decode()
    assert "时区（Asia/Shanghai）" in readme
    for name in ("account.json", "schedule.json", "plans.json", "conversations.json", "memory.json", "calendar.ics"):
        assert f"- {name}: " in readme
    assert "你的课表：" in readme
    created = json.loads(archive.read("plans.json"))["tables"]["task"][0]["created_at"]
    assert created.endswith("+08:00")  # the student's zone, still an exact instant
