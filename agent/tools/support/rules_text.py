"""What the read tools say about the student's rules, pins and school calendar (in Chinese, for the model).

When a block cannot move, or a time is not offered, the reason is often none of the plan's own limits
but a rule the student set (a daily cap, a buffer, a latest section, a protected time), a pin, or the
school calendar (a holiday suspends the day's courses; a make-up day runs another day's courses). The
overview and the free-time search name them, so the assistant can explain instead of guessing.
"""

from __future__ import annotations

from datetime import date

from accounts.models import User
from agent.tools.support import board_text as text
from schedule.core.board import Board
from schedule.selectors import school_calendar_get


def rules_line(board: Board) -> str:
    """The student's own rules, one line (empty when none is set)."""
    rules = board.rules
    parts = []
    if rules.daily_cap is not None:
        parts.append(f"每天最多 {rules.daily_cap} 个学习块")
    if rules.buffer > 0:
        parts.append(f"学习块之间至少空 {rules.buffer} 节")
    if rules.latest_section is not None:
        parts.append(f"学习块最晚到第 {rules.latest_section} 节结束")
    for protected in rules.protected:
        days = "每天" if len(protected.days) == 7 else "、".join(f"周{text.WEEKDAYS[d - 1]}" for d in sorted(protected.days))
        parts.append(f"保护时段「{protected.name}」{text.sections_label(protected.first, protected.last)}（{days}）")
    if not parts:
        return ""
    return "学生的规则（规划、移动和修复都遵守，违反规则的时间不会给出）：" + "；".join(parts) + "。"


def pinned_line(board: Board) -> str:
    """The pinned blocks: nothing moves them (empty when none)."""
    pinned = [e for e in board.entries if e.pinned and e.place is not None]
    if not pinned:
        return ""
    return ("已固定的块（不会被移动、交换或移除，学生取消固定后才能动）：" + "、".join(text.entry_label(e) for e in pinned)
            + "。")


def calendar_lines(user: User, days: tuple[date, ...]) -> list[str]:
    """The school calendar's holidays and make-up days among ``days`` (nothing with the switch off)."""
    wanted = set(days)
    lines = []
    for day in sorted(school_calendar_get(user=user).days.values(), key=lambda d: d.on):
        if day.on not in wanted:
            continue
        name = next((label.name for label in day.labels if label.name), "")
        if day.runs is not None:  # a make-up day also sets its own meetings aside: what it runs is the news
            lines.append(f"{text.day_label(day.on)} 是调休日：按第 {day.runs[0]} 周周{text.WEEKDAYS[day.runs[1] - 1]}上课。")
        elif day.suspended:
            lines.append(f"{text.day_label(day.on)} 是假日{f'「{name}」' if name else ''}：课程停上，自己的事件和学习块照旧。")
    return lines
