"""Input and output shapes of the reminders API. Fields are listed explicitly."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


@extend_schema_field({"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$", "example": "09:00"})
class ClockField(serializers.TimeField):
    """A wall-clock time as "HH:MM" both ways (the student's own time zone)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(format="%H:%M", input_formats=["%H:%M"], **kwargs)


class ReminderOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    text = serializers.CharField()
    link = serializers.CharField()
    created_at = serializers.CharField()
    read = serializers.BooleanField()
    silent = serializers.BooleanField()


class ReminderListOutputSerializer(serializers.Serializer):
    unread_count = serializers.IntegerField()
    reminders = ReminderOutputSerializer(many=True)


class ReminderSettingsSerializer(serializers.Serializer):
    """Both directions: every field optional on input (a partial change); lead times are checked by the service
    so an out-of-range value gets its own code (``lead_time_out_of_range``)."""

    blocks_enabled = serializers.BooleanField(required=False)
    block_lead_minutes = serializers.IntegerField(required=False, min_value=-100000, max_value=100000)
    deadlines_enabled = serializers.BooleanField(required=False)
    deadline_time = ClockField(required=False)
    courses_enabled = serializers.BooleanField(required=False)
    course_lead_minutes = serializers.IntegerField(required=False, min_value=-100000, max_value=100000)
    quiet_start = ClockField(required=False, allow_null=True)
    quiet_end = ClockField(required=False, allow_null=True)
