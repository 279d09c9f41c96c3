"""Run a tool's real write once per call id: a re-run after a crash returns the first answer."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from accounts.models import User
from smartmate.platform.models import IdempotencyRecord

KEEP_FOR = timedelta(days=7)


def call_once(*, user: User, call_id: str, name: str, args: Mapping[str, Any], now: datetime,
              write: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], bool]:
    """Return ``write()``'s JSON answer and False, or the stored answer and True when this call already ran."""
    key = f"tool:{call_id}"[:255]
    with transaction.atomic():
        stored = IdempotencyRecord.objects.select_for_update().filter(
            user=user, key=key, status=IdempotencyRecord.Status.DONE).first()
        if stored is not None:
            return dict(stored.response_body or {}), True
        body = write()
        fingerprint = hashlib.sha256(json.dumps(dict(args), sort_keys=True, default=str).encode()).hexdigest()
        IdempotencyRecord.objects.update_or_create(user=user, key=key, defaults={
            "fingerprint": fingerprint, "method": "TOOL", "path": name, "status": IdempotencyRecord.Status.DONE,
            "response_status": 200, "response_body": body, "locked_at": now, "expires_at": now + KEEP_FOR})
    return body, False
