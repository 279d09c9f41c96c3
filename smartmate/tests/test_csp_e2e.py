"""Every page type works in Chromium under the Content-Security-Policy, and an injected script is
blocked and reported to the server."""

from __future__ import annotations

import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.tests.factories import reply, route
from bench.fake_model import FakeLLMServer
from memory.tests.factories import make_memory
from schedule.tests.factories import import_csv
from smartmate.tests.live_server import daphne_serving, log_in
from taskclasses.tests.factories import make_task_class

# Records what the policy blocks from the first script of every document on (an init script runs
# outside the page's policy, so the recorder itself is never blocked).
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.__csp.push(`${event.effectiveDirective} blocked ${event.blockedURI} in ${where}`);
});
"""

# Each page type: a path and an element that shows the page did its work (for the API docs: that
# they rendered the operations of the schema).
STUDENT_PAGES = [
    ("dashboard", "/", "[data-test=dashboard-title]"),
    ("first-run guide", "/welcome/", "[data-test=first-run-steps]"),
    ("exams", "/schedule/exams/", "[data-test=exams-title]"),
    ("week board", "/board/?week=3", "[data-test=event]"),
    ("import", "/schedule/import/", "[data-test=feed-url]"),
    ("plans", "/plans/", "[data-test=task-class]"),
    ("memory", "/memory/", "[data-test=memory]"),
    ("settings", "/accounts/settings/", "[data-test=token-quota]"),
    ("browsable API", "/api/v1/me/", ".response-info"),
    ("Swagger UI", "/api/schema/swagger/", ".swagger-ui .opblock"),
    ("ReDoc", "/api/schema/redoc/", "[role=menuitem]"),
]
# ReDoc's attribution logo is remote: blocked on purpose (nothing is fetched from the internet).
REDOC_LOGO = "https://cdn.redoc.ly/"
ANONYMOUS_PAGES = [
    ("login", "/accounts/login/", "[data-test=login-submit]"),
    ("register", "/accounts/register/", "form [type=submit]"),
    ("admin login", "/admin/login/", "#login-form"),
]
ADMIN_PAGES = [
    ("admin index", "/admin/", "#content-main"),
    ("admin changelist", "/admin/schedule/course/", "#result_list"),
]


class Server(NamedTuple):
    base_url: str
    fake: FakeLLMServer
    log: Path


@pytest.fixture(scope="module")
def csp_server(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Server]:
    """A daphne child with a fake model (the assistant streams a real answer) and a readable log."""
    from django.db import connection

    with django_db_blocker.unblock():
        database_name = str(connection.settings_dict["NAME"])
    fake = FakeLLMServer().start()
    log = tmp_path_factory.mktemp("csp") / "daphne.log"
    extra_env = {"LLM_BASE_URL": fake.base_url, "LLM_API_KEY": "test", "REDIS_URL": "", "CELERY_BROKER_URL": "",
                 "AGENT_AUTO_TITLES": "false", "MEMORY_ENABLED": "false", "LOG_FORMAT": "text"}
    try:
        with daphne_serving(database_name, log, extra_env) as base_url:
            urllib.request.urlopen(f"{base_url}/accounts/login/", timeout=60).close()
            yield Server(base_url, fake, log)
    finally:
        fake.stop()


@pytest.fixture
def csp_page(page, csp_server):
    """A page that records CSP violations, both as DOM events and as console messages."""
    page.set_default_timeout(30_000)
    page.base_url = csp_server.base_url
    page.add_init_script(RECORD_VIOLATIONS)
    page.console_violations = []
    page.on("console", lambda message: page.console_violations.append(message.text)
            if "Content Security Policy" in message.text else None)
    return page


def violations_on(page, pages: list[tuple[str, str, str]]) -> dict[str, list[str]]:
    """Open each page, wait for its key element, and return what the policy blocked there."""
    found = {}
    for label, path, selector in pages:
        page.console_violations.clear()
        page.goto(f"{page.base_url}{path}")
        # The API docs build a 250 kB schema and render it in the browser: seconds on a busy CI machine.
        expect(page.locator(selector).first, label).to_be_visible(timeout=30_000)
        page.wait_for_load_state("networkidle")
        found[label] = [violation for violation in page.evaluate("window.__csp") + page.console_violations
                        if REDOC_LOGO not in violation]
    return found


@pytest.mark.e2e
def test_every_student_page_works_without_a_csp_violation(csp_page, transactional_db):
    student = UserFactory(username="csp-student")
    import_csv(student, "高等数学,1,1,2,王老师,一教101,1-16")
    make_task_class(student)
    make_memory(student, "喜欢晚上复习")

    anonymous = violations_on(csp_page, ANONYMOUS_PAGES)
    log_in(csp_page, student.username)
    signed_in = violations_on(csp_page, STUDENT_PAGES)

    assert {**anonymous, **signed_in} == {label: [] for label, _path, _selector in ANONYMOUS_PAGES + STUDENT_PAGES}


@pytest.mark.e2e
def test_the_admin_works_without_a_csp_violation(csp_page, transactional_db):
    operator = UserFactory(username="csp-operator", is_staff=True, is_superuser=True)
    import_csv(operator, "高等数学,1,1,2,王老师,一教101,1-16")
    log_in(csp_page, operator.username)

    assert violations_on(csp_page, ADMIN_PAGES) == {label: [] for label, _path, _selector in ADMIN_PAGES}


@pytest.mark.e2e
def test_the_assistant_streams_over_its_websocket_without_a_csp_violation(csp_page, csp_server, transactional_db):
    answer = "你好！今天先复习概率论。"
    csp_server.fake.script(route("reply"), reply(answer, chunk_delay=0.05))
    student = UserFactory(username="csp-chatter")
    log_in(csp_page, student.username)
    csp_page.goto(f"{csp_page.base_url}/assistant/")

    csp_page.fill("[data-test=chat-input]", "你好")
    csp_page.press("[data-test=chat-input]", "Enter")

    expect(csp_page.locator("[data-test=chat-assistant-message] .chat-text")).to_have_text(answer)
    csp_page.wait_for_url(re.compile(r"/assistant/\d+/$"))
    assert csp_page.evaluate("window.__csp") + csp_page.console_violations == []


@pytest.mark.e2e
def test_an_injected_inline_script_does_not_run_and_is_reported(csp_page, csp_server, transactional_db):
    student = UserFactory(username="csp-target")
    log_in(csp_page, student.username)
    csp_page.goto(f"{csp_page.base_url}/?injected")

    csp_page.evaluate("""() => {
      const script = document.createElement("script");
      script.textContent = "window.pwned = 1";
      document.body.appendChild(script);
    }""")

    assert csp_page.evaluate("window.pwned") is None
    assert any(entry.startswith("script-src-elem blocked inline") for entry in csp_page.evaluate("window.__csp"))
    report = _wait_for_log_line(csp_server.log, f"CSP violation: script-src-elem blocked inline on "
                                                f"{csp_page.base_url}/?injected")
    assert "WARNING smartmate.platform.csp" in report
    assert re.search(r'smartmate_csp_reports_total\{directive="script-src-elem"\} [1-9]', _metrics(csp_server))


def _wait_for_log_line(log: Path, text: str, timeout: float = 10.0) -> str:
    # The browser posts its report on its own schedule, a moment after the violation.
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text(errors="replace").splitlines():
            if text in line:
                return line
        time.sleep(0.1)
    raise AssertionError(f"no log line with {text!r} within {timeout} s")


def _metrics(server: Server) -> str:
    with urllib.request.urlopen(f"{server.base_url}/metrics", timeout=10) as response:
        return response.read().decode()
