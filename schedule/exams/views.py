"""The exams page (/schedule/exams/): add, change and delete exams, see the countdowns, and choose when
the dashboard starts previewing tomorrow."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.requests import AuthedHttpRequest
from schedule.exams import selectors, services
from schedule.exams.models import MAX_EXAM_PLACE, MAX_EXAM_TITLE
from schedule.selectors import calendar_settings_get, course_list
from smartmate.platform.exceptions import AppError
from smartmate.platform.params import digits_int

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
TIME_INPUT = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")


class ExamForm(forms.Form):
    """One exam as the page edits it; the services check the rules."""

    title = forms.CharField(label=gettext_lazy("Exam"), max_length=MAX_EXAM_TITLE)
    date = forms.DateField(label=gettext_lazy("Date"), widget=DATE_INPUT)
    start_time = forms.TimeField(label=gettext_lazy("Starts at"), required=False, widget=TIME_INPUT)
    end_time = forms.TimeField(label=gettext_lazy("Ends at"), required=False, widget=TIME_INPUT)
    place = forms.CharField(label=gettext_lazy("Place"), max_length=MAX_EXAM_PLACE, required=False)
    course = forms.TypedChoiceField(label=gettext_lazy("Course"), coerce=int, required=False, empty_value=None)

    def __init__(self, *args, courses=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        course = self.fields["course"]
        assert isinstance(course, forms.ChoiceField)
        course.choices = [("", "—")] + [(c.pk, c.name) for c in courses]

    def given(self) -> services.ExamInput:
        data = self.cleaned_data
        return services.ExamInput(title=data["title"], date=data["date"], start_time=data["start_time"],
                                  end_time=data["end_time"], place=data["place"], course_id=data["course"])


class PreviewForm(forms.Form):
    preview_after = forms.TimeField(label=gettext_lazy("Preview tomorrow from"), widget=TIME_INPUT)


@login_required
def exams_page(request: AuthedHttpRequest) -> HttpResponse:
    """List the exams with their countdowns; POST adds, changes or deletes one, or sets the preview time."""
    courses = list(course_list(user=request.user))
    if request.method == "POST":
        action = ACTIONS.get(request.POST.get("action", ""))
        try:
            if action is None:
                raise AppError(_("Unknown action."), code="unknown_action")
            messages.success(request, action(request, courses))
        except AppError as exc:
            messages.error(request, str(exc.message))
        return redirect("schedule:exams")
    calendar = calendar_settings_get(user=request.user)
    today = calendar.semester(request.user.time_zone).local_date(timezone.now())
    rows = [{"exam": exam, "days_left": (exam.date - today).days,
             "form": ExamForm(courses=courses, prefix=f"exam{exam.pk}", initial={
                 "title": exam.title, "date": exam.date, "start_time": exam.start_time, "end_time": exam.end_time,
                 "place": exam.place, "course": exam.course_id})}
            for exam in selectors.exam_list(user=request.user)]
    context = {"rows": rows, "form": ExamForm(courses=courses),
               "preview_form": PreviewForm(initial={"preview_after": calendar.preview_after})}
    return render(request, "schedule/exams.html", context)


def _form_error(form: forms.Form) -> AppError:
    return AppError(" ".join(f"{form.fields[field].label}: {' '.join(str(e) for e in errors)}"
                             if field in form.fields else " ".join(str(e) for e in errors)
                             for field, errors in form.errors.items()), code="invalid_exam")


def _add(request: AuthedHttpRequest, courses: list) -> str:
    form = ExamForm(request.POST, courses=courses)
    if not form.is_valid():
        raise _form_error(form)
    exam = services.exam_create(user=request.user, given=form.given())
    return _("Added the exam %(title)s.") % {"title": exam.title}


def _exam_id(request: AuthedHttpRequest) -> int:
    exam_id = digits_int(request.POST.get("exam_id"))
    if exam_id is None:
        raise selectors.ExamNotFoundError(_("Exam not found."))
    return exam_id


def _edit(request: AuthedHttpRequest, courses: list) -> str:
    exam_id = _exam_id(request)
    form = ExamForm(request.POST, courses=courses, prefix=f"exam{exam_id}")
    if not form.is_valid():
        raise _form_error(form)
    services.exam_update(user=request.user, exam_id=exam_id, given=form.given())
    return _("Saved.")


def _delete(request: AuthedHttpRequest, courses: list) -> str:
    services.exam_delete(user=request.user, exam_id=_exam_id(request))
    return _("Deleted.")


def _preview(request: AuthedHttpRequest, courses: list) -> str:
    form = PreviewForm(request.POST)
    if not form.is_valid():
        raise _form_error(form)
    services.preview_time_set(user=request.user, preview_after=form.cleaned_data["preview_after"])
    return _("Saved.")


ACTIONS = {"add": _add, "edit": _edit, "delete": _delete, "preview": _preview}
