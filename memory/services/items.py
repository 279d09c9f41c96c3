"""Versioned memory rows and the student's controls: add, supersede, invalidate, add by hand, edit,
delete, restore, switch off, forget one memory (with its versions), forget everything.

Every write takes the student's memory lock (their ``MemorySettings`` row) so two jobs, or a job
and an edit, cannot both add the same memory; every change is audited and followed, after commit,
by a vector sync and by dropping the student's cached memory blocks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from memory.cache import block_cache_clear
from memory.core.dedup import content_hash
from memory.exceptions import (
    MemoryDuplicate,
    MemoryForgetNotConfirmed,
    MemoryInvalid,
    MemoryNotFound,
    MemoryStateError,
)
from memory.models import MAX_CONTENT_LENGTH, MemoryAudit, MemoryItem, MemoryJob, MemoryRefusal, MemorySettings
from memory.services.gate import memory_gate_or_refuse
from memory.services.vectors import memory_vectors_purge, vectors_forget_on_commit, vectors_sync_on_commit
from smartmate.platform.caps import cap_check, cap_limit

log = logging.getLogger(__name__)

Status = MemoryItem.Status
Op = MemoryAudit.Operation
Operator = MemoryAudit.Operator


@dataclass(frozen=True)
class NewMemory:
    """What a new memory row says (content is cleaned by ``clean_content``)."""

    memory_type: str
    content: str
    importance: float = 0.5
    confidence: float = 0.8
    source_message_id: int | None = None
    origin: str = MemoryItem.Origin.EXTRACTED


def clean_content(text: str) -> str:
    """One line, trimmed, at most MAX_CONTENT_LENGTH characters: memories are data for a prompt."""
    return " ".join(str(text).split())[:MAX_CONTENT_LENGTH]


def memory_enabled(*, user: User) -> bool:
    """Tell whether memory is on for this student (and for the deployment)."""
    if not settings.MEMORY_ENABLED:
        return False
    enabled = MemorySettings.objects.filter(user=user).values_list("enabled", flat=True).first()
    return True if enabled is None else bool(enabled)


def lock_user_memory(*, user: User) -> MemorySettings:
    """Take the student's memory write lock for the current transaction; return their settings row."""
    MemorySettings.objects.get_or_create(user=user)
    return MemorySettings.objects.select_for_update().get(user=user)


def snapshot(item: MemoryItem) -> dict:
    """The visible fields of a row, for audit entries."""
    return {"id": item.pk, "type": item.memory_type, "content": item.content, "status": item.status,
            "importance": item.importance, "confidence": item.confidence,
            "valid_from": item.valid_from.isoformat() if item.valid_from else None,
            "valid_to": item.valid_to.isoformat() if item.valid_to else None,
            "superseded_by": item.superseded_by_id}


def audit(*, user: User, operation: str, operator: str, memory: MemoryItem | None = None, before: dict | None = None,
          after: dict | None = None, reason: str = "", job: MemoryJob | None = None) -> MemoryAudit:
    return MemoryAudit.objects.create(user=user, memory=memory, job=job, operation=operation, operator=operator,
                                      reason=reason[:200], before=before or {}, after=after or {})


def changed_on_commit(*, user_id: int, ids: list[int]) -> None:
    """After commit: sync these memories' vectors and drop the student's cached blocks."""
    vectors_sync_on_commit(ids)
    transaction.on_commit(partial(block_cache_clear, user_id), robust=True)


def active_duplicate(*, user: User, memory_type: str, content: str, exclude_id: int | None = None) -> MemoryItem | None:
    """Return the student's active memory with the same type and normalized text, if any."""
    rows = MemoryItem.objects.filter(user=user, status=Status.ACTIVE, content_hash=content_hash(memory_type, content))
    if exclude_id is not None:
        rows = rows.exclude(pk=exclude_id)
    return rows.first()


def _active(user: User) -> QuerySet[MemoryItem]:
    return MemoryItem.objects.filter(user=user, status=Status.ACTIVE)


def _create(*, user: User, new: NewMemory, now) -> MemoryItem:
    content = clean_content(new.content)
    return MemoryItem.objects.create(
        user=user, memory_type=new.memory_type, content=content, content_hash=content_hash(new.memory_type, content),
        importance=min(1.0, max(0.0, float(new.importance))), confidence=min(1.0, max(0.0, float(new.confidence))),
        origin=new.origin, source_message_id=new.source_message_id, valid_from=now)


# --- Writes used by the extraction job (caller holds the lock, inside its transaction) --------------

def memory_add(*, user: User, new: NewMemory, operator: str = Operator.SYSTEM, reason: str = "",
               job: MemoryJob | None = None) -> MemoryItem | None:
    """Add a memory unless an identical one is active; return it (None for a duplicate, or when the
    student's cap of active memories is full: extraction then keeps what it has)."""
    if active_duplicate(user=user, memory_type=new.memory_type, content=clean_content(new.content)):
        return None
    limit = cap_limit("memories")
    if limit is not None and _active(user).count() >= limit:
        log.info("memory cap of user %s reached; not adding", user.pk)
        return None
    item = _create(user=user, new=new, now=timezone.now())
    audit(user=user, operation=Op.CREATE, operator=operator, memory=item, after=snapshot(item), reason=reason, job=job)
    return item


def memory_supersede(*, user: User, old: MemoryItem, new: NewMemory, operator: str = Operator.SYSTEM,
                     reason: str = "", job: MemoryJob | None = None) -> MemoryItem:
    """Close ``old`` (kept as history) and add its successor ``new``; return the successor."""
    if old.status != Status.ACTIVE:
        raise MemoryStateError(_("Only an active memory can be changed."), detail={"id": old.pk})
    now = timezone.now()
    before = snapshot(old)
    successor = _create(user=user, new=new, now=now)
    old.status, old.valid_to, old.superseded_by = Status.ARCHIVED, now, successor
    old.save(update_fields=["status", "valid_to", "superseded_by", "updated_at"])
    audit(user=user, operation=Op.UPDATE, operator=operator, memory=successor, before=before,
          after=snapshot(successor), reason=reason, job=job)
    return successor


def memory_invalidate(*, user: User, item: MemoryItem, operator: str = Operator.SYSTEM, reason: str = "",
                      job: MemoryJob | None = None) -> MemoryItem:
    """Close an active memory that no longer holds (kept as history, without a successor)."""
    before = snapshot(item)
    item.status, item.valid_to = Status.ARCHIVED, timezone.now()
    item.save(update_fields=["status", "valid_to", "updated_at"])
    audit(user=user, operation=Op.INVALIDATE, operator=operator, memory=item, before=before, after=snapshot(item),
          reason=reason, job=job)
    return item


# --- The student's controls ----------------------------------------------------------------------

def _owned(*, user: User, memory_id: int) -> MemoryItem:
    item = MemoryItem.objects.filter(user=user, pk=memory_id).first()
    if item is None:
        raise MemoryNotFound(_("This memory does not exist."), detail={"id": memory_id})
    return item


def memory_add_by_hand(*, user: User, memory_type: str, content: str) -> MemoryItem:
    """Add a memory the student wrote themselves, through the write gate; refused when already active."""
    content = clean_content(content)
    if not content:
        raise MemoryInvalid(_("A memory cannot be empty."))
    # Outside the write's transaction: a refusal is recorded even though nothing is written.
    memory_gate_or_refuse(user=user, content=content, source=MemoryRefusal.Source.ADDED)
    return _add_by_hand(user=user, memory_type=memory_type, content=content)


@transaction.atomic
def _add_by_hand(*, user: User, memory_type: str, content: str) -> MemoryItem:
    lock_user_memory(user=user)
    if active_duplicate(user=user, memory_type=memory_type, content=content):
        raise MemoryDuplicate(_("You already have this memory."))
    cap_check("memories", _active(user))
    new = NewMemory(memory_type=memory_type, content=content, importance=0.6, confidence=1.0,
                    origin=MemoryItem.Origin.ADDED)
    item = memory_add(user=user, new=new, operator=Operator.USER, reason="added by the student")
    assert item is not None  # a duplicate was refused above, under the same lock
    changed_on_commit(user_id=user.pk, ids=[item.pk])
    return item


