"""Errors of the quick-note and study-plan services."""

from smartmate.platform.exceptions import AppError, ConflictError, NotFoundError


class TaskInputError(AppError):
    code = "invalid_task"


class NoFreeSlotError(ConflictError):
    code = "no_free_slot"


class TaskClassInputError(AppError):
    """A study plan or one of its items breaks a rule (window, exclusions, item count, names)."""

    code = "invalid_task_class"


class TaskClassNotFoundError(NotFoundError):
    code = "task_class_not_found"


class TaskItemNotFoundError(NotFoundError):
    code = "task_item_not_found"
