"""One natural line per change set, for the undo bar and the week page's last-change banner.

Each ``ChangeSet.Kind`` gets its own small function in ``SUMMARIES`` (a dispatch table, so a new kind
adds one clause here rather than another branch somewhere else). A kind without a clause, or a change
set whose record is empty, falls back to a plain "Last change" so the banner never shows nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from schedule.messages import day_label
from schedule.models import ChangeSet
from taskclasses.models import TaskItem


def place_label(week: int, day: int, first: int, last: int) -> str:
    """"第 5 周 周五 第 3–4 节": where a block now sits (a single section reads "第 3 节")."""
    sections = (_("section %(first)s") % {"first": first} if first == last
                else _("sections %(first)s–%(last)s") % {"first": first, "last": last})
    return _("week %(week)s %(day)s %(sections)s") % {"week": week, "day": day_label(day), "sections": sections}


def _apply_summary(changeset: ChangeSet) -> str:
    blocks, moves, notes = changeset.block_count, len(changeset.moves or []), len(changeset.task_ids or [])
    parts = [ngettext("%(count)s block placed", "%(count)s blocks placed", blocks) % {"count": blocks},
             ngettext("%(count)s block moved", "%(count)s blocks moved", moves) % {"count": moves},
             ngettext("%(count)s quick note scheduled", "%(count)s quick notes scheduled", notes) % {"count": notes}]
    # Only the parts that happened ("安排了 1 条随口记", never "安排了 0 个学习块"), joined by the
    # language's own separator ("，" in Chinese).
    return pgettext("list separator", ", ").join(part for part, count in zip(parts, (blocks, moves, notes)) if count)


def _move_summary(changeset: ChangeSet) -> str:
    if not changeset.moves:
        return ""
    move = changeset.move_records()[0]
    to = move.target
    return _("Moved “%(title)s” to %(place)s") % {
        "title": move.title or "", "place": place_label(to.week, to.day, to.start_section, to.end_section)}


def _remove_summary(changeset: ChangeSet) -> str:
    if not changeset.removed:
        return ""
    return _("Removed “%(title)s” (back to unscheduled)") % {"title": changeset.removed_records()[0].title}


def _mark_summary(changeset: ChangeSet) -> str:
    if not changeset.marked:
        return ""
    mark = changeset.marked_records()[0]
    # A quick note's "done" is its completion; every other status is a study block's "missed".
    template = (_("Marked “%(title)s” done") if mark.after == TaskItem.Status.DONE
                else _("Marked “%(title)s” not done"))
    return template % {"title": mark.title}


def _blocks_back(count: int) -> str:
    """" (2 blocks back to unscheduled)" after a course change or re-import that displaced blocks."""
    if not count:
        return ""
    return ngettext(" (%(count)s block back to unscheduled)", " (%(count)s blocks back to unscheduled)",
                    count) % {"count": count}


def _course_summary(changeset: ChangeSet) -> str:
    # ChangeSet.timetable["summary"] is written by board/timetable_edits.py.
    info = (changeset.timetable or {}).get("summary", {})
    course, action = info.get("course", ""), info.get("action")
    if action == "meeting_remove":
        day = str(info.get("date", ""))[5:]  # "2026-11-05" -> "11-05"
        text = _("Deleted one meeting of “%(course)s” on %(date)s") % {"course": course, "date": day}
    elif action == "course_remove":
        text = ngettext("Deleted the course “%(course)s” and its %(count)s meeting",
                        "Deleted the course “%(course)s” and its %(count)s meetings",
                        info.get("meetings", 0)) % {"course": course, "count": info.get("meetings", 0)}
    elif action == "course_change" and info.get("fields") == ["is_filler"]:
        text = (_("“%(course)s” is now a filler course") if info.get("is_filler")
                else _("“%(course)s” is no longer a filler course")) % {"course": course}
    elif action == "course_change":
        text = _("Changed the course “%(course)s”") % {"course": course}
    elif action == "event_over_blocks":  # board/repair.py
        text = _("Added “%(event)s” where blocks were planned") % {"event": info.get("event", "")}
    else:
        return ""
    return text + _blocks_back(info.get("blocks", 0))


def _import_summary(changeset: ChangeSet) -> str:
    info = (changeset.timetable or {}).get("summary", {})
    if info.get("action") != "import":
        return ""
    if info.get("first"):
        text = _("Timetable imported: %(added)s courses, %(meetings)s meetings") % {
            "added": info.get("added", 0), "meetings": info.get("meetings_added", 0)}
        return text + (_(" (your semester and section times now follow the file)") if info.get("adopted") else "")
    text = _("Timetable re-imported: %(added)s courses added, %(changed)s changed, %(removed)s removed") % {
        "added": info.get("added", 0), "changed": info.get("changed", 0), "removed": info.get("removed", 0)}
    return text + _blocks_back(info.get("blocks", 0))


def _event_summary(changeset: ChangeSet) -> str:
    # ChangeSet.timetable["summary"] is written by board/event_edits.py. One week or many is
    # a different sentence, not a plural form ("已删除「社团例会」" / "已删除「社团例会」（共 16 周）").
    info = (changeset.timetable or {}).get("summary", {})
    title, count = info.get("title", ""), info.get("count", 0)
    one, many = EVENT_SENTENCES.get(info.get("action"), ("", ""))
    return (one if count <= 1 else many) % {"title": title, "count": count} if one else ""


EVENT_SENTENCES = {
    "event_add": (gettext_lazy("Added “%(title)s”"), gettext_lazy("Added “%(title)s” in %(count)s weeks")),
    "event_change": (gettext_lazy("Changed “%(title)s”"), gettext_lazy("Changed “%(title)s” in %(count)s weeks")),
    "event_remove": (gettext_lazy("Deleted “%(title)s”"), gettext_lazy("Deleted “%(title)s” in all %(count)s weeks")),
}


SUMMARIES: dict[str, Callable[[ChangeSet], str]] = {
    ChangeSet.Kind.APPLY: _apply_summary,
    ChangeSet.Kind.MOVE: _move_summary,
    ChangeSet.Kind.REMOVE: _remove_summary,
    ChangeSet.Kind.MARK: _mark_summary,
    ChangeSet.Kind.COURSE: _course_summary,
    ChangeSet.Kind.IMPORT: _import_summary,
    ChangeSet.Kind.EVENT: _event_summary,
}


def changeset_summary(changeset: ChangeSet) -> str:
    """What the change did, in one line the student reads ("已把「概率论复习 3」移到 第 5 周 周五 第 3–4 节")."""
    summarize = SUMMARIES.get(changeset.kind)
    return (summarize(changeset) if summarize else "") or _("Last change")
