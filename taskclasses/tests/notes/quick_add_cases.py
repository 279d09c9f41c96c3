"""What the quick-add tests share: the student's time zone, the Wednesday they type on, and the dated check.

Pure: no database, no Django settings (the parser's tests run with ``-p no:django`` too).
"""

from __future__ import annotations

from datetime import datetime

from taskclasses.notes.core.quick_add import QuickNoteParse, parse_quick_note

SHANGHAI = "Asia/Shanghai"
WEDNESDAY = datetime.fromisoformat("2026-03-11T10:15:00+08:00")


def parse(text: str, now: datetime = WEDNESDAY, tz: str = SHANGHAI) -> QuickNoteParse:
    return parse_quick_note(text, now=now, tz=tz)


def assert_dated(text: str, deadline: str, title: str) -> None:
    """The note typed on Wednesday gets this deadline (ISO) and this title."""
    parsed = parse(text)
    assert parsed.deadline == datetime.fromisoformat(deadline)
    assert parsed.title == title
