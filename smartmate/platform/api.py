"""API plumbing shared by every app: the exception handler and JSON error views."""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework_simplejwt.exceptions import InvalidToken, TokenError

from smartmate.platform.exceptions import AppError
from smartmate.platform.ratelimit import STORE_DOWN_ERRORS, CountersUnavailable, RateLimited

logger = logging.getLogger(__name__)


def error_body(code: str, message: str, detail: Any = None) -> dict[str, Any]:
    """Return the common error shape."""
    return {"code": code, "message": message, "detail": detail}


# How long a client should wait before retrying while the database is unavailable.
DATABASE_RETRY_AFTER = 5


def database_unavailable(exc: BaseException | None) -> bool:
    """Tell whether ``exc`` says the database cannot be reached (down, restarting, gone away), not a bug."""
    return isinstance(exc, (OperationalError, InterfaceError))


def dependency_unavailable(exc: BaseException | None) -> bool:
    """Tell whether ``exc`` says a service the request needs is briefly out of reach: the database, or the
    Redis of the cache and rate limits (also when the sign-in gate reads it directly). Either way the client
    should retry shortly; neither is a bug."""
    return database_unavailable(exc) or isinstance(exc, (CountersUnavailable, *STORE_DOWN_ERRORS))


def service_unavailable_body() -> dict[str, Any]:
    return error_body("service_unavailable", _("The service is briefly unavailable. Please try again in a few "
                                               "seconds."), {"retry_after": DATABASE_RETRY_AFTER})


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render every handled error as ``{code, message, detail}``; unknown errors stay 500s."""
    if dependency_unavailable(exc):  # a restart or blip: the client should retry, not report a bug
        logger.warning("A dependency is unavailable during %s", context.get("request") and context["request"].path,
                       exc_info=exc)
        return Response(service_unavailable_body(), status=503,
                        headers={"Retry-After": str(DATABASE_RETRY_AFTER)})
    if isinstance(exc, RateLimited):
        return Response(exc.as_dict(), status=exc.status, headers={"Retry-After": str(exc.retry_after)})
    if isinstance(exc, AppError):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(error_body("request_too_large", _("The request is too large: at most %(max)s bytes.")
                                   % {"max": limit}, {"max": limit}), status=413)
    if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
        return Response(error_body("too_many_fields", _("The request has too many fields or files.")), status=400)
    if isinstance(exc, TokenError):
        exc = InvalidToken(str(exc))
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    assert isinstance(exc, drf.APIException)  # the only kind DRF's handler answers (after the mapping above)
    response.data = _describe(exc)
    return response


def _describe(exc: drf.APIException) -> dict[str, Any]:
    if isinstance(exc, drf.ValidationError):
        return error_body("invalid", _("The input is not valid."), exc.detail)
    if isinstance(exc, drf.ParseError):
        return error_body("malformed_request", _("The request body could not be parsed."), str(exc.detail))
    if isinstance(exc, InvalidToken):
        return error_body("token_not_valid", _("The token is invalid or expired."), _token_detail(exc))
    if isinstance(exc, drf.Throttled):
        wait = int(exc.wait or 1)  # type: ignore[attr-defined]  # DRF sets it in __init__; the stubs omit it
        message = _("Too many requests. Try again in %(seconds)s seconds.") % {"seconds": wait}
        return error_body("throttled", message, {"retry_after": wait})
    if isinstance(exc, drf.NotAuthenticated):
        return error_body("not_authenticated", _("Authentication credentials were not provided."))
    if isinstance(exc, drf.AuthenticationFailed):
        return error_body("authentication_failed", str(exc.detail))
    if isinstance(exc, drf.NotFound):
        return error_body("not_found", _("Not found."))
    if isinstance(exc, drf.PermissionDenied):
        # Keep a specific reason (e.g. a missing CSRF token) for the client; drop the generic default.
        reason = str(exc.detail) if str(exc.detail) != str(drf.PermissionDenied.default_detail) else None
        return error_body("permission_denied", _("You do not have permission to do this."), reason)
    if isinstance(exc, drf.MethodNotAllowed):
        return error_body("method_not_allowed", str(exc.detail))
    if isinstance(exc, drf.UnsupportedMediaType):
        return error_body("unsupported_media_type", str(exc.detail))
    if isinstance(exc, drf.NotAcceptable):
        return error_body("not_acceptable", str(exc.detail))
    code = exc.default_code if isinstance(exc.default_code, str) else "error"
    return error_body(code, str(exc.detail))


def _token_detail(exc: InvalidToken) -> Any:
    detail = exc.detail
    if isinstance(detail, dict):
        messages = detail.get("messages")
        return {"reason": str(detail.get("detail", "")), "messages": [
            {key: str(value) for key, value in message.items()}  # type: ignore[union-attr]  # simplejwt: dicts
            for message in messages or []
        ]}
    return {"reason": str(detail)}


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


def not_found_view(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answer unknown routes: JSON under /api/, a page elsewhere."""
    if _wants_json(request):
        message = _("No route matches %(path)s.") % {"path": request.path}
        return JsonResponse(error_body("not_found", message), status=404)
    response = render(request, "404.html", status=404)
    response.friendly = True  # type: ignore[attr-defined]  # NotFoundErrorMiddleware leaves it as it is
    return response


def server_error_view(request: HttpRequest) -> HttpResponse:
    """Answer an unhandled error without leaking internals; an unreachable database or rate-limit store is a
    503, not a 500.

    Django calls this while handling the exception (also one raised by middleware, e.g. the session or
    the student's time zone reading the database), so ``sys.exc_info()`` names it.
    """
    if dependency_unavailable(sys.exc_info()[1]):
        return service_unavailable_view(request)
    if _wants_json(request):
        return JsonResponse(error_body("server_error", _("Something went wrong on our side.")), status=500)
    return render(request, "500.html", status=500)


def service_unavailable_view(request: HttpRequest) -> HttpResponse:
    """Answer while the database is unavailable: JSON 503 under /api/, a friendly page elsewhere; both say
    when to retry. The page uses no base template: that would read the session from the database."""
    if _wants_json(request):
        response: HttpResponse = JsonResponse(service_unavailable_body(), status=503)
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response
    # A person reloads more gently than a client retries: the page refreshes itself after this long.
    page_retry = DATABASE_RETRY_AFTER * 6
    response = render(request, "503.html", {"retry_after": page_retry}, status=503)
    response["Retry-After"] = str(page_retry)
    return response


def csrf_failure_view(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Answer a failed CSRF check in the common shape for API clients."""
    if _wants_json(request):
        return JsonResponse(error_body("csrf_failed", _("CSRF verification failed."), reason), status=403)
    return render(request, "403_csrf.html", {"reason": reason}, status=403)
