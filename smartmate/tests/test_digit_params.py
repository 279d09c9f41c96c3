"""Numbers in query strings and form fields: "²" passes str.isdigit() and int() refuses it.

The probe (L3): ``?week=²`` answered 500 on page routes. Every page now reads numbers with
``digits_int`` (ASCII digits only) and answers a redirect, a message or a 4xx instead.
"""

from __future__ import annotations

import pytest

from smartmate.platform.params import digits_int

pytestmark = pytest.mark.django_db

ODD_NUMBERS = ["²", "١٢", "1²", "99999999999999999999999"]


@pytest.mark.parametrize(("raw", "number"), [("12", 12), (" 7 ", 7), ("²", None), ("١٢", None), ("", None),
                                             (None, None), ("-3", None), ("1" * 19, None)])
def test_digits_int_reads_only_ascii_digits(raw, number):
    assert digits_int(raw) == number


@pytest.mark.parametrize("raw", ODD_NUMBERS)
@pytest.mark.parametrize("name", ["week", "day", "preview"])
def test_the_week_board_never_fails_on_an_odd_number(client, user, name, raw):
    client.force_login(user)
    response = client.get("/board/", {name: raw})
    assert response.status_code in {200, 302}


@pytest.mark.parametrize("raw", ODD_NUMBERS)
@pytest.mark.parametrize(("path", "form"), [
    ("/schedule/exams/", {"action": "edit", "exam_id": "{}"}),
    ("/schedule/exams/", {"action": "delete", "exam_id": "{}"}),
    ("/settings/", {"action": "calendar_day_delete", "day_id": "{}"}),
    ("/settings/", {"action": "calendar_national_load", "year": "{}"}),
    ("/schedule/rules/", {"action": "protected_add", "name": "午休", "days": "{}", "first": "5", "last": "5"}),
    ("/tasks/quick-add/", {"text": "明天交作业", "quadrant": "{}"}),
    ("/board/previews/new/", {"task_class_ids": "{}"}),
])
def test_page_forms_never_fail_on_an_odd_number(client, user, path, form, raw):
    client.force_login(user)
    response = client.post(path, {key: value.format(raw) for key, value in form.items()})
    assert response.status_code < 500


def test_a_csp_report_with_an_odd_length_is_refused(client):
    response = client.post("/csp-report", b"{}", content_type="application/csp-report", CONTENT_LENGTH="²")
    assert response.status_code == 413


def test_the_quick_add_parser_does_not_read_superscripts_as_numbers():
    from taskclasses.notes.core.quick_add.text import parse_number

    assert parse_number("²") is None
    assert parse_number("12") == 12
