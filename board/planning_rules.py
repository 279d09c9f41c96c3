"""The student's own rules as the planner reads them (``PlanningRules``), from their rules row and blocks.

The planner keeps protected times free, ends blocks by the latest section, and keeps each day to
the cap and the buffer counting the study blocks already there (``schedule/core/planning/rules.py``);
this module only reads: the rules row, and the study blocks (own blocks and blocks embedded in
filler courses) when a cap or a buffer needs them counted.
"""

from __future__ import annotations

from accounts.models import User
from schedule.core.planning.model import PlanningRules, ProtectedSections, StudyBlock
from schedule.core.student_rules import StudentRules
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.student_rules.models import StudyRules


def planning_rules_get(*, user: User) -> PlanningRules | None:
    """The rules for the planner, or None when the student has none (the plan is then as before)."""
    row = StudyRules.objects.filter(user=user).first()
    rules = row.to_core() if row is not None else StudentRules()
    if not rules:
        return None
    return PlanningRules(
        daily_cap=rules.daily_cap, buffer=rules.buffer, latest_section=rules.latest_section,
        protected=tuple(ProtectedSections(first=p.first, last=p.last, days=p.days, name=p.name)
                        for p in rules.protected),
        blocks=_study_blocks(user) if rules.counts_neighbours else ())


def _study_blocks(user: User) -> tuple[StudyBlock, ...]:
    own = ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.TASK_ITEM).values_list(
        "week", "day", "start_section", "end_section")
    blocks = [StudyBlock(week=w, day=d, section_start=s, section_end=e) for w, d, s, e in own]
    spans: dict[tuple[int, int, int, int], list[int]] = {}
    embedded = ScheduleSlot.objects.filter(user=user, embedded_item__isnull=False).values_list(
        "embedded_item_id", "event_id", "week", "day", "section")
    for item_id, event_id, week, day, section in embedded:
        spans.setdefault((item_id, event_id, week, day), []).append(section)
    blocks += [StudyBlock(week=w, day=d, section_start=min(s), section_end=max(s)) for (_i, _e, w, d), s in spans.items()]
    return tuple(sorted(blocks, key=lambda b: (b.week, b.day, b.section_start)))
