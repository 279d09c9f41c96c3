"""Schedule pages: timetable import and export, the filler switch, and the public ICS feed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.requests import AuthedHttpRequest
from schedule import selectors
from schedule.core.importers import MAX_IMPORT_BYTES, Fit
from schedule.exceptions import ImportRejectedError, ImportTooComplexError, ScheduleInputError
from schedule.services import feeds, imports, timetable_sync
from schedule.timetable_port import timetable_editor
from smartmate.platform.exceptions import ConflictError
from smartmate.platform.ratelimit import RateLimited, rate_limit_hit, user_key
from smartmate.platform.redirects import is_local_path


@login_required
def import_page(request: AuthedHttpRequest) -> HttpResponse:
    """Upload a timetable: a dry run shows what would be created, then the student confirms."""
    context: dict = {"max_bytes": MAX_IMPORT_BYTES, "feed": feeds.calendar_feed_ensure(user=request.user),
                     "courses": selectors.course_list(user=request.user)}
    if request.method == "POST":
        _handle_import(request, context)
        if context.get("imported"):
            return redirect("board:week")
    context["feed_url"] = request.build_absolute_uri(reverse("schedule:feed", kwargs={"token": context["feed"].token}))
    return render(request, "schedule/import.html", context)


def _handle_import(request: AuthedHttpRequest, context: dict) -> None:
    upload = request.FILES.get("file")
    text = request.POST.get("content", "")
    dry_run = request.POST.get("action") != "import"
    try:
        rate_limit_hit("import", user_key(request.user))
        if upload is not None:
            if (upload.size or 0) > MAX_IMPORT_BYTES:
                raise ScheduleInputError(_("The file is %(size)s bytes; imports are limited to %(limit)s bytes.")
                                         % {"size": upload.size, "limit": MAX_IMPORT_BYTES}, code="file_too_large")
            raw, name = upload.read(), upload.name or ""
        elif text.strip():
            raw, name = text.encode("utf-8"), ""
        else:
            raise ScheduleInputError(_("Choose a file or paste the timetable first."), code="no_file")
        fmt = request.POST.get("format") or imports.detect_format(name, raw)
        # A second file adds to the timetable unless she chose to replace it (a sync that deletes what the
        # file leaves out): a PE or club .ics beside the school's CSV is the usual case.
        context["mode"] = "replace" if request.POST.get("mode") == "replace" else "add"
        if context["mode"] == "replace" and timetable_sync.user_has_courses(user=request.user):
            _handle_sync(request, context, raw=raw, fmt=fmt, dry_run=dry_run)
            return
        fit: Fit = "mine" if request.POST.get("fit") == "mine" else "file"
        # One confirm: the button under a preview that proposed the file's frame or left events out says so.
        outcome = imports.timetable_import(user=request.user, data=raw, fmt=fmt, dry_run=dry_run, fit=fit,
                                           adopt=request.POST.get("adopt") == "1",
                                           accept_skips=request.POST.get("accept_skips") == "1")
        context["fit"] = fit
    except ImportRejectedError as exc:
        context.update(error=exc.message, problems=exc.detail["problems"])
        return
    except (ScheduleInputError, ImportTooComplexError, RateLimited, ConflictError) as exc:
        context.update(error=exc.message)
        return
    context.update(outcome=outcome, pasted=raw.decode("utf-8", errors="replace"), fmt=fmt)
    if not dry_run and not outcome.created_events:
        messages.info(request, _("Every class in this file is on your timetable already; nothing changed."))
        context["imported"] = True
    elif not dry_run:
        messages.success(request, _("Imported %(events)s meetings of %(courses)s new courses.")
                         % {"events": outcome.created_events, "courses": outcome.created_courses})
        if outcome.adopted:
            messages.info(request, _("Your semester and section times now follow the file; change them any time "
                                     "in Settings."))
        context["imported"] = True


def _handle_sync(request: AuthedHttpRequest, context: dict, *, raw: bytes, fmt: str, dry_run: bool) -> None:
    """A re-import: the dry run shows the diff; the confirm (with the diff's digest) syncs or is refused as stale."""
    context.update(pasted=raw.decode("utf-8", errors="replace"), fmt=fmt)
    result = timetable_editor().timetable_sync(user=request.user, data=raw, fmt=fmt, dry_run=dry_run,
                                               expected=request.POST.get("expected") or None)
    if dry_run:
        context["sync"] = result.plan
        return
    if result.changeset_id is None:
        messages.info(request, _("Your timetable already matches this file; nothing changed."))
    else:
        messages.success(request, result.summary)
    context["imported"] = True


@login_required
@require_POST
def course_filler_toggle(request: AuthedHttpRequest, course_id: int) -> HttpResponse:
    """Mark or unmark a course as filler from the board (works without JavaScript)."""
    course = selectors.course_get(user=request.user, course_id=course_id)
    # Through the timetable editor: turning the mark off frees the blocks inside, and the board offers undo.
    timetable_editor().course_change(user=request.user, course_id=course.pk, values={"is_filler": not course.is_filler})
    next_url = request.POST.get("next")
    return redirect(next_url if is_local_path(next_url) else "board:week")


@login_required
@require_POST
def feed_regenerate(request: AuthedHttpRequest) -> HttpResponse:
    feeds.calendar_feed_regenerate(user=request.user)
    messages.success(request, _("A new subscription address was made; the old one no longer works."))
    return redirect("schedule:import")


@login_required
def export_ics(request: AuthedHttpRequest) -> HttpResponse:
    response = HttpResponse(feeds.schedule_ics_build(user=request.user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="smartmate.ics"'
    return response


@require_GET
def feed(request: HttpRequest, token: str) -> HttpResponse:
    """Serve the subscription feed; the secret token in the address is the only credential."""
    body = feeds.calendar_feed_read(token=token)
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")
