"""Task-class pages: the list with a create form, and a detail page to edit a class and its blocks.

Plain POST forms with CSRF that work without JavaScript; every action redirects back to the page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.requests import AuthedHttpRequest
from schedule.exams.selectors import exam_list
from schedule.selectors import time_frame_get
from smartmate.platform.exceptions import AppError, NotFoundError
from smartmate.platform.params import digits_int
from taskclasses.plans import selectors, services
from taskclasses.plans.forms import TaskClassCreateForm, TaskClassForm
from taskclasses.plans.presenters import TaskClassDetail


@login_required
def class_list(request: AuthedHttpRequest) -> HttpResponse:
    """List the student's task classes (placed / total) with a form to create one."""
    _semester, template = time_frame_get(user=request.user)
    status = 200
    if request.method == "POST":
        form = TaskClassCreateForm(request.POST, template=template, exams=exam_list(user=request.user))
        if form.is_valid():
            try:
                task_class = services.task_class_create(user=request.user, **form.class_arguments(),
                                                        **form.item_arguments())
            except AppError as exc:
                form.add_service_error(exc.code, exc.message)
            else:
                messages.success(request, _("Created %(name)s.") % {"name": task_class.name})
                return redirect("plans:detail", task_class_id=task_class.pk)
        status = 400
    else:
        start, end = selectors.default_window_get(user=request.user)
        form = TaskClassCreateForm(template=template, initial={"start_date": start, "end_date": end},
                                   exams=exam_list(user=request.user))
    context = {"form": form, "task_classes": selectors.task_class_list(user=request.user)}
    return render(request, "taskclasses/list.html", context, status=status)


@login_required
def class_detail(request: AuthedHttpRequest, task_class_id: int) -> HttpResponse:
    """Show a class with its blocks and where each is placed; POST saves the class's fields."""
    detail = _detail_or_404(request, task_class_id)
    _semester, template = time_frame_get(user=request.user)
    status = 200
    if request.method == "POST":
        form = TaskClassForm(request.POST, template=template, exams=exam_list(user=request.user))
        if form.is_valid():
            try:
                services.task_class_update(user=request.user, task_class_id=task_class_id, **form.class_arguments())
            except AppError as exc:
                form.add_service_error(exc.code, exc.message)
            else:
                messages.success(request, _("Saved."))
                return redirect("plans:detail", task_class_id=task_class_id)
        status = 400
    else:
        form = TaskClassForm(template=template, initial=TaskClassForm.initial_of(detail.task_class),
                             exams=exam_list(user=request.user))
    return render(request, "taskclasses/detail.html", {"detail": detail, "form": form}, status=status)


def _detail_or_404(request: AuthedHttpRequest, task_class_id: int) -> TaskClassDetail:
    try:
        return selectors.task_class_detail_get(user=request.user, task_class_id=task_class_id)
    except NotFoundError:
        raise Http404 from None


@login_required
@require_POST
def class_delete(request: AuthedHttpRequest, task_class_id: int) -> HttpResponse:
    """Delete a class with its blocks and their placements."""
    try:
        services.task_class_delete(user=request.user, task_class_id=task_class_id)
    except NotFoundError:
        raise Http404 from None
    messages.success(request, _("Task class deleted."))
    return redirect("plans:list")


def _item_action(action: Callable[..., str | None]) -> Callable[..., HttpResponse]:
    """POST only; a foreign id is a 404, a refused change a message; back to the class's blocks."""

    @login_required
    @require_POST
    def view(request: HttpRequest, task_class_id: int, **ids: int) -> HttpResponse:
        try:
            done = action(request, task_class_id, **ids)
        except NotFoundError:
            raise Http404 from None
        except AppError as exc:
            messages.error(request, exc.message)
        else:
            if done:
                messages.success(request, done)
        return redirect(reverse("plans:detail", kwargs={"task_class_id": task_class_id}) + "#items")

    view.__name__ = action.__name__
    view.__doc__ = action.__doc__
    return view


def _number(raw: str | None) -> int | None:
    return digits_int(raw)


@_item_action
def item_add(request: AuthedHttpRequest, task_class_id: int) -> str:
    """Add a block at the end, or at the position given."""
    item = services.task_item_add(user=request.user, task_class_id=task_class_id,
                                  content=request.POST.get("content", ""),
                                  position=_number(request.POST.get("position")))
    return _("Added %(content)s.") % {"content": item.content}


@_item_action
def item_rename(request: AuthedHttpRequest, task_class_id: int, item_id: int) -> None:
    """Change a block's content."""
    services.task_item_update(user=request.user, item_id=item_id, task_class_id=task_class_id,
                              content=request.POST.get("content", ""))


@_item_action
def item_move(request: AuthedHttpRequest, task_class_id: int, item_id: int) -> None:
    """Move a block to a position (the up and down buttons send the neighbour's position)."""
    services.task_item_move(user=request.user, item_id=item_id, task_class_id=task_class_id,
                            position=_number(request.POST.get("position")) or 0)


@_item_action
def item_remove(request: AuthedHttpRequest, task_class_id: int, item_id: int) -> str:
    """Remove a block; the others are numbered again."""
    services.task_item_remove(user=request.user, item_id=item_id, task_class_id=task_class_id)
    return _("Block removed.")
