"""The one getter for the process's vector store, built from settings on first use."""

from __future__ import annotations

import os
import threading

from memory.vectorstore.base import VectorStore

#: ``MILVUS_URI`` values that select the in-process store (no Milvus at all).
IN_MEMORY_URIS = frozenset({"memory", "memory:", "memory://"})

_lock = threading.Lock()
_store: VectorStore | None = None
_owner_pid: int | None = None
_override: VectorStore | None = None


def get_vector_store() -> VectorStore:
    """Return this process's vector store, building it from settings on first use.

    Built per process: a child forked after the parent opened Milvus Lite must not reuse the
    parent's embedded server (it works only while the parent lives, and gRPC does not survive a
    fork cleanly), so a new pid gets its own store.
    """
    global _store, _owner_pid
    if _override is not None:
        return _override
    with _lock:
        if _store is None or _owner_pid != os.getpid():
            _store, _owner_pid = build_vector_store(), os.getpid()
        return _store


def build_vector_store() -> VectorStore:
    """Make a new, unopened store from settings (MILVUS_URI, MILVUS_TOKEN, MILVUS_COLLECTION)."""
    from django.conf import settings

    from memory.vectorstore.memory import InMemoryVectorStore
    from memory.vectorstore.milvus import MilvusVectorStore

    dimensions = settings.EMBEDDINGS_DIMENSIONS
    if settings.MILVUS_URI.strip().lower() in IN_MEMORY_URIS:
        return InMemoryVectorStore(dimensions=dimensions)
    return MilvusVectorStore(
        settings.MILVUS_URI,
        token=settings.MILVUS_TOKEN or "",
        collection=settings.MILVUS_COLLECTION,
        dimensions=dimensions,
    )


def set_vector_store_for_tests(store: VectorStore | None) -> None:
    """Make ``get_vector_store()`` return ``store`` (None restores the settings-built one)."""
    global _override
    _override = store


def close_vector_store() -> None:
    """Close and forget the settings-built store and drop any test override (its owner closes
    it); the next ``get_vector_store()`` builds a new one from settings."""
    global _store, _owner_pid, _override
    with _lock:
        store, _store, _owner_pid, _override = _store, None, None, None
    if store is not None:
        store.close()
