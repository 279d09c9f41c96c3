"""Starting the next semester and undoing it, with its pages, API and shell command.

Here, above the schedule, because a semester holds the student's plans and quick notes too; the
past-semester record, its frozen document and the read-only reads stay in ``schedule.semesters``.
"""
