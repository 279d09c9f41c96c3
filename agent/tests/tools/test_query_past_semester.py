"""query_past_semester: last semester's study blocks per plan, by keyword; another semester by name; none."""

from __future__ import annotations

import json

from agent.tests.tools.conftest import make_ctx
from agent.tools.query_past_semester import TOOL
from schedule.tests.semesters.helpers import autumn_semester, start_spring


def test_last_semesters_blocks_of_a_plan_are_counted_by_outcome(user):
    start_spring(user, autumn_semester(user)["notes"])

    result = TOOL.run({"keyword": "高数"}, make_ctx(user), None)

    body = json.loads(result.content)
    assert result.status == "done" and body["semester"]["name"] == "2026 autumn semester"
    assert body["study_blocks_by_plan"] == [{"name": "高数复习", "done": 1, "missed": 1, "placed": 1, "total": 3}]
    assert [e["title"] for e in body["exams"]] == ["高数期末"]


def test_a_past_semester_is_found_by_its_name(user):
    past = start_spring(user, autumn_semester(user)["notes"])

    body = json.loads(TOOL.run({"semester": "2026 autumn semester"}, make_ctx(user), None).content)

    assert body["semester"]["id"] == past.pk


def test_without_a_past_semester_the_model_is_told_which_semester_it_is(user):
    result = TOOL.run({}, make_ctx(user), None)

    assert result.status == "failed" and "现在是2026 autumn semester" in result.content


def test_another_students_semester_id_is_not_found(user, other_user):
    theirs = start_spring(other_user, autumn_semester(other_user)["notes"])

    result = TOOL.run({"semester": theirs.pk}, make_ctx(user), None)

    assert result.status == "failed" and result.data["code"] == "semester_not_found"
