"""Schedule pages over the Django test client."""

from __future__ import annotations

from datetime import UTC, date, datetime

from django.core.files.uploadedfile import SimpleUploadedFile

from board.boards import board_load
from schedule.models import Course, ScheduleEvent
from schedule.tests.factories import DEMO_CSV, custom_event, import_csv

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_week_board_shows_events_spanning_their_sections(client, user):
    import_csv(user, "大学物理实验,3,5,7,吴晓东,物理实验中心301,3")
    client.force_login(user)
    html = client.get("/board/?week=3", **EN).content.decode()
    assert "Week 3 of 20" in html
    assert 'rowspan="3"' in html and "大学物理实验" in html


def test_week_board_shows_two_courses_at_one_time_side_by_side(client, user):
    client.force_login(user)
    import_csv(user, "线性代数,2,3,4,陈志强,理工楼110,1-16", "大学英语,2,3,4,林晓,文成楼125,2、5、8")
    html = client.get("/board/?week=5", **EN).content.decode()
    assert html.count('data-test="beside"') == 2  # in the week table and in the phone's agenda
    assert "⇆ 大学英语" in html and "文成楼125" in html and "线性代数" in html
    # It opens its own course (js/course_edit.js), not the one it sits beside.
    english = Course.objects.get(user=user, name="大学英语")
    assert html.count(f'data-test="beside" data-event-id="{english.events.get(week=5).pk}" '
                      f'data-course-id="{english.pk}" data-course-name="大学英语"') == 2
    # The planner sees the sections held once, by the earlier course.
    board = board_load(user=user, now=datetime(2026, 10, 5, 8, tzinfo=UTC), first=date(2026, 10, 6),
                       last=date(2026, 10, 6))
    assert [e.name for e in board.entries] == ["线性代数"]


def test_week_board_falls_back_to_this_week_for_a_bad_week(client, user):
    client.force_login(user)
    assert client.get("/board/?week=99").status_code == 302


def test_filler_toggle_from_the_board(client, user):
    import_csv(user, "形势与政策,1,9,10,赵立新,二教1101,1-8")
    course = Course.objects.get(user=user)
    client.force_login(user)
    response = client.post(f"/schedule/courses/{course.pk}/filler/", {"next": "/board/?week=2"})
    assert response["Location"] == "/board/?week=2"
    course.refresh_from_db()
    assert course.is_filler is True


def test_filler_toggle_of_another_students_course_is_404(client, user, other_user):
    import_csv(other_user, "形势与政策,1,9,10,赵立新,二教1101,1-8")
    client.force_login(user)
    assert client.post(f"/schedule/courses/{Course.objects.get().pk}/filler/").status_code == 404


def test_filler_toggle_never_redirects_off_site(client, user):
    import_csv(user, "形势与政策,1,9,10,赵立新,二教1101,1-8")
    client.force_login(user)
    response = client.post(f"/schedule/courses/{Course.objects.get().pk}/filler/", {"next": "//evil.example/"})
    assert response["Location"] == "/board/"


def test_import_page_previews_then_imports(client, user):
    client.force_login(user)
    upload = SimpleUploadedFile("课表.csv", DEMO_CSV.read_bytes())
    preview = client.post("/schedule/import/", {"file": upload, "action": "preview"}, **EN)
    assert "data-test=\"import-confirm\"" in preview.content.decode()
    assert not ScheduleEvent.objects.exists()
    confirm = client.post("/schedule/import/", {"content": DEMO_CSV.read_text(encoding="utf-8"),
                                                "action": "import"}, **EN)
    assert confirm.status_code == 302
    assert Course.objects.filter(user=user).count() == 21


def test_import_page_lists_problems_and_writes_nothing(client, user):
    client.force_login(user)
    response = client.post("/schedule/import/", {"content": "课程名称,星期,开始节数,结束节数,老师,地点,周数\n"
                                                            "大学物理,9,3,4,刘海燕,二教3108,1-16\n",
                                                 "action": "import"}, **EN)
    html = response.content.decode()
    assert "The timetable was not imported: 1 problem to fix." in html
    assert "is not a day of the week" in html
    assert not ScheduleEvent.objects.exists()


def test_import_page_says_how_many_problems_are_not_listed(client, user):
    client.force_login(user)
    rows = "课程名称,星期,开始节数,结束节数,老师,地点,周数\n" + "".join(
        f"高数,9,1,2,王{i},A101,1-16\n" for i in range(202))  # no ninth weekday: a problem per row
    response = client.post("/schedule/import/", {"content": rows, "action": "preview"}, **EN)
    html = response.content.decode()
    assert "202 problems to fix. Only the first 200 are listed; 2 more are not shown." in html
    assert html.count("is not a day of the week") == 200


def test_import_preview_sums_up_left_out_meetings_in_one_line_per_kind(client, user):
    client.force_login(user)
    marks = "".join(f"BEGIN:VEVENT\r\nUID:d{i}\r\nSUMMARY:Day {i}\r\nDTSTART;VALUE=DATE:2026{9 + i // 28:02d}"
                    f"{1 + i % 28:02d}\r\nEND:VEVENT\r\n" for i in range(60))
    lecture = ("BEGIN:VEVENT\r\nUID:l\r\nSUMMARY:高数\r\nDTSTART:20260907T080000\r\nDTEND:20260907T094000\r\n"
               "RRULE:FREQ=WEEKLY;COUNT=16\r\nEND:VEVENT\r\n")
    content = f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n{lecture}{marks}END:VCALENDAR\r\n"
    html = client.post("/schedule/import/", {"content": content, "action": "preview"}, **EN).content.decode()
    assert "All-day events (holidays, deadlines, notes): 60 left out" in html
    assert html.count("is an all-day event") == 5  # the first few in full, then the count
    assert "Import the 1 arrangement that fits" in html


def test_import_page_says_when_a_file_is_too_complex(client, user, settings, monkeypatch):
    ticks = iter(range(1_000_000))
    monkeypatch.setattr("schedule.services.imports.cpu_clock", lambda: float(next(ticks)))
    settings.IMPORT_CPU_SECONDS = 5
    client.force_login(user)
    response = client.post("/schedule/import/", {"content": DEMO_CSV.read_text(encoding="utf-8"),
                                                 "action": "preview"}, **EN)
    assert "The timetable is too complex to check" in response.content.decode()
    assert not Course.objects.exists()


def test_dashboard_shows_todays_events(client, user, monkeypatch):
    from datetime import datetime

    custom_event(user, title="社团活动", week=13, day=1, start=9, end=10)
    monkeypatch.setattr("django.utils.timezone.now", lambda: datetime(2026, 11, 30, 1, 0, tzinfo=UTC))
    client.force_login(user)
    html = client.get("/", **EN).content.decode()
    assert "社团活动" in html and "19:00–20:40" in html


def test_feed_page_with_an_unknown_token_is_404(client, db):
    assert client.get("/schedule/feed/nope.ics").status_code == 404
