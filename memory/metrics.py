"""Memory counters, registered on the project's Prometheus registry (``smartmate.platform.metrics``)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

from smartmate.platform.metrics import REGISTRY

RECALL = Counter("smartmate_memory_recall_total", "Memory recalls for a turn, by outcome "
                 "(hit, empty, cached, disabled, timeout, error, vector_error).", ["outcome"], registry=REGISTRY)
RECALL_LATENCY = Histogram("smartmate_memory_recall_seconds", "Time to build a turn's memory block.",
                           buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0), registry=REGISTRY)
INJECTED = Counter("smartmate_memory_injected_total", "Memories put into prompts.", registry=REGISTRY)
JOBS = Counter("smartmate_memory_jobs_total", "Memory jobs finished, by outcome "
               "(succeeded, skipped, failed, dead, reclaimed).", ["outcome"], registry=REGISTRY)
DECISIONS = Counter("smartmate_memory_decisions_total", "Write decisions applied, by action "
                    "(add, update, invalidate, none, duplicate, unknown_alias).", ["action"], registry=REGISTRY)
VECTOR_SYNC = Counter("smartmate_memory_vector_sync_total", "Vector syncs of memories, by outcome.",
                      ["outcome"], registry=REGISTRY)
REFUSALS = Counter("smartmate_memory_refusals_total", "Memory writes refused by the write gate, by rule, category "
                   "and source (extraction, added, edited); never with the refused text.",
                   ["rule", "category", "source"], registry=REGISTRY)
