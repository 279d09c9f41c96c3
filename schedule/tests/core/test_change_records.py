"""The typed records of previews and change sets read exactly the JSON they write, and the JSON stays the stored shape."""

import pytest

from schedule.core.change_records import BlockMove, BlockSpot, ItemPlacement, MarkedBlock, NotePlacement, RemovedBlock

SPOT = {"week": 3, "day": 2, "start_section": 5, "end_section": 6, "host_event_id": None}
IN_FILLER = {"week": 4, "day": 5, "start_section": 3, "end_section": 4, "host_event_id": 88}
REASON = {"code": "earliest_free", "after": 2}

ROWS = [
    (ItemPlacement, {"item_id": 7, "class_id": 2, **SPOT}),
    (ItemPlacement, {"item_id": 7, "class_id": 2, **IN_FILLER, "reason": REASON}),
    (NotePlacement, {"task_id": 9, **SPOT}),
    # A preview's move, before it is applied: no event_id_after yet.
    (BlockMove, {"kind": "task_item", "item_id": 7, "task_id": None, "event_id": 31, "class_id": 2,
                 "from": SPOT, "to": IN_FILLER, "reason": REASON}),
    # The same move in a change set after a direct edit: its title, source and the event now holding it.
    (BlockMove, {"kind": "quick_note", "item_id": None, "task_id": 9, "event_id": 40, "class_id": None,
                 "from": SPOT, "to": SPOT | {"week": 5}, "title": "交作业", "source": "manual",
                 "event_id_after": 41}),
    (BlockMove, {"kind": "task_item", "item_id": 7, "task_id": None, "event_id": None, "class_id": 2,
                 "from": IN_FILLER, "to": SPOT, "event_id_after": None}),
    (RemovedBlock, {"kind": "task_item", "item_id": 7, "task_id": None, "event_id": 31, "source": "planner",
                    "status": "placed", "from": SPOT, "title": "概率论 1", "location": "", "note": "",
                    "status_after": "pending"}),
    (RemovedBlock, {"kind": "quick_note", "item_id": None, "task_id": 9, "event_id": 40, "source": "manual",
                    "status": "placed", "from": SPOT, "title": "交作业", "location": "图书馆", "note": "带 U 盘"}),
    (MarkedBlock, {"item_id": 7, "title": "概率论 1", "before": "placed", "after": "done"}),
    (MarkedBlock, {"task_id": 9, "title": "交作业", "before": "placed", "after": "done"}),
]


@pytest.mark.parametrize(("record", "row"), ROWS)
def test_a_record_writes_back_the_json_it_read(record, row):
    assert record.from_json(row).to_json() == row


@pytest.mark.parametrize(("record", "row"), ROWS)
def test_a_record_reads_back_what_it_wrote(record, row):
    read = record.from_json(row)
    assert record.from_json(read.to_json()) == read


def test_keys_a_record_does_not_know_are_carried_through():
    row = {"item_id": 7, "class_id": 2, **SPOT, "chosen_by": "student"}
    assert ItemPlacement.from_json(row).extra == {"chosen_by": "student"}
    assert ItemPlacement.from_json(row).to_json() == row


def test_applying_a_preview_move_records_the_event_that_now_holds_it():
    move = BlockMove.from_json(ROWS[3][1])
    assert not move.applied and "event_id_after" not in move.to_json()

    applied = move.applied_as(None)  # it went into a filler course: no event of its own

    assert applied.to_json()["event_id_after"] is None and applied.placed_at == BlockSpot.from_json(IN_FILLER)


def test_a_spot_knows_its_sections_and_whether_it_sits_in_a_filler_course():
    assert list(BlockSpot.from_json(SPOT).sections) == [5, 6] and not BlockSpot.from_json(SPOT).embedded
    assert BlockSpot.from_json(IN_FILLER).embedded
