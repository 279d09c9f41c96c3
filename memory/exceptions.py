"""Memory errors in the project's ``{code, message, detail}`` shape."""

from __future__ import annotations

from smartmate.platform.exceptions import AppError, ConflictError, NotFoundError


class MemoryNotFound(NotFoundError):
    """No such memory for this student (another student's id is reported the same way)."""

    code = "memory_not_found"


class MemoryStateError(ConflictError):
    """The memory is not in a state that allows this (e.g. editing history, restoring an active one)."""

    code = "memory_state_conflict"


class MemoryDuplicate(ConflictError):
    """The same memory is already active."""

    code = "memory_duplicate"


class MemoryForgetNotConfirmed(AppError):
    code = "memory_forget_not_confirmed"
    status = 400


class MemoryInvalid(AppError):
    """The memory as written cannot be kept (empty)."""

    code = "memory_invalid"
    status = 400


class MemoryRefused(AppError):
    """The write gate refused this memory; ``detail`` names the rule and category, never the text."""

    code = "memory_refused"
    status = 422
