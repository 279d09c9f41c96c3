"""The README's "From the Django shell" recipes work as written: each runs through ``manage.py shell -c``
against the demo student, and what it prints shows it did its job."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from accounts.models import User
from agent.tests.factories import make_conversation, reply, route, run_turn
from memory.tests.factories import make_memory, make_message
from smartmate.platform.models import OutboxEvent
from smartmate.platform.outbox import registry

pytestmark = pytest.mark.django_db(transaction=True)

README = Path(settings.BASE_DIR) / "README.md"


def recipes() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## From the Django shell", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def run(code: str) -> str:
    """Run a recipe as ``manage.py shell -c`` would; return what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # the recipes print(), as they would in a terminal
        call_command("shell", command=code, verbosity=0)
    return out.getvalue()


@pytest.fixture
def demo(monkeypatch):
    monkeypatch.chdir(settings.BASE_DIR)  # the recipes open files by their path in the repository
    call_command("seed_demo", stdout=io.StringIO())
    return User.objects.get(username="demo")


def test_the_readme_has_the_recipes_an_operator_needs():
    assert len(recipes()) == 7


def test_importing_a_timetable_first_as_a_dry_run(demo):
    printed = run(recipes()[0])

    assert re.search(r"dry run: \d+ arrangements, [1-9]\d* meetings already there", printed), printed
    assert "imported: 0 courses, 0 meetings" in printed  # the demo already has this timetable


def test_planning_prints_a_table_and_applies(demo):
    printed = run(recipes()[1])

    rows = [line for line in printed.splitlines() if line.startswith("week")]
    assert rows and all(re.match(r"week +\d+  day \d  sections \d+-\d+  (free time|filler course)", r) for r in rows)
    assert re.search(r"applied \d+ blocks; undo: changeset_undo\(user=student, changeset_id=\d+\)", printed)


def test_reading_a_conversation_timeline(demo, fake_llm):
    fake_llm.script(route("reply"), reply("你好，我在。"))
    run_turn(demo, make_conversation(demo), "在吗")

    printed = run(recipes()[2])

    assert re.search(r"^1 status", printed, flags=re.M), printed
    assert "assistant.delta 你好" in printed and re.search(r"^\d+ turn\.done", printed, flags=re.M)


def test_dead_outbox_events_are_listed_and_sent_again(demo):
    handled = []
    with registry.topics_overridden():
        registry.topic_register("test.fixed")
        registry.consumes("test.fixed", name="test.now_works")(handled.append)  # the cause was fixed
        dead = OutboxEvent.objects.create(topic="test.fixed", aggregate="user:0", payload={}, status="dead",
                                          attempts=5, last_error="boom", next_attempt_at="2026-01-01T00:00:00Z")

        printed = run(recipes()[3])

    assert f"{dead.pk} test.fixed user:0 5 boom" in printed and "sent again: 1" in printed
    assert OutboxEvent.objects.get(pk=dead.pk).status == "consumed" and len(handled) == 1


def test_why_a_memory_exists(demo):
    make_memory(demo, "更喜欢早上学数学", source=make_message(demo, "我更喜欢早上学数学"))

    printed = run(recipes()[4])

    assert "更喜欢早上学数学 <- extracted: '我更喜欢早上学数学'" in printed


def test_resetting_the_quota(demo):
    User.objects.filter(pk=demo.pk).update(token_usage=12345)

    printed = run(recipes()[5])

    assert "used=0" in printed and User.objects.get(pk=demo.pk).token_usage == 0


def test_counts_and_archive(demo, tmp_path):
    printed = run(recipes()[6])

    assert "'schedule.course': 21" in printed
    assert re.search(r"archive bytes: [1-9]\d+", printed)
