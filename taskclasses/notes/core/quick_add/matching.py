"""Run every rule over the text and keep one non-overlapping reading."""

from __future__ import annotations

from dataclasses import replace

from . import rules_en, rules_numeric, rules_semester, rules_zh
from .fragments import Context, Fragment, Rule

# Order only breaks ties between matches with the same start and length.
ALL_RULES: tuple[Rule, ...] = rules_semester.RULES + rules_numeric.RULES + rules_zh.RULES + rules_en.RULES


def find_fragments(ctx: Context) -> list[Fragment]:
    """All recognised fragments, left to right; where matches overlap the earliest-longest wins.

    Earliest-longest is what makes 下下周三 one phrase rather than 下周三 inside it, and
    2026-03-20 18:30 one date-time rather than a date and a separate clock.
    """
    candidates: list[tuple[int, int, int, Fragment]] = []
    for order, rule in enumerate(ALL_RULES):
        for match in rule.pattern.finditer(ctx.text):
            if match.end() == match.start():
                continue
            fragment = rule.handler(match, ctx)
            if fragment is not None:
                placed = replace(fragment, start=match.start(), end=match.end())
                candidates.append((match.start(), match.start() - match.end(), order, placed))
    candidates.sort(key=lambda candidate: candidate[:3])
    chosen: list[Fragment] = []
    for _, _, _, fragment in candidates:
        if not chosen or fragment.start >= chosen[-1].end:
            chosen.append(fragment)
    return chosen
