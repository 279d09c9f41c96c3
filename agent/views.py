"""The chat page: conversations on the left, the open conversation streaming on the right (static/js/chat.js)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from agent import selectors
from agent.api.serializers import ConversationOutputSerializer
from agent.llm import LLMNotConfigured
from agent.llm.errors import LLM_SETTINGS
from agent.llm.provider import client_settings
from smartmate.exceptions import NotFoundError


def llm_configured() -> bool:
    """Tell whether a language model endpoint is configured."""
    try:
        client_settings()
    except LLMNotConfigured:
        return False
    return True


@login_required
def chat(request: HttpRequest, conversation_id: int | None = None) -> HttpResponse:
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
        "page": reverse("agent:chat"),
        "socket": "/ws/agent/",
        "llmConfigured": llm_configured(),
    }
    return render(request, "agent/chat.html", {"config": config, "strings": _strings(), "llm_settings": LLM_SETTINGS,
                                               "llm_configured": config["llmConfigured"]})


def _strings() -> dict[str, str]:
    """Texts chat.js shows, translated here so the script stays free of copy."""
    return {
        "untitled": _("New conversation"),
        "reasoning": _("Reasoning"),
        "rename": _("Rename"),
        "archive": _("Archive"),
        "renamePrompt": _("New title for this conversation:"),
        "sending": _("Sending…"),
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost, reconnecting…"),
        "stopping": _("Stopping…"),
        "done": _("Done"),
        "failed": _("The answer did not finish."),
        "cancelled": _("Stopped."),
        "tokens": _("tokens"),
        "sessionExpired": _("Your session has ended. Log in again to keep chatting."),
        "requestFailed": _("The request failed. Please try again."),
    }
