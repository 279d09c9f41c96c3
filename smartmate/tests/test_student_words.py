"""What a student reads says one thing one way: the navigation reaches the exams page, the Chinese catalog
uses the navigation's words (任务类, 随口记) and no "token" jargon, and the done-note names its section."""

from __future__ import annotations

import re

from smartmate.tests.test_catalog_punctuation import compiled_translations

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def test_the_navigation_reaches_the_exams_page_and_marks_it_current(client, user):
    client.force_login(user)
    html = client.get("/schedule/exams/", **ZH).content.decode()
    assert re.search(r'<a href="/schedule/exams/" class="active" data-nav="exams" aria-current="page">考试</a>', html)
    assert 'data-nav="schedule" aria-current' not in html


def test_the_schedule_stays_current_on_the_board(client, user):
    client.force_login(user)
    html = client.get("/board/", **ZH).content.decode()
    assert 'class="active" data-nav="schedule"' in html and 'class="active" data-nav="exams"' not in html


def test_the_catalog_says_renwulei_and_suikouji_as_the_navigation_does():
    drifted = {msgid: text for msgid, text in compiled_translations().items() if "学习计划" in text or "随手记" in text}
    assert drifted == {}


def test_no_chinese_text_says_token():
    jargon = {msgid: text for msgid, text in compiled_translations().items() if "token" in text.lower()}
    assert jargon == {}


def test_the_assistant_quota_reads_as_usage_and_allowance(client, user):
    client.force_login(user)
    html = client.get("/accounts/settings/", **ZH).content.decode()
    assert "本周助手用量：0 / " in html and "token" not in html.split('data-test="token-quota"')[1].split("</section>")[0]
