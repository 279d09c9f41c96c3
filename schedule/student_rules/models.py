"""The student's own rules for study blocks, one row per student, and the blocks they pinned.

Kept beside its feature and registered with the schedule app (imported at the end of schedule/models.py).
Pins are ids in this row rather than a flag on the block's rows: a study block is a ScheduleEvent of
its own or sections of a filler course (ScheduleSlot), and a pin must survive either; the item (or the
quick note) is what the student pinned. Ids of rows deleted since are harmless and dropped on the
next write.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from schedule.core.student_rules import BUFFER_RANGE, CAP_RANGE, ProtectedTime, StudentRules
from schedule.core.time_model import MAX_SECTIONS


class StudyRules(models.Model):
    """A daily cap, a buffer, protected times and a latest section for study blocks; pinned blocks."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="study_rules")
    daily_cap = models.PositiveSmallIntegerField(_("daily cap of study blocks"), null=True, blank=True)
    buffer_sections = models.PositiveSmallIntegerField(_("free sections between study blocks"), default=0)
    latest_section = models.PositiveSmallIntegerField(_("latest section for study"), null=True, blank=True)
    # [{"name": "午饭", "first": 5, "last": 5, "days": [1, ..., 7], "from"?: "11:40", "to"?: "13:30"}]
    protected_times = models.JSONField(_("protected times"), default=list, blank=True)
    pinned_items = models.JSONField(_("pinned study blocks"), default=list, blank=True)  # TaskItem ids
    pinned_notes = models.JSONField(_("pinned quick notes"), default=list, blank=True)  # Task ids
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("study rules")
        verbose_name_plural = _("study rules")
        constraints = [
            models.CheckConstraint(
                condition=Q(daily_cap__isnull=True) | (Q(daily_cap__gte=CAP_RANGE[0]) & Q(daily_cap__lte=CAP_RANGE[1])),
                name="studyrules_cap_in_range"),
            models.CheckConstraint(condition=Q(buffer_sections__lte=BUFFER_RANGE[1]), name="studyrules_buffer_in_range"),
            models.CheckConstraint(
                condition=Q(latest_section__isnull=True)
                | (Q(latest_section__gte=1) & Q(latest_section__lte=MAX_SECTIONS)),
                name="studyrules_latest_in_range"),
        ]

    def __str__(self) -> str:
        return f"study rules of {self.user}"

    def to_core(self) -> StudentRules:
        """The rules as the editing core and the planner read them."""
        return StudentRules(
            daily_cap=self.daily_cap, buffer=self.buffer_sections, latest_section=self.latest_section,
            protected=tuple(ProtectedTime(name=str(p["name"]), first=int(p["first"]), last=int(p["last"]),
                                          days=frozenset(int(d) for d in p["days"]))
                            for p in self.protected_times))
