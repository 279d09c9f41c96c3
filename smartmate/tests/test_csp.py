"""The Content-Security-Policy header on pages and API answers, and the violation report endpoint."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest
from django.test import Client

from smartmate.platform import csp
from smartmate.platform.metrics import CSP_REPORTS

STRICT = re.compile(
    r"^default-src 'self'; script-src 'self' 'nonce-(?P<nonce>[\w-]{20,})'; style-src 'self' 'nonce-(?P=nonce)'; "
    r"img-src 'self' data:; connect-src 'self' ws://testserver; object-src 'none'; base-uri 'self'; "
    r"frame-ancestors 'none'; form-action 'self'; worker-src 'self'; manifest-src 'self'; report-uri /csp-report$")

CHROMIUM_REPORT = {"csp-report": {
    "document-uri": "https://smartmate.example.edu/", "referrer": "", "violated-directive": "script-src-elem",
    "effective-directive": "script-src-elem", "original-policy": "default-src 'self'", "disposition": "enforce",
    "blocked-uri": "inline", "line-number": 12, "source-file": "https://smartmate.example.edu/", "status-code": 200,
    "script-sample": "window.pwned = 1"}}


def reported(directive: str) -> float:
    return CSP_REPORTS.labels(directive)._value.get()


def post_report(client: Client, body: object, content_type: str = "application/csp-report"):
    return client.post("/csp-report", json.dumps(body), content_type=content_type)


def test_a_page_gets_the_strict_policy_with_a_nonce_its_template_uses(client, user):
    client.force_login(user)
    response = client.get("/")
    match = STRICT.match(response["Content-Security-Policy"])
    assert match, response["Content-Security-Policy"]
    assert response.context["csp_nonce"] == match["nonce"]


def test_every_request_gets_a_fresh_nonce(client, db):
    first, second = (client.get("/accounts/login/")["Content-Security-Policy"] for _ in range(2))
    assert STRICT.match(first)["nonce"] != STRICT.match(second)["nonce"]


@pytest.mark.parametrize("path", ["/api/v1/me/", "/api/schema/", "/api/v1/no-such-route/"])
def test_api_answers_carry_the_policy_too(client, db, path):
    response = client.get(path, HTTP_ACCEPT="application/json")
    assert STRICT.match(response["Content-Security-Policy"])


def test_a_secure_request_allows_its_own_wss_origin(client, db):
    response = client.get("/accounts/login/", secure=True)
    assert "connect-src 'self' wss://testserver;" in response["Content-Security-Policy"]


def test_only_redoc_gets_its_extra_sources(client, db):
    policy = client.get("/api/schema/redoc/")["Content-Security-Policy"]
    assert "worker-src 'self' blob:" in policy
    assert "img-src 'self' data:;" in policy  # its remote attribution logo stays blocked
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy


def test_a_violation_report_is_logged_and_counted(caplog, db):
    client = Client(enforce_csrf_checks=True)  # browsers send no CSRF token with a report
    before = reported("script-src-elem")
    with caplog.at_level(logging.WARNING, logger="smartmate.platform.csp"):
        response = post_report(client, CHROMIUM_REPORT)
    assert response.status_code == 204
    assert reported("script-src-elem") == before + 1
    assert caplog.messages == ["CSP violation: script-src-elem blocked inline on https://smartmate.example.edu/"]
    assert caplog.records[0].csp_sample == "window.pwned = 1"


def test_a_reporting_api_batch_is_counted_per_violation(client, db):
    body = [{"type": "csp-violation", "body": {"documentURL": "https://x/", "effectiveDirective": "img-src",
                                               "blockedURL": "https://evil.example/p.png"}},
            {"type": "deprecation", "body": {"id": "x"}}]
    before = reported("img-src")
    assert post_report(client, body, "application/reports+json").status_code == 204
    assert reported("img-src") == before + 1


def test_an_unknown_directive_is_counted_as_other(client, db):
    before = reported("other")
    post_report(client, {"csp-report": {"effective-directive": "x" * 500, "blocked-uri": "inline"}})
    assert reported("other") == before + 1


def test_a_body_that_is_not_a_report_is_ignored(client, db):
    response = client.post("/csp-report", b"not json", content_type="application/csp-report")
    assert response.status_code == 204


def test_an_oversized_report_is_refused_unread(client, db):
    padded = {"csp-report": {**CHROMIUM_REPORT["csp-report"], "script-sample": "x" * csp.REPORT_MAX_BYTES}}
    response = post_report(client, padded)
    assert response.status_code == 413
    assert response.json() == {"code": "report_too_large", "message": "违规报告最多 16384 字节。",
                               "detail": {"limit": 16384}}


def test_an_anonymous_flood_from_one_address_stops_counting_at_its_budget(client, db, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "csp_report": "4/min"}
    before = reported("script-src-elem")
    answers = [post_report(client, CHROMIUM_REPORT).status_code for _ in range(4)]
    assert answers == [204, 204, 429, 429]  # each spends two: the request and its one violation
    assert reported("script-src-elem") == before + 2
    refused = post_report(client, CHROMIUM_REPORT)
    assert refused.json()["code"] == "rate_limited" and int(refused["Retry-After"]) >= 1


def test_a_flood_from_one_address_leaves_another_address_counted(client, db, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "csp_report": "2/min"}
    for _ in range(3):
        post_report(client, CHROMIUM_REPORT)
    before = reported("script-src-elem")
    other = client.post("/csp-report", json.dumps(CHROMIUM_REPORT), content_type="application/csp-report",
                        REMOTE_ADDR="198.51.100.7")
    assert other.status_code == 204 and reported("script-src-elem") == before + 1


def test_garbage_spends_the_budget_too(client, db, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "csp_report": "2/min"}
    statuses = [client.post("/csp-report", b"not json", content_type="application/csp-report").status_code
                for _ in range(3)]
    assert statuses == [204, 204, 429]


def test_the_report_endpoint_only_accepts_posts(client, db):
    assert client.get("/csp-report").status_code == 405


def test_logging_stops_at_the_budget_but_counting_does_not(caplog, client, db, monkeypatch):
    monkeypatch.setattr(csp, "log_budget", csp._LogBudget(per_minute=2))
    before = reported("script-src-elem")
    with caplog.at_level(logging.WARNING, logger="smartmate.platform.csp"):
        for _ in range(3):
            post_report(client, CHROMIUM_REPORT)
    assert len(caplog.records) == 2
    assert reported("script-src-elem") == before + 3


TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"
# What the policy would block in a template: inline handlers, style attributes, javascript: URLs,
# and <script>/<style> elements that neither load a file, hold data, nor carry the nonce.
FORBIDDEN_MARKUP = re.compile(
    r"""\son[a-z]+\s*=|\sstyle\s*=|javascript:|<script(?![^>]*\b(?:src|nonce)=)(?![^>]*type="application/json")[^>]*>"""
    r"""|<style(?![^>]*\bnonce=)[^>]*>""", re.IGNORECASE)


@pytest.mark.parametrize("template", sorted(TEMPLATES_DIR.rglob("*.html")), ids=lambda path: path.name)
def test_no_template_holds_markup_the_policy_would_block(template):
    assert FORBIDDEN_MARKUP.findall(template.read_text()) == []


def test_a_deeply_nested_body_is_ignored_not_a_server_error(client, db):
    response = client.post("/csp-report", b"[" * 10_000, content_type="application/csp-report")
    assert response.status_code == 204


def test_djangos_debug_error_pages_keep_their_inline_styles(client, db, settings):
    from accounts.tests.factories import UserFactory

    settings.DEBUG = True
    client.force_login(UserFactory(is_staff=True))  # a student gets the friendly 404 even under DEBUG
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and b"Page not found" in response.content
    assert "Content-Security-Policy" not in response
