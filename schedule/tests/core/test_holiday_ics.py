"""Holidays from an .ics: all-day events become ranges (DTEND exclusive), working days are set aside."""

from __future__ import annotations

from datetime import date

from schedule.core.holiday_ics import MAX_ICS_BYTES, holidays_from_ics


def ics(*events: str) -> bytes:
    body = "".join(f"BEGIN:VEVENT\r\nUID:{n}\r\n{e}END:VEVENT\r\n" for n, e in enumerate(events))
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\n{body}END:VCALENDAR\r\n".encode()


def test_all_day_events_become_holidays_and_working_days_are_set_aside():
    parsed = holidays_from_ics(ics("SUMMARY:国庆节\r\nDTSTART;VALUE=DATE:20261001\r\nDTEND;VALUE=DATE:20261008\r\n",
                                   "SUMMARY:元旦\r\nDTSTART;VALUE=DATE:20270101\r\n",
                                   "SUMMARY:国庆节补班\r\nDTSTART;VALUE=DATE:20261010\r\n"))
    assert parsed.problems == ()
    assert [(h.name, h.first, h.last) for h in parsed.holidays] == [
        ("国庆节", date(2026, 10, 1), date(2026, 10, 7)), ("元旦", date(2027, 1, 1), date(2027, 1, 1))]
    assert parsed.workdays_skipped == ("国庆节补班 2026-10-10",)


def test_problems_by_code():
    timed = holidays_from_ics(ics("SUMMARY:开会\r\nDTSTART:20261020T090000Z\r\nDTEND:20261020T100000Z\r\n"))
    assert [(p.code, p.name) for p in timed.problems] == [("not_all_day", "开会")]
    assert holidays_from_ics(b"nonsense").problems[0].code == "invalid_ics"
    assert holidays_from_ics(ics()).problems[0].code == "no_events"
    assert holidays_from_ics(b"x" * (MAX_ICS_BYTES + 1)).problems[0].code == "file_too_large"
