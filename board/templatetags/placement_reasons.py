"""The week board's "why here?" for a block: its reason sentence, looked up by item id."""

from __future__ import annotations

from collections.abc import Mapping

from django import template

register = template.Library()


@register.filter
def reason_of(reasons: Mapping[int, str] | None, item_id: int | None) -> str:
    """The block's reason sentence (empty when none is known)."""
    if not reasons or item_id is None:
        return ""
    return reasons.get(item_id, "")


@register.inclusion_tag("board/_placement_reason.html")
def placement_reason(reasons: Mapping[int, str] | None, item_id: int | None) -> dict:
    """A small "?" that shows why the block is here: on hover (its title) and on a tap (a popover)."""
    return {"text": reason_of(reasons, item_id)}
