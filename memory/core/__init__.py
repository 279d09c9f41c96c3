"""Pure memory logic: similarity scales, duplicate detection and recall ranking.

Nothing here imports Django, DRF, Channels or Celery (smartmate/tests/test_core_purity.py enforces
it), so it is tested without a database. Inputs and outputs are frozen dataclasses, the current
time is passed in, outputs are deterministically ordered. The Django side adapts ``MemoryItem``
rows to these types in services.
"""
