"""A course edit reaches every reader: each field the student can change, through the path the page
or a client uses, is read back from the week board page, the phone agenda, the week and today JSON, the
.ics feed and download, the data archive (its tables and its calendar) and the assistant (the system
prompt's timetable and the schedule tools): the new value is there, the old one gone. The paths: the course
dialog's API (name, teacher, room, filler mark, one meeting deleted) and a re-import (weeks, day and sections).

A reader that does not show a field by design is named in ``NOT_SHOWN`` with the reason, and the test
then checks it shows neither the old nor the new value (nothing stale can hide there).
"""

from __future__ import annotations

import io
import json
import uuid
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from html.parser import HTMLParser
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from icalendar import Calendar
from rest_framework.test import APIClient

from accounts.data_export import user_data_archive
from accounts.models import User
from agent.flow.prompts import system_prompt
from agent.tools.query_range import TOOL as QUERY_RANGE
from agent.tools.support.base import ToolContext
from agent.tools.support.working_schedule import working_load
from agent.turn_services import DjangoTurnServices
from schedule.models import ScheduleEvent
from schedule.selectors import calendar_settings_get
from schedule.services.feeds import calendar_feed_ensure
from schedule.tests.conftest import BEFORE_WEEK_THREE
from schedule.tests.factories import csv_bytes, import_csv

pytestmark = pytest.mark.usefixtures("before_week_three")

SHANGHAI = ZoneInfo("Asia/Shanghai")
TODAY = BEFORE_WEEK_THREE.date()  # Monday 2026-09-14, week 2
WEEKS = (2, 3)
WINDOW = tuple(TODAY + timedelta(days=n) for n in range(14))  # weeks 2 and 3

# One course, every Monday morning; the edits below change it one field at a time.
ROW = "高等数学,1,1,2,王老师,二教1101,1-16"
MONDAYS = {(date(2026, 9, 14), "08:00"), (date(2026, 9, 21), "08:00")}


@dataclass(frozen=True)
class Seen:
    """One course meeting as a reader shows it: when, the words shown with it, and the filler mark."""

    on: date
    start: str  # HH:MM, the student's clock
    text: str
    filler: bool | None  # None: this reader has no filler mark


# --- The edits, each through the student's own path -------------------------------------------------

def _key() -> dict:
    return {"HTTP_X_IDEMPOTENCY_KEY": str(uuid.uuid4())}


def _patch_course(api: APIClient, user: User, **values) -> None:
    course = user.courses.get()
    answer = api.patch(f"/api/v1/schedule/courses/{course.pk}/", values, format="json", **_key())
    assert answer.status_code == 200, answer.content


def _meeting(user: User, week: int) -> ScheduleEvent:
    return ScheduleEvent.objects.get(user=user, kind=ScheduleEvent.Kind.COURSE, week=week)


def delete_week_two(api: APIClient, user: User) -> None:
    """The course dialog's 删除这次课 (a holiday): the course now meets in weeks 1 and 3-16.

    (A meeting's own day or sections are not the student's to change one at a time: the events API
    refuses a class meeting, schedule/tests/test_own_event_changesets.py; new times come by re-import.)"""
    meeting = _meeting(user, 2)
    answer = api.delete(f"/api/v1/schedule/courses/{meeting.course_id}/meetings/{meeting.pk}/", **_key())
    assert answer.status_code == 200, answer.content


def _reimport(api: APIClient, row: str) -> None:
    answer = api.post("/api/v1/schedule/import/", {"content": csv_bytes(row).decode(), "format": "csv",
                                                   "mode": "replace"}, format="json", **_key())
    assert answer.status_code == 201, answer.content


@dataclass(frozen=True)
class Edit:
    """A change, what each reader should show after it, and the value it replaces (None: none in words)."""

    name: str
    field: str
    apply: Callable[[APIClient, User], None]
    meetings: frozenset[tuple[date, str]] = frozenset(MONDAYS)
    old: str | None = None
    new: str | None = None
    filler: bool = False


EDITS = [
    Edit("name", "name", lambda api, user: _patch_course(api, user, name="微积分"), old="高等数学", new="微积分"),
    Edit("teacher", "teacher", lambda api, user: _patch_course(api, user, teacher="刘老师"), old="王老师",
         new="刘老师"),
    Edit("location", "location", lambda api, user: _patch_course(api, user, location="三教3302"),
         old="二教1101", new="三教3302"),
    Edit("filler mark", "filler", lambda api, user: _patch_course(api, user, is_filler=True), filler=True),
    Edit("one meeting deleted", "weeks", delete_week_two,
         meetings=frozenset({(date(2026, 9, 21), "08:00")})),
    Edit("weeks re-imported", "weeks", lambda api, user: _reimport(api, "高等数学,1,1,2,王老师,二教1101,3-16"),
         meetings=frozenset({(date(2026, 9, 21), "08:00")})),
    Edit("day and sections re-imported", "day and sections",
         lambda api, user: _reimport(api, "高等数学,2,5,6,王老师,二教1101,1-16"),
         meetings=frozenset({(date(2026, 9, 15), "14:00"), (date(2026, 9, 22), "14:00")})),
]


