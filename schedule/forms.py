"""Forms of the schedule's pages."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.forms import TimeZoneField
from schedule.models import MAX_SEMESTER_WEEKS


class CalendarForm(forms.Form):
    """The settings page: the semester, and the student's time zone beside it (the section times come as lists)."""

    semester_start = forms.DateField(label=_("Monday of week 1"),
                                     widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    semester_weeks = forms.IntegerField(label=_("Number of weeks"), min_value=1, max_value=MAX_SEMESTER_WEEKS)
    time_zone = TimeZoneField(label=_("Time zone"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        chosen = self.data.get("time_zone") if self.is_bound else None
        cast(TimeZoneField, self.fields["time_zone"]).offer(chosen or self.initial.get("time_zone", ""))

    def clean_semester_start(self):
        value = self.cleaned_data["semester_start"]
        if value.weekday() != 0:
            raise forms.ValidationError(_("Week 1 must start on a Monday."))
        return value
