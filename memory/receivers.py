"""What the memory app does when the apps below it say something happened."""

from __future__ import annotations

import logging

from accounts.models import User
from memory.services.timetable_memories import memories_outdated_by_timetable

log = logging.getLogger("memory.receivers")


def memories_check_after_import(*, user: User, changeset_id: int, **_signal: object) -> None:
    """A timetable import committed: close what the student's memories say of the old timetable, if it changed."""
    try:
        memories_outdated_by_timetable(user=user, changeset_id=changeset_id)
    except Exception:  # the import is done and stays done; a check that failed only leaves memories as they were
        log.exception("Could not check the memories of user %s against the new timetable", user.pk)
