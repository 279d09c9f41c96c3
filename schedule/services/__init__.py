"""Schedule writes: the calendar settings, events and slots, timetable import, calendar feeds."""
