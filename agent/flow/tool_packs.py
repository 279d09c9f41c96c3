"""The assistant's tool packs: a stage is offered only the packs its route or plan asked for.

Every tool names its pack (``Tool.pack``); the route stage and the plan name the packs a request
needs, and the execute stage may ask for another with its ``request_tools`` pseudo-tool, so a
timetable question does not carry the schemas of the web and write tools. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping

# Tool packs: a stage is offered only the packs its route or plan asked for (each tool names its pack);
# the model may ask for another with request_tools. Descriptions are for the model.
PACKS: Mapping[str, str] = {
    "schedule_read": "查看日程：概览、某天的节次、空闲时间、条目详情",
    "schedule_write": "修改工作日程：安排、移动、交换、移出学习块，逐个处理队列，补上落下的复习",
    "notes": "随口记（四象限待办）的记录和查询，删除长期记忆",
    "task_classes": "新建任务类（学习计划）",
    "analysis": "分析日程的负荷和节奏，并给出调整",
    "web": "搜索网络、读取网页",
}
# The packs a stage gets when neither its route nor its plan named any: a route that names none gets
# the read pack only (a question needs no write tools; the model asks for more with request_tools),
# the execution of a plan the student accepted reads and writes the schedule.
DEFAULT_PACKS: Mapping[str, tuple[str, ...]] = {
    "quick_note": ("notes",),
    "execute": ("schedule_read",),
    "plan": ("schedule_read", "schedule_write"),
}


def packs_checked(value: object) -> tuple[str, ...]:
    """The known pack names in ``value`` (a model's list), in PACKS order; anything else is dropped."""
    named = {item for item in value if isinstance(item, str)} if isinstance(value, list) else set()
    return tuple(pack for pack in PACKS if pack in named)
