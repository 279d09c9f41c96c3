"""``manage.py semester``: list, start and undo from the shell."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from schedule.semesters.models import Semester
from schedule.student_rules.models import StudyRules
from schedule.tests.semesters.helpers import LUNCH, autumn_semester

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command("semester", *args, stdout=out)
    return out.getvalue()


def test_start_from_the_shell_freezes_autumn_and_keeps_the_named_protected_time(user):
    rows = autumn_semester(user)

    answer = json.loads(run("start", "--user", user.username, "--weeks", "18", "--note", str(rows["notes"][0].pk),
                            "--protected", "午饭", "--json"))

    assert answer["current"]["first_monday"] == "2027-03-01" and answer["current"]["weeks"] == 18
    assert [p["name"] for p in answer["past"]] == ["2026 autumn semester"]
    assert StudyRules.objects.get(user=user).protected_times == [LUNCH]


def test_undo_from_the_shell_brings_autumn_back(user):
    autumn_semester(user)
    run("start", "--user", user.username)

    text = run("undo", "--user", user.username)

    assert text.strip() == "current: 2026 autumn semester from 2026-09-07 (20 weeks)"
    assert not Semester.objects.exists()


def test_a_refused_start_is_a_command_error_with_its_code(user):
    with pytest.raises(CommandError, match="semester_invalid: Week 1 must start on a Monday."):
        run("start", "--user", user.username, "--first-monday", "2027-03-02")
