"""Issue #40, tried as a new user would, in Chromium, in Chinese: the demo student starts the spring semester,
brings two unfinished notes and the lunch rule along, finds the autumn semester's board, exams and workload
readable, asks the assistant (the scripted model, the real read tool) about it, undoes the start (every row
back as it was), starts again and imports the new timetable — after which undo is refused, in Chinese."""

from __future__ import annotations

import json

import pytest
from django.utils import translation
from playwright.sync_api import expect

from accounts.tests.factories import DEFAULT_PASSWORD
from agent.tests.factories import reply, route, tool_call
from schedule.models import Course
from schedule.semesters.models import Semester
from schedule.semesters.selectors import semester_current_get
from schedule.student_rules.models import StudyRules
from schedule.tests.factories import HEADER
from smartmate.demo import seed_demo
from smartmate.tests.live_server import log_in, wait_until
from taskclasses.models import Task
from taskclasses.semesters.rows import semester_rows_dump

PHONE = {"width": 390, "height": 844}
SPRING_TIMETABLE = HEADER + "线性代数（二）,1,1,2,孙老师,二教2305,1-16\n形势与政策,5,9,10,赵立新,二教1101,1-8\n"


def _demo():
    demo, _lines = seed_demo()
    demo.set_password(DEFAULT_PASSWORD)
    demo.save()
    with translation.override("zh-hans"):
        autumn = semester_current_get(user=demo).label
    return demo, autumn


def _start_spring(page, notes: list[Task]) -> None:
    """Settings → 开始新学期: keep the guessed dates, tick two notes (lunch is ticked already), confirm."""
    page.goto(f"{page.base_url}/accounts/settings/")
    page.click("[data-test=start-new-semester-link]")
    for note in notes:
        page.check(f"input[name=notes][value='{note.pk}']")
    expect(page.locator("input[name=protected][value='午饭']")).to_be_checked()
    page.click("[data-test=next-semester-review]")
    carry = page.locator("[data-test=confirm-carry]")
    for note in notes:
        expect(carry).to_contain_text(f"便签：{note.title}")
    expect(carry).to_contain_text("保护时间：午饭")
    page.click("[data-test=next-semester-start]")
    expect(page.locator(".messages")).to_contain_text("新学期已开始")


@pytest.mark.e2e
def test_the_demo_student_starts_spring_reads_autumn_asks_about_it_and_undoes(page, chat_server, transactional_db):
    base_url, fake = chat_server
    demo, autumn = _demo()
    notes = list(Task.objects.filter(user=demo, completed=False).order_by("quadrant", "pk"))[:2]
    before = semester_rows_dump(demo)
    page.set_default_timeout(30_000)
    page.base_url = base_url
    log_in(page, demo.username)

    _start_spring(page, notes)
    expect(page.locator("[data-test=import-new-timetable]")).to_be_visible()
    assert set(Task.objects.filter(user=demo, completed=False)) == set(notes)
    assert [p["name"] for p in StudyRules.objects.get(user=demo).protected_times] == ["午饭"]

    # The autumn semester stays readable: its board, week by week, its exams and its workload.
    page.click(f"[data-test=past-semester-link]:has-text('{autumn}')")
    expect(page.locator("[data-test=past-semester-title]")).to_contain_text(f"{autumn} · 第 1 周")
    expect(page.locator("[data-test=past-event]").first).to_be_visible()
    page.click("[data-test=next-week]")
    expect(page.locator("[data-test=past-semester-title]")).to_contain_text("第 2 周")
    expect(page.locator("[data-test=past-exams]")).to_contain_text("线性代数期末考试")
    expect(page.locator("[data-test=past-workload]")).to_contain_text("节")

    # The assistant answers about last semester from what was frozen.
    fake.script(route("execute"), tool_call("query_past_semester", {}),
                reply("上学期有一场考试：线性代数期末考试。"))
    page.goto(f"{base_url}/assistant/")
    page.fill("[data-test=chat-input]", "上学期有哪些考试？")
    page.click("[data-test=chat-send]")
    expect(page.locator("[data-test=chat-assistant-message] .chat-text").last).to_contain_text(
        "线性代数期末考试", timeout=30_000)
    tool_message = [m for m in fake.requests[-1].messages if m.get("role") == "tool"][-1]
    assert [e["title"] for e in json.loads(tool_message["content"])["exams"]] == ["线性代数期末考试"]

    # Undo puts every row back as it was.
    page.goto(f"{base_url}/schedule/semesters/")
    page.click(f"[data-test=past-semester]:has-text('{autumn}') [data-test=undo-semester-start]")
    expect(page.locator(".messages")).to_contain_text("已撤销：上学期已恢复原样。")
    assert semester_rows_dump(demo) == before

    # Started again and the new timetable imported: filler marks follow by name, and undo is refused.
    _start_spring(page, notes)
    page.click("[data-test=import-new-timetable]")
    page.fill("#import-content", SPRING_TIMETABLE)
    page.click("[data-test=import-preview]")
    page.click("[data-test=import-confirm]")
    page.wait_for_url(f"{base_url}/board/")
    assert dict(Course.objects.filter(user=demo).values_list("name", "is_filler")) == {
        "线性代数（二）": False, "形势与政策": True}
    page.goto(f"{base_url}/schedule/semesters/")
    page.click(f"[data-test=past-semester]:has-text('{autumn}') [data-test=undo-semester-start]")
    expect(page.locator(".messages")).to_contain_text("不能再撤销开始新学期")
    assert Semester.objects.filter(user=demo).count() == 2

    # The semester pages fit a phone: nothing scrolls sideways (a past week's board scrolls in its own frame).
    page.set_viewport_size(PHONE)
    autumn_page = f"/schedule/semesters/{Semester.objects.filter(user=demo).order_by('-first_monday')[0].pk}/"
    for path in ("/schedule/semesters/", autumn_page, "/schedule/semesters/next/"):
        page.goto(f"{base_url}{path}")
        wait_until(page, "() => document.documentElement.scrollWidth <= window.innerWidth")