def memory_edit(*, user: User, memory_id: int, content: str, memory_type: str | None = None) -> MemoryItem:
    """Change an active memory's text or type, through the write gate: the old version stays as history;
    return the new one."""
    _owned(user=user, memory_id=memory_id)  # another student's id: not found, and no refusal recorded
    memory_gate_or_refuse(user=user, content=clean_content(content), source=MemoryRefusal.Source.EDITED)
    return _edit(user=user, memory_id=memory_id, content=content, memory_type=memory_type)


@transaction.atomic
def _edit(*, user: User, memory_id: int, content: str, memory_type: str | None) -> MemoryItem:
    lock_user_memory(user=user)
    old = _owned(user=user, memory_id=memory_id)
    if old.status != Status.ACTIVE:
        raise MemoryStateError(_("Only an active memory can be edited; restore it first."), detail={"id": memory_id})
    memory_type = memory_type or old.memory_type
    content = clean_content(content)
    if content_hash(memory_type, content) == old.content_hash:
        return old
    if active_duplicate(user=user, memory_type=memory_type, content=content, exclude_id=old.pk):
        raise MemoryDuplicate(_("You already have this memory."), detail={"id": memory_id})
    new = NewMemory(memory_type=memory_type, content=content, importance=old.importance, confidence=1.0,
                    source_message_id=old.source_message_id, origin=MemoryItem.Origin.USER)
    successor = memory_supersede(user=user, old=old, new=new, operator=Operator.USER, reason="edited by the student")
    changed_on_commit(user_id=user.pk, ids=[old.pk, successor.pk])
    return successor


@transaction.atomic
def memory_delete(*, user: User, memory_id: int) -> MemoryItem:
    """Soft-delete a memory: the assistant stops using it; it can be restored."""
    lock_user_memory(user=user)
    item = _owned(user=user, memory_id=memory_id)
    if item.status == Status.DELETED:
        return item
    before = snapshot(item)
    item.status = Status.DELETED
    item.valid_to = item.valid_to or timezone.now()
    item.save(update_fields=["status", "valid_to", "updated_at"])
    audit(user=user, operation=Op.DELETE, operator=Operator.USER, memory=item, before=before, after=snapshot(item))
    changed_on_commit(user_id=user.pk, ids=[item.pk])
    return item


@transaction.atomic
def memory_restore(*, user: User, memory_id: int) -> MemoryItem:
    """Bring back a deleted memory as active (refused if the same memory is active again meanwhile)."""
    lock_user_memory(user=user)
    item = _owned(user=user, memory_id=memory_id)
    if item.status != Status.DELETED:
        raise MemoryStateError(_("Only a deleted memory can be restored."), detail={"id": memory_id})
    if active_duplicate(user=user, memory_type=item.memory_type, content=item.content, exclude_id=item.pk):
        raise MemoryDuplicate(_("You already have this memory."), detail={"id": memory_id})
    before = snapshot(item)
    item.status, item.valid_to, item.superseded_by = Status.ACTIVE, None, None
    item.save(update_fields=["status", "valid_to", "superseded_by", "updated_at"])
    audit(user=user, operation=Op.RESTORE, operator=Operator.USER, memory=item, before=before, after=snapshot(item))
    changed_on_commit(user_id=user.pk, ids=[item.pk])
    return item


@transaction.atomic
def memory_settings_update(*, user: User, enabled: bool | None = None,
                           sensitive_memory_enabled: bool | None = None) -> MemorySettings:
    """Change the student's memory switches (None leaves one as it is).

    ``enabled`` off: nothing is learned or recalled; rows are kept. ``sensitive_memory_enabled`` on:
    the write gate lets sensitive facts about the student through (never secrets or others' facts).
    """
    row = lock_user_memory(user=user)
    wanted = {"enabled": enabled, "sensitive_memory_enabled": sensitive_memory_enabled}
    changed = {name: value for name, value in wanted.items() if value is not None and getattr(row, name) != value}
    if changed:
        for name, value in changed.items():
            setattr(row, name, value)
        row.save(update_fields=[*changed, "updated_at"])
        audit(user=user, operation=Op.SETTINGS, operator=Operator.USER, after=changed)
        transaction.on_commit(partial(block_cache_clear, user.pk), robust=True)
    return row


