"""Assistant API: conversations (list, create, history, timeline, rename, archive, delete) and websocket tickets."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from agent import selectors
from agent.api.serializers import (
    ConversationArchiveInputSerializer,
    ConversationCreateInputSerializer,
    ConversationDetailOutputSerializer,
    ConversationListQuerySerializer,
    ConversationOutputSerializer,
    ConversationRenameInputSerializer,
    ConversationStateOutputSerializer,
    TicketOutputSerializer,
    TimelineEventOutputSerializer,
    TimelineQuerySerializer,
    TurnStartedOutputSerializer,
)
from agent.models import Conversation
from agent.services.conversations import (
    conversation_archive,
    conversation_create,
    conversation_delete,
    conversation_rename,
)
from agent.services.recovery import turn_recover
from agent.services.tickets import ticket_create
from agent.services.turns import turn_regenerate
from smartmate.platform.idempotency import idempotent
from smartmate.platform.ratelimit import rate_limit_hit, user_key
from smartmate.platform.serializers import query_validate


def _settled(request: Request, conversation_id: int) -> Conversation:
    """Return the conversation after ending or resuming a turn whose worker died (the page asks on load
    and on reconnect, so it never waits for a turn nothing runs)."""
    conversation = selectors.conversation_get(user=request.user, conversation_id=conversation_id)
    if conversation.is_running and turn_recover(conversation_id=conversation.pk) != "running":
        conversation.refresh_from_db()
    return conversation


def _detail(request: Request, conversation_id: int) -> dict:
    conversation = _settled(request, conversation_id)
    return ConversationDetailOutputSerializer({
        "conversation": conversation,
        "messages": selectors.message_list(conversation=conversation),
        "last_seq": selectors.last_seq_get(conversation=conversation),
        "running_turn": selectors.running_turn_get(conversation=conversation),
    }).data


class ConversationListView(APIView):
    """List the student's conversations (``?archived=true`` for the archive) or start a new one."""

    @extend_schema(parameters=[ConversationListQuerySerializer], responses=ConversationOutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        query = query_validate(ConversationListQuerySerializer, request)
        conversations = selectors.conversation_list(user=request.user, archived=query["archived"])
        return Response(ConversationOutputSerializer(conversations, many=True).data)

    @idempotent
    @extend_schema(request=ConversationCreateInputSerializer, responses={201: ConversationOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        data = ConversationCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        conversation = conversation_create(user=request.user, **data.validated_data)
        return Response(ConversationOutputSerializer(conversation).data, status=status.HTTP_201_CREATED)


class ConversationDetailView(APIView):
    """Read a conversation with its messages, rename it, or delete it (not while a turn runs)."""

    @extend_schema(responses=ConversationDetailOutputSerializer)
    def get(self, request: Request, conversation_id: int) -> Response:
        return Response(_detail(request, conversation_id))

    @idempotent
    @extend_schema(request=ConversationRenameInputSerializer, responses=ConversationOutputSerializer)
    def patch(self, request: AuthedRequest, conversation_id: int) -> Response:
        selectors.conversation_get(user=request.user, conversation_id=conversation_id)  # 404 before validating
        data = ConversationRenameInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        conversation = conversation_rename(user=request.user, conversation_id=conversation_id,
                                                    **data.validated_data)
        return Response(ConversationOutputSerializer(conversation).data)

    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest, conversation_id: int) -> Response:
        conversation_delete(user=request.user, conversation_id=conversation_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ConversationStateView(APIView):
    """Whether a turn runs in the conversation now; a turn whose worker died is ended or resumed first."""

    @extend_schema(responses=ConversationStateOutputSerializer)
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = _settled(request, conversation_id)
        turn_id = str(conversation.running_turn_id) if conversation.running_turn_id else None
        return Response(ConversationStateOutputSerializer({
            "running": turn_id is not None, "turn_id": turn_id,
            "last_seq": selectors.last_seq_get(conversation=conversation)}).data)


class ConversationArchiveView(APIView):
    """Archive a conversation (``{"archived": false}`` restores it)."""

    @idempotent
    @extend_schema(request=ConversationArchiveInputSerializer, responses=ConversationOutputSerializer)
    def post(self, request: AuthedRequest, conversation_id: int) -> Response:
        selectors.conversation_get(user=request.user, conversation_id=conversation_id)
        data = ConversationArchiveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        conversation = conversation_archive(user=request.user, conversation_id=conversation_id,
                                                     **data.validated_data)
        return Response(ConversationOutputSerializer(conversation).data)


class ConversationRegenerateView(APIView):
    """Answer the conversation's last message again (202: the new turn streams over the websocket)."""

    @idempotent
    @extend_schema(request=None, responses={202: TurnStartedOutputSerializer})
    def post(self, request: AuthedRequest, conversation_id: int) -> Response:
        # The same budget as chat.send / chat.regenerate on the websocket: one door may not be cheaper.
        rate_limit_hit("chat", user_key(request.user))
        started = turn_regenerate(user=request.user, conversation_id=conversation_id)
        return Response(TurnStartedOutputSerializer(started).data, status=status.HTTP_202_ACCEPTED)


class ConversationTimelineView(APIView):
    """The conversation's stored events after ``after_seq``, in order (at most ``limit``)."""

    @extend_schema(parameters=[TimelineQuerySerializer], responses=TimelineEventOutputSerializer(many=True))
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = selectors.conversation_get(user=request.user, conversation_id=conversation_id)
        query = query_validate(TimelineQuerySerializer, request)
        events = selectors.timeline_event_list(conversation=conversation, **query)
        return Response(TimelineEventOutputSerializer(events, many=True).data)


class TicketView(APIView):
    """Issue a single-use websocket ticket valid for 60 s (API clients; browsers use their session)."""

    # Not @idempotent on purpose: a retry simply gets a fresh ticket, and a stored answer would keep
    # the ticket itself in the database (only its hash is kept otherwise).
    @extend_schema(request=None, responses={201: TicketOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        issued = ticket_create(user=request.user)
        body = {"ticket": issued.ticket, "expires_at": issued.expires_at, "url": f"/ws/agent/?ticket={issued.ticket}"}
        return Response(TicketOutputSerializer(body).data, status=status.HTTP_201_CREATED)
