"""Schedule API: the calendar settings, week and today views, events, courses, import, export and the ICS feed."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from schedule import selectors
from schedule.api.serializers import (
    CalendarInputSerializer,
    CalendarOutputSerializer,
    CourseChangeInputSerializer,
    CourseChangeOutputSerializer,
    CourseOutputSerializer,
    DryRunQuerySerializer,
    EventChangeOutputSerializer,
    EventCreateInputSerializer,
    EventDeleteOutputSerializer,
    EventOutputSerializer,
    EventScopeQuerySerializer,
    EventSeriesChangeOutputSerializer,
    EventSeriesOutputSerializer,
    EventUpdateInputSerializer,
    FeedOutputSerializer,
    ImportInputSerializer,
    ImportOutcomeSerializer,
    SpanInputSerializer,
    SyncOutcomeSerializer,
    TimetableChangeOutputSerializer,
    WeekBoardSerializer,
    WeekQuerySerializer,
)
from schedule.core.importers import MAX_IMPORT_BYTES
from schedule.core.time_model import TimeModelError
from schedule.exceptions import ScheduleInputError
from schedule.messages import time_error_message
from schedule.models import ScheduleEvent
from schedule.services import calendar, events, feeds, imports, timetable_sync
from schedule.services.events import Span
from schedule.timetable_port import OwnEventEdit, TimetableEditResult, timetable_editor
from smartmate.platform.exceptions import NotFoundError
from smartmate.platform.idempotency import idempotent
from smartmate.platform.parsers import BoundedJSONParser
from smartmate.platform.ratelimit import rate_limit_hit, user_key
from smartmate.platform.serializers import query_validate


class WeekView(APIView):
    """One week of the board: dates, section times and events (default: this week)."""

    @extend_schema(parameters=[WeekQuerySerializer], responses=WeekBoardSerializer)
    def get(self, request: AuthedRequest) -> Response:
        week = query_validate(WeekQuerySerializer, request).get("week")
        try:
            board = selectors.week_board_get(user=request.user, week=week)
        except TimeModelError as exc:
            raise ScheduleInputError(time_error_message(exc.code, exc.message, exc.detail), code=exc.code,
                                     detail=exc.detail) from None
        return Response(WeekBoardSerializer(board).data)


class TodayView(APIView):
    """Today's events in the student's time zone."""

    @extend_schema(responses=EventOutputSerializer(many=True))
    def get(self, request: AuthedRequest) -> Response:
        return Response(EventOutputSerializer(selectors.today_events_list(user=request.user), many=True).data)


EVENT_CREATED = PolymorphicProxySerializer(
    component_name="EventCreated", serializers=[EventChangeOutputSerializer, EventSeriesChangeOutputSerializer],
    resource_type_field_name=None)


def _changed(data: dict, edit: OwnEventEdit) -> dict:
    """The written rows with the change set that undoes them."""
    return {**data, "changeset_id": edit.changeset_id, "summary": edit.summary}


class EventListView(APIView):
    """Create a one-off event (``week``) or a repeating one (``weeks``, e.g. ``1-16单``) on free sections;
    the answer names the change set that undoes it."""

    @idempotent
    @extend_schema(request=EventCreateInputSerializer, responses={201: EVENT_CREATED})
    def post(self, request: AuthedRequest) -> Response:
        data = EventCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        weeks = values.get("weeks")
        # A repeating event's span names its day and sections; its weeks come from ``weeks``.
        span = SpanInputSerializer.to_span({"week": 1, **values})
        edit = timetable_editor().own_event_add(user=request.user, title=values["title"], span=span, weeks=weeks,
                                                location=values["location"], note=values["note"])
        written = (EventSeriesOutputSerializer(edit.written) if weeks else EventOutputSerializer(edit.written)).data
        return Response(_changed(written, edit), status=status.HTTP_201_CREATED)


class EventDetailView(APIView):
    """Read, change, move or delete one event, or every occurrence of its series (``scope=all``).

    A change or delete of the student's own event answers the change set that undoes it; a class meeting
    or a planned block is refused (409 ``not_own_event``): the course and block endpoints change those."""

    @extend_schema(responses=EventOutputSerializer)
    def get(self, request: AuthedRequest, event_id: int) -> Response:
        return Response(EventOutputSerializer(selectors.event_get(user=request.user, event_id=event_id)).data)

    @idempotent
    @extend_schema(request=EventUpdateInputSerializer, responses=EventChangeOutputSerializer)
    def patch(self, request: AuthedRequest, event_id: int) -> Response:
        event = selectors.event_get(user=request.user, event_id=event_id)  # 404 before validating a foreign id
        data = EventUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        scope = values.pop("scope")
        span = None
        if "day" in values:
            span = Span(values.get("week", event.week), values["day"], values["start_section"], values["end_section"])
        for name in EventUpdateInputSerializer.SPAN_FIELDS:
            values.pop(name, None)
        edit = timetable_editor().own_event_change(user=request.user, event_id=event_id, scope=scope, span=span,
                                                   **values)
        return Response(_changed(EventOutputSerializer(edit.written).data, edit))

    @idempotent
    @extend_schema(parameters=[EventScopeQuerySerializer], responses={200: EventDeleteOutputSerializer})
    def delete(self, request: AuthedRequest, event_id: int) -> Response:
        selectors.event_get(user=request.user, event_id=event_id)
        scope = query_validate(EventScopeQuerySerializer, request)["scope"]
        edit = timetable_editor().own_event_remove(user=request.user, event_id=event_id, scope=scope)
        return Response(_changed({"deleted": edit.written}, edit))


class SlotCheckView(APIView):
    """Tell whether a span is free; 409 naming the occupant when it is not."""

    @extend_schema(parameters=[SpanInputSerializer], responses={200: OpenApiTypes.OBJECT})
    def get(self, request: AuthedRequest) -> Response:
        span = SpanInputSerializer.to_span(query_validate(SpanInputSerializer, request))
        semester, template = selectors.time_frame_get(user=request.user)
        events.span_times(semester=semester, template=template, span=span)
        events.ensure_span_free(user=request.user, span=span)
        return Response({"free": True})


class CourseListView(APIView):
    @extend_schema(responses=CourseOutputSerializer(many=True))
    def get(self, request: AuthedRequest) -> Response:
        return Response(CourseOutputSerializer(selectors.course_list(user=request.user), many=True).data)


def change_body(result: TimetableEditResult) -> dict:
    """A course change's answer: the blocks it displaces (would displace, in a dry run) and its change set."""
    return {"dry_run": result.dry_run, "changeset_id": result.changeset_id, "summary": result.summary,
            "displaced": list(result.displaced)}


