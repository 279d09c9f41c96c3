"""Quick-note tasks in four quadrants (study plans, ``TaskClass``, come with the planner)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MAX_TITLE_LENGTH = 200


class Task(models.Model):
    """A quick note: a title, maybe a deadline, and a quadrant that can move as the deadline nears."""

    class Quadrant(models.IntegerChoices):
        IMPORTANT_URGENT = 1, _("Important and urgent")
        IMPORTANT = 2, _("Important, not urgent")
        SIMPLE = 3, _("Simple, not important")
        COMPLEX = 4, _("Complex, not important")

    class AutoReason(models.TextChoices):
        THRESHOLD_REACHED = "threshold_reached", _("Promoted: the deadline is near")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tasks")
    title = models.CharField(_("title"), max_length=MAX_TITLE_LENGTH)
    quadrant = models.PositiveSmallIntegerField(_("quadrant"), choices=Quadrant.choices)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    deadline_ambiguous = models.BooleanField(
        _("deadline unclear"), default=False,
        help_text=_("The note mentioned a time we could not pin down; no date was guessed."),
    )
    source_text = models.CharField(_("original note"), max_length=500, blank=True)
    estimated_sections = models.PositiveSmallIntegerField(_("estimated sections"), null=True, blank=True)
    urgency_threshold_at = models.DateTimeField(_("turns urgent at"), null=True, blank=True)
    completed = models.BooleanField(_("completed"), default=False)
    completed_at = models.DateTimeField(_("completed at"), null=True, blank=True)
    auto_reason = models.CharField(_("last automatic change"), max_length=32, choices=AutoReason.choices,
                                   blank=True)
    auto_changed_at = models.DateTimeField(_("automatically changed at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("quick note")
        verbose_name_plural = _("quick notes")
        ordering = ["completed", "quadrant", "deadline", "-created_at"]
        indexes = [
            models.Index(fields=["user", "completed", "urgency_threshold_at", "quadrant"], name="task_promotion"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(quadrant__gte=1) & Q(quadrant__lte=4), name="task_quadrant_1_to_4"),
            models.CheckConstraint(
                condition=Q(estimated_sections__isnull=True)
                | (Q(estimated_sections__gte=1) & Q(estimated_sections__lte=8)),
                name="task_sections_1_to_8",
            ),
            models.CheckConstraint(
                condition=Q(completed=False) | Q(completed_at__isnull=False), name="task_completed_has_time"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def is_promoted(self) -> bool:
        return self.auto_reason == self.AutoReason.THRESHOLD_REACHED

    @property
    def hours_left_when_promoted(self) -> int | None:
        """Whole hours between the promotion and the deadline (rounded up), for the badge."""
        if not self.is_promoted or self.deadline is None or self.auto_changed_at is None:
            return None
        seconds = (self.deadline - self.auto_changed_at).total_seconds()
        return max(0, -int(-seconds // 3600))


MAX_ITEMS_PER_CLASS = 200


def validate_pairs(value: object) -> None:
    """Excluded pairs are block numbers 1..8 (1 = sections 1-2, 6 = 11-12 on the default day)."""
    from django.core.exceptions import ValidationError

    if not isinstance(value, list) or any(not isinstance(v, int) or not 1 <= v <= 8 for v in value):
        raise ValidationError(_("Excluded blocks are numbers from 1 to 8."), code="excluded_pairs")


def validate_days(value: object) -> None:
    from django.core.exceptions import ValidationError

    if not isinstance(value, list) or any(not isinstance(v, int) or not 1 <= v <= 7 for v in value):
        raise ValidationError(_("Excluded days are numbers from 1 (Monday) to 7 (Sunday)."), code="excluded_days")


class TaskClass(models.Model):
    """A study plan: ordered blocks to place between two dates, steadily or as early as possible."""

    class Strategy(models.TextChoices):
        STEADY = "steady", _("Steady: spread evenly")
        RAPID = "rapid", _("Rapid: as early as possible")
        SPACED = "spaced", _("Spaced: revision at growing intervals before an exam")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="task_classes")
    name = models.CharField(_("name"), max_length=100)
    strategy = models.CharField(_("strategy"), max_length=8, choices=Strategy.choices, default=Strategy.STEADY)
    start_date = models.DateField(_("first day"))
    end_date = models.DateField(_("last day"))
    excluded_pairs = models.JSONField(_("excluded blocks"), default=list, blank=True, validators=[validate_pairs])
    excluded_days = models.JSONField(_("excluded days"), default=list, blank=True, validators=[validate_days])
    allow_filler = models.BooleanField(_("may use filler courses"), default=True)
    section_budget = models.PositiveSmallIntegerField(_("section budget"), null=True, blank=True)
    # The exam a spaced class revises for: its blocks go back from the exam's date (schedule/core/planning/spaced.py).
    exam = models.ForeignKey("schedule.Exam", on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="task_classes", verbose_name=_("exam"))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("task class")
        verbose_name_plural = _("task classes")
        ordering = ["start_date", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=models.F("start_date")), name="taskclass_window_ordered"),
        ]

    def __str__(self) -> str:
        return self.name


class TaskItem(models.Model):
    """One block of a study plan, in order; placed in free time (an event) or inside a filler course."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Not placed")
        PLACED = "placed", _("Placed")
        DONE = "done", _("Done")
        MISSED = "missed", _("Missed")

    task_class = models.ForeignKey(TaskClass, on_delete=models.CASCADE, related_name="items")
    order = models.PositiveIntegerField(_("order"))
    content = models.CharField(_("content"), max_length=200)
    sections = models.PositiveSmallIntegerField(_("sections"), default=2)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PENDING)
    # Why the block sits where it sits (schedule.core.planning.reasons: codes and figures, no text).
    placement_reason = models.JSONField(_("why it is placed here"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("task item")
        verbose_name_plural = _("task items")
        ordering = ["task_class", "order"]
        constraints = [
            models.UniqueConstraint(fields=["task_class", "order"], name="taskitem_order_unique"),
            models.CheckConstraint(condition=Q(sections__gte=1) & Q(sections__lte=4), name="taskitem_sections_1_to_4"),
        ]

    def __str__(self) -> str:
        return self.content


# Models kept beside their feature, registered with this app (see the module for why).
from taskclasses.notes.models import QuadrantLesson, ReadingChoice  # noqa: E402, F401 - after this module's models, which it refers to; imported to register it
from taskclasses.reminders.models import Reminder, ReminderSettings  # noqa: E402, F401 - registers them
