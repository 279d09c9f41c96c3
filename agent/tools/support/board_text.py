"""How the schedule tools write a board for the model: compact Chinese lines with real dates and times.

Only wording lives here; every fact comes from the board's own queries (``on_day``, ``is_locked``,
``guests_of``, an entry's status). The model refers to entries by the ``[id]`` these lines show.
"""

from __future__ import annotations

from datetime import date

from django.utils.translation import pgettext_lazy

from schedule.core.board import Board, Entry, Kind, Position

WEEKDAYS = "一二三四五六日"
KIND_LABELS = {Kind.COURSE: "课程", Kind.CUSTOM: "日程", Kind.STUDY: "学习块", Kind.NOTE: "随口记"}
STATUS_LABELS = {"existing": "已有", "suggested": "建议", "pending": "待安排"}
MAX_WAITING_SHOWN = 30


def day_label(day: date) -> str:
    return f"{day.isoformat()}(周{WEEKDAYS[day.weekday()]})"


def sections_label(start: int, end: int) -> str:
    return f"{start}节" if start == end else f"{start}-{end}节"


def clock_label(board: Board, start: int, end: int) -> str:
    times = board.calendar.template.to_hhmm()
    return f"{times[start - 1][0]}-{times[end - 1][1]}"


def where_label(board: Board, where: Position) -> str:
    return f"{day_label(where.day)} {sections_label(where.start, where.end)}({clock_label(board, where.start, where.end)})"


def entry_label(entry: Entry) -> str:
    return f"[{entry.id}]{entry.name}"


def status_of(entry: Entry) -> str:
    """pending, suggested, existing, or moved (an existing entry somewhere else on this board)."""
    return "moved" if entry.moved else entry.status


def status_label(board: Board, entry: Entry) -> str:
    bits = [KIND_LABELS[entry.kind]]
    if entry.filler:
        bits.append("水课可嵌入")
    if board.is_locked(entry):
        bits.append("固定")
    if entry.place is not None and entry.place.host is not None:
        bits.append(f"嵌入[{entry.place.host}]")
    bits.append("待移动" if entry.moved else STATUS_LABELS[entry.status])
    return "·".join(bits)


def target_label(board: Board, entry: Entry) -> str:
    """Where an entry sits now: day, sections, times, the filler course it is in."""
    if entry.place is None:
        return "未安排"
    text = where_label(board, entry.place)
    host = board.get(entry.place.host) if entry.place.host is not None else None
    return text + (f"，嵌入水课{entry_label(host)}" if host is not None else "")


def free_runs(board: Board, day: date) -> list[str]:
    taken = {s for e in board.on_day(day) for s in range(e.place.start, e.place.end + 1)}  # type: ignore[union-attr]
    runs, start = [], None
    for section in range(1, board.calendar.sections + 2):
        if section <= board.calendar.sections and section not in taken:
            start = section if start is None else start
        elif start is not None:
            runs.append(sections_label(start, section - 1))
            start = None
    return runs


def occupancy_line(board: Board, day: date) -> str:
    """One day: who sits where, and the free runs."""
    parts = [f"{sections_label(e.place.start, e.place.end)}{entry_label(e)}({status_label(board, e)})"  # type: ignore[union-attr]
             for e in board.on_day(day)]
    free = free_runs(board, day)
    return f"{day_label(day)}：{'；'.join(parts) if parts else '无安排'}｜空闲 {'、'.join(free) if free else '无'}"


def after_edit(board: Board, days: list[date]) -> str:
    """The days an edit touched, and how many entries still wait."""
    lines = [occupancy_line(board, day) for day in dict.fromkeys(days)]
    return "\n".join([*lines, f"待安排条目剩余：{len(board.pending())} 个。"])


def day_index(board: Board) -> str:
    """The whole window: the section times, one line per day, then what waits."""
    times = board.calendar.template.to_hhmm()
    pairs = "，".join(f"{n}-{n + 1}节 {times[n - 1][0]}-{times[n][1]}" for n in range(1, len(times), 2))
    lines = [f"规划窗口 {day_label(board.window.first)} 至 {day_label(board.window.last)}；"
             f"每天 {len(times)} 节，{pairs}。"]
    lines += [occupancy_line(board, day) for day in board.days()]
    waiting = board.pending()
    if waiting:
        shown = "；".join(f"{entry_label(e)}({e.length}节)" for e in waiting[:MAX_WAITING_SHOWN])
        lines.append("待安排：" + shown + ("…" if len(waiting) > MAX_WAITING_SHOWN else ""))
    return "\n".join(lines)


def weekday_short(day: date) -> str:
    """The day's short weekday in the active language (周五 / Fri), never the machine locale's."""
    return str(_WEEKDAYS_SHORT[day.weekday()])


_WEEKDAYS_SHORT = (pgettext_lazy("short weekday", "Mon"), pgettext_lazy("short weekday", "Tue"),
                   pgettext_lazy("short weekday", "Wed"), pgettext_lazy("short weekday", "Thu"),
                   pgettext_lazy("short weekday", "Fri"), pgettext_lazy("short weekday", "Sat"),
                   pgettext_lazy("short weekday", "Sun"))


def human_when(board: Board, raw_day: object, start: object, length: int) -> str:
    """A target for confirmation cards, in any language: 2026-09-24 (Thu) 10:15-11:55."""
    try:
        day = date.fromisoformat(str(raw_day))
        first = int(start)  # type: ignore[call-overload]
        return f"{day.isoformat()} ({weekday_short(day)}) {clock_label(board, first, first + length - 1)}"
    except (ValueError, IndexError, TypeError):
        return f"{raw_day}, section {start}"
