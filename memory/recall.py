"""The read path's entry point for the assistant: the memory block of a turn's prompt.

Interim: memory rows do not exist yet (the memory issue adds them), so the block is empty. The
assistant calls this on every turn and goes on without memory if it raises.
"""

from __future__ import annotations


def memory_prompt_block(*, user, query: str) -> str:
    """Return the memories relevant to ``query`` rendered for the system prompt ("" when none)."""
    return ""
