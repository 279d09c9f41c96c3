from django.apps import AppConfig


class BoardConfig(AppConfig):
    name = "board"

    def ready(self) -> None:
        from board.timetable_edits import TimetableEditor
        from schedule.timetable_port import timetable_editor_set

        timetable_editor_set(TimetableEditor())
