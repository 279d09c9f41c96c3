"""The admin in the operator's language, for what no ``gettext`` call reaches.

Two kinds of admin text come out in English whatever the language:

* a model field without a ``verbose_name`` is labelled with its name ("last fetched at"), never
  looked up in the catalog. ``catalogue_default_field_names`` makes such labels lazy catalog
  lookups at start-up. Migrations are untouched: a field deconstructs its original
  ``verbose_name`` (``Field._verbose_name``, None here), not the label shown.
* permission names ("Can view group") are rows Django writes in English when it migrates.
  ``permission_label`` words them from the codename and the model's translated name, and
  ``translate_permission_choices`` has every admin form that lists permissions use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.db.models import ManyToManyField
from django.utils.translation import gettext, gettext_lazy

# The four permissions Django makes for every model, by codename prefix.
DEFAULT_PERMISSIONS: dict[str, Any] = {
    "add": gettext_lazy("Can add %(model)s"),
    "change": gettext_lazy("Can change %(model)s"),
    "delete": gettext_lazy("Can delete %(model)s"),
    "view": gettext_lazy("Can view %(model)s"),
}


def catalogue_default_field_names() -> None:
    """Let every field labelled by its name ("next attempt at") be translated through the catalog."""
    for model in apps.get_models():
        for field in (*model._meta.fields, *model._meta.many_to_many):
            if getattr(field, "_verbose_name", "") is None and isinstance(field.verbose_name, str):
                field.verbose_name = gettext_lazy(field.verbose_name)


def permission_label(permission: Permission) -> str:
    """"日程 | 课程 | 可以查看 课程": where the permission belongs and what it allows, in the active language."""
    model = permission.content_type.model_class()
    action, _sep, model_name = permission.codename.partition("_")
    if model is not None and action in DEFAULT_PERMISSIONS and model_name == model._meta.model_name:
        name = str(DEFAULT_PERMISSIONS[action]) % {"model": model._meta.verbose_name}
    else:
        name = gettext(permission.name)  # a custom permission: its English name is a catalog entry
    return f"{permission.content_type} | {name}"


def translate_permission_choices(site: admin.AdminSite) -> None:
    """Make every registered admin list permissions (users', groups') with ``permission_label``."""
    for model, model_admin in site._registry.items():
        if any(_lists_permissions(field) for field in model._meta.many_to_many):
            model_admin.formfield_for_manytomany = _with_permission_labels(  # type: ignore[method-assign]
                model_admin.formfield_for_manytomany)


def _lists_permissions(field: Any) -> bool:
    return isinstance(field, ManyToManyField) and field.remote_field.model is Permission


def _with_permission_labels(formfield_for_manytomany: Callable[..., Any]) -> Callable[..., Any]:
    def formfield(db_field: ManyToManyField, request: Any, **kwargs: Any) -> Any:
        found = formfield_for_manytomany(db_field, request, **kwargs)
        if found is not None and _lists_permissions(db_field):
            found.label_from_instance = permission_label
        return found

    return formfield
