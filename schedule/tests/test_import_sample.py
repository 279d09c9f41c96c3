"""The import page offers a sample timetable to download, and the sample is a WakeUp CSV the importer reads."""

from __future__ import annotations

from django.contrib.staticfiles import finders

from schedule.models import Course
from schedule.services.imports import timetable_import

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def test_the_import_page_links_the_sample_file(client, user):
    client.force_login(user)
    html = client.get("/schedule/import/", **ZH).content.decode()
    assert "不确定文件长什么样？" in html
    assert 'href="/static/samples/wakeup-sample.csv" download="时伴-课表示例.csv"' in html


def test_the_sample_imports_as_twelve_courses_without_a_problem(user):
    path = finders.find("samples/wakeup-sample.csv")
    with open(path, "rb") as sample:
        outcome = timetable_import(user=user, data=sample.read(), fmt="csv")
    assert len(outcome.courses) == 12 and not outcome.skipped
    assert Course.objects.filter(user=user).count() == 10  # two courses meet twice a week
