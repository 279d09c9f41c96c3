"""Prometheus metrics: what the process counts and how /metrics renders it."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

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


def render_metrics() -> tuple[bytes, str]:
    """Return the exposition text and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
