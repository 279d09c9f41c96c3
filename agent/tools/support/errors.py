"""Errors of the tool layer; both go back to the model, which corrects its call."""

from __future__ import annotations

from smartmate.platform.exceptions import AppError


class UnknownTool(AppError):
    """The model named a tool that does not exist."""

    code = "unknown_tool"


class ToolArgumentError(AppError):
    """The model's arguments do not match the tool's schema; the message says what to fix."""

    code = "invalid_tool_arguments"
