"""The operator's actions on students in the admin, and memory text kept from operators without the
dedicated permission."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from accounts.models import User
from accounts.tests.factories import UserFactory
from memory.models import MemoryJob
from memory.tests.factories import make_memory
from schedule.tests.factories import import_csv

pytestmark = pytest.mark.django_db(transaction=True)

CHANGELIST = "admin:accounts_user_changelist"


@pytest.fixture
def operator(client):
    admin = User.objects.create_superuser("ops", "ops@example.edu", "ops-password-123")
    client.force_login(admin)
    return admin


def act(client, action: str, *students: User, **extra):
    return client.post(reverse(CHANGELIST), {"action": action, "_selected_action": [s.pk for s in students],
                                             **extra})


def test_download_a_students_data(client, operator, user):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16")

    response = act(client, "export_data", user)

    body = b"".join(response.streaming_content)
    assert "高等数学".encode() in zipfile.ZipFile(io.BytesIO(body)).read("schedule.json")


def test_reset_the_quota(client, operator, user):
    User.objects.filter(pk=user.pk).update(token_usage=5000)

    act(client, "reset_quota", user)

    assert User.objects.get(pk=user.pk).token_usage == 0


def test_delete_asks_first_then_deletes_only_the_selected(client, operator, user, other_user):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16")

    asked = act(client, "delete_accounts", user)
    assert asked.status_code == 200 and "schedule.course 1" in asked.content.decode()
    assert User.objects.filter(pk=user.pk).exists()

    act(client, "delete_accounts", user, confirmed="yes")

    assert not User.objects.filter(pk=user.pk).exists() and User.objects.filter(pk=other_user.pk).exists()


def test_memory_text_needs_its_own_permission(client, user):
    make_memory(user, "悄悄话内容")
    staff = UserFactory(is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["view_memoryitem", "view_memoryaudit",
                                                                       "view_memoryjob"]))
    client.force_login(staff)

    without = client.get(reverse("admin:memory_memoryitem_changelist")).content.decode()
    staff.user_permissions.add(Permission.objects.get(codename="view_memory_text"))
    staff = User.objects.get(pk=staff.pk)  # permissions are cached on the instance
    client.force_login(staff)
    with_permission = client.get(reverse("admin:memory_memoryitem_changelist")).content.decode()

    assert "悄悄话内容" not in without and "悄悄话内容" in with_permission


def test_rerun_dead_memory_jobs(client, operator, user):
    job = MemoryJob.objects.create(user=user, status=MemoryJob.Status.DEAD, attempts=5, last_error="boom")

    client.post(reverse("admin:memory_memoryjob_changelist"),
                {"action": "rerun_dead_jobs", "_selected_action": [job.pk]})

    job.refresh_from_db()
    assert job.attempts <= 1 and job.status != MemoryJob.Status.DEAD and job.last_error != "boom"