class CourseDetailView(APIView):
    """Read, change (name, teacher, location, filler mark) or delete a course with its meetings.

    A change or deletion that takes study blocks off the board (turning the filler mark off, deleting
    meetings that hold blocks) lists them; with ``dry_run`` nothing is written. Each change is a
    change set: undo it with ``/api/v1/changesets/<changeset_id>/undo/``.
    """

    @extend_schema(responses=CourseOutputSerializer)
    def get(self, request: AuthedRequest, course_id: int) -> Response:
        selectors.course_get(user=request.user, course_id=course_id)
        return Response(CourseOutputSerializer(selectors.course_list(user=request.user).get(pk=course_id)).data)

    @idempotent
    @extend_schema(request=CourseChangeInputSerializer, responses=CourseChangeOutputSerializer)
    def patch(self, request: AuthedRequest, course_id: int) -> Response:
        selectors.course_get(user=request.user, course_id=course_id)  # 404 before validating a foreign id
        data = CourseChangeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        dry_run = values.pop("dry_run")
        result = timetable_editor().course_change(user=request.user, course_id=course_id, values=values,
                                                  dry_run=dry_run)
        course = selectors.course_list(user=request.user).get(pk=course_id)
        return Response(CourseChangeOutputSerializer({**change_body(result), "course": course}).data)

    @idempotent
    @extend_schema(parameters=[DryRunQuerySerializer], responses=TimetableChangeOutputSerializer)
    def delete(self, request: AuthedRequest, course_id: int) -> Response:
        selectors.course_get(user=request.user, course_id=course_id)
        dry_run = query_validate(DryRunQuerySerializer, request)["dry_run"]
        result = timetable_editor().course_remove(user=request.user, course_id=course_id, dry_run=dry_run)
        return Response(TimetableChangeOutputSerializer(change_body(result)).data)


class CourseMeetingView(APIView):
    """Delete one meeting of a course (a holiday); ``dry_run`` lists the blocks it would return to pending."""

    @idempotent
    @extend_schema(parameters=[DryRunQuerySerializer], responses=TimetableChangeOutputSerializer)
    def delete(self, request: AuthedRequest, course_id: int, event_id: int) -> Response:
        selectors.course_get(user=request.user, course_id=course_id)
        if not ScheduleEvent.objects.filter(user=request.user, pk=event_id, course_id=course_id).exists():
            raise NotFoundError(_("This class meeting is not on your timetable."), code="meeting_not_found")
        dry_run = query_validate(DryRunQuerySerializer, request)["dry_run"]
        result = timetable_editor().meeting_remove(user=request.user, event_id=event_id, dry_run=dry_run)
        return Response(TimetableChangeOutputSerializer(change_body(result)).data)


