"""My data: download everything as an archive, or delete the account (pages)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from accounts.data_erase import account_delete
from accounts.data_export import user_data_download
from accounts.data_ports import user_data_counts
from accounts.exceptions import PasswordRequiredError
from accounts.requests import AuthedHttpRequest
from smartmate.platform.exceptions import AppError
from smartmate.platform.ratelimit import rate_limit_hit, user_key


class AccountDeleteForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Password"), widget=forms.PasswordInput, strip=False)
    confirm = forms.BooleanField(label=gettext_lazy("I understand that this deletes everything and cannot be undone"))


def archive_response(chunks, username: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(chunks, content_type="application/zip")
    stamp = timezone.localdate().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="smartmate-{username}-{stamp}.zip"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
def my_data(request: AuthedHttpRequest) -> HttpResponse:
    """What the student has with us, a download button and the account deletion form."""
    return render(request, "accounts/my_data.html", {
        "counts": _readable_counts(user_data_counts(user=request.user)),
        "delete_form": AccountDeleteForm(),
    })


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def my_data_download(request: AuthedHttpRequest) -> HttpResponseBase:
    """GET: a page with the download button; POST: build and stream the archive.

    A GET never starts an export: links, prefetching and a cross-site <img> all send GETs, and each
    export costs a full read of the student's data and one of the few hourly exports.
    """
    if request.method != "POST":
        return render(request, "accounts/my_data_download.html")
    try:
        chunks = user_data_download(user=request.user)
    except AppError as exc:
        messages.error(request, exc.message)
        return redirect("accounts:my-data")
    return archive_response(chunks, request.user.username)


@login_required
@require_POST
@sensitive_post_parameters("password")
def my_account_delete(request: AuthedHttpRequest) -> HttpResponse:
    form = AccountDeleteForm(request.POST)
    if form.is_valid():
        try:
            rate_limit_hit("account_delete", user_key(request.user))
            account_delete(user=request.user, password=form.cleaned_data["password"])
        except PasswordRequiredError:
            form.add_error("password", _("The password is not right."))
        except AppError as exc:
            form.add_error(None, exc.message)
        else:
            logout(request)
            messages.success(request, _("Your account and everything in it were deleted."))
            return redirect("accounts:login")
    counts = _readable_counts(user_data_counts(user=request.user))
    return render(request, "accounts/my_data.html", {"counts": counts, "delete_form": form}, status=400)


# What the page lists, in the student's words (the counts' other kinds are bookkeeping).
_SHOWN = {
    "schedule.course": gettext_lazy("Courses"),
    "schedule.scheduleevent": gettext_lazy("Events on the board"),
    "plans.taskclass": gettext_lazy("Study plans"),
    "plans.taskitem": gettext_lazy("Study blocks"),
    "plans.task": gettext_lazy("Quick notes"),
    "conversations.conversation": gettext_lazy("Conversations"),
    "conversations.message": gettext_lazy("Messages"),
    "memory.memoryitem": gettext_lazy("Memories (with their history)"),
}


def _readable_counts(counts: dict[str, int]) -> list[tuple[str, int]]:
    return [(str(label), counts.get(key, 0)) for key, label in _SHOWN.items()]
