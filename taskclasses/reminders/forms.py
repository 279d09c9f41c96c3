"""The settings page's reminder form; ranges are checked by the service (one message for page and API)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ReminderSettingsForm(forms.Form):
    blocks_enabled = forms.BooleanField(label=_("Remind me before study blocks"), required=False)
    block_lead_minutes = forms.IntegerField(label=_("Minutes before a study block"))
    deadlines_enabled = forms.BooleanField(label=_("Remind me on a deadline's day"), required=False)
    deadline_time = forms.TimeField(label=_("At"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    courses_enabled = forms.BooleanField(label=_("Remind me before courses"), required=False)
    course_lead_minutes = forms.IntegerField(label=_("Minutes before a course"))
    quiet_start = forms.TimeField(label=_("Quiet from"), required=False,
                                  widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    quiet_end = forms.TimeField(label=_("Quiet until"), required=False,
                                widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
