"""The work budget of an import: a file that takes too long to read is refused, whatever its format."""

from datetime import date

import pytest

from schedule.core.importers import NO_LIMIT, ImportTooComplex, WorkBudget, parse_timetable
from schedule.core.time_model import SectionTemplate, Semester

SEMESTER = Semester(date(2026, 3, 2), 20)
TEMPLATE = SectionTemplate.default_cqupt()
ROW = "高数,1,1,2,王,A101,1-16\n"


class TickingClock:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_a_file_that_outlasts_its_budget_is_refused_as_too_complex():
    clock = TickingClock()
    with pytest.raises(ImportTooComplex) as refused:
        parse_timetable((ROW * 50).encode(), "csv", SEMESTER, TEMPLATE, WorkBudget.start(10, clock))
    assert refused.value.limit_seconds == 10
    assert clock.now == 12  # the start, then rows until the eleventh second: it stopped early


@pytest.mark.parametrize("fmt, data", [
    ("json", b'{"format": "smartmate-timetable/1", "courses": [{"name": "A", "day": 1, "start_section": 1, '
             b'"end_section": 2, "weeks": "1-16"}]}'),
    ("ics", b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:A\r\n"
            b"DTSTART:20260302T080000\r\nDTEND:20260302T094000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"),
])
def test_every_format_spends_the_budget(fmt, data):
    with pytest.raises(ImportTooComplex):
        parse_timetable(data, fmt, SEMESTER, TEMPLATE, WorkBudget.start(0, TickingClock()))


def test_without_a_limit_every_row_is_read_and_every_overlap_kept_beside():
    # Each row names another teacher: identical rows would be merged as duplicates, not clash.
    rows = "".join(f"高数,1,1,2,王{i},A101,1-16\n" for i in range(300))
    report = parse_timetable(rows.encode(), "csv", SEMESTER, TEMPLATE, NO_LIMIT)
    assert [c.beside for c in report.courses] == [False] + [True] * 299
    assert [n.code for n in report.notices] == ["beside_another"] * 299