# --- The readers, each reduced to the course meetings it shows in weeks 2-3 --------------------------

class _Elements(HTMLParser):
    """Collect the attributes and visible text of each element ``wanted`` picks (and of what it holds)."""

    VOID = {"br", "input", "img", "meta", "link", "hr", "source", "wbr"}

    def __init__(self, wanted: Callable[[str, dict], bool]) -> None:
        super().__init__()
        self.wanted = wanted
        self.found: list[tuple[dict, list[str]]] = []
        self._depth = 0  # open elements inside the one being collected (0: none collected)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self._depth:
            self._depth += tag not in self.VOID
        elif self.wanted(tag, dict(attrs)) and tag not in self.VOID:
            self.found.append((dict(attrs), []))
            self._depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth and data.strip():
            self.found[-1][1].append(data.strip())


def _elements(html: str, wanted: Callable[[str, dict], bool]) -> list[tuple[dict, list[str]]]:
    parser = _Elements(wanted)
    parser.feed(html)
    return parser.found


def _page(user: User, week: int) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(user)
    answer = client.get(f"{reverse('board:week')}?week={week}")
    assert answer.status_code == 200
    return answer.content.decode()


def _week_dates(week: int) -> list[date]:
    return [date(2026, 9, 7) + timedelta(days=(week - 1) * 7 + n) for n in range(7)]


def week_page(user: User) -> set[Seen]:
    starts = [start for start, _end in calendar_settings_get(user=user).section_times]
    seen = set()
    for week in WEEKS:
        cells = _elements(_page(user, week), lambda tag, a: a.get("data-test") == "event" and a.get("data-kind")
                          == "course")
        seen |= {Seen(_week_dates(week)[int(a["data-day"]) - 1], starts[int(a["data-section"]) - 1],
                      " ".join(words), "filler" in a["class"].split()) for a, words in cells}
    return seen


def agenda_page(user: User) -> set[Seen]:
    seen = set()
    for week in WEEKS:
        # Each day's part of the agenda starts at its own element: split there, read the day from it.
        for part in _page(user, week).split('<div class="agenda-day" ')[1:]:
            on = _week_dates(week)[int(part.split('data-day="', 1)[1][0]) - 1]
            items = _elements(part, lambda tag, a: a.get("data-test") == "agenda-item"
                              and "kind-course" in a.get("class", "").split())
            seen |= {Seen(on, words[0], " ".join(words), "filler" in a["class"].split()) for a, words in items}
    return seen


def _from_json(events: list[dict]) -> set[Seen]:
    seen = set()
    for event in events:
        if event["kind"] != "course":
            continue
        starts = datetime.fromisoformat(event["starts_at"]).astimezone(SHANGHAI)
        words = " ".join([event["title"], event["location"], event["course"]["name"], event["course"]["teacher"]])
        seen.add(Seen(starts.date(), f"{starts:%H:%M}", words, event["is_filler"]))
    return seen


def week_json(user: User) -> set[Seen]:
    api = _api(user)
    return set().union(*(_from_json(api.get(f"/api/v1/schedule/week/?week={week}").json()["events"])
                         for week in WEEKS))


def today_json(user: User) -> set[Seen]:
    return _from_json(_api(user).get("/api/v1/schedule/today/").json())


def _from_ics(data: bytes) -> set[Seen]:
    seen = set()
    for event in Calendar.from_ical(data).walk("VEVENT"):
        starts = event.decoded("DTSTART").astimezone(SHANGHAI)
        words = " ".join(str(event.get(key, "")) for key in ("SUMMARY", "LOCATION", "DESCRIPTION"))
        seen.add(Seen(starts.date(), f"{starts:%H:%M}", words, None))
    return seen


def feed_ics(user: User) -> set[Seen]:
    token = calendar_feed_ensure(user=user).token
    answer = Client().get(reverse("schedule:feed", kwargs={"token": token}))
    assert answer.status_code == 200
    return _from_ics(answer.content)


def export_ics(user: User) -> set[Seen]:
    return _from_ics(_api(user).get("/api/v1/schedule/export.ics").content)


def _archive(user: User) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(b"".join(user_data_archive(user=user))))


def archive_tables(user: User) -> set[Seen]:
    """schedule.json's meetings with their course's row (not the change sets: those keep history on purpose)."""
    tables = json.loads(_archive(user).read("schedule.json"))["tables"]
    courses = {row["id"]: row for row in tables["course"]}
    seen = set()
    for event in tables["scheduleevent"]:
        if event["kind"] != "course":
            continue
        course = courses[event["course_id"]]
        starts = datetime.fromisoformat(event["starts_at"]).astimezone(SHANGHAI)
        words = " ".join([event["title"], event["location"], course["name"], course["teacher"], course["location"]])
        seen.add(Seen(starts.date(), f"{starts:%H:%M}", words, course["is_filler"]))
    return seen


