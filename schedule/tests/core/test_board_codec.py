"""The board as JSON and back, and the assistant's older working schedule read into a board."""

import copy
import dataclasses
import json
from datetime import date, datetime
from typing import Any

import pytest

from schedule.core.board import Clock, Spot, board_changes
from schedule.core.board_codec import (
    FORMAT,
    VERSION,
    BoardFormatError,
    board_from_json,
    board_from_legacy_working,
    board_to_json,
    is_legacy_working,
)
from schedule.core.board_edits import Move, Place, batch, move, place
from schedule.core.time_model import CQUPT_SECTIONS, SectionTemplate
from schedule.tests.core.boards import MON, NOTE, NOW, PROB_1, PROB_2, READ_2, SAT, THU, WED, at, week_board


def edited_board():
    return batch(week_board(), [Move(PROB_1, Spot(THU, 7)), Place(PROB_2, Spot(THU, 9)), Place(READ_2, Spot(WED, 3)),
                                Place(NOTE, Spot(MON, 3))])


def test_a_board_survives_a_round_trip_through_json_text():
    board = edited_board()
    assert board_from_json(json.loads(json.dumps(board_to_json(board)))) == board


def test_a_second_grid_from_a_date_survives_the_round_trip():
    board = week_board()
    later = SectionTemplate.from_hhmm(CQUPT_SECTIONS[:4] + (("13:30", "14:15"), ("14:25", "15:10")) + CQUPT_SECTIONS[6:])
    two_grids = dataclasses.replace(board, calendar=dataclasses.replace(
        board.calendar, template=board.calendar.template.changing_to(later, date(2026, 11, 2))))
    document = board_to_json(two_grids)
    assert document["sections_change"]["from"] == "2026-11-02"
    assert board_from_json(json.loads(json.dumps(document))) == two_grids


def test_the_document_names_its_format_and_version():
    document = board_to_json(week_board())
    assert (document["format"], document["version"]) == (FORMAT, VERSION)


def test_default_values_are_left_out_of_entries():
    entry = next(e for e in board_to_json(week_board())["entries"] if e["id"] == NOTE)
    assert set(entry) == {"id", "kind", "length", "name", "task_id", "deadline"}


def test_a_board_read_back_can_be_edited():
    board = board_from_json(board_to_json(edited_board()))
    assert move(board, PROB_1, Spot(THU, 5)).get(PROB_1).place == at(THU, 5)


@pytest.mark.parametrize("spoil", [
    lambda d: d.update(format="working"),
    lambda d: d.update(version=2),
    lambda d: d.pop("window"),
    lambda d: d["clock"].update(today="tomorrow"),
    lambda d: d["entries"][0].update(id="1"),
    lambda d: d["entries"][0].update(kind="lecture"),
    lambda d: d["semester"].update(start="2026-09-08"),
    lambda d: d.update(sections=[["08:00", "07:00"]]),
    lambda d: d["entries"][-1]["place"].update(host=1),
])
def test_a_spoilt_document_is_a_format_error(spoil):
    document = board_to_json(edited_board())
    spoil(document)
    with pytest.raises(BoardFormatError):
        board_from_json(document)


# --- The legacy working schedule --------------------------------------------------------------------

def legacy_entry(entry_id, kind, name, status, **values):
    base = {"id": entry_id, "kind": kind, "name": name, "status": status, "locked": False, "filler": False,
            "sections": 2, "at": None, "host": None, "origin": None, "event_id": None, "item_id": None,
            "task_id": None, "class_id": None, "order": None, "deadline": None}
    return base | values


def where(day, start, end=None, **extra):
    return {"date": day, "start": start, "end": start + 1 if end is None else end, **extra}


