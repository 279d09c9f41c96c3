"""The demo account is there to log into, and seeding twice changes nothing."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.core.management import call_command

from accounts.models import User


def test_seed_demo_creates_a_demo_student_who_can_log_in(db, capsys):
    call_command("seed_demo")
    assert "Demo login: demo / smartmate-demo" in capsys.readouterr().out
    assert authenticate(username="demo", password="smartmate-demo") is not None
    from schedule.selectors import semester_week_get

    demo = User.objects.get(username="demo")
    assert semester_week_get(user=demo).week == 13


def test_seed_demo_is_idempotent(db):
    call_command("seed_demo")
    call_command("seed_demo")
    assert User.objects.filter(username="demo").count() == 1
