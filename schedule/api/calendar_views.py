"""School calendar API (``/api/v1/calendar/...``): the "follow the school calendar" switch, holidays,
make-up days (调休) and exam weeks, an .ics of holidays, and the national arrangements that ship.

Every write is all or nothing, accepts ``X-Idempotency-Key``, and answers a refusal as
``{code, message, detail}``; another student's day is a 404.
"""

from __future__ import annotations

from datetime import date

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from schedule import selectors
from schedule.calendar_labels import day_notes
from schedule.core.academic_calendar import week_range
from schedule.core.holiday_ics import MAX_ICS_BYTES
from schedule.exceptions import ScheduleInputError
from schedule.models import CalendarDay
from schedule.services import academic_calendar as service
from smartmate.platform.idempotency import idempotent
from smartmate.platform.parsers import BoundedJSONParser

KIND_HELP = "holiday | makeup | exam"


class CalendarDayOutputSerializer(serializers.ModelSerializer):
    # A plain string in the schema: "kind" names other choice sets too (events, change sets).
    kind = serializers.CharField(help_text=KIND_HELP)
    origin = serializers.CharField(help_text="manual | national | ics")

    class Meta:
        model = CalendarDay
        fields = ["id", "kind", "name", "first_date", "last_date", "runs_week", "runs_day", "origin"]


class DayNoteSerializer(serializers.Serializer):
    date = serializers.DateField()
    kind = serializers.CharField()
    short = serializers.CharField()
    long = serializers.CharField()


class SchoolCalendarOutputSerializer(serializers.Serializer):
    follows_school_calendar = serializers.BooleanField()
    days = CalendarDayOutputSerializer(many=True)
    # Each date the calendar changes, with its labels (empty while the switch is off).
    notes = DayNoteSerializer(many=True)
    national_years = serializers.ListField(child=serializers.IntegerField())


class SwitchInputSerializer(serializers.Serializer):
    follows_school_calendar = serializers.BooleanField()


class DayInputSerializer(serializers.Serializer):
    """A holiday or exam range (``first_date``..``last_date``; exams also by ``first_week``..``last_week``),
    or a make-up day (``first_date`` running week ``runs_week``, weekday ``runs_day``, or one line of the
    school's ``notice``: "12-13 补 12-11 的课")."""

    kind = serializers.CharField(help_text=KIND_HELP)
    name = serializers.CharField(max_length=60, allow_blank=True)
    first_date = serializers.DateField(required=False)
    last_date = serializers.DateField(required=False)
    first_week = serializers.IntegerField(required=False, min_value=1, max_value=30)
    last_week = serializers.IntegerField(required=False, min_value=1, max_value=30)
    runs_week = serializers.IntegerField(required=False, min_value=1, max_value=30)
    runs_day = serializers.IntegerField(required=False, min_value=1, max_value=7)
    notice = serializers.CharField(required=False, max_length=200, allow_blank=True,
                                   help_text="A make-up day as the school announces it, e.g. 12-13 补 12-11 的课 or "
                                             "12月11日（周五）的课调到12月13日（周日）上; instead of the dates and runs_*.")

    def validate_kind(self, value: str) -> str:
        if value not in CalendarDay.Kind.values:
            raise serializers.ValidationError(_("Choose holiday, makeup or exam."))
        return value

    def validate(self, attrs: dict) -> dict:
        if attrs["kind"] == CalendarDay.Kind.MAKEUP and (attrs.get("notice") or "").strip():
            return attrs
        if attrs.get("first_date") is None and attrs.get("first_week") is None:
            raise serializers.ValidationError({"first_date": _("Give the first day.")})
        if attrs["kind"] == CalendarDay.Kind.MAKEUP and (attrs.get("runs_week") is None or
                                                         attrs.get("runs_day") is None):
            raise serializers.ValidationError({"runs_week": _("Say which week and weekday the make-up day runs.")})
        return attrs


class ImportOutputSerializer(serializers.Serializer):
    days = CalendarDayOutputSerializer(many=True)
    workdays = serializers.ListField(child=serializers.CharField())
    outside_semester = serializers.IntegerField()


class IcsInputSerializer(serializers.Serializer):
    file = serializers.FileField()


class NationalInputSerializer(serializers.Serializer):
    year = serializers.IntegerField(min_value=1900, max_value=2200)


