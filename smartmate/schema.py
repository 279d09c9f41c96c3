"""OpenAPI: descriptions of the project's own authentication classes, and the 429 every operation may answer."""

import copy

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.contrib.rest_framework_simplejwt import SimpleJWTScheme


class JWTInUserZoneScheme(SimpleJWTScheme):
    target_class = "smartmate.platform.authentication.JWTAuthenticationInUserZone"


class SessionInUserZoneScheme(SessionScheme):
    target_class = "smartmate.platform.authentication.SessionAuthenticationInUserZone"


# Every error the API answers has this shape (smartmate.platform.api.error_body).
ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "description": "Stable machine-readable code, e.g. rate_limited."},
        "message": {"type": "string", "description": "What went wrong, in the request's language."},
        "detail": {"description": "Structured detail (any JSON value, or null), e.g. retry_after for a 429."},
    },
    "required": ["code", "message", "detail"],
}

TOO_MANY_REQUESTS = {
    "description": "Too many requests: a rate limit (per student or per address: sign-in, registration, "
                   "planning, imports, quick notes) or the weekly token quota. Retry after Retry-After seconds.",
    "headers": {
        "Retry-After": {"description": "Seconds to wait before trying again.",
                        "schema": {"type": "integer", "minimum": 0}},
    },
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}

HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def add_too_many_requests(result: dict, generator: object, request: object, public: bool) -> dict:
    """drf-spectacular postprocessing hook: document the 429 answer on every operation.

    Every operation, not a chosen few: limits sit in views, the sign-in gate and the quota, and more
    are added over time; a client must be ready for a 429 anywhere, and the schema says so.
    """
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method in HTTP_METHODS:
                operation.setdefault("responses", {}).setdefault("429", copy.deepcopy(TOO_MANY_REQUESTS))
    return result
