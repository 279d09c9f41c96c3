"""Errors the schedule services raise; all render as {code, message, detail}."""

from smartmate.exceptions import AppError, ConflictError


class SlotConflictError(ConflictError):
    code = "slot_taken"


class ScheduleInputError(AppError):
    code = "invalid_slot"


class ImportRejectedError(AppError):
    code = "import_rejected"
    status = 400


class CalendarShrinkError(AppError):
    code = "calendar_in_use"
    status = 409