def archive_ics(user: User) -> set[Seen]:
    return _from_ics(_archive(user).read("calendar.ics"))


def assistant_prompt(user: User) -> set[Seen]:
    """The system prompt's 今天的课表 and 明天的课表 lines ("- 08:00–09:40 高等数学（二教1101）")."""
    prompt = system_prompt(DjangoTurnServices(user=user, conversation_id=1, turn_id="t",
                                              now=lambda: BEFORE_WEEK_THREE).prompt_context())
    today, tomorrow = prompt.split("## 今天的课表")[1].split("## 明天的课表")
    tomorrow = tomorrow.split("## ")[0]
    seen = set()
    for on, part in ((TODAY, today), (TODAY + timedelta(days=1), tomorrow)):
        seen |= {Seen(on, line[2:7], line, None) for line in part.splitlines() if line.startswith("- ")}
    return seen


def assistant_tools(user: User) -> set[Seen]:
    """query_range's section lines for each day ("第1节 08:00-08:45：[1]高等数学(课程·固定·已有)"), as the model
    reads them: a meeting is its first section's line."""
    ctx = ToolContext(user_id=user.pk, conversation_id=1, call_id="c", now=BEFORE_WEEK_THREE, task_class_ids=(),
                      allow_reorder=False)
    working = working_load(user=user, now=BEFORE_WEEK_THREE)
    seen = set()
    for on in WINDOW:
        firsts: dict[str, str] = {}
        for line in QUERY_RANGE.run({"date": on.isoformat()}, ctx, working).content.splitlines():
            if line.startswith("第") and "(课程" in line:
                clock, entry = line.split("节 ", 1)[1].split("：", 1)
                firsts.setdefault(entry, clock[:5])
        seen |= {Seen(on, start, entry, "水课可嵌入" in entry) for entry, start in firsts.items()}
    return seen


def _api(user: User) -> APIClient:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="zh-hans")
    api.force_authenticate(user=user)
    return api


READERS = [week_page, agenda_page, week_json, today_json, feed_ics, export_ics, archive_tables, archive_ics,
           assistant_prompt, assistant_tools]

# The days each reader covers within weeks 2-3.
WINDOWS = {today_json: (TODAY,), assistant_prompt: (TODAY, TODAY + timedelta(days=1))}

# (reader, field) pairs a reader does not show, by design, and why.
NOT_SHOWN = {
    (week_page, "teacher"): "a board cell holds the name and room; the course dialog shows the teacher (week_json)",
    (agenda_page, "teacher"): "an agenda row holds the time, name and room; the teacher is in the course dialog",
    (feed_ics, "filler"): "calendar apps have no filler course; the mark only matters to planning",
    (export_ics, "filler"): "the same file as the feed",
    (archive_ics, "filler"): "the same file as the feed",
    (assistant_prompt, "teacher"): "the prompt's day lines give time, name and room: the teacher costs tokens "
                                   "every turn and the assistant plans time, not people",
    (assistant_prompt, "filler"): "filler hosting is the schedule tools' business (assistant_tools shows it)",
    (assistant_tools, "teacher"): "the tools describe who holds which time, not who teaches",
    (assistant_tools, "location"): "the tools describe time; rooms reach the model through the prompt's "
                                   "today and tomorrow lines (assistant_prompt)",
}


def _cases():
    for edit in EDITS:
        for reader in READERS:
            yield pytest.param(edit, reader, id=f"{edit.name}-{reader.__name__}")


@pytest.fixture
def student(user):
    import_csv(user, ROW)
    return user


@pytest.mark.parametrize(("edit", "reader"), list(_cases()))
def test_a_course_edit_reaches_the_reader(student, edit, reader):
    window = set(WINDOWS.get(reader, WINDOW))
    edit.apply(_api(student), student)
    seen = {s for s in reader(student) if s.on in window}
    assert {(s.on, s.start) for s in seen} == {(on, start) for on, start in edit.meetings if on in window}
    reason = NOT_SHOWN.get((reader, edit.field))
    for shown in seen:
        if edit.old is not None:
            assert edit.old not in shown.text, shown
        if edit.new is not None:
            assert (edit.new in shown.text) is (reason is None), (shown, reason)
        if edit.field == "filler":
            assert shown.filler is (edit.filler if reason is None else None), (shown, reason)


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_each_reader_shows_the_course_as_imported(student, reader):
    window = set(WINDOWS.get(reader, WINDOW))
    seen = {s for s in reader(student) if s.on in window}
    assert {(s.on, s.start) for s in seen} == {(on, start) for on, start in MONDAYS if on in window}
    for field, value in (("name", "高等数学"), ("teacher", "王老师"), ("location", "二教1101")):
        assert all((value in s.text) is ((reader, field) not in NOT_SHOWN) for s in seen), (field, seen)


def test_every_reason_names_a_reader_and_a_field_an_edit_changes():
    fields = {edit.field for edit in EDITS}
    assert all(reader in READERS and field in fields and reason for (reader, field), reason in NOT_SHOWN.items())
