"""Cached memory blocks: one per (student, query), dropped whenever the student's memories change.

The keys a student has are listed under one index key, so "forget everything" (or any change)
deletes every cached block that could mention them, not just makes them unreachable.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache

_PREFIX = "memory:block"


def _index_key(user_id: int) -> str:
    return f"{_PREFIX}-keys:{user_id}"


def block_key(user_id: int, query: str) -> str:
    digest = hashlib.sha256(query.strip().encode("utf-8")).hexdigest()[:24]
    return f"{_PREFIX}:{user_id}:{digest}"


def block_cache_get(user_id: int, query: str) -> str | None:
    """Return the cached block for this query, or None."""
    if settings.MEMORY_BLOCK_CACHE_SECONDS <= 0:
        return None
    return cache.get(block_key(user_id, query))


def block_cache_set(user_id: int, query: str, block: str) -> None:
    """Cache a rendered block and remember its key in the student's index."""
    ttl = settings.MEMORY_BLOCK_CACHE_SECONDS
    if ttl <= 0:
        return
    key = block_key(user_id, query)
    keys = set(cache.get(_index_key(user_id)) or ())
    keys.add(key)
    # The index outlives every block it lists, so a clear always finds them.
    cache.set(_index_key(user_id), sorted(keys), ttl * 2)
    cache.set(key, block, ttl)


def block_cache_clear(user_id: int) -> None:
    """Delete every cached block of this student."""
    keys = list(cache.get(_index_key(user_id)) or ())
    cache.delete_many([*keys, _index_key(user_id)])
