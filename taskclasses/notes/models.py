"""What quick add learned from a student's own corrections of its suggested quadrant.

Registered with the ``taskclasses`` app: ``taskclasses/models.py`` imports this module.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MAX_KEYWORD_LENGTH = 40
MAX_LESSONS_PER_USER = 200  # the oldest are forgotten first; the list stays readable on the dashboard


class QuadrantLesson(models.Model):
    """"Tasks named like this go in quadrant N": one correction, keyed by the task's keyword.

    Learned when a student changes the suggested quadrant on the quick-add form before saving
    (缴费: suggested 3, chosen 2), applied to the next note whose title contains the keyword.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quadrant_lessons")
    keyword = models.CharField(_("keyword"), max_length=MAX_KEYWORD_LENGTH)
    quadrant = models.PositiveSmallIntegerField(_("quadrant"))
    learned_from = models.CharField(_("learned from"), max_length=200)
    times = models.PositiveIntegerField(_("times corrected"), default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "taskclasses"
        verbose_name = _("learned quadrant")
        verbose_name_plural = _("learned quadrants")
        ordering = ["-updated_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "keyword"], name="quadrantlesson_user_keyword_unique"),
            models.CheckConstraint(condition=Q(quadrant__gte=1) & Q(quadrant__lte=4),
                                   name="quadrantlesson_quadrant_1_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.keyword} → {self.quadrant}"


MAX_PHRASING_LENGTH = 100


class ReadingChoice(models.Model):
    """"When I write 周五 on a Friday I mean next week's": the reading a student picked for a phrasing.

    Kept when the student saves an ambiguous note with one of its offered readings; the next note
    with the same phrasing (the same time words and the same doubt) gets that reading pre-selected
    on the page. It teaches nothing to anyone else, and nothing is dated without the page showing it.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reading_choices")
    phrasing = models.CharField(_("phrasing"), max_length=MAX_PHRASING_LENGTH)
    weeks_ahead = models.SmallIntegerField(_("weeks ahead"))
    weekday = models.PositiveSmallIntegerField(_("weekday"))
    times = models.PositiveIntegerField(_("times chosen"), default=1)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "taskclasses"
        verbose_name = _("chosen reading")
        verbose_name_plural = _("chosen readings")
        ordering = ["-updated_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "phrasing"], name="readingchoice_user_phrasing_unique"),
            models.CheckConstraint(condition=Q(weekday__gte=1) & Q(weekday__lte=7), name="readingchoice_weekday_1_to_7"),
            models.CheckConstraint(condition=Q(weeks_ahead__gte=-1) & Q(weeks_ahead__lte=2),
                                   name="readingchoice_weeks_ahead_minus_1_to_2"),
        ]

    def __str__(self) -> str:
        return f"{self.phrasing} → +{self.weeks_ahead}w/{self.weekday}"
