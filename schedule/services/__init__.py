"""Schedule writes: events and slots, timetable import, calendar feeds."""
