"""Prometheus metrics: what the process counts and how /metrics renders it.

Counters live in each process. With ``PROMETHEUS_MULTIPROC_DIR`` set (one empty folder shared by
the web server and the workers of a host), /metrics adds up every process's counters, so outbox
work done in workers shows up there; without it, /metrics shows the web process's own counters.
The outbox gauges are read from the database at scrape time and are right either way.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST

logger = logging.getLogger(__name__)

REGISTRY = CollectorRegistry(auto_describe=True)

HTTP_REQUESTS = Counter(
    "smartmate_http_requests_total",
    "HTTP requests handled, by method, route pattern and status code.",
    ["method", "route", "status"],
    registry=REGISTRY,
)
HTTP_LATENCY = Histogram(
    "smartmate_http_request_duration_seconds",
    "Time spent producing an HTTP response, by method and route pattern.",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)

CSP_REPORTS = Counter(
    "smartmate_csp_reports_total",
    "Content-Security-Policy violations reported by browsers, by directive.",
    ["directive"],
    registry=REGISTRY,
)


# --- Outbox --------------------------------------------------------------------------------------

OUTBOX_DISPATCHED = Counter("smartmate_outbox_dispatched_total", "Outbox events handed to Celery, by topic.",
                            ["topic"], registry=REGISTRY)
OUTBOX_CONSUMED = Counter("smartmate_outbox_consumed_total", "Outbox events consumed, by topic.",
                          ["topic"], registry=REGISTRY)
OUTBOX_RETRIED = Counter("smartmate_outbox_retried_total", "Outbox event attempts that failed and were "
                         "scheduled again, by topic.", ["topic"], registry=REGISTRY)
OUTBOX_DEAD = Counter("smartmate_outbox_dead_total", "Outbox events given up on (dead-lettered), by topic.",
                      ["topic"], registry=REGISTRY)
OUTBOX_RECLAIMED = Counter("smartmate_outbox_reclaimed_total", "Outbox events whose claim expired and were "
                           "freed by the sweeper, by topic.", ["topic"], registry=REGISTRY)


class OutboxCollector:
    """Gauges computed from the outbox table at scrape time, so they are true across processes."""

    def describe(self) -> list[Metric]:
        # Without this, registering would call collect() and query the database at import time.
        return [self._by_status(), self._oldest()]

    def collect(self) -> Iterator[Metric]:
        from smartmate.platform.outbox.selectors import outbox_oldest_unfinished_age, outbox_status_counts

        try:
            counts, oldest = outbox_status_counts(), outbox_oldest_unfinished_age()
        except Exception:  # a scrape must still answer when the database does not
            logger.warning("metrics: could not read the outbox", exc_info=True)
            return
        by_status = self._by_status()
        for status, count in sorted(counts.items()):
            by_status.add_metric([status], count)
        age = self._oldest()
        age.add_metric([], oldest)
        yield by_status
        yield age

    @staticmethod
    def _by_status() -> GaugeMetricFamily:
        return GaugeMetricFamily("smartmate_outbox_events", "Outbox events by status.", labels=["status"])

    @staticmethod
    def _oldest() -> GaugeMetricFamily:
        return GaugeMetricFamily("smartmate_outbox_oldest_unfinished_age_seconds",
                                 "Age of the oldest outbox event not yet consumed or dead.")


OUTBOX_COLLECTOR = OutboxCollector()
REGISTRY.register(OUTBOX_COLLECTOR)


def render_metrics() -> tuple[bytes, str]:
    """Return the exposition text and its content type."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        combined = CollectorRegistry()
        multiprocess.MultiProcessCollector(combined)  # type: ignore[no-untyped-call]  # untyped in prometheus_client
        combined.register(OUTBOX_COLLECTOR)
        return generate_latest(combined), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
