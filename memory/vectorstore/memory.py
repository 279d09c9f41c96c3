"""Brute-force numpy vector store: for tests, and a fallback when Milvus is not wanted."""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from memory.vectorstore.base import (
    Hit,
    VectorRecord,
    as_vector,
    check_tags,
    check_top_k,
    sort_hits,
)


@dataclass
class _UserIndex:
    """One user's rows as arrays, rebuilt lazily after a write."""

    ids: np.ndarray
    matrix: np.ndarray
    types: np.ndarray
    statuses: np.ndarray


class InMemoryVectorStore:
    """Exact cosine search over unit vectors held in this process; thread-safe."""

    def __init__(self, dimensions: int = 384) -> None:
        self.dimensions = dimensions
        self._lock = threading.RLock()
        self._rows: dict[int, VectorRecord] = {}
        self._by_user: dict[int, set[int]] = {}
        self._indexes: dict[int, _UserIndex] = {}

    def ensure_collection(self) -> None:
        return None

    def upsert(self, records: Sequence[VectorRecord]) -> None:
        prepared = [self._prepare(record) for record in records]
        with self._lock:
            for record in prepared:
                old = self._rows.get(record.id)
                if old is not None:
                    self._by_user[old.user_id].discard(record.id)
                    self._indexes.pop(old.user_id, None)
                self._rows[record.id] = record
                self._by_user.setdefault(record.user_id, set()).add(record.id)
                self._indexes.pop(record.user_id, None)

    def delete(self, ids: Iterable[int]) -> None:
        with self._lock:
            for memory_id in {int(i) for i in ids}:
                old = self._rows.pop(memory_id, None)
                if old is not None:
                    self._by_user[old.user_id].discard(memory_id)
                    self._indexes.pop(old.user_id, None)

    def delete_user(self, user_id: int) -> None:
        with self._lock:
            for memory_id in self._by_user.pop(int(user_id), set()):
                self._rows.pop(memory_id, None)
            self._indexes.pop(int(user_id), None)

    def search(
        self,
        user_id: int,
        vector: np.ndarray | Sequence[float],
        top_k: int = 10,
        *,
        memory_types: Collection[str] | None = None,
        statuses: Collection[str] | None = None,
    ) -> list[Hit]:
        query = _unit(as_vector(vector, self.dimensions))
        check_top_k(top_k)
        types, wanted_statuses = check_tags(memory_types, "memory_type"), check_tags(statuses, "status")
        index = self._index(int(user_id))
        if index is None:
            return []
        mask = np.ones(len(index.ids), dtype=bool)
        if types is not None:
            mask &= np.isin(index.types, types)
        if wanted_statuses is not None:
            mask &= np.isin(index.statuses, wanted_statuses)
        ids, scores = index.ids[mask], index.matrix[mask] @ query
        if len(ids) > top_k:
            # Partition a little wider than top_k so ties at the cut are settled by id below.
            keep = np.argpartition(-scores, top_k - 1)[:top_k]
            cutoff = scores[keep].min()
            keep = np.flatnonzero(scores >= cutoff)
            ids, scores = ids[keep], scores[keep]
        return sort_hits(Hit(int(i), float(s)) for i, s in zip(ids, scores))[:top_k]

    def count(self, user_id: int) -> int:
        with self._lock:
            return len(self._by_user.get(int(user_id), ()))

    def flush(self) -> None:
        return None

    def close(self) -> None:
        return None

    def _prepare(self, record: VectorRecord) -> VectorRecord:
        check_tags([record.memory_type], "memory_type")
        check_tags([record.status], "status")
        vector = _unit(as_vector(record.vector, self.dimensions))
        return VectorRecord(int(record.id), int(record.user_id), vector, record.memory_type, record.status)

    def _index(self, user_id: int) -> _UserIndex | None:
        with self._lock:
            index = self._indexes.get(user_id)
            if index is not None:
                return index
            ids = sorted(self._by_user.get(user_id, ()))
            if not ids:
                return None
            rows = [self._rows[i] for i in ids]
            index = _UserIndex(
                ids=np.array(ids, dtype=np.int64),
                matrix=np.stack([row.vector for row in rows]),
                types=np.array([row.memory_type for row in rows]),
                statuses=np.array([row.status for row in rows]),
            )
            self._indexes[user_id] = index
            return index


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector
