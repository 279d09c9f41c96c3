"""Semester pages: the list of semesters (/schedule/semesters/), a past one read-only (its week board,
exams and workload), and the start of the next semester (dates, what comes along, confirm) with its undo."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.requests import AuthedHttpRequest
from schedule.core.semester_archive import workload_of
from schedule.core.semester_board import week_board
from schedule.messages import day_label
from schedule.models import MAX_SEMESTER_WEEKS, Course, ScheduleEvent
from schedule.semesters import selectors
from schedule.student_rules.services import study_rules_get
from smartmate.platform.exceptions import AppError
from smartmate.platform.params import digits_int
from taskclasses.models import Task, TaskClass
from taskclasses.semesters import services

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class NextSemesterForm(forms.Form):
    """The new semester's dates and what comes along; the service checks the rules."""

    first_monday = forms.DateField(label=gettext_lazy("Monday of week 1"), widget=DATE_INPUT)
    weeks = forms.IntegerField(label=gettext_lazy("Number of weeks"), min_value=1, max_value=MAX_SEMESTER_WEEKS)
    notes = forms.TypedMultipleChoiceField(label=gettext_lazy("Unfinished quick notes to bring along"), coerce=int,
                                           required=False, widget=forms.CheckboxSelectMultiple)
    rules = forms.BooleanField(label=gettext_lazy("Keep my study rules (daily cap, gap between blocks, latest section)"),
                               required=False)
    protected = forms.MultipleChoiceField(label=gettext_lazy("Protected times to keep"), required=False,
                                          widget=forms.CheckboxSelectMultiple)
    plans = forms.BooleanField(label=gettext_lazy("Bring along study plans not finished"), required=False)
    filler = forms.BooleanField(label=gettext_lazy("Mark the new timetable's courses as filler when they were last "
                                                   "semester (by course name)"), required=False)

    def __init__(self, *args, notes=(), protected=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["notes"].choices = [(n.pk, n.title) for n in notes]  # type: ignore[attr-defined]
        self.fields["protected"].choices = [(name, name) for name in protected]  # type: ignore[attr-defined]

    def carry(self) -> services.Carry:
        data = self.cleaned_data
        return services.Carry(note_ids=tuple(data["notes"]), rules=data["rules"], protected=tuple(data["protected"]),
                              plans=data["plans"], filler=data["filler"])


@login_required
def semesters_page(request: AuthedHttpRequest) -> HttpResponse:
    """The current semester, the past ones, and the way to start the next."""
    past = list(selectors.semester_list(user=request.user))
    return render(request, "schedule/semesters.html", {
        "current": selectors.semester_current_get(user=request.user), "past": past,
        "needs_timetable": bool(past) and not Course.objects.filter(user=request.user).exists(),
    })


@login_required
def past_semester_page(request: AuthedHttpRequest, semester_id: int) -> HttpResponse:
    """A past semester read-only: one week of its board, its exams and its workload."""
    past, archive = selectors.semester_archive_get(user=request.user, semester_id=semester_id)
    week = min(max(digits_int(request.GET.get("week", "")) or 1, 1), archive.weeks)
    workload = workload_of(archive)
    return render(request, "schedule/past_semester.html", {
        "past": past, "archive": archive, "week": week, "rows": week_board(archive, week),
        "days": [{"number": n, "label": day_label(n), "date": archive.first_monday + timedelta(weeks=week - 1,
                                                                                                 days=n - 1)}
                 for n in range(1, 8)],
        "previous_week": week - 1 if week > 1 else None, "next_week": week + 1 if week < archive.weeks else None,
        "workload": workload, "busiest": max([w.course_sections + w.study_sections for w in workload.weeks] + [1]),
        "semesters": list(selectors.semester_list(user=request.user)),
    })


def _form(request: AuthedHttpRequest, data=None) -> NextSemesterForm:
    guess = services.semester_next_guess(user=request.user)
    protected = [str(p["name"]) for p in study_rules_get(user=request.user).protected_times]
    notes = Task.objects.filter(user=request.user, completed=False).order_by("quadrant", "pk")
    initial = {"first_monday": guess.first_monday, "weeks": guess.weeks, "rules": True, "protected": protected,
               "plans": True, "filler": True}
    return NextSemesterForm(data, initial=initial, notes=notes, protected=protected)


@login_required
def next_semester_page(request: AuthedHttpRequest) -> HttpResponse:
    """Start the next semester: the form (GET), its confirmation (``action=review``), the start (``action=start``)."""
    form = _form(request, request.POST or None)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action and form.is_valid():
        if action == "start":
            try:
                services.semester_next_start(user=request.user, first_monday=form.cleaned_data["first_monday"],
                                             weeks=form.cleaned_data["weeks"], carry=form.carry())
            except AppError as exc:
                form.add_error(None, exc.student_message())
            else:
                messages.success(request, _("The new semester has started. Last semester is kept read-only below."))
                return redirect("semesters:list")
        else:
            return render(request, "schedule/next_semester_confirm.html", {
                "form": form, "leaving": _leaving(request), "current": selectors.semester_current_get(user=request.user),
                "chosen_notes": [label for value, label in form.fields["notes"].choices  # type: ignore[attr-defined]
                                 if value in form.cleaned_data["notes"]]})
    return render(request, "schedule/next_semester.html", {
        "form": form, "guess": services.semester_next_guess(user=request.user),
        "current": selectors.semester_current_get(user=request.user)})


def _leaving(request: AuthedHttpRequest) -> dict[str, int]:
    """What the current semester holds, for the confirmation: it is kept read-only, no longer on the board."""
    events = ScheduleEvent.objects.filter(user=request.user)
    return {"courses": Course.objects.filter(user=request.user).count(),
            "meetings": events.filter(kind=ScheduleEvent.Kind.COURSE).count(),
            "blocks": events.filter(kind=ScheduleEvent.Kind.TASK_ITEM).count(),
            "plans": TaskClass.objects.filter(user=request.user).count()}


@login_required
@require_POST
def next_semester_undo(request: AuthedHttpRequest) -> HttpResponse:
    """Undo the last start of a semester (refused, with the reason, once something new was written)."""
    try:
        services.semester_next_start_undo(user=request.user)
    except AppError as exc:
        messages.error(request, exc.student_message())
    else:
        messages.success(request, _("Undone: last semester is back as it was."))
    return redirect("semesters:list")
