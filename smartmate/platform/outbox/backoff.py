"""Retry delays: exponential with full jitter on the upper half, capped."""

from __future__ import annotations

import random


def retry_delay(attempt: int, *, base: float, cap: float, rng: random.Random | None = None) -> float:
    """Return the seconds to wait after failed attempt number ``attempt`` (1-based).

    The ceiling doubles per attempt (base, 2·base, 4·base …, at most ``cap``); the delay is drawn
    uniformly from the upper half of it, so retries of events that failed together spread out
    while each still waits at least half the ceiling.
    """
    if attempt < 1:
        raise ValueError("attempt starts at 1")
    ceiling = min(cap, base * (2 ** (attempt - 1)))
    return (rng or random).uniform(ceiling / 2, ceiling)
