"""The student-data commands for scripts: --help, exit codes, --json."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command, get_commands, load_command_class
from django.db import connection

from accounts.models import User
from schedule.tests.factories import import_csv
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class

pytestmark = pytest.mark.django_db(transaction=True)


def run(*args: str) -> dict:
    out = io.StringIO()
    call_command(*args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_user_data_counts_by_username_or_id(user):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16")

    by_name, by_id = run("user_data", "--user", user.username), run("user_data", "--user", str(user.pk))

    assert by_name == by_id and by_name["counts"]["schedule.course"] == 1


def test_an_unknown_student_is_an_error_with_exit_code_1():
    # A child process on this test's database (the same trick as the page tests' server).
    env = {**os.environ, "DATABASE_NAME_OVERRIDE": str(connection.settings_dict["NAME"])}
    result = subprocess.run([sys.executable, "manage.py", "user_data", "--user", "nobody-here"],
                            cwd=settings.BASE_DIR, capture_output=True, text=True, env=env)

    assert result.returncode == 1 and "No student 'nobody-here'" in result.stderr


def test_every_command_has_help():
    # The parser `manage.py <command> --help` prints, built in this process (a child per command cost 3 s).
    for command in ("user_data", "export_user_data", "delete_user", "plan_class"):
        app = get_commands()[command]
        help_text = load_command_class(app, command).create_parser("manage.py", command).format_help()
        assert "--json" in help_text and "--user" in help_text


def test_export_writes_the_archive_and_will_not_overwrite(user, tmp_path):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16")
    out = tmp_path / "data.zip"

    answer = run("export_user_data", "--user", user.username, "--out", str(out))

    assert answer["bytes"] == out.stat().st_size
    assert "高等数学".encode() in zipfile.ZipFile(out).read("schedule.json")
    with pytest.raises(CommandError, match="add --force"):
        call_command("export_user_data", "--user", user.username, "--out", str(out))


def test_delete_needs_yes(user, other_user):
    with pytest.raises(CommandError, match="add --yes"):
        call_command("delete_user", "--user", user.username)
    assert User.objects.filter(pk=user.pk).exists()

    answer = run("delete_user", "--user", user.username, "--yes")

    assert answer["id"] == user.pk and not User.objects.filter(pk=user.pk).exists()
    assert User.objects.filter(pk=other_user.pk).exists()


def test_plan_class_previews_then_applies(user):
    plan = make_task_class(user, name="概率论复习", items=2)
    plan.start_date, plan.end_date = plan.start_date.replace(month=12, day=7), plan.end_date.replace(month=12, day=20)
    plan.save()

    preview = run("plan_class", "--user", user.username, "--class", "概率论复习")
    applied = run("plan_class", "--user", user.username, "--class", str(plan.pk), "--apply")

    assert len(preview["placed"]) == 2 and preview["changeset"] is None
    assert applied["changeset"] and set(TaskItem.objects.filter(task_class=plan).values_list("status", flat=True)) \
        == {TaskItem.Status.PLACED}
    with pytest.raises(CommandError, match="no study plan"):
        call_command("plan_class", "--user", user.username, "--class", "没有这个计划")
