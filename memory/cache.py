"""Cached memory blocks: one per (student, query), dropped whenever the student's memories change.

The keys a student has are listed under one index key, so "forget everything" (or any change)
deletes every cached block that could mention them, not just makes them unreachable.

A block is built from rows read before it is cached, so a forget that commits in between could
be undone by the late write. Each clear bumps the student's generation; a block is only written
for the generation its rows were read under, and deleted again if a clear landed while writing.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache

_PREFIX = "memory:block"


def _index_key(user_id: int) -> str:
    return f"{_PREFIX}-keys:{user_id}"


def _generation_key(user_id: int) -> str:
    return f"{_PREFIX}-generation:{user_id}"


def block_key(user_id: int, query: str) -> str:
    digest = hashlib.sha256(query.strip().encode("utf-8")).hexdigest()[:24]
    return f"{_PREFIX}:{user_id}:{digest}"


def block_cache_generation(user_id: int) -> int:
    """Return the student's cache generation: read it before reading the rows a block is built from."""
    return int(cache.get(_generation_key(user_id)) or 0)


def block_cache_get(user_id: int, query: str) -> str | None:
    """Return the cached block for this query, or None."""
    if settings.MEMORY_BLOCK_CACHE_SECONDS <= 0:
        return None
    return cache.get(block_key(user_id, query))


def block_cache_set(user_id: int, query: str, block: str, *, generation: int) -> None:
    """Cache a block built under ``generation`` and remember its key in the student's index."""
    ttl = settings.MEMORY_BLOCK_CACHE_SECONDS
    if ttl <= 0 or block_cache_generation(user_id) != generation:
        return
    key = block_key(user_id, query)
    keys = set(cache.get(_index_key(user_id)) or ())
    keys.add(key)
    # The index outlives every block it lists, so a clear always finds them.
    cache.set(_index_key(user_id), sorted(keys), ttl * 2)
    cache.set(key, block, ttl)
    if block_cache_generation(user_id) != generation:
        cache.delete(key)  # a clear ran while we wrote: this block may quote a forgotten memory


def block_cache_clear(user_id: int) -> None:
    """Delete every cached block of this student, and any a recall in flight is about to write."""
    _bump_generation(user_id)
    keys = list(cache.get(_index_key(user_id)) or ())
    cache.delete_many([*keys, _index_key(user_id)])


def block_cache_drop(user_id: int) -> None:
    """For a deleted student: clear their blocks and drop the generation counter too (nothing of theirs
    may be written again, so nothing needs to tell a late writer its block is stale)."""
    block_cache_clear(user_id)
    cache.delete(_generation_key(user_id))


def _bump_generation(user_id: int) -> None:
    key = _generation_key(user_id)
    cache.add(key, 0, None)
    try:
        cache.incr(key)
    except ValueError:  # evicted between add and incr
        cache.set(key, 1, None)
