"""A time budget for reading one timetable file, so a pathological file cannot hold a worker for long.

The importers call ``budget.spend()`` once per row (and per course when looking for clashes); past the
limit it raises ``ImportTooComplex``. The core reads no clock of its own: the caller passes one (the
service passes the thread's CPU time), and ``NO_LIMIT`` never raises.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass


class ImportTooComplex(Exception):
    """Reading the file spent more than its budget; nothing was written."""

    def __init__(self, limit_seconds: float) -> None:
        super().__init__(f"Reading the file took more than {limit_seconds:g} seconds.")
        self.limit_seconds = limit_seconds


@dataclass(frozen=True, slots=True)
class WorkBudget:
    """At most ``limit_seconds`` of ``clock`` time from ``started``."""

    limit_seconds: float
    clock: Callable[[], float]
    started: float

    @classmethod
    def start(cls, limit_seconds: float, clock: Callable[[], float]) -> WorkBudget:
        """Return a budget whose time starts now, as ``clock`` tells it."""
        return cls(limit_seconds, clock, clock())

    def spend(self) -> None:
        """Raise ImportTooComplex once more than the limit has passed since the start."""
        if self.clock() - self.started > self.limit_seconds:
            raise ImportTooComplex(self.limit_seconds)


NO_LIMIT = WorkBudget(math.inf, lambda: 0.0, 0.0)
