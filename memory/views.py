"""The memory page: what the assistant remembers (active, history, deleted), and the student's controls.

Plain forms that post back here, so everything works without JavaScript.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.requests import AuthedHttpRequest
from memory import selectors
from memory.models import MemoryItem
from memory.services import items as services
from smartmate.platform.exceptions import AppError, NotFoundError


@login_required
def memory_page(request: AuthedHttpRequest) -> HttpResponse:
    """List the student's memories by state, with search and a type filter."""
    query = request.GET.get("q", "").strip()[:100]
    memory_type = request.GET.get("type", "")
    if memory_type not in MemoryItem.Type.values:
        memory_type = ""
    listed = {
        state: list(selectors.memory_list(user=request.user, status=state, memory_type=memory_type or None,
                                          query=query)[:200])
        for state in MemoryItem.Status.values
    }
    sources = {item.pk: selectors.memory_source_get(user=request.user, memory_id=item.pk) for item in listed["active"]}
    return render(request, "memory/list.html", {
        "active": [(item, sources[item.pk]) for item in listed["active"]],
        "history": listed["archived"], "deleted": listed["deleted"],
        "settings": selectors.memory_settings_get(user=request.user),
        "types": MemoryItem.Type.choices, "query": query, "memory_type": memory_type,
    })


def _action(action):
    @login_required
    @require_POST
    def view(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            note = action(request, *args, **kwargs)
        except NotFoundError:
            raise  # the 404 page (NotFoundErrorMiddleware)
        except AppError as exc:
            messages.error(request, exc.message)
        else:
            if note:
                messages.success(request, note)
        return redirect("memory:list")

    view.__name__ = action.__name__
    view.__doc__ = action.__doc__
    return view


@_action
def add(request: AuthedHttpRequest) -> str:
    """Add a memory by hand."""
    memory_type = request.POST.get("type", "")
    if memory_type not in MemoryItem.Type.values:
        raise AppError(_("Choose a type for the memory."))
    services.memory_add_by_hand(user=request.user, memory_type=memory_type, content=request.POST.get("content", ""))
    return _("Memory added.")


@_action
def edit(request: AuthedHttpRequest, memory_id: int) -> str:
    """Save a new version of a memory (the old one goes to history)."""
    selectors.memory_get(user=request.user, memory_id=memory_id)  # another student's id: 404 before anything
    memory_type = request.POST.get("type") or None
    if memory_type not in (None, *MemoryItem.Type.values):
        memory_type = None
    content = request.POST.get("content", "").strip()
    if not content:
        raise AppError(_("A memory cannot be empty; delete it instead."))
    services.memory_edit(user=request.user, memory_id=memory_id, content=content, memory_type=memory_type)
    return _("Memory updated; the previous version is kept in history.")


@_action
def delete(request: AuthedHttpRequest, memory_id: int) -> str:
    """Delete a memory (it can be restored)."""
    services.memory_delete(user=request.user, memory_id=memory_id)
    return _("Memory deleted. The assistant will no longer use it.")


@_action
def restore(request: AuthedHttpRequest, memory_id: int) -> str:
    """Restore a deleted memory."""
    services.memory_restore(user=request.user, memory_id=memory_id)
    return _("Memory restored.")


@_action
def forget_one(request: AuthedHttpRequest, memory_id: int) -> str:
    """Forget a memory for good, with its earlier versions (cannot be undone)."""
    services.memory_forget(user=request.user, memory_id=memory_id)
    return _("Memory forgotten for good, with its earlier versions.")


@_action
def toggle(request: AuthedHttpRequest) -> str:
    """Turn memory on or off."""
    enabled = request.POST.get("enabled") == "1"
    services.memory_settings_update(user=request.user, enabled=enabled)
    return _("Memory is on.") if enabled else _("Memory is off: the assistant neither learns nor uses memories.")


@_action
def toggle_sensitive(request: AuthedHttpRequest) -> str:
    """Allow or stop remembering sensitive facts about the student."""
    enabled = request.POST.get("enabled") == "1"
    services.memory_settings_update(user=request.user, sensitive_memory_enabled=enabled)
    if enabled:
        return _("Sensitive information about you (health, beliefs and the like) can now be remembered.")
    return _("Sensitive information about you will no longer be remembered. Forget any you see below.")


@_action
def forget(request: AuthedHttpRequest) -> str:
    """Forget everything (needs the confirmation box ticked)."""
    services.memory_forget_all(user=request.user, confirm=request.POST.get("confirm") == "1")
    return _("Everything the assistant remembered about you has been forgotten.")
