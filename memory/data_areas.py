"""What memory keeps about the student, for "download my data" and "delete my account"."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from accounts.data_ports import DataArea, Tables, data_area_register, rows_with_user_field
from accounts.models import User
from memory.cache import block_cache_drop
from memory.models import MemoryItem
from memory.vectorstore import get_vector_store


def _tables(user: User) -> Tables:
    return rows_with_user_field("memory", user)


def _unlink_versions(user: User) -> None:
    # MariaDB checks the self-reference row by row while deleting: break the version chain first.
    MemoryItem.objects.filter(user=user).update(superseded_by=None)


def _erase_outside(user_id: int) -> None:
    get_vector_store().delete_user(user_id)
    block_cache_drop(user_id)


# The line for this file in the archive's 说明.txt.
SUMMARY = gettext_lazy("What the assistant remembers about you, with the history of each memory.")

# Extraction jobs and the gate's refusal records are the system's bookkeeping (refusals keep no text).
data_area_register(DataArea(name="memory", tables=_tables, erase_rows=_unlink_versions,
                            summary=SUMMARY,
                            erase_outside=_erase_outside, order=50,
                            counted_only=frozenset({"memoryjob", "memoryrefusal"})))
