"""Errors the schedule services raise; all render as {code, message, detail}."""

from smartmate.platform.exceptions import AppError, ConflictError


class SlotConflictError(ConflictError):
    code = "slot_taken"


class ScheduleInputError(AppError):
    code = "invalid_slot"


class ImportRejectedError(AppError):
    code = "import_rejected"
    status = 400


class ImportTooComplexError(AppError):
    """Reading the file took more than its CPU budget (``settings.IMPORT_CPU_SECONDS``)."""

    code = "import_too_complex"
    status = 422


class CalendarShrinkError(AppError):
    code = "calendar_in_use"
    status = 409
