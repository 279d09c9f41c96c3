"""A student corrects a suggested quadrant in Chromium; quick add suggests it next time, until forgotten."""

from __future__ import annotations

import pytest

from accounts.tests.factories import UserFactory
from smartmate.tests.live_server import log_in
from taskclasses.notes.models import QuadrantLesson


def _type_note(page, text: str) -> None:
    page.wait_for_selector("#quick-add-form[data-ready='1']", state="attached")
    page.fill("#quick-add-text", text)
    page.wait_for_selector("[data-test=quick-add-preview]:not([hidden])")
    page.wait_for_selector("#quick-add-form[data-parsed='1']", state="attached")


@pytest.mark.e2e
def test_a_corrected_quadrant_is_suggested_next_time_and_can_be_forgotten(live_page, transactional_db):
    student = UserFactory(username="xiaolin")
    page = live_page
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, student.username)
    assert page.is_hidden("[data-test=quick-add-lessons]")  # nothing learned yet

    _type_note(page, "下周五整理实验数据")
    assert page.input_value("#qa-quadrant") == "2"  # 实验 reads as coursework
    page.select_option("#qa-quadrant", "3")  # the student: it is an errand
    page.click("[data-test=quick-add-save]")
    page.wait_for_selector("[data-test=quadrant-3] [data-test=task]")

    page.wait_for_selector("[data-test=quick-add-lessons]:not([hidden])")
    page.click("[data-test=quick-add-lessons] summary")
    row = page.inner_text("[data-test=quick-add-lesson]")
    assert "整理实验数据" in row and "3 · " in row
    assert "全部忘掉" in page.inner_text("[data-test=quick-add-lessons-clear]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone

    _type_note(page, "周日前整理实验数据")
    assert page.input_value("#qa-quadrant") == "3"
    assert page.inner_text("[data-test=quick-add-learned]") == "按你上次的选择"

    page.click("[data-test=quick-add-lessons-clear]")
    page.wait_for_selector("[data-test=quick-add-lessons]", state="hidden")
    assert not QuadrantLesson.objects.filter(user=student).exists()
