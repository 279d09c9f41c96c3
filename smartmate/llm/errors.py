"""Errors the LLM layer raises, in the project's ``{code, message, detail}`` shape.

Two families: our side or the endpoint failed (``LLMError`` and subclasses: the turn stops with a
visible error event), and the model produced something unusable (``MalformedOutput``: the agent
sends ``feedback`` back to the model and lets it correct itself).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from smartmate.platform.exceptions import AppError

# Named once so the message, the docs and the tests agree on them.
LLM_SETTINGS = ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL")


class StreamStopped(Exception):  # a deliberate stop, not an error
    """Raised by an ``on_delta`` callback to stop a streaming call on purpose (the student cancelled).

    Not a failure: the client closes the stream, charges an estimate of what was received, and
    re-raises it with ``partial_text`` (the answer so far) filled in.
    """

    partial_text: str = ""


class LLMError(AppError):
    """The language model could not produce an answer.

    ``message`` is for operators (the endpoint's own words, attempts, setting names; logged and kept on
    the turn for the admin); a student reads ``student_message()``: what happened and what she can do,
    in her language, and no operator detail.
    """

    code = "llm_error"
    status = 502

    def student_message(self) -> str:
        return _("The assistant could not get an answer from its model. Please try again in a moment.")

    def student_detail(self) -> Any:
        return None


class LLMNotConfigured(LLMError):
    """No endpoint is configured, so no model can be called."""

    code = "llm_not_configured"
    status = 503

    def __init__(self) -> None:
        base_url, api_key, model = LLM_SETTINGS
        super().__init__(
            "The assistant's language model is not configured. Set "
            f"{base_url} (an OpenAI-compatible endpoint, e.g. https://api.deepseek.com/v1), "
            f"{api_key} and {model} in the environment, then restart.",
            detail={"settings": list(LLM_SETTINGS)},
        )

    def student_message(self) -> str:
        return _("The assistant is not switched on here yet: no language model is set up. Everything else "
                 "(timetable, plans, quick notes) works as usual; ask the site's administrator to set it up.")


class LLMTimeout(LLMError):
    """The endpoint did not answer in time, on every attempt."""

    code = "llm_timeout"
    status = 504

    def student_message(self) -> str:
        return _("The assistant's model took too long to answer. Please try again in a moment.")


class LLMUnavailable(LLMError):
    """The endpoint kept failing with transient errors (connection, 429, 5xx) until retries ran out."""

    code = "llm_unavailable"
    status = 503

    def student_message(self) -> str:
        return _("The assistant's model is busy or cannot be reached right now. Please try again in a minute.")


class LLMRequestRejected(LLMError):
    """The endpoint refused the request (4xx other than 429); retrying the same request cannot help."""

    code = "llm_request_rejected"
    status = 502

    def student_message(self) -> str:
        return _("The assistant's model turned this request down. Try saying it another way, or start a new "
                 "conversation.")


class LLMStreamInterrupted(LLMError):
    """The stream broke after text had been shown; not retried, as the user already saw part of it."""

    code = "llm_stream_interrupted"
    status = 502

    def student_message(self) -> str:
        return _("The answer broke off: the connection to the assistant's model was lost. Press Regenerate to "
                 "try again.")


class MalformedOutput(AppError):
    """The model's output is not the JSON object we asked for.

    ``feedback`` is written for the model: the agent sends it back as a correctable result.
    """

    code = "llm_malformed_output"
    status = 422

    def __init__(self, problem: str, *, raw: str = "", detail: Any = None) -> None:
        super().__init__(f"The model's output is not a valid JSON object: {problem}",
                         detail=detail if detail is not None else {"problem": problem, "raw": raw[:500]})
        self.problem = problem
        self.raw = raw

    @property
    def feedback(self) -> str:
        """Return the correction request to send back to the model."""
        return (f"Your previous reply could not be parsed as JSON ({self.problem}). "
                "Reply again with exactly one JSON object and nothing else.")
