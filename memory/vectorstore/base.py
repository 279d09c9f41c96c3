"""The vector store interface every implementation honours (the contract suite runs them all)."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from smartmate.platform.exceptions import AppError

#: memory_type / status values are short identifiers; anything else is refused before it could
#: reach a Milvus filter expression.
_TAG = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


class VectorStoreError(AppError):
    """The vector store is unreachable or refused an operation; callers degrade to no recall."""

    code = "vector_store_unavailable"
    status = 503


class VectorStoreLockedError(VectorStoreError):
    """A Milvus Lite file is held by another process (one process per file)."""

    code = "vector_store_locked"


@dataclass(frozen=True)
class VectorRecord:
    """One memory's vector. ``id`` is the memory's primary key, unique across users."""

    id: int
    user_id: int
    vector: np.ndarray = field(compare=False, repr=False)
    memory_type: str = "fact"
    status: str = "active"


@dataclass(frozen=True)
class Hit:
    """A search result: the memory id and its cosine similarity to the query (higher is closer)."""

    id: int
    score: float


@runtime_checkable
class VectorStore(Protocol):
    """Per-user vector search over memories; every read and write is scoped to one user or id set."""

    dimensions: int

    def ensure_collection(self) -> None:
        """Create the collection and its index if missing; safe to call again."""

    def upsert(self, records: Sequence[VectorRecord]) -> None:
        """Insert or replace records by id, then make them searchable."""

    def delete(self, ids: Iterable[int]) -> None:
        """Remove the vectors of these memory ids; unknown ids are ignored."""

    def delete_user(self, user_id: int) -> None:
        """Remove every vector of one user ("forget everything")."""

    def search(
        self,
        user_id: int,
        vector: np.ndarray | Sequence[float],
        top_k: int = 10,
        *,
        memory_types: Collection[str] | None = None,
        statuses: Collection[str] | None = None,
    ) -> list[Hit]:
        """Return this user's nearest vectors, best first (ties by id); never another user's."""

    def count(self, user_id: int) -> int:
        """Return how many vectors this user has."""

    def flush(self) -> None:
        """Make pending writes searchable at full speed."""

    def close(self) -> None:
        """Release the connection (and a Milvus Lite file lock); the store reopens on next use."""


def as_vector(vector: np.ndarray | Sequence[float], dimensions: int) -> np.ndarray:
    """Return ``vector`` as a 1-d float32 array of the store's dimension, or raise ValueError."""
    array = np.asarray(vector, dtype=np.float32)
    if array.ndim != 1 or array.shape[0] != dimensions:
        raise ValueError(f"expected a vector of {dimensions} floats; got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError("vector contains NaN or infinity")
    if not np.any(array):
        raise ValueError("vector is all zeros: it has no direction to compare")
    return array


def check_tags(values: Collection[str] | None, what: str) -> list[str] | None:
    """Validate a memory_type / status filter (or a record's value); None means no filter."""
    if values is None:
        return None
    if isinstance(values, str):
        raise TypeError(f"{what} must be a collection of strings, not one string")
    tags = sorted(set(values))
    for tag in tags:
        if not _TAG.match(tag):
            raise ValueError(f"invalid {what} value {tag!r}: use lowercase letters, digits and _")
    return tags


def check_top_k(top_k: int) -> int:
    if not isinstance(top_k, int) or top_k < 1:
        raise ValueError(f"top_k must be a positive integer; got {top_k!r}")
    return top_k


def sort_hits(hits: Iterable[Hit]) -> list[Hit]:
    """Best first; equal scores by id, so every implementation orders ties the same way."""
    return sorted(hits, key=lambda hit: (-hit.score, hit.id))
