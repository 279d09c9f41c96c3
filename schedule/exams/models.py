"""An exam: a dated anchor on the student's calendar (a countdown, revision spaced back from it).

Kept beside its feature and registered with the schedule app (imported at the end of schedule/models.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

MAX_EXAM_TITLE = 100
MAX_EXAM_PLACE = 100


class Exam(models.Model):
    """One exam on one date, at a time of day when known (``start_time``..``end_time``), maybe of a course."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="exams")
    title = models.CharField(_("title"), max_length=MAX_EXAM_TITLE)
    date = models.DateField(_("date"))
    start_time = models.TimeField(_("starts at"), null=True, blank=True)
    end_time = models.TimeField(_("ends at"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=MAX_EXAM_PLACE, blank=True)
    # The course stays optional and goes quietly with the course: the exam itself is the student's date.
    course = models.ForeignKey("schedule.Course", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="exams", verbose_name=_("course"))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "schedule"
        verbose_name = _("exam")
        verbose_name_plural = _("exams")
        ordering = ["date", "start_time", "pk"]
        indexes = [models.Index(fields=["user", "date"], name="exam_user_date")]
        constraints = [
            models.CheckConstraint(
                condition=Q(start_time__isnull=True) & Q(end_time__isnull=True)
                | Q(start_time__isnull=False) & Q(end_time__isnull=False) & Q(end_time__gt=F("start_time")),
                name="exam_times_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.title} {self.date}"
