"""Pure memory logic: similarity scales, duplicate detection and recall ranking.

Nothing here imports Django, DRF, Channels or Celery (STYLE.md §2; a test enforces it). Inputs
and outputs are frozen dataclasses, the current time is passed in, outputs are deterministically
ordered. The Django side adapts ``MemoryItem`` rows to these types in services.
"""
