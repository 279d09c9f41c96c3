"""Idempotency keys for DRF write endpoints: ``@idempotent`` on a view method.

A client that may retry a write sends ``X-Idempotency-Key: <its own unique key>``. The first answer
is stored for ``IDEMPOTENCY_TTL_HOURS`` (24) and replayed, with ``Idempotent-Replayed: true``, to any
retry with the same key and the same request. Without the header the request runs as usual.

* Keys are per user; 1-255 characters, else 400 ``idempotency_key_invalid``.
* Same key, different request (method, path with query, canonical body) → 422
  ``idempotency_key_mismatch``.
* Same key while the first request is still running → 409 ``idempotency_key_in_progress``; a run
  older than ``IDEMPOTENCY_LOCK_TIMEOUT`` (60 s) is taken as abandoned and runs again.
* Stored: 2xx, 3xx and 4xx answers, except 409 and 429 (they describe a passing state: a slot
  taken, a rate limit), which are not kept, so a retry runs again. 5xx answers and unhandled
  errors are not kept either. Authentication, permission and throttle failures happen before the
  view and never touch the key.
* ``@idempotent(store_errors=False)`` keeps only the 2xx and 3xx answers: for an endpoint whose refusals
  are large or cheap to repeat (a rejected timetable import lists its problems), a 4xx frees the key
  instead of storing the refusal for 24 hours.
* The record is written before the view runs and completed after it. A crash in between leaves
  it in progress until the lock timeout; the retry then runs the write again.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.http import QueryDict
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from smartmate.platform.caps import cap_check
from smartmate.platform.exceptions import AppError, ConflictError
from smartmate.platform.models import IdempotencyRecord

HEADER = "X-Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
NOT_STORED = {409, 429}


class IdempotencyKeyInvalid(AppError):
    code = "idempotency_key_invalid"
    status = 400


class IdempotencyKeyMismatch(AppError):
    code = "idempotency_key_mismatch"
    status = 422


class IdempotencyKeyInProgress(ConflictError):
    code = "idempotency_key_in_progress"


@dataclass(frozen=True)
class Begun:
    """The outcome of presenting a key: run the view under ``record``, or replay ``record``."""

    record: IdempotencyRecord
    replay: bool


def idempotent(view_method: Callable[..., Any] | None = None, *, store_errors: bool = True) -> Any:
    """Make an APIView write method honour ``X-Idempotency-Key`` (see the module docstring).

    Use as ``@idempotent``, or ``@idempotent(store_errors=False)`` to keep no 4xx answer.
    """
    if view_method is None:
        return functools.partial(idempotent, store_errors=store_errors)

    @functools.wraps(view_method)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER)
        if key is None or not request.user.is_authenticated:
            return view_method(view, request, *args, **kwargs)
        try:
            fingerprint = request_fingerprint(request)
        except ParseError:
            return view_method(view, request, *args, **kwargs)  # the view answers 400; nothing to keep
        begun = idempotency_begin(user=request.user, key=key, fingerprint=fingerprint,
                                  method=request.method or "", path=request.get_full_path())
        if begun.replay:
            return _replay(begun.record)
        try:
            response = view_method(view, request, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - rendered here so a 4xx answer can be kept
            try:
                response = view.handle_exception(exc)
            except Exception:
                idempotency_abandon(record=begun.record)
                raise
        idempotency_finish(record=begun.record, response=response, store_errors=store_errors)
        return response

    # functools.wraps shares the schema kwargs dict; give the wrapper its own before extending it.
    wrapper.kwargs = dict(getattr(view_method, "kwargs", {}))  # type: ignore[attr-defined]
    return extend_schema(parameters=[OpenApiParameter(
        HEADER, str, OpenApiParameter.HEADER, required=False,
        description="Optional client key (1-255 characters) that makes a retry of this write safe: the first "
                    + ("answer" if store_errors else "successful answer (refusals are not kept)")
                    + " is replayed for 24 hours with Idempotent-Replayed: true.")])(wrapper)


def request_fingerprint(request: Request) -> str:
    """Hash the method, the full path and a canonical form of the parsed body (files by content)."""
    body = json.dumps(_canonical(request.data), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      cls=JSONEncoder)
    raw = f"{request.method}\n{request.get_full_path()}\n{body}"
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def _canonical(value: Any) -> Any:
    if isinstance(value, QueryDict):
        return {key: [_canonical(item) for item in value.getlist(key)] for key in sorted(value)}
    if isinstance(value, UploadedFile):
        digest = hashlib.sha256()
        for chunk in value.chunks():
            digest.update(chunk)
        value.seek(0)
        return {"file": value.name, "sha256": digest.hexdigest()}
    if isinstance(value, dict):
        return {str(key): _canonical(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical(item) for item in value]
    return value


def idempotency_begin(*, user: Any, key: str, fingerprint: str, method: str, path: str) -> Begun:
    """Take the key for this request, or find the stored answer to replay.

    Raises IdempotencyKeyInvalid, IdempotencyKeyMismatch or IdempotencyKeyInProgress.
    """
    if not key or len(key) > MAX_KEY_LENGTH:
        raise IdempotencyKeyInvalid(
            _("The X-Idempotency-Key header must be 1 to %(max)s characters long.") % {"max": MAX_KEY_LENGTH},
            detail={"length": len(key), "max": MAX_KEY_LENGTH})
    record: IdempotencyRecord | None
    for _attempt in range(3):  # lost races with a concurrent request end in one of the outcomes below
        now = timezone.now()
        try:
            with transaction.atomic():
                cap_check("idempotency_keys", IdempotencyRecord.objects.filter(user=user, expires_at__gt=now))
                record = IdempotencyRecord.objects.create(
                    user=user, key=key, fingerprint=fingerprint, method=method, path=path[:1000], locked_at=now,
                    expires_at=now + timedelta(hours=settings.IDEMPOTENCY_TTL_HOURS))
            return Begun(record=record, replay=False)
        except IntegrityError:
            pass
        record = IdempotencyRecord.objects.filter(user=user, key=key).first()
        if record is None:
            continue  # deleted meanwhile (expired and cleaned up): try to create it again
        if record.expires_at <= now:
            IdempotencyRecord.objects.filter(pk=record.pk, expires_at__lte=now).delete()
            continue
        if record.fingerprint != fingerprint:
            raise IdempotencyKeyMismatch(
                _("This idempotency key was already used for a different request."),
                detail={"method": record.method, "path": record.path})
        if record.status == IdempotencyRecord.Status.DONE:
            return Begun(record=record, replay=True)
        abandoned_before = now - timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT)
        if record.locked_at > abandoned_before:
            raise IdempotencyKeyInProgress(
                _("A request with this idempotency key is still being processed. Retry later."),
                detail={"retry_after": settings.IDEMPOTENCY_LOCK_TIMEOUT})
        taken = IdempotencyRecord.objects.filter(pk=record.pk, status=IdempotencyRecord.Status.IN_PROGRESS,
                                                 locked_at=record.locked_at).update(locked_at=now)
        if taken:
            record.locked_at = now
            return Begun(record=record, replay=False)
    raise IdempotencyKeyInProgress(
        _("A request with this idempotency key is still being processed. Retry later."),
        detail={"retry_after": settings.IDEMPOTENCY_LOCK_TIMEOUT})


def idempotency_finish(*, record: IdempotencyRecord, response: Any, store_errors: bool = True) -> None:
    """Keep the answer for replay, or free the key when the answer is not to be kept."""
    if not _worth_storing(response, store_errors=store_errors):
        idempotency_abandon(record=record)
        return
    body = json.loads(json.dumps(response.data, cls=JSONEncoder))
    IdempotencyRecord.objects.filter(pk=record.pk, locked_at=record.locked_at).update(
        status=IdempotencyRecord.Status.DONE, response_status=response.status_code, response_body=body)


def _worth_storing(response: Any, *, store_errors: bool) -> bool:
    if not isinstance(response, Response) or response.status_code >= 500 or response.status_code in NOT_STORED:
        return False
    return store_errors or response.status_code < 400


def idempotency_abandon(*, record: IdempotencyRecord) -> None:
    """Free the key so a retry runs the request again."""
    IdempotencyRecord.objects.filter(pk=record.pk, status=IdempotencyRecord.Status.IN_PROGRESS,
                                     locked_at=record.locked_at).delete()


def _replay(record: IdempotencyRecord) -> Response:
    return Response(record.response_body, status=record.response_status, headers={REPLAYED_HEADER: "true"})
