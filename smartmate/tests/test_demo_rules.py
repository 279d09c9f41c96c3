"""The demo student protects lunch and has an exam to count down to, seeded twice alike."""

from __future__ import annotations

from django.core.management import call_command

from accounts.models import User
from schedule.exams.models import Exam
from schedule.models import ScheduleEvent
from schedule.student_rules.models import StudyRules


def test_the_demo_has_a_lunch_protected_time_and_an_exam(db):
    call_command("seed_demo")
    call_command("seed_demo")
    demo = User.objects.get(username="demo")
    lunch = StudyRules.objects.get(user=demo).protected_times
    assert len(lunch) == 1 and lunch[0]["name"] == "午饭" and (lunch[0]["first"], lunch[0]["last"]) == (4, 4)
    assert lunch[0]["days"]  # the weekdays the timetable leaves lunch free
    assert not ScheduleEvent.objects.filter(user=demo, kind=ScheduleEvent.Kind.COURSE, day__in=lunch[0]["days"],
                                            start_section__lte=lunch[0]["last"],
                                            end_section__gte=lunch[0]["first"]).exists()
    exam = Exam.objects.get(user=demo)
    assert exam.title == "线性代数期末考试" and exam.course is not None and exam.course.name == "线性代数"


def test_the_rules_and_the_exams_are_in_the_admin_in_chinese(client, db):
    call_command("seed_demo")
    client.force_login(User.objects.create_superuser("ops", "ops@example.edu", "ops-password-123"))
    rules = client.get("/admin/schedule/studyrules/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    exams = client.get("/admin/schedule/exam/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert rules.status_code == exams.status_code == 200
    assert "学习规则" in rules.content.decode() and "每天学习块上限" in rules.content.decode()
    assert "线性代数期末考试" in exams.content.decode() and "考试" in exams.content.decode()
    demo = User.objects.get(username="demo")
    change = client.get(f"/admin/schedule/studyrules/{demo.pk}/change/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert change.status_code == 200 and "保护时段" in change.content.decode() and "午饭" in change.content.decode()