@transaction.atomic
def memory_forget(*, user: User, memory_id: int, operator: str = Operator.USER) -> list[int]:
    """Remove a memory for good, with every version of it; return the ids removed.

    Unlike an invalidation (it stopped being true; history kept), nothing of it remains: not the
    rows, their vectors, cached blocks or the text of audit entries. One audit entry says that a
    memory was forgotten, when and by whom, without its content.
    """
    lock_user_memory(user=user)
    return forget_versions(user=user, item=_owned(user=user, memory_id=memory_id), operator=operator)


@transaction.atomic
def memory_forget_many(*, user: User, memory_ids: list[int], operator: str = Operator.USER) -> list[int]:
    """Forget several memories for good, each with its versions; ids already gone are skipped.

    Return the ids removed (none when everything was forgotten already, e.g. by a retried call).
    """
    lock_user_memory(user=user)
    removed: list[int] = []
    for item in MemoryItem.objects.filter(user=user, pk__in=memory_ids).order_by("id"):
        if item.pk not in removed:
            removed += forget_versions(user=user, item=item, operator=operator)
    return sorted(removed)


def forget_versions(*, user: User, item: MemoryItem, operator: str, job: MemoryJob | None = None) -> list[int]:
    """Forget ``item`` and its versions (caller holds the student's memory lock, in its transaction)."""
    if item.user_id != user.pk:
        raise MemoryNotFound(_("This memory does not exist."), detail={"id": item.pk})
    ids = version_chain_ids(user=user, item_id=item.pk)
    MemoryAudit.objects.filter(user=user).filter(
        Q(memory_id__in=ids) | Q(before__id__in=ids) | Q(after__id__in=ids)).delete()
    versions = MemoryItem.objects.filter(user=user, pk__in=ids)
    versions.update(superseded_by=None)  # MariaDB checks self-references row by row while deleting
    versions.delete()
    audit(user=user, operation=Op.FORGET, operator=operator, job=job, after={"versions": len(ids)},
          reason="forgotten at the student's request")
    vectors_forget_on_commit(user_id=user.pk, ids=ids)
    transaction.on_commit(partial(block_cache_clear, user.pk), robust=True)
    return ids


def version_chain_ids(*, user: User, item_id: int) -> list[int]:
    """Return the ids of a memory and of every version before and after it (linked by ``superseded_by``)."""
    rows = MemoryItem.objects.filter(user=user)
    found = {item_id}
    frontier = {item_id}
    while frontier:
        links = rows.filter(Q(pk__in=frontier) | Q(superseded_by_id__in=frontier)).values_list("pk", "superseded_by_id")
        linked = {pk for pair in links for pk in pair if pk is not None}
        frontier = linked - found
        found |= linked
    return sorted(found)


@transaction.atomic
def memory_forget_all(*, user: User, confirm: bool) -> dict[str, int]:
    """Remove everything memory holds about the student: rows, jobs, audit text, vectors, cached blocks.

    One audit entry remains, saying that (and when) everything was forgotten, without any content.
    """
    if not confirm:
        raise MemoryForgetNotConfirmed(_("Confirm that you want memory to forget everything."))
    row = lock_user_memory(user=user)
    # Unlink the version chain first: MariaDB checks self-references row by row while deleting.
    MemoryItem.objects.filter(user=user).update(superseded_by=None)
    counts = {"memories": MemoryItem.objects.filter(user=user).delete()[0]}
    counts["jobs"] = MemoryJob.objects.filter(user=user).delete()[0]
    counts["audit"] = MemoryAudit.objects.filter(user=user).delete()[0]
    audit(user=user, operation=Op.FORGET_ALL, operator=Operator.USER, reason="forget everything")
    row.vector_purge_pending = True
    row.save(update_fields=["vector_purge_pending", "updated_at"])
    transaction.on_commit(partial(memory_vectors_purge, user_id=user.pk), robust=True)
    transaction.on_commit(partial(block_cache_clear, user.pk), robust=True)
    return counts
