"""The refusal messages: one template per code, equal to the table of docs/editing-rules.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from schedule.board_messages import REFUSAL_TEMPLATES, refusal_message, suggestions_text
from schedule.core.board import Spot
from schedule.core.board_edits import move
from schedule.core.board_errors import ERROR_CODES, BoardError
from schedule.tests.core.boards import MON, PROB_1, TUE, week_board

DOCS = Path(__file__).resolve().parents[2] / "docs" / "editing-rules.md"


def documented_templates() -> dict[str, str]:
    rows = re.findall(r"^\| `([a-z_]+)` \|.*\| (.+?) \|\s*$", DOCS.read_text("utf-8"), flags=re.M)
    return {code: message for code, message in rows if code in ERROR_CODES}


def test_every_refusal_code_has_one_template():
    assert set(REFUSAL_TEMPLATES) == ERROR_CODES


def test_the_templates_are_the_documented_english_source():
    assert {code: str(template) for code, template in REFUSAL_TEMPLATES.items()} == documented_templates()


def _refusal(edit) -> tuple[BoardError, object]:
    board = week_board()
    with pytest.raises(BoardError) as caught:
        edit(board)
    return caught.value, board


def test_a_taken_place_names_the_day_the_sections_and_the_occupant():
    error, board = _refusal(lambda b: move(b, PROB_1, Spot(TUE, 3)))
    assert refusal_message(error, board) == "2026-09-22 (Tuesday), sections 3-4: taken by “高等数学”."


def test_the_past_names_the_day_and_section():
    error, board = _refusal(lambda b: move(b, PROB_1, Spot(MON, 1)))
    assert refusal_message(error, board) == "2026-09-21 (Monday), section 1 has already passed."


def test_an_unknown_id_is_quoted_as_given():
    error, board = _refusal(lambda b: move(b, 99, Spot(TUE, 7)))
    assert refusal_message(error, board) == "There is no item 99 on this schedule."


def test_suggestions_read_as_one_sentence():
    assert suggestions_text([Spot(TUE, 7), Spot(TUE, 9)], 2) == (
        "Places that would work: 2026-09-22 (Tuesday), sections 7-8; 2026-09-22 (Tuesday), sections 9-10.")
    assert suggestions_text([], 2) == "No other place in this window would work."


@pytest.mark.django_db
def test_messages_follow_the_active_language():
    from django.utils import translation

    error, board = _refusal(lambda b: move(b, PROB_1, Spot(TUE, 3)))
    with translation.override("zh-hans"):
        assert "周二" in refusal_message(error, board)


def test_chinese_suggestions_are_separated_by_a_chinese_semicolon():
    from django.utils import translation

    with translation.override("zh-hans"):
        text = suggestions_text([Spot(TUE, 7), Spot(TUE, 9)], 2)
    assert "；" in text and "; " not in text
