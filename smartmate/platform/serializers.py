"""Serializer building blocks every app's API uses: RFC 3339 datetimes in a sane range, and query parameters.

* ``RFC3339DateTimeField`` (and ``ModelSerializer``, which maps model datetimes to it): refuses datetimes
  outside 1970-2100 on input and never writes an offset with seconds on output. ``BoundedDateField``
  refuses dates outside the same years (a semester or a study plan in year 1 or 9999 turns into
  datetimes that overflow).
* ``query_validate(SerializerClass, request)``: validates a request's query parameters so that a present
  but empty value (``?type=``) is checked like any other value, never taken as "not sent".
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from django.db import models
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.request import Request

from smartmate.platform.dates import EARLIEST_YEAR, LATEST_YEAR

# The supported years (smartmate.platform.dates), as instants in UTC. The rare zone still off the
# minute after 1970 (Africa/Monrovia until 1972) is written in UTC on output.
EARLIEST_DATETIME = dt.datetime(EARLIEST_YEAR, 1, 1, tzinfo=dt.UTC)
LATEST_DATETIME = dt.datetime(LATEST_YEAR, 12, 31, 23, 59, 59, 999_999, tzinfo=dt.UTC)

EARLIEST_DATE = EARLIEST_DATETIME.date()
LATEST_DATE = LATEST_DATETIME.date()

# An ISO 8601 offset with seconds ("+08:05:43", "+08:05:43.5"), which RFC 3339 does not allow.
_OFFSET_WITH_SECONDS = re.compile(r"[+-]\d{2}:\d{2}:\d{2}(\.\d+)?$")


class RFC3339DateTimeField(serializers.DateTimeField):
    """A DateTimeField that accepts only 1970-2100 and always writes RFC 3339 (whole-minute offsets)."""

    default_error_messages = {
        "out_of_range": _("Use a date and time from {earliest} to {latest}."),
    }

    def to_internal_value(self, value: Any) -> dt.datetime:
        moment = super().to_internal_value(value)
        if not EARLIEST_DATETIME <= moment <= LATEST_DATETIME:
            self.fail("out_of_range", earliest=EARLIEST_DATETIME.year, latest=LATEST_DATETIME.year)
        return moment

    def to_representation(self, value: Any) -> str | None:  # type: ignore[override]  # DRF gives None for None
        text = super().to_representation(value)
        if isinstance(value, dt.datetime) and isinstance(text, str) and _OFFSET_WITH_SECONDS.search(text):
            # The student's zone had no whole-minute offset then (stored data older than the input
            # range): the same instant in UTC is exact and valid.
            return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
        return text


class BoundedDateField(serializers.DateField):
    """A DateField that accepts only dates from 1970 to 2100, the years RFC3339DateTimeField accepts."""

    default_error_messages = {
        "out_of_range": _("Use a date from {earliest} to {latest}."),
    }

    def to_internal_value(self, value: Any) -> dt.date:
        day = super().to_internal_value(value)
        if not EARLIEST_DATE <= day <= LATEST_DATE:
            self.fail("out_of_range", earliest=EARLIEST_DATE.year, latest=LATEST_DATE.year)
        return day


# DRF's ModelSerializer with the model's datetime columns rendered by RFC3339DateTimeField. (A comment,
# not a docstring: drf-spectacular would show an inherited docstring as every subclass's description.)
class ModelSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]  # generic in the stubs only
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.DateTimeField: RFC3339DateTimeField,
    }


def query_validate(serializer_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    """Validate the request's query parameters with ``serializer_class``; return the validated values.

    DRF reads a QueryDict like an HTML form, where an empty optional value means "not sent", so
    ``?type=`` would silently list every type. Here each parameter is a plain value: an empty one is
    refused like any invalid value (unless the field allows blanks), and one given twice is refused
    instead of the last one winning. Parameters the serializer does not know (``format``) are left alone.
    """
    serializer = serializer_class(data=_single_values(request.query_params, serializer_class().fields))
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _single_values(params: QueryDict, fields: Mapping[str, serializers.Field[Any, Any, Any, Any]]) -> dict[str, Any]:
    repeated = {name: [_("Give this parameter once.")] for name in params
                if name in fields and len(params.getlist(name)) > 1}
    if repeated:
        raise serializers.ValidationError(repeated)
    return {name: params[name] for name in params if name in fields}
