"""Edits of the working schedule: plain functions over its JSON, checked first, never half done.

The working schedule (see ``agent.tools.working_schedule``) is a dict of plain JSON values. Every
write tool expresses its effect as target positions for some entries (``edit``): the entries are
lifted off the board together, then put down one by one against the state so far, so swaps and
batches work; any refusal leaves the input untouched and says what conflicted and what would work.
Nothing here touches the database.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, Iterable, Mapping
from zoneinfo import ZoneInfo

WEEKDAYS = "一二三四五六日"
Target = tuple[str, int] | None  # (ISO date, first section), or None to take the entry off the board


class EditRefused(Exception):
    """A write the model asked for breaks a rule; ``message`` tells it what to change."""

    def __init__(self, message: str, *, code: str = "edit_refused", detail: Mapping[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.detail = dict(detail or {})


# --- Reading the JSON ------------------------------------------------------------------------------

def entries(working: Mapping[str, Any]) -> list[dict[str, Any]]:
    return working["entries"]


def entry_get(working: Mapping[str, Any], state_id: Any) -> dict[str, Any]:
    """Return the entry with this id, or refuse naming where ids come from."""
    for entry in entries(working):
        if entry["id"] == state_id:
            return entry
    raise EditRefused(f"没有编号为 {state_id} 的条目；编号见 get_overview 或 query_target_tasks 的结果。",
                      code="unknown_entry", detail={"id": state_id})


def section_count(working: Mapping[str, Any]) -> int:
    return len(working["sections"])


def window_dates(working: Mapping[str, Any]) -> list[date]:
    first, last = date.fromisoformat(working["window"]["start"]), date.fromisoformat(working["window"]["end"])
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def parse_date(working: Mapping[str, Any], raw: Any) -> date:
    """Return the date of a ``YYYY-MM-DD`` argument inside the window, or refuse with the window."""
    window = working["window"]
    try:
        day = date.fromisoformat(str(raw))
    except ValueError:
        raise EditRefused(f"日期 {raw!r} 格式不对，请用 YYYY-MM-DD，例如 {window['start']}。",
                          code="invalid_date") from None
    if not window["start"] <= day.isoformat() <= window["end"]:
        raise EditRefused(f"{day.isoformat()} 不在规划窗口内（{window['start']} 至 {window['end']}）。",
                          code="outside_window", detail={"window": dict(window)})
    return day


def day_label(day: date | str) -> str:
    day = date.fromisoformat(day) if isinstance(day, str) else day
    return f"{day.isoformat()}(周{WEEKDAYS[day.weekday()]})"


def sections_label(start: int, end: int) -> str:
    return f"{start}节" if start == end else f"{start}-{end}节"


def clock_label(working: Mapping[str, Any], start: int, end: int) -> str:
    sections = working["sections"]
    return f"{sections[start - 1][0]}-{sections[end - 1][1]}"


def where_label(working: Mapping[str, Any], at: Mapping[str, Any]) -> str:
    return f"{day_label(at['date'])} {sections_label(at['start'], at['end'])}({clock_label(working, at['start'], at['end'])})"


def entry_label(entry: Mapping[str, Any]) -> str:
    return f"[{entry['id']}]{entry['name']}"


def starts_at(working: Mapping[str, Any], day: date, section: int) -> datetime:
    hour, minute = (int(part) for part in working["sections"][section - 1][0].split(":"))
    return datetime.combine(day, time(hour, minute), tzinfo=ZoneInfo(working["tz"]))


def is_moved(entry: Mapping[str, Any]) -> bool:
    """An entry already in the database that the conversation moved elsewhere."""
    return entry["status"] == "existing" and entry.get("origin") is not None and not _same_place(entry)


def _same_place(entry: Mapping[str, Any]) -> bool:
    at, origin = entry.get("at"), entry.get("origin")
    return at is not None and origin is not None and (at["date"], at["start"], at["end"]) == (
        origin["date"], origin["start"], origin["end"])


def overlapping(working: Mapping[str, Any], day: str, start: int, end: int,
                ignore: Iterable[int] = ()) -> list[dict[str, Any]]:
    """Return the entries on ``day`` whose sections overlap ``start..end``, in section order."""
    skip = set(ignore)
    found = [e for e in entries(working) if e["id"] not in skip and e.get("at") and e["at"]["date"] == day
             and e["at"]["start"] <= end and start <= e["at"]["end"]]
    return sorted(found, key=lambda e: (e["at"]["start"], e["id"]))


# --- Where an entry may go -----------------------------------------------------------------------

@dataclass(frozen=True)
class Spot:
    """A checked target: the day, the sections, and the filler course it sits in (None: free time)."""

    day: str
    start: int
    end: int
    host: int | None


def may_embed(working: Mapping[str, Any], entry: Mapping[str, Any]) -> bool:
    """Only study blocks embed, and only when their class allows filler courses."""
    if entry["kind"] != "task_item":
        return False
    meta = working["classes"].get(str(entry.get("class_id")))
    return bool(meta and meta["allow_filler"])


def spot_check(working: Mapping[str, Any], entry: Mapping[str, Any], raw_day: Any, start: Any, *,
               now: datetime, ignore: Iterable[int] = ()) -> Spot:
    """Check that ``entry`` may start at ``start`` on ``raw_day``; refuse with what is wrong and what would work."""
    day = parse_date(working, raw_day)
    length = entry["sections"]
    count = section_count(working)
    if not isinstance(start, int) or start < 1 or start % 2 == 0 or start + length - 1 > count:
        raise EditRefused(f"开始节次必须是奇数（1、3、5…），且 {entry['sections']} 节的块要在第 {count} 节前结束；"
                          f"收到 start_section={start}。", code="invalid_section")
    end = start + length - 1
    if starts_at(working, day, start) <= now:
        raise EditRefused(f"{day_label(day)} {sections_label(start, end)} 已经过去，不能安排。", code="in_the_past")
    class_rules_check(working, entry, day, start, end)
    return Spot(day.isoformat(), start, end, _free_or_host(working, entry, day, start, end, now=now, ignore=ignore))


def class_rules_check(working: Mapping[str, Any], entry: Mapping[str, Any], day: date, start: int, end: int) -> None:
    meta = working["classes"].get(str(entry.get("class_id"))) if entry["kind"] == "task_item" else None
    if meta is None:
        return
    if not meta["start"] <= day.isoformat() <= meta["end"]:
        raise EditRefused(f"{day_label(day)} 在「{meta['name']}」的时间窗口外（{meta['start']} 至 {meta['end']}）。",
                          code="outside_class_window")
    if day.isoweekday() in meta["excluded_days"]:
        raise EditRefused(f"「{meta['name']}」排除了周{WEEKDAYS[day.weekday()]}。", code="excluded_day")
    pairs = {(section + 1) // 2 for section in range(start, end + 1)}
    if pairs & set(meta["excluded_pairs"]):
        raise EditRefused(f"「{meta['name']}」排除了第 {sections_label(start, end)}。", code="excluded_block")


def _free_or_host(working: Mapping[str, Any], entry: Mapping[str, Any], day: date, start: int, end: int, *,
                  now: datetime, ignore: Iterable[int]) -> int | None:
    skip = {entry["id"], *ignore}
    found = overlapping(working, day.isoformat(), start, end, ignore=skip)
    hosts = [e for e in found if e["filler"] and e["at"]["start"] <= start and end <= e["at"]["end"]]
    blocking = [e for e in found if e not in hosts]
    if not blocking and not hosts:
        return None
    if not blocking and len(hosts) == 1 and may_embed(working, entry):
        return hosts[0]["id"]
    culprit = (blocking or hosts)[0]
    why = "是水课但这个条目不能嵌入（只有允许水课的任务类的学习块可以）" if not blocking else (
        "是固定日程" if culprit["locked"] else "已占用")
    hint = free_hint(working, entry, day, now=now, ignore=skip)
    raise EditRefused(f"{day_label(day)} {sections_label(start, end)} 冲突：{entry_label(culprit)}"
                      f"（{sections_label(culprit['at']['start'], culprit['at']['end'])}）{why}。{hint}",
                      code="slot_taken", detail={"occupant": culprit["id"]})


def free_hint(working: Mapping[str, Any], entry: Mapping[str, Any], day: date, *, now: datetime,
              ignore: Iterable[int] = ()) -> str:
    """Name up to three places the entry would fit, on this day first, then the days after."""
    options = []
    days = [d for d in window_dates(working) if d >= day] + [d for d in window_dates(working) if d < day]
    for candidate in days:
        for start in range(1, section_count(working) - entry["sections"] + 2, 2):
            try:
                class_rules_check(working, entry, candidate, start, start + entry["sections"] - 1)
            except EditRefused:
                continue
            if starts_at(working, candidate, start) <= now or _blocked(working, entry, candidate, start, ignore):
                continue
            options.append(f"{day_label(candidate)} {sections_label(start, start + entry['sections'] - 1)}")
            if len(options) == 3:
                return "可用的位置例如：" + "、".join(options) + "。"
    return "窗口内没有找到其他可用位置。" if not options else "可用的位置例如：" + "、".join(options) + "。"


def _blocked(working: Mapping[str, Any], entry: Mapping[str, Any], day: date, start: int,
             ignore: Iterable[int]) -> bool:
    end = start + entry["sections"] - 1
    found = overlapping(working, day.isoformat(), start, end, ignore={entry["id"], *ignore})
    if not found:
        return False
    return not (len(found) == 1 and found[0]["filler"] and may_embed(working, entry)
                and found[0]["at"]["start"] <= start and end <= found[0]["at"]["end"])


# --- Order guard ---------------------------------------------------------------------------------

def order_inversions(working: Mapping[str, Any], class_ids: Iterable[int]) -> set[tuple[int, int]]:
    """Return the pairs (earlier item, later item) of these classes whose blocks are out of order."""
    found: set[tuple[int, int]] = set()
    for class_id in set(class_ids):
        placed = sorted((e for e in entries(working) if e["kind"] == "task_item" and e.get("class_id") == class_id
                         and e.get("at") and e.get("order") is not None), key=lambda e: e["order"])
        for n, first in enumerate(placed):
            for second in placed[n + 1:]:
                if second["order"] > first["order"] and _position(second) <= _position(first):
                    found.add((first["id"], second["id"]))
    return found


def _position(entry: Mapping[str, Any]) -> tuple[str, int]:
    return entry["at"]["date"], entry["at"]["start"]


# --- The one write path --------------------------------------------------------------------------

def edit(working: Mapping[str, Any], targets: Mapping[int, Target], *, now: datetime,
         allow_reorder: bool) -> dict[str, Any]:
    """Return a copy of ``working`` with the entries at their targets, or raise EditRefused.

    Preconditions (checked by the tools): the entries exist and may be moved.
    """
    new = copy.deepcopy(dict(working))
    moving = [entry_get(new, state_id) for state_id in targets]
    classes = {e["class_id"] for e in moving if e["kind"] == "task_item" and e.get("class_id") is not None}
    before = order_inversions(working, classes)
    for entry in moving:
        entry["at"], entry["host"] = None, None
    for entry in moving:
        target = targets[entry["id"]]
        if target is None:
            _take_off(entry)
            continue
        spot = spot_check(new, entry, target[0], target[1], now=now)
        _put_down(entry, spot)
    if not allow_reorder:
        broken = order_inversions(new, classes) - before
        if broken:
            raise EditRefused(order_message(new, broken), code="order_broken")
    return new


def _take_off(entry: dict[str, Any]) -> None:
    if entry["status"] == "existing":
        raise EditRefused(f"{entry_label(entry)} 已在课表中，只能移动，不能移除。", code="existing_not_removable")
    entry["status"] = "pending"


def _put_down(entry: dict[str, Any], spot: Spot) -> None:
    entry["at"] = {"date": spot.day, "start": spot.start, "end": spot.end}
    entry["host"] = spot.host
    if entry["status"] == "pending":
        entry["status"] = "suggested"


def order_message(working: Mapping[str, Any], broken: set[tuple[int, int]]) -> str:
    first, second = sorted(broken)[0]
    a, b = entry_get(working, first), entry_get(working, second)
    return (f"顺序约束：{entry_label(a)}（第{a['order']}项）必须排在 {entry_label(b)}（第{b['order']}项）之前，"
            f"这样改会打乱同一任务类的顺序。请换一个不打乱顺序的位置；只有学生明确同意打乱顺序时才可以。")


def occupancy_line(working: Mapping[str, Any], day: str) -> str:
    """One day's board: who sits where, and the free runs."""
    day_entries = sorted((e for e in entries(working) if e.get("at") and e["at"]["date"] == day),
                         key=lambda e: (e["at"]["start"], e["host"] is not None, e["id"]))
    parts = [f"{sections_label(e['at']['start'], e['at']['end'])}{entry_label(e)}({status_label(e)})"
             for e in day_entries]
    taken = {s for e in day_entries for s in range(e["at"]["start"], e["at"]["end"] + 1)}
    free = free_runs(taken, section_count(working))
    text = "；".join(parts) if parts else "无安排"
    return f"{day_label(day)}：{text}｜空闲 {'、'.join(free) if free else '无'}"


def free_runs(taken: set[int], count: int) -> list[str]:
    runs, start = [], None
    for section in range(1, count + 2):
        if section <= count and section not in taken:
            start = section if start is None else start
        elif start is not None:
            runs.append(sections_label(start, section - 1))
            start = None
    return runs


def status_label(entry: Mapping[str, Any]) -> str:
    kind = {"course": "课程", "custom": "日程", "task_item": "学习块", "quick_note": "随口记"}[entry["kind"]]
    bits = [kind]
    if entry["filler"]:
        bits.append("水课可嵌入")
    if entry["locked"]:
        bits.append("固定")
    if entry["host"] is not None:
        bits.append(f"嵌入[{entry['host']}]")
    bits.append({"existing": "待移动" if is_moved(entry) else "已有", "suggested": "建议",
                 "pending": "待安排"}[entry["status"]])
    return "·".join(bits)
