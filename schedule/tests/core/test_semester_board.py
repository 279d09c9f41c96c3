"""A past week laid out as a board: spans, shared cells, blocks inside their host."""

from __future__ import annotations

import dataclasses

from schedule.core.semester_board import week_board
from schedule.tests.core.test_semester_archive import autumn, block


def test_a_block_spans_its_sections_and_the_cells_below_are_left_out():
    rows = week_board(autumn(block("高数复习 #1", 1, "done", day=1, first=1)), 1)

    first_monday, second_row = rows[0].cells[0], rows[1].cells
    assert (first_monday.rowspan, [e.title for e in first_monday.events]) == (2, ["高数复习 #1"])
    assert [cell.day for cell in second_row] == [2, 3, 4, 5, 6, 7]


def test_blocks_beside_each_other_share_one_cell():
    english = block("英语", 1, "", kind="course", day=2, first=1)
    politics = block("形势与政策", 1, "", kind="course", day=2, first=1)

    cell = week_board(autumn(english, politics), 1)[0].cells[1]

    assert {e.title for e in cell.events} == {"英语", "形势与政策"}


def test_a_study_block_inside_a_filler_course_is_listed_in_its_hosts_cell():
    host = block("形势与政策", 1, "", kind="course", day=3, first=1)
    inside = dataclasses.replace(block("英语单词 #1", 1, "done", day=3, first=1), embedded=True)

    cell = week_board(autumn(host, inside), 1)[0].cells[2]

    assert ([e.title for e in cell.events], [e.title for e in cell.embedded]) == (["形势与政策"], ["英语单词 #1"])
