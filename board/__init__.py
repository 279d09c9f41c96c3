"""The week board: its page, previews, apply, undo, drag edits, catch-up, repair, reasons and workload.

It sits above the schedule and the task classes (README, "Layout"): it reads both, writes the
schedule's tables through the schedule's services, and registers itself as the schedule's timetable
editor when the app is ready (``board/apps.py``).
"""
