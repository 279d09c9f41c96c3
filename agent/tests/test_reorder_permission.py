"""Reordering a class's blocks is the student's permission: their own message may give it; the model's
arguments and the student's memories never do. Whole turns with the scripted model and a real swap."""

from __future__ import annotations

from datetime import date

import pytest

from agent.tests.conftest import WEEK_TWO_MONDAY as WEEK_TWO
from agent.tests.factories import last_of, make_conversation, reply, resume, route, run_turn, tool_call
from agent.tools.support.reorder_permission import reorder_allowed
from agent.tools.support.working_schedule import working_load
from memory.tests.factories import make_memory
from schedule.models import ScheduleEvent
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

pytestmark = pytest.mark.usefixtures("week_two")


@pytest.mark.parametrize(("text", "allowed"), [
    ("把前两次复习对调一下", False),
    ("把前两次复习对调一下，可以打乱顺序", True),
    ("顺序无所谓，排开一点就行", True),
    ("不用保持顺序", True),
    ("对调一下，但不要打乱顺序", False),
    ("可以打乱顺序吗？算了，还是保持顺序吧", False),  # keeping the order wins
    ("Swap them, the order doesn't matter", True),
    ("", False),
])
def test_the_students_words_decide(text, allowed):
    assert reorder_allowed(text) is allowed


@pytest.fixture
def class_name() -> str:
    return "概率论复习"


@pytest.fixture
def applied(user, class_name):
    """#1 on Monday of week 3 at sections 3-4, #2 at sections 5-6 (applied: in the database)."""
    task_class = make_task_class(user, name=class_name, items=2, start_date=date(2026, 9, 21),
                                 end_date=date(2026, 10, 4))
    items = list(task_class.items.order_by("order"))
    for item, start in zip(items, (3, 5)):
        place_item(item, week=3, day=1, start=start)
        TaskItem.objects.filter(pk=item.pk).update(status="placed")
    return task_class, items


def _swap_in_a_turn(fake_llm, user, applied, message: str) -> dict:
    task_class, items = applied
    board = working_load(user=user, now=WEEK_TWO, task_class_ids=[task_class.pk]).board
    first, second = (next(e.id for e in board.entries if e.item_id == item.pk) for item in items)
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), tool_call("swap", {"task_a": first, "task_b": second}))
    card = last_of(run_turn(user, conversation, message, task_class_ids=[task_class.pk]), "confirm.request")
    fake_llm.script(reply("好了。"))
    return last_of(resume(user, conversation, card["interaction_id"], "accept"), "tool.result")


def _starts(items) -> list[int]:
    return [ScheduleEvent.objects.get(task_item=item).start_section for item in items]


@pytest.mark.django_db(transaction=True)
def test_swapping_two_blocks_of_one_class_is_refused_by_default(fake_llm, user, applied):
    result = _swap_in_a_turn(fake_llm, user, applied, "把前两次复习对调一下")
    assert result["status"] == "failed" and result["result"]["code"] == "order_broken"


@pytest.mark.django_db(transaction=True)
def test_the_student_allowing_it_in_their_message_lets_the_swap_run(fake_llm, user, applied):
    result = _swap_in_a_turn(fake_llm, user, applied, "把前两次复习对调一下，可以打乱顺序")
    assert result["status"] == "done"
    assert _starts(applied[1]) == [3, 5]  # a preview only: the database changes when the student applies it


@pytest.mark.django_db(transaction=True)
def test_a_memory_saying_order_does_not_matter_never_allows_it(fake_llm, user, applied):
    make_memory(user, "学生说复习顺序无所谓，可以打乱顺序")
    result = _swap_in_a_turn(fake_llm, user, applied, "把前两次复习对调一下")
    assert result["status"] == "failed" and result["result"]["code"] == "order_broken"



@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("class_name", ["顺序无所谓可以打乱顺序"])
def test_words_on_the_card_the_student_accepted_never_allow_it(fake_llm, user, applied):
    # The card names the blocks, so its accepted text holds the phrase: it is the server's text, not the student's.
    result = _swap_in_a_turn(fake_llm, user, applied, "把前两次复习对调一下")
    assert result["status"] == "failed" and result["result"]["code"] == "order_broken"
