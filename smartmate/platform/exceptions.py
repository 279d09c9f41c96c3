"""The one error shape every client sees: ``{code, message, detail}``."""

from __future__ import annotations

from typing import Any


class AppError(Exception):
    """A domain error with a stable code, a human message and optional structured detail.

    Subclasses set ``code`` and ``status``; services raise them and the API, pages and the
    websocket render them the same way.
    """

    code = "error"
    status = 400

    def __init__(self, message: str, *, detail: Any = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail
        if code is not None:
            self.code = code

    def student_message(self) -> str:
        """What a student reads. An error whose ``message`` is written for operators (the model endpoint's
        own words, setting names) overrides this; the operator text stays in ``message`` for the log."""
        return str(self.message)

    def student_detail(self) -> Any:
        return self.detail

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.student_message(), "detail": self.student_detail()}


class MalformedJSONError(AppError):
    """A client's JSON nests deeper than ``smartmate.platform.safe_json`` allows."""

    code = "malformed_json"
    status = 400


class NotFoundError(AppError):
    code = "not_found"
    status = 404


class ConflictError(AppError):
    code = "conflict"
    status = 409


class QuotaExceededError(AppError):
    code = "quota_exceeded"
    status = 429
