"""Reads over the outbox for metrics and the benchmark."""

from __future__ import annotations

from django.db.models import Count, Min
from django.utils import timezone

from smartmate.platform.models import OutboxEvent


def outbox_status_counts() -> dict[str, int]:
    """Return the number of events in every status (zero included)."""
    counts = dict.fromkeys(OutboxEvent.Status.values, 0)
    for row in OutboxEvent.objects.values("status").annotate(n=Count("pk")).order_by():
        counts[row["status"]] = row["n"]
    return counts


def outbox_oldest_unfinished_age() -> float:
    """Return the age in seconds of the oldest event not yet consumed or dead (0 when none)."""
    oldest = OutboxEvent.objects.filter(status__in=OutboxEvent.UNFINISHED).aggregate(at=Min("created_at"))["at"]
    return max(0.0, (timezone.now() - oldest).total_seconds()) if oldest else 0.0
