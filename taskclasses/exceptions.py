"""Errors of the quick-note services."""

from smartmate.exceptions import AppError, ConflictError


class TaskInputError(AppError):
    code = "invalid_task"


class NoFreeSlotError(ConflictError):
    code = "no_free_slot"
