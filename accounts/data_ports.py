"""What each app keeps about a student, so an export can take it all and a deletion can leave nothing.

Accounts sits at the bottom of the apps (README, "Layout") and cannot import them, yet "download my
data" and "delete my account" must reach every app. Each app says what it owns in its own
``data_areas.py`` (found by ``autodiscover_modules`` when accounts is ready, as the admin finds
``admin.py``): the tables of rows that are the student's, and an eraser for what deleting the
user's rows does not reach (a vector store, a cache, payloads that name them without a foreign key).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils.functional import Promise

from accounts.models import User

#: table name -> the student's rows of it (a queryset, so an export can stream it)
Tables = dict[str, QuerySet]


@dataclass(frozen=True)
class DataArea:
    """One area of a student's data: one JSON file in the export archive."""

    name: str  # the file's stem in the archive, e.g. "schedule" -> schedule.json
    tables: Callable[[User], Tables]
    # Runs inside the deleting transaction, before the user's rows are deleted.
    erase_rows: Callable[[User], None] | None = None
    # Runs after that transaction commits: stores outside the database (vectors, caches).
    erase_outside: Callable[[int], None] | None = None
    order: int = 100
    # Tables listed in the counts but left out of the archive (their rows are not the student's to read:
    # e.g. the memory gate's refusals, which keep no text anyway).
    counted_only: frozenset[str] = field(default_factory=frozenset)
    # One line for the archive's 说明.txt: what the file holds, in the student's words.
    summary: str | Promise = ""


def rows_with_user_field(app_label: str, user: User, *, leave_out: tuple[str, ...] = ()) -> Tables:
    """Every model of an app with a ``user`` field, filtered to the student: a model an app adds later
    is exported and counted without anyone remembering to list it."""
    from django.apps import apps

    tables: Tables = {}
    for model in apps.get_app_config(app_label).get_models():
        names = {field.name for field in model._meta.get_fields()}
        if "user" in names and str(model._meta.model_name) not in leave_out:
            tables[str(model._meta.model_name)] = model._default_manager.filter(user=user).order_by("pk")
    return tables


_areas: dict[str, DataArea] = {}


def data_area_register(area: DataArea) -> None:
    """Add or replace an app's area (registering twice, as a reloaded module does, is harmless)."""
    _areas[area.name] = area


def data_areas() -> list[DataArea]:
    """Every registered area, in archive order."""
    return sorted(_areas.values(), key=lambda area: (area.order, area.name))


def user_data_counts(*, user: User) -> dict[str, int]:
    """How many rows of each kind the student owns, as "area.table" -> count."""
    return {f"{area.name}.{table}": rows.count()
            for area in data_areas() for table, rows in area.tables(user).items()}
