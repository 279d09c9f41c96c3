"""Where a piece of text survives in memory's stores: rows, audit entries, vectors, cached blocks.

Used by the tests of forgetting and by the evaluation's leak and forget checks. Vectors hold no
text, so a vector counts as a trace when its memory is gone (forgotten, yet still searchable) or
when its memory's text contains the words.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterable

import numpy as np
from django.core.cache import cache

from memory.core.dedup import normalize_text
from memory.models import MemoryAudit, MemoryItem
from memory.vectorstore import VectorStore


def memory_traces(*, user, words: Iterable[str], store: VectorStore) -> list[str]:
    """Return where any of ``words`` (normalized) is still kept for this student; [] when nowhere."""
    wanted = [normalize_text(word) for word in words if normalize_text(word)]
    found = [f"row {pk}" for pk, text in MemoryItem.objects.filter(user=user).values_list("pk", "content")
             if _contains(text, wanted)]
    for entry in MemoryAudit.objects.filter(user=user):
        text = json.dumps([entry.reason, entry.before, entry.after], ensure_ascii=False)
        if _contains(text, wanted):
            found.append(f"audit {entry.pk} ({entry.operation})")
    found += [f"vector {pk}" for pk in stray_vectors(user=user, store=store, words=wanted)]
    found += [f"cache {key}" for key, text in cached_texts() if _contains(text, wanted)]
    return found


def vector_ids(*, user, store: VectorStore) -> list[int]:
    """Every memory id the store holds a vector for, for this student."""
    total = store.count(user.pk)
    if not total:
        return []
    probe = np.ones(store.dimensions, dtype=np.float32)
    return sorted(hit.id for hit in store.search(user.pk, probe, top_k=total))


def stray_vectors(*, user, store: VectorStore, words: list[str]) -> list[int]:
    """Vector ids whose memory is gone, or whose memory's text contains ``words``."""
    ids = vector_ids(user=user, store=store)
    rows = dict(MemoryItem.objects.filter(user=user, pk__in=ids).values_list("pk", "content"))
    return [pk for pk in ids if pk not in rows or _contains(rows[pk], words)]


def cached_texts() -> list[tuple[str, str]]:
    """Every (key, value as text) in the default cache: the local-memory dict, or a Redis scan."""
    backend = cache._cache  # type: ignore[attr-defined]
    if isinstance(backend, dict):
        return [(str(key), repr(pickle.loads(value))) for key, value in backend.items()]
    client = backend.get_client()
    return [(str(key), repr(backend._serializer.loads(client.get(key)))) for key in client.scan_iter("*")]


def _contains(text: str, words: list[str]) -> bool:
    normalized = normalize_text(text)
    return any(word in normalized for word in words)