class ImportView(APIView):
    """Import a timetable (CSV, iCalendar or JSON); all or nothing; ``dry_run`` only reports."""

    parser_classes = [MultiPartParser, FormParser, BoundedJSONParser]

    # A refused file is not kept for replay: its answer can be large and a retry costs no more than the first try.
    @idempotent(store_errors=False)
    @extend_schema(request=ImportInputSerializer, responses={200: ImportOutcomeSerializer,
                                                             201: ImportOutcomeSerializer})
    def post(self, request: AuthedRequest) -> Response:
        rate_limit_hit("import", user_key(request.user))
        data = ImportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        raw, filename = read_upload(values)
        fmt = values.get("format") or imports.detect_format(filename, raw)
        if values["mode"] == "replace" and timetable_sync.user_has_courses(user=request.user):
            return _sync(request, raw, fmt, values)
        outcome = imports.timetable_import(user=request.user, data=raw, fmt=fmt, dry_run=values["dry_run"],
                                           fit=values["fit"], adopt=values["adopt"],
                                           accept_skips=values["accept_skips"])
        code = status.HTTP_200_OK if outcome.dry_run else status.HTTP_201_CREATED
        return Response(ImportOutcomeSerializer(outcome).data, status=code)


def _sync(request: AuthedRequest, raw: bytes, fmt: str, values: dict) -> Response:
    """A re-import: the diff (dry run), or the sync itself, refused when the timetable changed since ``expected``."""
    result = timetable_editor().timetable_sync(user=request.user, data=raw, fmt=fmt, dry_run=values["dry_run"],
                                               expected=values.get("expected"))
    assert result.plan is not None
    body = sync_body(result)
    code = status.HTTP_200_OK if result.dry_run or result.changeset_id is None else status.HTTP_201_CREATED
    return Response(SyncOutcomeSerializer(body).data, status=code)


def sync_body(result: TimetableEditResult) -> dict:
    plan = result.plan
    assert plan is not None
    return {**change_body(result), "mode": "sync", "digest": plan.digest, "courses": plan.courses,
            "unchanged": plan.unchanged, "conflicts": plan.conflict_messages,
            "meetings_added": plan.meetings_added, "meetings_removed": plan.meetings_removed}


def read_upload(values: dict) -> tuple[bytes, str]:
    """Return the file's bytes and name, refusing oversized uploads before reading them."""
    upload = values.get("file")
    if upload is None:
        return values["content"].encode("utf-8"), ""
    if upload.size > MAX_IMPORT_BYTES:
        raise ScheduleInputError(
            _("The file is %(size)s bytes; imports are limited to %(limit)s bytes.")
            % {"size": upload.size, "limit": MAX_IMPORT_BYTES},
            code="file_too_large", detail={"size": upload.size, "limit": MAX_IMPORT_BYTES})
    return upload.read(), upload.name or ""


class ExportView(APIView):
    """Download the whole schedule as an .ics file."""

    @extend_schema(responses={(200, "text/calendar"): OpenApiTypes.BINARY})
    def get(self, request: AuthedRequest) -> HttpResponse:
        response = HttpResponse(feeds.schedule_ics_build(user=request.user), content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="smartmate.ics"'
        return response


class FeedView(APIView):
    """The secret subscription address: show it, regenerate it (POST) or revoke it (DELETE)."""

    @extend_schema(responses=FeedOutputSerializer)
    def get(self, request: AuthedRequest) -> Response:
        return Response(_feed_body(request, feeds.calendar_feed_ensure(user=request.user)))

    @idempotent
    @extend_schema(request=None, responses=FeedOutputSerializer)
    def post(self, request: AuthedRequest) -> Response:
        return Response(_feed_body(request, feeds.calendar_feed_regenerate(user=request.user)))

    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest) -> Response:
        feeds.calendar_feed_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _feed_body(request: Request, feed) -> dict:
    url = request.build_absolute_uri(reverse("schedule:feed", kwargs={"token": feed.token}))
    return FeedOutputSerializer({"url": url, "created_at": feed.created_at,
                                 "last_fetched_at": feed.last_fetched_at}).data


class CalendarView(APIView):
    """Read or change the semester and the section-time template (``/me/calendar/``)."""

    @extend_schema(responses=CalendarOutputSerializer)
    def get(self, request: AuthedRequest) -> Response:
        return Response(CalendarOutputSerializer(selectors.calendar_settings_get(user=request.user)).data)

    @idempotent
    @extend_schema(request=CalendarInputSerializer, responses=CalendarOutputSerializer)
    def put(self, request: AuthedRequest) -> Response:
        data = CalendarInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "sections" in values:
            values["section_times"] = [[row["start"], row["end"]] for row in values.pop("sections")]
        if "later_sections" in values:
            values["later_sections"] = ([[row["start"], row["end"]] for row in values.pop("later_sections")],
                                        values.pop("later_sections_from"))
        try:
            updated = calendar.calendar_settings_update(user=request.user, **values)
        except DjangoValidationError as exc:
            if hasattr(exc, "message_dict"):
                raise serializers.ValidationError(exc.message_dict) from None
            raise serializers.ValidationError({"non_field_errors": exc.messages}) from None
        return Response(CalendarOutputSerializer(updated).data)
