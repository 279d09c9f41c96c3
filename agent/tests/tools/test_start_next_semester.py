"""start_next_semester: asks with the dates and what comes along, starts once per call, refusals go back to the model."""

from __future__ import annotations

import json

from agent.tests.tools.conftest import make_ctx
from agent.tools.start_next_semester import TOOL
from schedule.models import CalendarSettings
from schedule.semesters.models import Semester
from schedule.tests.semesters.helpers import autumn_semester


def test_the_card_names_the_dates_the_semester_kept_and_what_comes_along(user):
    notes = autumn_semester(user)["notes"]

    card = TOOL.confirmation({"note_ids": [notes[0].pk, notes[1].pk]}, make_ctx(user), None)

    assert card == ("Start a new semester on 2027-03-01 for 20 weeks; 2026 autumn semester is kept read-only. "
                    "Comes along: 2 quick notes, protected times 午饭、晚自习.")


def test_a_confirmed_call_starts_the_semester_once_even_when_run_again(user):
    notes = autumn_semester(user)["notes"]
    args = {"weeks": 18, "note_ids": [notes[0].pk], "protected": ["午饭"]}

    first = TOOL.run(args, make_ctx(user, call_id="c-1"), None)
    again = TOOL.run(args, make_ctx(user, call_id="c-1"), None)

    assert first.status == again.status == "done" and json.loads(first.content)["weeks"] == 18
    assert Semester.objects.filter(user=user).count() == 1
    assert CalendarSettings.objects.get(user=user).semester_start.isoformat() == "2027-03-01"


def test_a_refused_start_goes_back_to_the_model_with_the_reason(user):
    result = TOOL.run({"first_monday": "2027-03-02"}, make_ctx(user), None)

    assert result.status == "failed" and "Week 1 must start on a Monday." in result.content
    assert not Semester.objects.exists()
