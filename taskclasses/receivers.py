"""How task classes answer what the schedule tells them."""

from __future__ import annotations

from typing import Any

from taskclasses.models import TaskItem


def item_pending_again(*, item_id: int, **_: Any) -> None:
    """A deleted study block's item waits to be planned again."""
    TaskItem.objects.filter(pk=item_id).update(status=TaskItem.Status.PENDING)
