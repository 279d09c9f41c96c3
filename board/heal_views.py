"""The board's "补上落下的 3 次复习" and "修复" buttons (plain forms; the API has the same actions).

Each makes a preview and opens the week board on it, where the student reads why each block goes
where it goes, applies it or discards it; a refusal comes back as a message on the page it came from.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.requests import AuthedHttpRequest
from board.catch_up import catch_up_count, catch_up_preview
from board.repair import REPAIRABLE_KINDS, repair_offer, repair_preview
from schedule.models import ChangeSet, PlanPreview
from smartmate.platform.exceptions import AppError, NotFoundError
from smartmate.platform.params import digits_int
from smartmate.platform.ratelimit import rate_limit_hit, user_key
from smartmate.platform.redirects import is_local_path


def _on_board(preview: PlanPreview) -> HttpResponse:
    weeks = [p.spot.week for p in preview.placement_records()] + [m.target.week for m in preview.move_records()]
    query = f"?preview={preview.pk}" + (f"&week={min(weeks)}" if weeks else "")
    return redirect(reverse("board:week") + query)


def _back(request: AuthedHttpRequest, error: AppError) -> HttpResponse:
    messages.error(request, error.message)
    back = request.POST.get("back")
    return redirect(back if is_local_path(back) else "board:week")


def _digits(value: str | None) -> int | None:
    return digits_int(value)


@login_required
@require_POST
def catch_up(request: AuthedHttpRequest) -> HttpResponse:
    """Place the blocks gone by and not done again: open the preview on the board."""
    try:
        rate_limit_hit("planning", user_key(request.user))
        preview = catch_up_preview(user=request.user, task_class_id=_digits(request.POST.get("task_class_id")),
                                   item_id=_digits(request.POST.get("item_id")))
    except NotFoundError:
        raise  # the 404 page, not a message
    except AppError as exc:
        return _back(request, exc)
    return _on_board(preview)


@login_required
@require_POST
def repair(request: AuthedHttpRequest) -> HttpResponse:
    """Place the blocks a change displaced again, moving as few others as possible: open the preview."""
    try:
        rate_limit_hit("planning", user_key(request.user))
        preview = repair_preview(user=request.user, changeset_id=_digits(request.POST.get("changeset_id")))
    except NotFoundError:
        raise
    except AppError as exc:
        return _back(request, exc)
    return _on_board(preview)


def heal_offers(*, user: User, last_change: ChangeSet | None) -> dict:
    """What the week board offers: how many blocks to catch up, and a repair of the last change."""
    repair_count = (repair_offer(user=user, changeset=last_change)
                    if last_change is not None and last_change.kind in REPAIRABLE_KINDS else 0)
    return {"catch_up": catch_up_count(user=user), "repair": repair_count,
            "repair_changeset": last_change.pk if repair_count and last_change is not None else None}
