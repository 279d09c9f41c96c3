"""Keep the vector store in step with the rows: active memories have a vector, others none.

A sync runs after the row change commits. If the embedder or the store fails, the rows are marked
``failed`` and the maintenance task tries again (``memory_vectors_resync``); the read path does
not depend on it, as structured rows still reach the prompt.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from memory import metrics
from memory.embeddings import get_embedder
from memory.models import MemoryItem, MemorySettings
from memory.vectorstore import VectorRecord, get_vector_store

log = logging.getLogger("memory.vectors")

State = MemoryItem.VectorState
MAX_VECTOR_ATTEMPTS = 20


def vectors_sync_on_commit(ids: Iterable[int]) -> None:
    """Sync these memories' vectors once the current transaction commits (at once outside one)."""
    wanted = sorted(set(ids))
    if wanted:
        transaction.on_commit(partial(memory_vectors_sync, ids=wanted), robust=True)


def memory_vectors_sync(*, ids: Iterable[int]) -> dict[str, int]:
    """Upsert the vectors of active memories among ``ids`` and delete the rest; return counts."""
    wanted = sorted(set(ids))
    rows = list(MemoryItem.objects.filter(pk__in=wanted).only("id", "user_id", "memory_type", "content", "status"))
    active = [row for row in rows if row.status == MemoryItem.Status.ACTIVE]
    gone = sorted(set(wanted) - {row.pk for row in active})
    try:
        store = get_vector_store()
        if active:
            vectors = get_embedder().embed_passages([row.content for row in active])
            store.upsert([VectorRecord(row.pk, row.user_id, vector, row.memory_type)
                          for row, vector in zip(active, vectors)])
        if gone:
            store.delete(gone)
        _drop_vectors_of_rows_gone_meanwhile(store, active)
    except Exception as exc:  # noqa: BLE001 - any store/embedder failure is retried later
        log.warning("memory: vector sync of %s failed: %s", wanted, exc)
        metrics.VECTOR_SYNC.labels("failed").inc()
        MemoryItem.objects.filter(pk__in=[row.pk for row in rows]).update(
            vector_state=State.FAILED, vector_attempts=F("vector_attempts") + 1, vector_error=str(exc)[:500])
        return {"synced": 0, "failed": len(rows)}
    # A row changed meanwhile keeps its state: the sync its own change scheduled settles it.
    for row in rows:
        MemoryItem.objects.filter(pk=row.pk, status=row.status).update(vector_state=State.SYNCED, vector_error="")
    metrics.VECTOR_SYNC.labels("synced").inc()
    return {"synced": len(rows), "failed": 0}


def _drop_vectors_of_rows_gone_meanwhile(store, upserted: list[MemoryItem]) -> None:
    """A forget that committed while we embedded must not leave the vector we just wrote behind."""
    if not upserted:
        return
    ids = [row.pk for row in upserted]
    alive = set(MemoryItem.objects.filter(pk__in=ids, status=MemoryItem.Status.ACTIVE).values_list("pk", flat=True))
    gone = sorted(set(ids) - alive)
    if gone:
        store.delete(gone)


def memory_vectors_resync(*, now=None, batch: int = 200) -> dict[str, int]:
    """Retry failed syncs and syncs that never ran, and vector purges owed after "forget everything"."""
    now = now or timezone.now()
    stale = now - timedelta(seconds=settings.MEMORY_VECTOR_RETRY_SECONDS)
    due = MemoryItem.objects.filter(
        Q(vector_state=State.FAILED) | Q(vector_state=State.PENDING, updated_at__lt=stale),
        vector_attempts__lt=MAX_VECTOR_ATTEMPTS).order_by("updated_at")
    ids = list(due.values_list("pk", flat=True)[:batch])
    summary = memory_vectors_sync(ids=ids) if ids else {"synced": 0, "failed": 0}
    summary["purged"] = 0
    for user_id in MemorySettings.objects.filter(vector_purge_pending=True).values_list("user_id", flat=True)[:batch]:
        if memory_vectors_purge(user_id=user_id):
            summary["purged"] += 1
    summary["forgotten"] = 0
    owed = MemorySettings.objects.exclude(vector_forget_pending=[]).values_list("user_id", flat=True)[:batch]
    for user_id in owed:
        summary["forgotten"] += memory_vectors_forget_owed(user_id=user_id)
    return summary


def vectors_forget_on_commit(*, user_id: int, ids: Iterable[int]) -> None:
    """Delete the vectors of forgotten memories once the forget commits."""
    wanted = sorted(set(ids))
    if wanted:
        transaction.on_commit(partial(memory_vectors_forget, user_id=user_id, ids=wanted), robust=True)


def memory_vectors_forget(*, user_id: int, ids: list[int]) -> bool:
    """Delete these forgotten memories' vectors; on failure owe them (retried by maintenance)."""
    try:
        get_vector_store().delete(ids)
    except Exception as exc:  # noqa: BLE001 - the rows are gone: only the owed list remembers the ids
        log.warning("memory: vector delete of forgotten memories %s failed: %s", ids, exc)
        metrics.VECTOR_SYNC.labels("forget_failed").inc()
        _owe_forget(user_id, ids)
        return False
    metrics.VECTOR_SYNC.labels("forgotten").inc()
    return True


def _owe_forget(user_id: int, ids: list[int]) -> None:
    with transaction.atomic():
        row, _created = MemorySettings.objects.select_for_update().get_or_create(user_id=user_id)
        row.vector_forget_pending = sorted(set(row.vector_forget_pending) | set(ids))
        row.save(update_fields=["vector_forget_pending", "updated_at"])


def memory_vectors_forget_owed(*, user_id: int) -> int:
    """Retry the vector deletions owed for a student's forgotten memories; return how many were done."""
    with transaction.atomic():
        row = MemorySettings.objects.select_for_update().filter(user_id=user_id).first()
        owed = list(row.vector_forget_pending) if row else []
        if row is None or not owed:
            return 0
        try:
            get_vector_store().delete(owed)
        except Exception as exc:  # noqa: BLE001 - still owed; the next maintenance run tries again
            log.warning("memory: owed vector delete for user %s failed again: %s", user_id, exc)
            return 0
        row.vector_forget_pending = []
        row.save(update_fields=["vector_forget_pending", "updated_at"])
    return len(owed)


def memory_vectors_purge(*, user_id: int) -> bool:
    """Delete every vector of a student; on failure leave the purge owed (retried by maintenance)."""
    try:
        get_vector_store().delete_user(user_id)
    except Exception as exc:  # noqa: BLE001 - retried by maintenance until it succeeds
        log.warning("memory: vector purge of user %s failed: %s", user_id, exc)
        MemorySettings.objects.filter(user_id=user_id).update(vector_purge_pending=True)
        metrics.VECTOR_SYNC.labels("purge_failed").inc()
        return False
    MemorySettings.objects.filter(user_id=user_id).update(vector_purge_pending=False)
    metrics.VECTOR_SYNC.labels("purged").inc()
    return True
