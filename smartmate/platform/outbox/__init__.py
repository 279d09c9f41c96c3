"""The transactional outbox: publish in the caller's transaction, relay to Celery, consume once.

``services`` holds the flow (publish, dispatch, consume, sweep, re-drive), ``selectors`` the reads
for metrics, ``registry`` maps topics to consumers, ``backoff`` computes retry delays, ``probe`` is
the small real consumer used by the chaos test and the benchmark.
"""
