"""The load check's database and students: a fresh migrated database, N students with a timetable and a class."""

from __future__ import annotations

import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

PASSWORD = "loadcheck-Passw0rd!"
# Four courses every week of a 20-week semester: a board with something on it, room left to plan.
STUDENT_TIMETABLE = """课程名称,星期,开始节数,结束节数,老师,地点,周数
高等数学,1,1,2,王老师,二教201,1-20
大学英语,2,3,4,李老师,三教305,1-20
线性代数,3,1,2,张老师,二教105,1-20
大学物理,4,5,6,赵老师,实验楼301,1-20
""".encode()
SEMESTER_WEEKS = 20
CLASS_NAME = "期末复习"
CLASS_DAYS = 28  # the class's window: today and the next four weeks


@dataclass(frozen=True)
class Student:
    """One virtual student: who it is, what it was given, and the client address it comes from."""

    index: int
    user_id: int
    username: str
    task_class_id: int
    course_events: int
    blocks: int

    @property
    def address(self) -> str:
        """A loopback address of its own, sent as X-Forwarded-For (abuse limits count per address)."""
        return f"127.{1 + self.index // 65_536}.{self.index // 256 % 256}.{self.index % 256}"


@contextmanager
def fresh_database(suffix: str = "loadcheck") -> Iterator[str]:
    """Create a fresh migrated database for the run, drop it afterwards; yield its name.

    MySQL/MariaDB: ``<DATABASE_URL's name>_<suffix>`` on the same server. SQLite: a temporary file.
    """
    from django.db import connection

    with tempfile.TemporaryDirectory(prefix="smartmate-loadcheck-db-") as folder:
        settings = connection.settings_dict
        original = settings["NAME"]
        test = settings.setdefault("TEST", {})
        test["NAME"] = (str(Path(folder) / "loadcheck.sqlite3") if connection.vendor == "sqlite"
                        else f"{original}_{suffix}")
        name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            yield str(name)
        finally:
            connection.creation.destroy_test_db(original, verbosity=0)


def students_create(count: int, *, blocks: int) -> list[Student]:
    """Create ``count`` students, each with a calendar, ``STUDENT_TIMETABLE`` and one class of ``blocks`` blocks.

    The password is hashed once and shared (hashing it per student would take minutes); each login
    still checks it in full on the server.
    """
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from accounts.models import User
    from schedule.models import CalendarSettings, default_section_times

    run = secrets.token_hex(3)
    password = make_password(PASSWORD)
    users = User.objects.bulk_create([User(username=f"lc-{run}-{index}", password=password)
                                      for index in range(count)])
    if any(user.pk is None for user in users):  # backends without RETURNING on bulk inserts
        users = list(User.objects.filter(username__startswith=f"lc-{run}-").order_by("id"))
    today = timezone.localdate(timezone.now(), users[0].zone) if users else timezone.localdate()
    start = today - timedelta(days=today.weekday(), weeks=1)  # today falls in week 2
    CalendarSettings.objects.bulk_create([
        CalendarSettings(user=user, semester_start=start, semester_weeks=SEMESTER_WEEKS,
                         section_times=default_section_times()) for user in users])
    return [_student_fill(index, user, blocks=blocks, today=today) for index, user in enumerate(users)]


def _student_fill(index: int, user, *, blocks: int, today) -> Student:
    from schedule.services.imports import timetable_import
    from taskclasses.plans.services import task_class_create

    outcome = timetable_import(user=user, data=STUDENT_TIMETABLE, fmt="csv")
    # No filler courses, no late evenings: every block becomes an event of its own in free time.
    task_class = task_class_create(user=user, name=CLASS_NAME, start_date=today,
                                   end_date=today + timedelta(days=CLASS_DAYS - 1), excluded_pairs=[6],
                                   allow_filler=False, item_count=blocks)
    return Student(index=index, user_id=user.pk, username=user.username, task_class_id=task_class.pk,
                   course_events=outcome.created_events, blocks=blocks)
