"""Named prompt templates (``<name>.txt`` beside this file, ``$placeholders``) and their renderers.

Prompts are Chinese-first: the product speaks Chinese by default and the model answers in the
student's language. Templates are plain text so they can be reviewed like UI copy.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from string import Template

from agent.flow.deps import PromptContext, TimetableEntry

WEEKDAYS = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")


@cache
def _template(name: str) -> Template:
    return Template(resources.files(__name__).joinpath(f"{name}.txt").read_text(encoding="utf-8"))


def render(name: str, **values: str) -> str:
    """Fill template ``name``; raise KeyError when a placeholder has no value."""
    return _template(name).substitute(**values).strip()


def system_prompt(context: PromptContext) -> str:
    """Return the base system prompt: who the assistant is, now, this week, today's timetable, memory."""
    now = context.now
    now_line = (f"{context.today.year}年{context.today.month}月{context.today.day}日 "
                f"{WEEKDAYS[context.today.weekday()]} {now:%H:%M}")
    if context.week is None:
        week_line = f"现在不在学期内（学期共 {context.weeks} 周）。"
    else:
        week_line = f"本学期第 {context.week} 周（共 {context.weeks} 周）。"
    week_line += _semester_line(context)
    return render("system", now_line=now_line, week_line=week_line,
                  timetable=_day_lines(context.timetable, "今天没有安排。"),
                  tomorrow=_day_lines(context.tomorrow, "明天没有安排。"),
                  memory=context.memory.strip() or "（暂无）")


def _semester_line(context: PromptContext) -> str:
    """Which semester it is, and the past ones the read tool can answer about ("上学期" is the newest)."""
    if not context.semester:
        return ""
    if not context.past_semesters:
        return f"本学期是{context.semester}。"
    return (f"本学期是{context.semester}；往期学期（新的在前，第一个即“上学期”）：{'、'.join(context.past_semesters)}，"
            "可用 query_past_semester 查询。")


def _day_lines(entries: tuple[TimetableEntry, ...], empty: str) -> str:
    return "\n".join(f"- {entry.start}–{entry.end} {entry.title}" + (f"（{entry.location}）" if entry.location else "")
                     for entry in entries) or empty
