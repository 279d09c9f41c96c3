"""Property: any sequence of write calls leaves no double booking and every class in order."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.tests.tools.conftest import board_of, load_working, make_ctx
from agent.tools.support.registry import arguments_check, tool_get
from schedule.tests.factories import make_task_class

DAYS = [(date(2026, 9, 21) + timedelta(days=n)).isoformat() for n in range(7)]
ids = st.integers(min_value=1, max_value=16)
spot = st.fixed_dictionaries({"task_id": ids, "date": st.sampled_from(DAYS),
                              "start_section": st.sampled_from([1, 3, 5, 7, 9, 11])})
calls = st.one_of(
    st.tuples(st.just("place"), spot),
    st.tuples(st.just("move"), spot),
    st.tuples(st.just("swap"), st.fixed_dictionaries({"task_a": ids, "task_b": ids})),
    st.tuples(st.just("unplace"), st.fixed_dictionaries({"task_id": ids})),
    st.tuples(st.just("batch_move"), st.fixed_dictionaries({"moves": st.lists(spot, min_size=1, max_size=3)})),
)


def _overlaps(working):
    placed = [e for e in board_of(working).entries if e.place is not None]
    for n, a in enumerate(placed):
        for b in placed[n + 1:]:
            if not a.place.overlaps(b.place.day, b.place.start, b.place.end):
                continue
            guest, host = (a, b) if a.place.host == b.id else (b, a)
            if not (guest.place.host == host.id and host.filler):
                return (a.name, b.name)
    return None


def _out_of_order(working):
    board = board_of(working)
    for class_id in board.planned_class_ids:
        placed = [e for e in board.class_members(class_id) if e.place is not None]
        positions = [(e.place.day, e.place.start) for e in placed]
        if positions != sorted(positions) or len(set(positions)) != len(positions):
            return class_id
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sequence=st.lists(calls, min_size=1, max_size=12))
def test_random_writes_never_double_book_or_reorder(plan, sequence):
    short = make_task_class(plan.user, name="短计划", items=3, start=date(2026, 9, 22), end=date(2026, 9, 25),
                            excluded_pairs=[6]) if not plan.user.task_classes.filter(name="短计划").exists() \
        else plan.user.task_classes.get(name="短计划")
    working = load_working(plan.user, [plan.pk, short.pk])
    ctx = make_ctx(plan.user)
    for name, args in sequence:
        tool = tool_get(name)
        result = tool.run(arguments_check(tool, args), ctx, working)
        if result.status == "done":
            working = result.working
        else:
            assert result.working is None  # a refused write leaves the board as it was
        assert _overlaps(working) is None
        assert _out_of_order(working) is None