def day_input(user, values: dict) -> service.DayInput:
    """The client's day as the service takes it; exam weeks given by number become dates, a notice is read."""
    if values["kind"] == CalendarDay.Kind.MAKEUP and (values.get("notice") or "").strip():
        return service.makeup_from_notice(user=user, text=values["notice"], name=values["name"])
    first, last = values.get("first_date"), values.get("last_date")
    if first is None:
        semester, _template = selectors.time_frame_get(user=user)
        first_week = values["first_week"]
        last_week = values.get("last_week", first_week)
        if not 1 <= first_week <= last_week <= semester.weeks:
            raise ScheduleInputError(_("Weeks %(first)s-%(last)s are not inside the semester (weeks 1..%(weeks)s).")
                                     % {"first": first_week, "last": last_week, "weeks": semester.weeks},
                                     code="weeks_outside_semester",
                                     detail={"first_week": first_week, "last_week": last_week,
                                             "weeks": semester.weeks})
        first, last = week_range(semester, first_week, last_week)
    assert isinstance(first, date)
    return service.DayInput(values["kind"], values["name"], first, last or first, values.get("runs_week"),
                            values.get("runs_day"))


def calendar_payload(user) -> dict:
    calendar = selectors.calendar_settings_get(user=user)
    resolved = selectors.school_calendar_get(user=user, calendar=calendar)
    notes = [{"date": on, "kind": note.kind, "short": note.short, "long": note.long}
             for on, day in sorted(resolved.days.items()) for note in day_notes(day)]
    return {"follows_school_calendar": calendar.follows_school_calendar,
            "days": selectors.calendar_days_list(user=user), "notes": notes,
            "national_years": service.national_years()}


class SchoolCalendarView(APIView):
    """The school calendar: read it, or switch following it on or off (``PUT``)."""

    @extend_schema(responses=SchoolCalendarOutputSerializer)
    def get(self, request: AuthedRequest) -> Response:
        return Response(SchoolCalendarOutputSerializer(calendar_payload(request.user)).data)

    @idempotent
    @extend_schema(request=SwitchInputSerializer, responses=SchoolCalendarOutputSerializer)
    def put(self, request: AuthedRequest) -> Response:
        data = SwitchInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        service.school_calendar_switch(user=request.user, follows=data.validated_data["follows_school_calendar"])
        return Response(SchoolCalendarOutputSerializer(calendar_payload(request.user)).data)


class CalendarDayListView(APIView):
    """Add a holiday, a make-up day or an exam week (a day already there is returned, not doubled)."""

    parser_classes = [BoundedJSONParser, FormParser]

    @idempotent
    @extend_schema(request=DayInputSerializer, responses={201: CalendarDayOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        data = DayInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        day = service.calendar_day_create(user=request.user, day=day_input(request.user, data.validated_data))
        return Response(CalendarDayOutputSerializer(day).data, status=status.HTTP_201_CREATED)


class CalendarDayDetailView(APIView):
    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest, day_id: int) -> Response:
        service.calendar_day_delete(user=request.user, day_id=day_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CalendarIcsImportView(APIView):
    """Import the holidays of an .ics file (all-day events): all or nothing."""

    parser_classes = [MultiPartParser, FormParser]

    @idempotent(store_errors=False)
    @extend_schema(request={"multipart/form-data": IcsInputSerializer}, responses={201: ImportOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        data = IcsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data["file"]
        if upload.size > MAX_ICS_BYTES:
            raise ScheduleInputError(_("The file is too large for a holiday calendar."), code="file_too_large",
                                     detail={"size": upload.size, "limit": MAX_ICS_BYTES})
        outcome = service.calendar_ics_import(user=request.user, data=upload.read())
        return Response(ImportOutputSerializer(outcome).data, status=status.HTTP_201_CREATED)


class CalendarNationalView(APIView):
    """Load the national holidays of a shipped year that fall in the student's semester (idempotent)."""

    @idempotent
    @extend_schema(request=NationalInputSerializer, responses={201: ImportOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        data = NationalInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        outcome = service.national_holidays_load(user=request.user, year=data.validated_data["year"])
        return Response(ImportOutputSerializer(outcome).data, status=status.HTTP_201_CREATED)
