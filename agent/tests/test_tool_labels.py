"""Students see translated tool labels, never raw tool names (the name stays for the details fold).

Every registered tool - including those added later - must carry a ``label`` with a Chinese entry.
"""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.utils import translation

from agent.tests.factories import make_conversation, plan, reply, resume, route, run_turn, tool_call
from agent.tools.support.registry import TOOLS, tool_label
from schedule.tests.factories import make_task_class

CHINESE = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_every_registered_tool_has_a_chinese_label(name):
    tool = TOOLS[name]
    assert tool.label, f"{name} has no label: set label = gettext_lazy('…') in its module and add it to the catalog"
    with translation.override("en"):
        english = str(tool.label)
    with translation.override("zh-hans"):
        chinese = str(tool.label)
    assert english != name and "_" not in english  # a phrase, not the raw name
    assert chinese != english and CHINESE.search(chinese), f"{name}'s label {english!r} has no Chinese entry"


def test_an_unknown_tool_gets_a_generic_label_not_its_name():
    with translation.override("zh-hans"):
        assert tool_label("no_such_tool") == "工具步骤"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("week_two")
def test_tool_events_of_a_turn_carry_the_chinese_label(fake_llm, user):
    review = make_task_class(user, name="概率论复习", items=2, start=date(2026, 9, 21), end=date(2026, 10, 4))
    conversation = make_conversation(user)
    fake_llm.script(route("plan"), plan("安排复习", ["粗排"], rough_build=True))
    with translation.override("zh-hans"):
        card = [f for f in run_turn(user, conversation, "安排复习", task_class_ids=[review.pk])
                if f["type"] == "confirm.request"][-1]
        fake_llm.script(tool_call("get_overview", {}), reply("好了。"))
        frames = resume(user, conversation, card["interaction_id"], "accept")

    tools = [(f["type"], f["name"], f["label"]) for f in frames if f["type"] in ("tool.call", "tool.result")]
    assert tools == [("tool.call", "rough_build", "自动排程"), ("tool.result", "rough_build", "自动排程"),
                     ("tool.call", "get_overview", "查看日程概览"), ("tool.result", "get_overview", "查看日程概览")]
