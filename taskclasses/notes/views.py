"""Quick-note actions behind the dashboard's forms (they work without JavaScript too)."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.requests import AuthedHttpRequest
from smartmate.platform.exceptions import AppError, NotFoundError
from smartmate.platform.params import digits_int
from smartmate.platform.ratelimit import rate_limit_hit, user_key
from taskclasses.notes import services


def _back(request: HttpRequest) -> HttpResponse:
    return redirect("dashboard")


def _local_datetime(raw: str, zone) -> datetime | None:
    """Read a ``datetime-local`` input (no zone) as the student's local time."""
    parsed = parse_datetime(raw) if raw else None
    if parsed is None:
        return None
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, zone)


@login_required
@require_POST
def quick_add(request: AuthedHttpRequest) -> HttpResponse:
    """Save a quick note; edited fields (title, deadline, quadrant) win over the parse."""
    overrides: dict = {}
    if request.POST.get("title", "").strip():
        overrides["title"] = request.POST["title"]
    quadrant = digits_int(request.POST.get("quadrant"))
    if quadrant is not None:
        overrides["quadrant"] = quadrant
    # The script marks a quadrant the student picked themselves; only that teaches quick add.
    learn = "quadrant" in overrides and request.POST.get("quadrant_edited") == "1"
    if "deadline" in request.POST and request.POST.get("deadline_edited") == "1":
        overrides["deadline"] = _local_datetime(request.POST["deadline"], request.user.zone)
    try:
        rate_limit_hit("quick_add", user_key(request.user))
        task = services.task_create_from_text(user=request.user, text=request.POST.get("text", ""), learn=learn,
                                              **overrides)
    except AppError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Noted: %(title)s") % {"title": task.title})
    return _back(request)


def _task_action(action):
    @login_required
    @require_POST
    def view(request: HttpRequest, task_id: int) -> HttpResponse:
        try:
            action(request, task_id)
        except NotFoundError:
            raise  # the 404 page (NotFoundErrorMiddleware), not a message
        except AppError as exc:
            messages.error(request, exc.message)
        return _back(request)

    view.__name__ = action.__name__
    view.__doc__ = action.__doc__
    return view


@_task_action
def complete(request: AuthedHttpRequest, task_id: int) -> None:
    """Tick a task off (said so: the note leaves its quadrant, and the student should know where it went)."""
    task = services.task_complete(user=request.user, task_id=task_id)
    messages.success(request, _("Done: %(title)s. It is under Recently completed if you want it back.") % {"title": task.title})


@_task_action
def restore(request: AuthedHttpRequest, task_id: int) -> None:
    """Put a completed task back."""
    task = services.task_restore(user=request.user, task_id=task_id)
    messages.success(request, _("Back in its quadrant: %(title)s") % {"title": task.title})


@_task_action
def unschedule(request: AuthedHttpRequest, task_id: int) -> None:
    """Take the task off the schedule."""
    services.task_unschedule(user=request.user, task_id=task_id)


@_task_action
def delete(request: AuthedHttpRequest, task_id: int) -> None:
    """Delete a task."""
    services.task_delete(user=request.user, task_id=task_id)
