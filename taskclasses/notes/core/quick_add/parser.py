"""parse_quick_note: the one entry point tying the rules, resolution, title and quadrant together."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .doubts import parse_doubts
from .fragments import Context
from .hedges import hedge_fragments
from .markers import find_priority_markers
from .matching import find_fragments
from .object_days import set_aside_object_days
from .quadrant import estimate_sections, is_urgent, suggest_quadrant, urgency_threshold
from .resolve import Resolution, resolve_deadline
from .result import CONFIDENCE_CONVENTION, CONFIDENCE_REFUSED, CONFIDENCE_STATED, QuickNoteParse
from .text import has_cjk, normalize
from .title import build_title, phrase_spans


def parse_quick_note(text: str, *, now: datetime, tz: str, semester_start: date | None = None) -> QuickNoteParse:
    """Parse a quick note against `now` in the user's zone `tz`.

    `semester_start` (the Monday of the student's week 1) lets 第七周周三 / "wk 7 wed" resolve;
    without it those are ambiguous. Preconditions: `now` is timezone-aware; `tz` is an IANA
    zone name. Pure and deterministic: nothing is read from the clock, the locale or the network.
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be timezone-aware")
    normalized = normalize(text)
    ctx = Context(text=normalized, now=now.astimezone(_zone(tz)), cjk=has_cjk(normalized),
                  semester_start=semester_start)
    fragments = hedge_fragments(set_aside_object_days(find_fragments(ctx), ctx.text), ctx.text)
    marks = find_priority_markers(ctx.text)
    resolution = resolve_deadline(fragments, ctx)
    titled = [replace(fragment, keep_in_title=True) if fragment.names_event and resolution.deadline else fragment
              for fragment in fragments]
    title = build_title(ctx.text, titled, marks.spans, original=text)
    sections = estimate_sections(fragments, ctx.text)
    threshold = urgency_threshold(resolution.deadline, ctx.now, sections)
    # The quadrant reads the task without the event it waits for (考完试聚餐 is a meal).
    task_words = build_title(ctx.text, fragments, marks.spans, original=text)
    urgent = is_urgent(ctx.text, ctx.now, threshold, marks)
    quadrant, quadrant_reason = suggest_quadrant(
        title=task_words, text=ctx.text, urgent=urgent, sections=sections, marks=marks
    )
    timing = [fragment for fragment in fragments if fragment.is_timing]
    return QuickNoteParse(
        text=text,
        title=title,
        deadline=resolution.deadline,
        deadline_text=" ".join(ctx.text[start:end].strip() for start, end in phrase_spans(ctx.text, timing)),
        has_time=resolution.has_time,
        is_past=resolution.is_past,
        ambiguous=resolution.ambiguity is not None,
        ambiguity_reason=resolution.ambiguity,
        no_deadline_reason=resolution.no_deadline,
        quadrant=quadrant,
        quadrant_reason=quadrant_reason,
        estimated_sections=sections,
        urgency_threshold_at=threshold,
        urgent=urgent,
        readings=resolution.readings,
        confidence=_confidence(resolution),
        doubts=parse_doubts(ambiguous=resolution.ambiguity is not None, title=title, quadrant_reason=quadrant_reason),
    )


def _confidence(resolution: Resolution) -> float:
    if resolution.ambiguity is not None:
        return CONFIDENCE_REFUSED
    return CONFIDENCE_CONVENTION if resolution.by_convention else CONFIDENCE_STATED


def _zone(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(f"unknown time zone: {tz!r}") from error
