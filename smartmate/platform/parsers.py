"""Request parsers for the API."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.settings import api_settings

from smartmate.platform.exceptions import MalformedJSONError
from smartmate.platform.safe_json import JSONTooDeep, json_loads_bounded


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with a bound on nesting: too deep is a 400 ``malformed_json`` before any work."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding)
            return json_loads_bounded(text, parse_constant=_refuse_constant if api_settings.STRICT_JSON else None)
        except JSONTooDeep as exc:
            raise malformed_json_error(exc) from None
        except ValueError as exc:  # also UnicodeDecodeError
            raise ParseError(f"JSON parse error - {exc}") from None


def malformed_json_error(exc: JSONTooDeep) -> MalformedJSONError:
    return MalformedJSONError(_("The JSON nests too deeply: at most %(max)s levels.") % {"max": exc.max_depth},
                              detail={"max_depth": exc.max_depth})


def _refuse_constant(name: str) -> None:
    # NaN and Infinity are not JSON; DRF's strict mode refuses them the same way.
    raise ValueError(f"Out of range float value {name!r}")
