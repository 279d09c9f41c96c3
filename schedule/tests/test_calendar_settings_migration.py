"""CalendarSettings moved from accounts to schedule (accounts 0002, schedule 0006) and kept its rows.

The test walks the real migrations back and forth on the test database, so it runs on whatever
database the suite runs on: SQLite by default, MySQL/MariaDB with DATABASE_URL=mysql://...
"""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from schedule.models import CalendarSettings

# The last state with the model in accounts (on the table accounts_calendarsettings).
BEFORE_THE_MOVE = [("accounts", "0001_initial"), ("schedule", "0005_preview_moves_and_notes")]
TIMES = [["07:50", "08:35"], ["08:40", "09:25"], ["09:40", "10:25"]]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)  # a fresh one reads what is applied now
    executor.migrate(targets)
    return executor


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_calendar_rows_survive_the_move_from_accounts_to_schedule():
    try:
        executor = _migrate(BEFORE_THE_MOVE)
        old_apps = executor.loader.project_state(BEFORE_THE_MOVE).apps
        assert "accounts_calendarsettings" in connection.introspection.table_names()
        assert "schedule_calendarsettings" not in connection.introspection.table_names()
        old_user_model = old_apps.get_model("accounts", "User")
        old_calendar_model = old_apps.get_model("accounts", "CalendarSettings")
        student = old_user_model.objects.create(username="before-the-move", password="!")
        old_calendar_model.objects.create(user_id=student.pk, semester_start=date(2027, 2, 22), semester_weeks=18,
                                          section_times=TIMES)
    finally:
        _migrate(_latest())  # whatever happened, leave the database as the rest of the suite expects it

    tables = connection.introspection.table_names()
    assert "schedule_calendarsettings" in tables and "accounts_calendarsettings" not in tables
    assert CalendarSettings._meta.db_table == "schedule_calendarsettings"
    calendar = CalendarSettings.objects.select_related("user").get(user_id=student.pk)
    assert (calendar.user.username, calendar.semester_start, calendar.semester_weeks, calendar.section_times) == (
        "before-the-move", date(2027, 2, 22), 18, TIMES)
    assert calendar.semester("Asia/Shanghai").weeks == 18
    # The model's content type (its permissions, the admin's history) came along to the schedule app.
    ContentType.objects.clear_cache()
    assert not ContentType.objects.filter(app_label="accounts", model="calendarsettings").exists()
    assert ContentType.objects.get_for_model(CalendarSettings).app_label == "schedule"


@pytest.mark.django_db(transaction=True)
def test_the_move_can_be_undone_keeping_the_rows(user):
    calendar = CalendarSettings.objects.get(user=user)
    try:
        executor = _migrate(BEFORE_THE_MOVE)
        old_apps = executor.loader.project_state(BEFORE_THE_MOVE).apps
        old_calendar_model = old_apps.get_model("accounts", "CalendarSettings")
        assert old_calendar_model.objects.get(user_id=user.pk).semester_start == calendar.semester_start
    finally:
        _migrate(_latest())
    assert CalendarSettings.objects.get(user=user).section_times == calendar.section_times