LEGACY: dict[str, Any] = {
    "version": 1, "user_id": 7, "tz": "Asia/Shanghai", "semester": {"start": "2026-09-07", "weeks": 20},
    "sections": [list(pair) for pair in CQUPT_SECTIONS],
    "window": {"start": "2026-09-14", "end": "2026-10-04"}, "class_ids": [10],
    "classes": {"10": {"id": 10, "name": "概率论复习", "strategy": "steady", "start": "2026-09-21", "end": "2026-10-04",
                       "excluded_pairs": [6], "excluded_days": [7], "allow_filler": True}},
    "entries": [
        legacy_entry(1, "course", "高等数学", "existing", locked=True, at=where("2026-09-21", 1), event_id=101),
        legacy_entry(2, "course", "形势与政策", "existing", locked=True, filler=True, at=where("2026-09-22", 1),
                     event_id=102),
        legacy_entry(3, "custom", "社团活动", "existing", locked=True, at=where("2026-09-22", 5), event_id=103),
        legacy_entry(4, "task_item", "复习 2", "existing", at=where("2026-09-24", 3), item_id=1004, class_id=10,
                     order=2, origin=where("2026-09-22", 1, host_event_id=102)),
        legacy_entry(5, "task_item", "复习 3", "suggested", at=where("2026-09-25", 1), item_id=1005, class_id=10,
                     order=3),
        legacy_entry(6, "task_item", "复习 4", "pending", item_id=1006, class_id=10, order=4),
        legacy_entry(7, "quick_note", "交实验报告", "pending", sections=1, task_id=507,
                     deadline="2026-09-25T23:00:00+08:00"),
        legacy_entry(8, "quick_note", "打电话", "existing", sections=1, at=where("2026-09-21", 7, 7), event_id=108,
                     task_id=508, origin=where("2026-09-21", 7, 7, host_event_id=None)),
        legacy_entry(9, "task_item", "复习 0", "existing", locked=True, at=where("2026-09-17", 3), event_id=109,
                     item_id=1009, class_id=10, order=0),
        legacy_entry(10, "task_item", "复习 1", "existing", at=where("2026-09-23", 3, host=11), host=11,
                     item_id=1010, class_id=10, order=1, origin=where("2026-09-23", 3, host_event_id=111)),
        legacy_entry(11, "course", "思想道德与法治", "existing", locked=True, filler=True, sections=4,
                     at=where("2026-09-23", 1, 4), event_id=111),
    ],
    "next_id": 12,
    "queue": {"pending": [5, 6], "current": 4, "attempts": 1, "completed": [], "skipped": [], "last_error": "x"},
}
LEGACY["entries"][9]["at"].pop("host")


def test_a_legacy_working_schedule_is_recognised():
    assert is_legacy_working(LEGACY) and not is_legacy_working(board_to_json(week_board()))


def test_a_legacy_working_schedule_keeps_its_ids_statuses_and_moves():
    legacy = board_from_legacy_working(LEGACY, now=NOW)
    board = legacy.board
    assert [board.get(i).status for i in range(1, 12)] == [
        "existing", "existing", "existing", "existing", "suggested", "pending", "pending", "existing", "existing",
        "existing", "existing"]
    assert board.get(4).moved and board.get(4).origin.host == 2 and not board.get(8).moved
    assert board.get(10).place.host == 11 and board.get(10).origin.host == 11
    assert board.get(7).deadline == datetime.fromisoformat("2026-09-25T23:00:00+08:00")
    assert (board.planned_class_ids, board.next_id) == ((10,), 12)


def test_a_legacy_working_schedule_gives_back_the_conversations_own_parts():
    legacy = board_from_legacy_working(LEGACY, now=NOW)
    assert (legacy.user_id, legacy.queue) == (7, LEGACY["queue"])


def test_legacy_locks_follow_from_kind_and_clock():
    board = board_from_legacy_working(LEGACY, now=NOW).board
    assert board.clock == Clock(MON, 2)
    assert {e.id for e in board.entries if board.is_locked(e)} == {1, 2, 3, 9, 11}


def test_a_legacy_working_schedule_gives_the_same_preview_content():
    changes = board_changes(board_from_legacy_working(LEGACY, now=NOW).board)
    assert ([e.id for e in changes.placements], [e.id for e in changes.moves], changes.notes) == ([5], [4], ())
    assert [e.id for e in changes.unplaced] == [6]


def test_a_legacy_working_schedule_carries_on_being_edited():
    board = board_from_legacy_working(LEGACY, now=NOW).board
    edited = place(move(board, 4, Spot(THU, 9)), 6, Spot(SAT, 1))
    assert (edited.get(4).place, edited.get(6).place) == (at(THU, 9), at(SAT, 1))
    assert board_from_json(board_to_json(edited)) == edited


@pytest.mark.parametrize("spoil", [
    lambda d: d["entries"][3]["origin"].update(host_event_id=999),
    lambda d: d["entries"][0].update(status="moved"),
    lambda d: d.pop("semester"),
    lambda d: d["classes"]["10"].update(start="soon"),
])
def test_a_spoilt_legacy_working_schedule_is_a_format_error(spoil):
    data = copy.deepcopy(LEGACY)
    spoil(data)
    with pytest.raises(BoardFormatError):
        board_from_legacy_working(data, now=NOW)
