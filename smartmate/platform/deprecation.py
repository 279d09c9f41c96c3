"""Renamed API routes keep answering: a deprecated alias of a view, for a deprecation period.

``deprecated_alias(View, old="plans/", new="previews/")`` returns a subclass of the view that answers
exactly as it does (the same code, the same errors) and adds to every response the ``Deprecation:
true`` header and ``Link: <successor>; rel="successor-version"`` (the same request at the new path);
the OpenAPI schema marks its operations deprecated. Register it at the old path beside the new one.
"""

from __future__ import annotations

from typing import Any, TypeVar

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

View = TypeVar("View", bound=type[APIView])


def deprecated_alias(view: View, *, old: str, new: str) -> View:
    """A subclass of ``view`` for the old path segment ``old`` (e.g. ``"/plans/"``), whose successor
    is the same path with ``new`` in its place."""

    class Alias(view):  # type: ignore[misc,valid-type]
        def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
            response = super().finalize_response(request, response, *args, **kwargs)
            response["Deprecation"] = "true"
            response["Link"] = f'<{request.path.replace(old, new, 1)}>; rel="successor-version"'
            return response

    Alias.__name__ = Alias.__qualname__ = f"Deprecated{view.__name__}"
    Alias.__doc__ = f"Deprecated: the old path of this route; use the one with {new!r}. {view.__doc__ or ''}".strip()
    return extend_schema(deprecated=True)(Alias)  # type: ignore[return-value]
