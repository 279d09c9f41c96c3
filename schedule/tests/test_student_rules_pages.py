"""The settings page's "我的规则" card: it shows the rules in Chinese and its forms save, add and delete."""

from __future__ import annotations

from schedule.student_rules.models import StudyRules
from schedule.tests.factories import import_csv

RULES_URL = "/schedule/rules/"


def _page(client) -> str:
    return client.get("/accounts/settings/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()


def test_the_card_saves_numbers_adds_and_deletes_protected_times(client, user):
    client.force_login(user)
    assert "我的规则" in _page(client) and "还没有：添加午饭或晚饭时间" in _page(client)
    client.post(RULES_URL, {"action": "rules_save", "daily_cap": "3", "buffer_sections": "1", "latest_section": "10"})
    client.post(RULES_URL, {"action": "protected_add", "name": "午饭", "by": "sections", "first": "5", "last": "5",
                            "days": [str(d) for d in range(1, 8)]})
    client.post(RULES_URL, {"action": "protected_add", "name": "晚饭", "by": "time", "start": "17:30",
                            "end": "18:30", "days": ["1", "2", "3", "4", "5"]})
    rules = StudyRules.objects.get(user=user)
    assert (rules.daily_cap, rules.buffer_sections, rules.latest_section) == (3, 1, 10)
    assert [(p["name"], p["first"], p["last"]) for p in rules.protected_times] == [("午饭", 5, 5), ("晚饭", 8, 8)]
    page = _page(client)
    assert "第 5 节" in page and "每天" in page and "17:30–18:30" in page and "周一、周二、周三、周四、周五" in page
    response = client.post(RULES_URL, {"action": "protected_delete", "index": "0"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 302 and response["Location"].endswith("#study-rules")
    assert [p["name"] for p in StudyRules.objects.get(user=user).protected_times] == ["晚饭"]


def test_a_refusal_is_said_in_chinese_and_nothing_changes(client, user):
    client.force_login(user)
    import_csv(user, "高等数学,3,5,6,王老师,二教1101,1-16")
    answer = client.post(RULES_URL, {"action": "protected_add", "name": "午饭", "by": "sections", "first": "5",
                                     "last": "5", "days": ["3"]}, HTTP_ACCEPT_LANGUAGE="zh-hans", follow=True)
    assert "“午饭”覆盖了你的课程“高等数学”（第 1 周周三，第 5-6 节）" in answer.content.decode()
    answer = client.post(RULES_URL, {"action": "rules_save", "daily_cap": "0"}, HTTP_ACCEPT_LANGUAGE="zh-hans",
                         follow=True)
    assert "每天上限为 1 到 12 个学习块" in answer.content.decode()
    assert not StudyRules.objects.filter(user=user).exists()


def test_the_card_posts_only_for_a_signed_in_student(client):
    assert client.post(RULES_URL, {"action": "rules_save"}).status_code == 302
    assert client.get(RULES_URL).status_code in (302, 405)
