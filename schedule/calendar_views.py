"""The settings page (/accounts/settings/): the semester and section times, with the time zone and quota,
and the school calendar (holidays, make-up days, exam weeks, the "follow" switch).

It lives with the calendar it edits; the root URLconf serves it as ``accounts:settings``, its address
since the start (accounts imports nothing from the schedule).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.requests import AuthedHttpRequest
from accounts.selectors import token_quota_get
from accounts.services import user_profile_update
from schedule import selectors
from schedule.calendar_labels import label_note
from schedule.core.academic_calendar import DayKind, DayLabel
from schedule.core.holiday_ics import MAX_ICS_BYTES
from schedule.core.time_model import MAX_SECTIONS
from schedule.forms import CalendarForm
from schedule.messages import DAY_LABELS
from schedule.models import CalendarDay
from schedule.selectors import calendar_settings_get
from schedule.services import academic_calendar
from schedule.services.calendar import calendar_settings_update
from smartmate.platform.exceptions import AppError
from smartmate.platform.params import digits_int


@login_required
def settings_page(request: AuthedHttpRequest) -> HttpResponse:
    """Edit the semester, the section-time template and the time zone."""
    calendar = calendar_settings_get(user=request.user)
    initial = {
        "semester_start": calendar.semester_start,
        "semester_weeks": calendar.semester_weeks,
        "time_zone": request.user.time_zone,
    }
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action in SCHOOL_CALENDAR_ACTIONS:
        return _school_calendar_post(request, action)
    form = CalendarForm(request.POST or None, initial=initial)
    sections = calendar.section_times
    later = _saved_later_grid(calendar)
    section_error = later_error = ""
    if request.method == "POST":
        sections = list(zip(request.POST.getlist("section_start"), request.POST.getlist("section_end")))
        later = _posted_later_grid(request) or later
        if form.is_valid():
            try:
                calendar_settings_update(
                    user=request.user,
                    semester_start=form.cleaned_data["semester_start"],
                    semester_weeks=form.cleaned_data["semester_weeks"],
                    section_times=[list(pair) for pair in sections],
                    later_sections=later.to_update(),
                )
                user_profile_update(user=request.user, time_zone=form.cleaned_data["time_zone"])
            except ValidationError as exc:
                section_error, later_error = _settings_errors(exc)
            except AppError as exc:  # the school calendar could not follow the moved semester
                section_error = str(exc.message)
            else:
                messages.success(request, _("Settings saved."))
                return redirect("accounts:settings")
    context = {
        "form": form,
        "sections": [{"number": n, "start": s, "end": e} for n, (s, e) in enumerate(sections, start=1)],
        "section_error": section_error,
        "later": later.context(sections),
        "later_error": later_error,
        "max_sections": MAX_SECTIONS,
        "calendar": calendar,
        "quota": token_quota_get(user=request.user),
        **_school_calendar_context(request.user, calendar),
    }
    return render(request, "accounts/settings.html", context)


# --- The second grid (winter or summer hours) ------------------------------------------------------

@dataclass(frozen=True)
class LaterGrid:
    """The second section times as the page holds them: times and the date they start, as typed."""

    times: list[list[str]]
    starts: str
    drop: bool = False
    invalid_date: bool = False
    untouched: bool = False  # as saved: the form left it alone

    def to_update(self) -> tuple[list[list[str]], date | None] | None:
        """What calendar_settings_update takes: None leaves an absent grid absent, ([], None) drops one."""
        if self.untouched:
            return None
        if self.drop:
            return [], None
        if self.invalid_date:
            raise ValidationError({"later_sections_from": _("Give the date the other times start, like 2026-10-08.")})
        return self.times, date.fromisoformat(self.starts) if self.starts else None

    def context(self, sections: list) -> dict:
        """Rows to show: the second grid's times, or the first grid's as a starting point when there is none."""
        shown = bool(self.times or self.starts) and not self.drop
        times = self.times if shown else [list(pair) for pair in sections]
        return {"shown": shown, "from": self.starts,
                "rows": [{"number": n, "start": s, "end": e} for n, (s, e) in enumerate(times, start=1)]}


def _saved_later_grid(calendar) -> LaterGrid:
    starts = calendar.later_sections_from.isoformat() if calendar.later_sections_from else ""
    return LaterGrid(calendar.later_section_times, starts, untouched=True)


def _posted_later_grid(request: AuthedHttpRequest) -> LaterGrid | None:
    """The second grid as posted; None when the form carried none (the editor was never opened)."""
    if "later_sections_from" not in request.POST and not request.POST.get("drop_later_sections"):
        return None
    times = [[start, end] for start, end in zip(request.POST.getlist("later_section_start"),
                                                 request.POST.getlist("later_section_end"))]
    starts = request.POST.get("later_sections_from", "").strip()
    return LaterGrid(times, starts, drop=bool(request.POST.get("drop_later_sections")),
                     invalid_date=bool(starts) and not _is_iso_date(starts))


def _is_iso_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _settings_errors(exc: ValidationError) -> tuple[str, str]:
    """(error of the semester and first grid, error of the second grid), each in one line."""
    if not hasattr(exc, "error_dict"):
        return " ".join(exc.messages), ""
    later_fields = ("later_section_times", "later_sections_from")
    first = [m for field, errors in exc.message_dict.items() if field not in later_fields for m in errors]
    later = [m for field in later_fields for m in exc.message_dict.get(field, [])]
    return " ".join(first), _("Winter or summer hours: %(error)s") % {"error": " ".join(later)} if later else ""


# --- The school calendar section ---------------------------------------------------------------------

class CalendarDayForm(forms.Form):
    """A holiday or exam range, or a make-up day (one date running week N, weekday D)."""

    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=CalendarDay.Kind.choices)
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60, required=False)
    notice = forms.CharField(label=gettext_lazy("Or paste the school's notice"), max_length=200, required=False,
                             widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. 12-13 补 12-11 的课")}))
    first_date = forms.DateField(label=gettext_lazy("Date (first day)"), required=False,
                                 widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    last_date = forms.DateField(label=gettext_lazy("Last day"), required=False,
                                widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    runs_week = forms.IntegerField(label=gettext_lazy("Runs the classes of week"), required=False, min_value=1,
                                   max_value=30)
    runs_day = forms.TypedChoiceField(label=gettext_lazy("Weekday"), required=False, coerce=int, empty_value=None,
                                      choices=[("", "—"), *((n, DAY_LABELS[n - 1]) for n in range(1, 8))])

    def day(self, user) -> academic_calendar.DayInput:
        """The day as entered; a make-up day may come as a line of the notice instead of date, week and weekday."""
        data = self.cleaned_data
        if data["kind"] == CalendarDay.Kind.MAKEUP and data["notice"].strip():
            return academic_calendar.makeup_from_notice(user=user, text=data["notice"], name=data["name"])
        if data["first_date"] is None:
            raise AppError(_("Give the date (the first day)."), code="date_required")
        if data["kind"] == CalendarDay.Kind.MAKEUP and not (data["runs_week"] and data["runs_day"]):
            raise AppError(_("Say which week and weekday the make-up day runs."), code="makeup_day_invalid")
        return academic_calendar.DayInput(data["kind"], data["name"], data["first_date"],
                                          data["last_date"] or data["first_date"], data["runs_week"], data["runs_day"])


def _school_calendar_context(user, calendar) -> dict:
    days = [{"row": row, "note": label_note(DayLabel(DayKind(row.kind), row.name, row.runs_week, row.runs_day)).long}
            for row in selectors.calendar_days_list(user=user)]
    return {"calendar_days": days, "day_form": CalendarDayForm(initial={"kind": CalendarDay.Kind.HOLIDAY}),
            "national_years": academic_calendar.national_years()}


def _school_calendar_post(request: AuthedHttpRequest, action: str) -> HttpResponse:
    try:
        done = SCHOOL_CALENDAR_ACTIONS[action](request)
    except AppError as exc:
        messages.error(request, _calendar_error_text(exc))
    else:
        if done:
            messages.success(request, done)
    return redirect(reverse("accounts:settings") + "#school-calendar")


def _calendar_error_text(exc: AppError) -> str:
    problems = (exc.detail or {}).get("problems") if isinstance(exc.detail, dict) else None
    if problems and len(problems) > 1:
        return " ".join(str(p["message"]) for p in problems[:5])
    conflicts = (exc.detail or {}).get("conflicts") if isinstance(exc.detail, dict) else None
    if conflicts and len(conflicts) > 1:
        return _("%(first)s (%(count)d clashes in all)") % {"first": exc.message, "count": len(conflicts)}
    return str(exc.message)


def _switch(request: AuthedHttpRequest) -> str:
    follows = request.POST.get("follows") == "on"
    academic_calendar.school_calendar_switch(user=request.user, follows=follows)
    if not follows:
        return _("The timetable runs as imported.")
    return _("Following the school calendar (course meetings suspended: %(suspended)d, make-up meetings: "
             "%(added)d).") % academic_calendar.school_calendar_counts(user=request.user)


def _add_day(request: AuthedHttpRequest) -> str:
    form = CalendarDayForm(request.POST)
    if not form.is_valid():
        raise AppError(" ".join(f"{form.fields[field].label}: {' '.join(str(e) for e in errors)}"
                                for field, errors in form.errors.items()), code="invalid_day")
    day = academic_calendar.calendar_day_create(user=request.user, day=form.day(request.user))
    return _("Added %(name)s.") % {"name": day.name}


def _delete_day(request: AuthedHttpRequest) -> str:
    day_id = digits_int(request.POST.get("day_id"))
    if day_id is None:
        raise AppError(_("Not found."), code="calendar_day_not_found")
    academic_calendar.calendar_day_delete(user=request.user, day_id=day_id)
    return _("Deleted.")


def _import_ics(request: AuthedHttpRequest) -> str:
    upload = request.FILES.get("file")
    if upload is None:
        raise AppError(_("Choose an .ics file."), code="no_file")
    if upload.size is not None and upload.size > MAX_ICS_BYTES:
        raise AppError(_("The file is too large for a holiday calendar."), code="file_too_large")
    outcome = academic_calendar.calendar_ics_import(user=request.user, data=upload.read())
    return _imported_text(outcome)


def _load_national(request: AuthedHttpRequest) -> str:
    year = digits_int(request.POST.get("year"))
    if year is None:
        raise AppError(_("Choose a year."), code="no_year")
    return _imported_text(academic_calendar.national_holidays_load(user=request.user, year=year))


def _imported_text(outcome: academic_calendar.DaysImported) -> str:
    text = _("Holidays added: %(names)s.") % {"names": "、".join(d.name for d in outcome.days) or "—"}
    if outcome.workdays:
        text += " " + _("Make-up working days to enter by hand (say which classes run): %(days)s.") % {
            "days": "、".join(outcome.workdays)}
    return text


SCHOOL_CALENDAR_ACTIONS = {"calendar_switch": _switch, "calendar_day_add": _add_day,
                           "calendar_day_delete": _delete_day, "calendar_ics_import": _import_ics,
                           "calendar_national_load": _load_national}
