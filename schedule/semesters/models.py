"""A past semester: its dates and grid, and the frozen document of everything it held.

Kept beside its feature and registered with the schedule app (imported at the end of schedule/models.py).
The live tables are always the current semester; a row here is a semester that has ended, and never
changes again (``document`` is a ``schedule.core.semester_archive`` document).
"""

from __future__ import annotations

from datetime import date, timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Semester(models.Model):
    """One past semester of one student: week 1, length, section grid and the frozen document."""

    class Season(models.TextChoices):
        AUTUMN = "autumn", _("Autumn semester")
        SPRING = "spring", _("Spring semester")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="semesters")
    year = models.PositiveSmallIntegerField(_("year"))
    season = models.CharField(_("season"), max_length=8, choices=Season.choices)
    first_monday = models.DateField(_("Monday of week 1"))
    weeks = models.PositiveSmallIntegerField(_("number of weeks"))
    section_times = models.JSONField(_("section times"), default=list)
    document = models.JSONField(_("frozen semester"))
    # What the start of the next semester chose (notes, rules, plans, filler marks by course name) and
    # the semester it set up, so the filler marks follow the next import and undo knows what to check.
    carried = models.JSONField(_("brought along"), default=dict, blank=True)
    next_first_monday = models.DateField(_("next semester's week 1"))
    next_weeks = models.PositiveSmallIntegerField(_("next semester's weeks"))
    # A digest of the live rows right after the start: undo is refused once they differ (something new was written).
    after_digest = models.CharField(max_length=64, editable=False)
    frozen_at = models.DateTimeField(_("frozen at"), auto_now_add=True)

    class Meta:
        app_label = "schedule"
        verbose_name = _("past semester")
        verbose_name_plural = _("past semesters")
        ordering = ["-first_monday"]
        constraints = [
            models.UniqueConstraint(fields=["user", "first_monday"], name="semester_unique_start_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.year} {self.season}"

    @property
    def last_day(self) -> date:
        return self.first_monday + timedelta(weeks=self.weeks, days=-1)

    @property
    def label(self) -> str:
        return semester_label(self.year, self.season)


def semester_label(year: int, season: str) -> str:
    """The semester's name as a student says it, e.g. "2026 秋季学期"."""
    if season == Semester.Season.AUTUMN:
        return gettext("%(year)s autumn semester") % {"year": year}
    return gettext("%(year)s spring semester") % {"year": year}
