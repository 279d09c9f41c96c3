"""Errors the accounts services raise."""

from django.utils.translation import gettext_lazy as _

from smartmate.platform.exceptions import AppError, QuotaExceededError


class UsernameTakenError(AppError):
    code = "username_taken"
    status = 409


class TokenInvalidError(AppError):
    code = "token_not_valid"


class PasswordRequiredError(AppError):
    """A step that cannot be undone (deleting the account) asks for the password again."""

    code = "password_required"
    status = 403


class ExportBusyError(AppError):
    code = "export_running"
    status = 409


class TokenQuotaExceededError(QuotaExceededError):
    code = "token_quota_exceeded"


USERNAME_TAKEN_MESSAGE = _("This username is already taken.")
