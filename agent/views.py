"""The chat page: conversations on the left, the open conversation streaming on the right.

The page's behaviour lives in static/js/chat.js (socket, turns, composer) with chat_markdown.js
(sanitised Markdown) and chat_cards.js (tool timeline, confirm / ask / preview cards, context meter).
Every text those scripts show is translated here and handed over as JSON.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.requests import AuthedHttpRequest
from agent import selectors
from agent.api.serializers import ConversationOutputSerializer
from agent.flow.contracts import MAX_TASK_CLASSES, MAX_TEXT_LENGTH, THINKING_CHOICES
from smartmate.llm import LLMNotConfigured
from smartmate.llm.errors import LLM_SETTINGS
from smartmate.llm.provider import client_settings
from smartmate.platform.exceptions import NotFoundError
from taskclasses.plans.selectors import task_class_list


def llm_configured() -> bool:
    """Tell whether a language model endpoint is configured."""
    try:
        client_settings()
    except LLMNotConfigured:
        return False
    return True


@login_required
def chat(request: AuthedHttpRequest, conversation_id: int | None = None) -> HttpResponse:
    """Show the chat; ``conversation_id`` opens that conversation (another student's is a 404)."""
    if conversation_id is not None:
        try:
            selectors.conversation_get(user=request.user, conversation_id=conversation_id)
        except NotFoundError as exc:
            raise Http404(exc.message) from exc
    conversations = selectors.conversation_list(user=request.user)
    config = {
        "conversationId": conversation_id,
        "conversations": ConversationOutputSerializer(conversations, many=True).data,
        "api": reverse("v1:agent-conversations"),
        "previewsApi": reverse("v1:previews"),
        "board": reverse("board:week"),
        "page": reverse("agent:chat"),
        "socket": "/ws/agent/",
        "llmConfigured": llm_configured(),
        "maxTaskClasses": MAX_TASK_CLASSES,
    }
    context = {
        "config": config, "strings": _strings(), "llm_settings": LLM_SETTINGS,
        "llm_configured": config["llmConfigured"], "task_classes": task_class_list(user=request.user),
        "thinking_choices": _thinking_choices(), "max_text_length": MAX_TEXT_LENGTH,
        "max_task_classes": MAX_TASK_CLASSES,
    }
    return render(request, "agent/chat.html", context)


def _thinking_choices() -> list[tuple[str, str]]:
    labels = {"auto": _("Auto"), "on": _("On"), "off": _("Off")}
    return [(value, labels[value]) for value in THINKING_CHOICES]


def _strings() -> dict[str, object]:
    """Texts the chat scripts show, translated here so the scripts stay free of copy."""
    return {
        "untitled": _("New conversation"),
        "reasoning": _("Reasoning"),
        "rename": _("Rename"),
        "archive": _("Archive"),
        "delete": _("Delete"),
        "renamePrompt": _("New title for this conversation:"),
        "deleteConfirm": _("Delete this conversation and everything in it? This cannot be undone."),
        "sending": _("Sending…"),
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost, reconnecting…"),
        # A message the server never acknowledged (static/js/chat.js), and the button that sends it again.
        "unsent": _("Not sent"),
        "resend": _("Send again"),
        "stopping": _("Stopping…"),
        "done": _("Done"),
        "failed": _("The answer did not finish."),
        "cancelled": _("Stopped."),
        "interrupted": _("Waiting for your answer."),
        "truncated": _("The answer was cut off at the length limit."),
        "continue": _("Continue"),
        "continuePrompt": _("Please continue from where the answer was cut off."),
        "tokens": _("tokens"),
        "sessionExpired": _("Your session has ended. Log in again to keep chatting."),
        "requestFailed": _("The request failed. Please try again."),
        "regenerate": _("Regenerate"),
        "tooManyTaskClasses": _("Choose at most %(max)s task classes.") % {"max": MAX_TASK_CLASSES},
        "taskClassesChosen": _("Task classes: %(count)s chosen"),
        "taskClassesNone": _("Task classes"),
        # The tool timeline
        "toolRunning": _("Running…"),
        "toolStep": _("A tool step"),
        "toolStatus": {"done": _("Done"), "failed": _("Failed"), "blocked": _("Blocked")},
        "toolArguments": _("Arguments"),
        "toolResult": _("Result"),
        # Confirm / ask cards
        "confirmHeading": _("Please confirm"),
        "accept": _("Accept"),
        "reject": _("Reject"),
        "details": _("Details"),
        "askHeading": _("The assistant asks"),
        "answer": _("Answer"),
        "answerLabel": _("Your answer"),
        "accepted": _("You accepted."),
        "rejected": _("You rejected."),
        "answered": _("You answered."),
        "cardClosed": _("This is no longer waiting for an answer."),
        "planClasses": _("Task classes: %(names)s"),
        "listSeparator": _(", "),
        "cardStale": _("This confirmation or question is no longer open."),
        # The preview card
        "previewHeading": _("Schedule suggestion"),
        "previewOpen": _("Open on the week board"),
        "apply": _("Apply"),
        "applying": _("Applying…"),
        "applied": _("Applied to your schedule."),
        "appliedSummary": _("Applied: %(summary)s"),
        "previewDiscarded": _("Replaced by a newer suggestion or discarded."),
        "previewExpired": _("This suggestion has expired. Ask again for a fresh one."),
        # The context meter
        "contextLabel": _("Context: %(used)s of %(budget)s tokens (%(percent)s%%)"),
        "contextParts": {"system": _("Instructions"), "memory": _("Memory"), "history": _("History"),
                         "tools": _("Tools"), "message": _("Your message"), "other": _("Other")},
        "usageLabel": _("Last turn: %(total)s tokens (%(prompt)s in, %(completion)s out, %(calls)s calls)"),
        "usageEstimated": _("estimated"),
    }
