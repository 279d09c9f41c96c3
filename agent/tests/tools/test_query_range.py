"""query_range: one day, section by section."""

from __future__ import annotations

from agent.tests.tools.conftest import WEEK3_TUE, entry_named, make_ctx
from agent.tools.query_range import TOOL


def test_a_day_lists_each_section_with_its_occupant(ctx, working):
    result = TOOL.run({"date": WEEK3_TUE, "start_section": 1, "end_section": 6}, ctx, working)
    filler = entry_named(working, "形势与政策")
    assert f"第1节 08:00-08:45：[{filler.id}]形势与政策(课程·水课可嵌入·固定·已有)" in result.content
    assert "第3节 10:15-11:00：空" in result.content and "第7节" not in result.content


def test_bad_ranges_and_days_are_refused(ctx, working):
    assert "节次范围" in TOOL.run({"date": WEEK3_TUE, "start_section": 6, "end_section": 2}, ctx, working).content
    assert TOOL.run({"date": "2027-01-01"}, ctx, working).status == "failed"


def test_another_users_day_is_their_own(working, other_user):
    result = TOOL.run({"date": "2026-09-22"}, make_ctx(other_user), working)
    assert "形势与政策" not in result.content
