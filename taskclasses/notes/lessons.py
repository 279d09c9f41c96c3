"""Quick add learns from the student's own corrections: remember, apply, list and forget them.

When a student changes the suggested quadrant on the dashboard's quick-add form before saving,
the choice is remembered under the task's keyword (`lesson_keyword`, pure rules in
core/quick_add/lessons.py) and suggested for the next note whose title contains it. Each student
has their own lessons; nothing is shared.
"""

from __future__ import annotations

import dataclasses

from django.db import transaction
from django.db.models import F, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from smartmate.platform.exceptions import NotFoundError
from taskclasses.notes.core.quick_add import (
    Doubt,
    QuadrantReason,
    QuickNoteParse,
    lesson_keyword,
    matching_keyword,
    quadrant_from_lesson,
)
from taskclasses.notes.models import MAX_LESSONS_PER_USER, QuadrantLesson, ReadingChoice


def lesson_list(*, user: User) -> QuerySet[QuadrantLesson]:
    """The student's lessons, most recently learned first."""
    return QuadrantLesson.objects.filter(user=user)


def lessons_apply(*, user: User, parsed: QuickNoteParse) -> QuickNoteParse:
    """The parse with the quadrant the student taught for this kind of task, if any."""
    keywords = dict(lesson_list(user=user).values_list("keyword", "quadrant"))
    keyword = matching_keyword(parsed.title, keywords)
    if keyword is None:
        return parsed
    quadrant = quadrant_from_lesson(keywords[keyword], urgent=parsed.urgent)
    # The student decided the quadrant: nothing left for a model to decide about it.
    doubts = tuple(doubt for doubt in parsed.doubts if doubt is not Doubt.IMPORTANCE_UNDECIDED)
    return dataclasses.replace(parsed, quadrant=quadrant, quadrant_reason=QuadrantReason.LEARNED, doubts=doubts)


@transaction.atomic
def lesson_learn(*, user: User, title: str, quadrant: int) -> QuadrantLesson | None:
    """Remember that tasks named like `title` go in `quadrant`; None when the title has no keyword."""
    keyword = lesson_keyword(title)
    if not keyword:
        return None
    lesson, created = QuadrantLesson.objects.get_or_create(
        user=user, keyword=keyword, defaults={"quadrant": quadrant, "learned_from": title[:200]})
    if not created:
        QuadrantLesson.objects.filter(pk=lesson.pk).update(quadrant=quadrant, learned_from=title[:200],
                                                           times=F("times") + 1)
        lesson.refresh_from_db()
    _forget_beyond_limit(user)
    return lesson


def _forget_beyond_limit(user: User) -> None:
    stale = lesson_list(user=user).values_list("pk", flat=True)[MAX_LESSONS_PER_USER:]
    QuadrantLesson.objects.filter(pk__in=list(stale)).delete()


def lesson_forget(*, user: User, lesson_id: int) -> None:
    """Forget one lesson; another student's (or a missing) id is a 404."""
    deleted, _detail = QuadrantLesson.objects.filter(user=user, pk=lesson_id).delete()
    if not deleted:
        raise NotFoundError(_("Not found."), code="lesson_not_found")


def lessons_forget_all(*, user: User) -> int:
    """Forget everything quick add learned for this student (quadrants and picked readings); returns how many."""
    deleted, _detail = QuadrantLesson.objects.filter(user=user).delete()
    readings, _detail = ReadingChoice.objects.filter(user=user).delete()
    return deleted + readings
