"""Errors of the semester services; they render as {code, message, detail}."""

from smartmate.platform.exceptions import AppError, ConflictError


class SemesterInputError(AppError):
    code = "semester_invalid"
    status = 400


class SemesterUndoRefusedError(ConflictError):
    code = "semester_undo_refused"
