"""The week board page and its planning actions: plan, apply, discard, undo, find a time for a note.

The board lives here, above the schedule, because it draws the student's work on their time: the
week's events (schedule) with a preview of where the planner would put their blocks and notes.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.requests import AuthedHttpRequest
from board import planning, previews
from board.note_slots import note_slot_preview, preview_first_week
from board.preview_presenter import changeset_view
from board.week_page import week_page_get
from schedule.core.time_model import TimeModelError
from schedule.models import PlanPreview
from smartmate.platform.exceptions import AppError, NotFoundError
from smartmate.platform.params import digits_int
from smartmate.platform.ratelimit import rate_limit_hit, user_key
from smartmate.platform.redirects import is_local_path


@login_required
def week_board(request: AuthedHttpRequest) -> HttpResponse:
    """Show one week: section times down, days across, today highlighted, a preview overlaid."""
    raw_week = request.GET.get("week", "")
    week = digits_int(raw_week)
    if raw_week and week is None:  # ?week=abc or ?week=²: show this week under its own address
        return redirect("board:week")
    try:
        page = week_page_get(user=request.user, week=week, preview=_open_preview_or_none(request),
                             day=digits_int(request.GET.get("day", "")))
    except TimeModelError:
        return redirect("board:week")
    return render(request, "board/week.html", page.context())


@require_safe
def week_board_moved(request: AuthedHttpRequest) -> HttpResponse:
    """The board's first address (/schedule/): a permanent redirect, the query kept (?week=, ?preview=).

    Bookmarks, links in reminders already sent and installed apps started at the old address land here.
    """
    query = request.META.get("QUERY_STRING", "")
    return HttpResponsePermanentRedirect(reverse("board:week") + (f"?{query}" if query else ""))


def _open_preview_or_none(request: AuthedHttpRequest) -> PlanPreview | None:
    preview_id = digits_int(request.GET.get("preview"))
    if preview_id is None:
        return None
    return PlanPreview.objects.filter(user=request.user, pk=preview_id, status=PlanPreview.Status.OPEN,
                                      expires_at__gt=timezone.now()).first()


@login_required
@require_POST
def plan_new(request: AuthedHttpRequest) -> HttpResponse:
    """Plan the chosen classes and open the board on the first suggested week."""
    ids = [pk for pk in map(digits_int, request.POST.getlist("task_class_ids")) if pk is not None]
    try:
        rate_limit_hit("planning", user_key(request.user))
        preview = planning.preview_create(user=request.user, task_class_ids=ids)
    except NotFoundError:
        raise  # the 404 page (NotFoundErrorMiddleware), not a message
    except AppError as exc:
        messages.error(request, exc.message)
        back = request.POST.get("back")
        return redirect(back if is_local_path(back) else "board:week")
    first_week = min((p.spot.week for p in preview.placement_records()), default=None)
    if preview.unplaced:
        messages.warning(request, _("%(count)s blocks found no place; see the list under the board.")
                         % {"count": len(preview.unplaced)})
    query = f"?preview={preview.pk}" + (f"&week={first_week}" if first_week else "")
    return redirect(reverse("board:week") + query)


@login_required
@require_POST
def plan_apply(request: AuthedHttpRequest, preview_id: int) -> HttpResponse:
    """Apply a preview from the board (the no-JavaScript path; the board's script uses the API)."""
    try:
        changeset = previews.preview_apply(user=request.user, preview_id=preview_id)
    except NotFoundError:
        raise  # the 404 page (NotFoundErrorMiddleware), not a message
    except AppError as exc:
        messages.error(request, exc.message)
        return redirect(reverse("board:week") + f"?preview={preview_id}")
    messages.success(request, _("Applied: %(summary)s.") % {"summary": changeset_view(changeset)["summary"]})
    return redirect(reverse("board:week") + f"?week={request.POST.get('week', '')}")


@login_required
@require_POST
def plan_discard(request: AuthedHttpRequest, preview_id: int) -> HttpResponse:
    planning.preview_discard(user=request.user, preview_id=preview_id)
    messages.info(request, _("The suggestion was discarded; nothing changed."))
    return redirect("board:week")


@login_required
@require_POST
def changeset_undo(request: AuthedHttpRequest, changeset_id: int) -> HttpResponse:
    try:
        previews.changeset_undo(user=request.user, changeset_id=changeset_id)
    except NotFoundError:
        raise  # the 404 page (NotFoundErrorMiddleware), not a message
    except AppError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Undone."))
    back = request.POST.get("back")
    return redirect(back if is_local_path(back) else "board:week")


@login_required
@require_POST
def note_schedule(request: AuthedHttpRequest, task_id: int) -> HttpResponse:
    """找个时间: propose a time for the note as a preview on the week board; nothing is written until Apply."""
    try:
        rate_limit_hit("planning", user_key(request.user))
        preview = note_slot_preview(user=request.user, task_id=task_id)
    except NotFoundError:
        raise  # the 404 page (NotFoundErrorMiddleware), not a message
    except AppError as exc:
        messages.error(request, exc.message)
        return redirect("dashboard")
    messages.info(request, _("Here is a time for your note. Apply to keep it or Discard to drop it; nothing is "
                             "on your schedule until you apply."))
    week = preview_first_week(preview)
    return redirect(reverse("board:week") + f"?preview={preview.pk}" + (f"&week={week}" if week else ""))
