"""Every page a student sees, rendered in Chinese for the demo student, holds no English sentence.

Visible text and the attributes a student reads (title, aria-label, placeholder, alt, value of
buttons) are scanned for three English words in a row; brand names, file formats and the demo's own
data are allowed. A string left out of the catalog (or wrapped nowhere) shows up here as English.
"""

from __future__ import annotations

import html
import io
import re
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.utils import translation

from accounts.models import User
from memory.tests.factories import make_memory
from taskclasses.models import TaskClass

pytestmark = pytest.mark.django_db

ENGLISH_SENTENCE = re.compile(r"[A-Za-z][a-z]+(?:[ ,'’-]+[A-Za-z][a-z]+){2,}")
ALLOWED = ("SmartMate", "Asia/Shanghai", "JSON Web Token")  # names, not sentences
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
SKIPPED_TAGS = {"script", "style", "template", "noscript"}


class VisibleText(HTMLParser):
    """Collect the text a student sees and the attributes a student reads."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED_TAGS:
            self._skipping += 1
        for name, value in attrs:
            if value and (name in READ_ATTRIBUTES or (tag == "input" and name == "value"
                                                      and dict(attrs).get("type") in ("submit", "button"))):
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED_TAGS and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self._skipping and data.strip():
            self.parts.append(data.strip())


def english_in(page: str) -> list[str]:
    parser = VisibleText()
    parser.feed(page)
    found = []
    for part in parser.parts:
        text = html.unescape(part)
        for allowed in ALLOWED:
            text = text.replace(allowed, "")
        found += ENGLISH_SENTENCE.findall(text)
    return found


@pytest.fixture
def demo(client):
    call_command("seed_demo", stdout=io.StringIO())
    student = User.objects.get(username="demo")
    make_memory(student, "更喜欢早上学数学")
    client.force_login(student)
    return student


def student_pages(student: User) -> list[str]:
    plan = TaskClass.objects.filter(user=student).order_by("pk").first()
    assert plan is not None
    return ["/", "/board/", "/board/?week=1", "/schedule/import/", "/accounts/settings/", "/accounts/data/",
            "/accounts/password/", "/plans/", f"/plans/{plan.pk}/", "/assistant/", "/memory/"]


def test_no_english_sentence_on_any_page_of_the_demo_student(client, demo):
    leaks = {}
    for path in student_pages(demo):
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert response.status_code == 200, path
        found = english_in(response.content.decode())
        if found:
            leaks[path] = found
    assert leaks == {}


def test_no_english_sentence_on_the_pages_before_signing_in(client, db):
    leaks = {path: english_in(client.get(path, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode())
             for path in ("/accounts/login/", "/accounts/register/")}
    assert {path: found for path, found in leaks.items() if found} == {}


def test_the_scanner_finds_an_english_sentence():
    page = '<p>第一周</p><button title="Move this block here">移动</button><script>var a = "not shown at all"</script>'

    assert english_in(page) == ["Move this block here"]


def test_a_plan_that_does_not_fit_explains_itself_in_chinese(client, demo):
    """The reasons under a preview with blocks left over, and on the plan's page, are Chinese."""
    from datetime import timedelta

    from django.utils import timezone

    from board.planning import preview_create
    from taskclasses.tests.factories import make_task_class

    start = timezone.localdate() + timedelta(days=7 - timezone.localdate().weekday())  # next Monday
    crowded = make_task_class(demo, name="考前冲刺", items=40, start_date=start, end_date=start + timedelta(days=1),
                              allow_filler=False)
    preview = preview_create(user=demo, task_class_ids=[crowded.pk])
    assert preview.unplaced, "the plan was meant not to fit"
    week = min(p["week"] for p in preview.placements)

    pages = {path: english_in(client.get(path, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode())
             for path in (f"/board/?preview={preview.pk}&week={week}", f"/plans/{crowded.pk}/")}

    assert {path: found for path, found in pages.items() if found} == {}
    text = client.get(f"/board/?preview={preview.pk}&week={week}", HTTP_ACCEPT_LANGUAGE="zh-hans").content
    assert "class " not in text.decode() and "item_id" not in text.decode()


def admin_pages() -> list[str]:
    """The admin's index, each app's index, and every registered model's list and add form."""
    from django.contrib import admin

    models = [model._meta for model in admin.site._registry]
    return ["/admin/", *sorted({f"/admin/{meta.app_label}/" for meta in models}),
            *(f"/admin/{meta.app_label}/{meta.model_name}/{suffix}" for meta in models for suffix in ("", "add/"))]


def test_no_english_sentence_on_any_admin_page(client, db):
    """An operator (or a student made staff) reads the admin in Chinese: app and model names, field labels
    (those the models leave to their names too), permissions, lists and forms. Time zone names are places."""
    from zoneinfo import available_timezones

    places = {variant for zone in available_timezones() for variant in (zone, zone.replace("_", " "))}
    operator = User.objects.create_superuser("operator", "ops@example.cn", "an-operator-password-1")
    client.force_login(operator)
    leaks = {}
    for path in admin_pages():
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert response.status_code in (200, 403), path  # 403: a model the admin lists but lets nobody add
        page = response.content.decode() if response.status_code == 200 else ""
        for place in places:
            page = page.replace(f">{place}<", "><")
        found = english_in(page)
        if found:
            leaks[path] = found
    assert leaks == {}


def test_admin_permissions_and_unnamed_fields_read_in_chinese(client, db):
    from django.contrib.auth.models import Permission

    from schedule.models import CalendarFeed
    from smartmate.admin_labels import permission_label

    with translation.override("zh-hans"):
        assert permission_label(Permission.objects.get(codename="view_course")).endswith("可以查看课程")
        assert permission_label(Permission.objects.get(codename="view_memory_text")).endswith("可以查看记忆的内容")
        assert str(CalendarFeed._meta.get_field("last_fetched_at").verbose_name) == "最近拉取时间"
    operator = User.objects.create_superuser("operator", "ops@example.cn", "an-operator-password-1")
    client.force_login(operator)
    page = client.get("/admin/auth/group/add/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "可以查看课程" in page and "Can view" not in page
    assert "令牌黑名单" in client.get("/admin/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
