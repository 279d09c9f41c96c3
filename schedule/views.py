"""Schedule pages: the week board, import and export, and the public ICS feed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from schedule import selectors
from schedule.board import board_rows
from schedule.core.importers import MAX_IMPORT_BYTES
from schedule.core.time_model import TimeModelError
from schedule.exceptions import ImportRejectedError, ImportTooComplexError, ScheduleInputError
from schedule.messages import day_label
from schedule.models import ChangeSet, PlanPreview
from schedule.preview_view import changeset_view, preview_view
from schedule.services import courses, feeds, imports, planning, previews
from smartmate.platform.exceptions import AppError, NotFoundError
from smartmate.platform.ratelimit import RateLimited, rate_limit_hit, user_key


@login_required
def week_board(request: HttpRequest) -> HttpResponse:
    """Show one week: section times down, days across, today highlighted, a preview overlaid."""
    raw_week = request.GET.get("week", "")
    week = int(raw_week) if raw_week.isdigit() else None
    preview = _open_preview_or_none(request)
    try:
        board = selectors.week_board_get(user=request.user, week=week)
    except TimeModelError:
        return redirect("schedule:week")
    shown = preview_view(preview) if preview else None
    days = [{"number": n, "label": day_label(n), "date": d, "is_today": d == board.today}
            for n, d in enumerate(board.dates, start=1)]
    context = {"board": board, "rows": board_rows(board, preview=shown), "days": days,
               "preview": shown, "preview_weeks": shown.weeks if shown else [],
               "last_change": ChangeSet.objects.filter(user=request.user, undone_at__isnull=True).first(),
               "previous_week": board.week - 1 if board.week > 1 else None,
               "next_week": board.week + 1 if board.week < board.weeks else None}
    return render(request, "schedule/week.html", context)


def _open_preview_or_none(request: HttpRequest) -> PlanPreview | None:
    raw = request.GET.get("preview", "")
    if not raw.isdigit():
        return None
    return PlanPreview.objects.filter(user=request.user, pk=int(raw), status=PlanPreview.Status.OPEN,
                                      expires_at__gt=timezone.now()).first()


@login_required
@require_POST
def plan_new(request: HttpRequest) -> HttpResponse:
    """Plan the chosen classes and open the board on the first suggested week."""
    ids = [int(v) for v in request.POST.getlist("task_class_ids") if v.isdigit()]
    try:
        rate_limit_hit("planning", user_key(request.user))
        preview = planning.preview_create(user=request.user, task_class_ids=ids)
    except NotFoundError:
        raise  # the 404 page (NotFoundErrorMiddleware), not a message
    except AppError as exc:
        messages.error(request, exc.message)
        return redirect(request.POST.get("back") if _is_local(request.POST.get("back")) else "schedule:week")
    first_week = min((p["week"] for p in preview.placements), default=None)
    if preview.unplaced:
        messages.warning(request, _("%(count)s blocks found no place; see the list under the board.")
                         % {"count": len(preview.unplaced)})
    query = f"?preview={preview.pk}" + (f"&week={first_week}" if first_week else "")
    return redirect(reverse("schedule:week") + query)


@login_required
@require_POST
def plan_apply(request: HttpRequest, preview_id: int) -> HttpResponse:
    """Apply a preview from the board (the no-JavaScript path; the board's script uses the API)."""
    try:
        changeset = previews.preview_apply(user=request.user, preview_id=preview_id)
    except NotFoundError:
        raise  # the 404 page (NotFoundErrorMiddleware), not a message
    except AppError as exc:
        messages.error(request, exc.message)
        return redirect(reverse("schedule:week") + f"?preview={preview_id}")
    messages.success(request, _("Applied: %(summary)s.") % {"summary": changeset_view(changeset)["summary"]})
    return redirect(reverse("schedule:week") + f"?week={request.POST.get('week', '')}")


@login_required
@require_POST
def plan_discard(request: HttpRequest, preview_id: int) -> HttpResponse:
    planning.preview_discard(user=request.user, preview_id=preview_id)
    messages.info(request, _("The suggestion was discarded; nothing changed."))
    return redirect("schedule:week")


@login_required
@require_POST
def changeset_undo(request: HttpRequest, changeset_id: int) -> HttpResponse:
    try:
        previews.changeset_undo(user=request.user, changeset_id=changeset_id)
    except NotFoundError:
        raise  # the 404 page (NotFoundErrorMiddleware), not a message
    except AppError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Undone."))
    back = request.POST.get("back")
    return redirect(back if _is_local(back) else "schedule:week")


def _is_local(url: str | None) -> bool:
    return bool(url) and url.startswith("/") and not url.startswith("//")


@login_required
def import_page(request: HttpRequest) -> HttpResponse:
    """Upload a timetable: a dry run shows what would be created, then the student confirms."""
    context: dict = {"max_bytes": MAX_IMPORT_BYTES, "feed": feeds.calendar_feed_ensure(user=request.user),
                     "courses": selectors.course_list(user=request.user)}
    if request.method == "POST":
        _handle_import(request, context)
        if context.get("imported"):
            return redirect("schedule:week")
    context["feed_url"] = request.build_absolute_uri(reverse("schedule:feed", kwargs={"token": context["feed"].token}))
    return render(request, "schedule/import.html", context)


def _handle_import(request: HttpRequest, context: dict) -> None:
    upload = request.FILES.get("file")
    text = request.POST.get("content", "")
    dry_run = request.POST.get("action") != "import"
    try:
        rate_limit_hit("import", user_key(request.user))
        if upload is not None:
            if upload.size > MAX_IMPORT_BYTES:
                raise ScheduleInputError(_("The file is %(size)s bytes; imports are limited to %(limit)s bytes.")
                                         % {"size": upload.size, "limit": MAX_IMPORT_BYTES}, code="file_too_large")
            raw, name = upload.read(), upload.name or ""
        elif text.strip():
            raw, name = text.encode("utf-8"), ""
        else:
            raise ScheduleInputError(_("Choose a file or paste the timetable first."), code="no_file")
        fmt = request.POST.get("format") or imports.detect_format(name, raw)
        outcome = imports.timetable_import(user=request.user, data=raw, fmt=fmt, dry_run=dry_run)
    except ImportRejectedError as exc:
        context.update(error=exc.message, problems=exc.detail["problems"])
        return
    except (ScheduleInputError, ImportTooComplexError, RateLimited) as exc:
        context.update(error=exc.message)
        return
    context.update(outcome=outcome, pasted=raw.decode("utf-8", errors="replace"), fmt=fmt)
    if not dry_run:
        messages.success(request, _("Imported %(events)s meetings of %(courses)s new courses.")
                         % {"events": outcome.created_events, "courses": outcome.created_courses})
        context["imported"] = True


@login_required
@require_POST
def course_filler_toggle(request: HttpRequest, course_id: int) -> HttpResponse:
    """Mark or unmark a course as filler from the board (works without JavaScript)."""
    course = selectors.course_get(user=request.user, course_id=course_id)
    courses.course_update(user=request.user, course_id=course.pk, is_filler=not course.is_filler)
    next_url = request.POST.get("next")
    return redirect(next_url if _is_local(next_url) else "/schedule/")


@login_required
@require_POST
def feed_regenerate(request: HttpRequest) -> HttpResponse:
    feeds.calendar_feed_regenerate(user=request.user)
    messages.success(request, _("A new subscription address was made; the old one no longer works."))
    return redirect("schedule:import")


@login_required
def export_ics(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(feeds.schedule_ics_build(user=request.user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="smartmate.ics"'
    return response


@require_GET
def feed(request: HttpRequest, token: str) -> HttpResponse:
    """Serve the subscription feed; the secret token in the address is the only credential."""
    body = feeds.calendar_feed_read(token=token)
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")
