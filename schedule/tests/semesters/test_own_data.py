"""Download-my-data carries the past semesters whole; delete-my-account leaves none."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from accounts.data_erase import account_delete
from accounts.data_export import user_data_archive
from schedule.semesters.models import Semester
from schedule.tests.semesters.helpers import autumn_semester, start_spring

pytestmark = pytest.mark.django_db


def test_the_archive_holds_each_past_semester_with_its_frozen_document(user):
    rows = autumn_semester(user)
    start_spring(user, rows["notes"])

    archive = zipfile.ZipFile(io.BytesIO(b"".join(user_data_archive(user=user))))
    semesters = json.loads(archive.read("schedule.json"))["tables"]["semester"]

    assert [(s["year"], s["season"], s["first_monday"]) for s in semesters] == [(2026, "autumn", "2026-09-07")]
    assert {e["title"] for e in semesters[0]["document"]["events"]} >= {"高数复习 #1", "高等数学"}


def test_deleting_the_account_deletes_its_past_semesters(user, other_user):
    for student in (user, other_user):
        start_spring(student, autumn_semester(student)["notes"])

    counts = account_delete(user=user, by_operator=True)

    assert counts["schedule.semester"] == 1
    assert list(Semester.objects.values_list("user_id", flat=True)) == [other_user.pk]
