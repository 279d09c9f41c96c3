"""web_fetch: public pages only (checked after DNS), readable text, size limits, no exceptions."""

from __future__ import annotations

import json

import pytest

from agent.tools import web_fetch
from agent.tools.web_fetch import TOOL, Response

PAGE = (b"<html><head><title>Exam dates</title><script>evil()</script></head>"
        b"<body><nav>menu</nav><h1>Finals</h1><p>Probability: 2026-12-20 09:00</p></body></html>")


@pytest.fixture
def web(monkeypatch):
    """A fake DNS and a fake transport; records what was fetched from where."""
    names = {"exam.example.org": ["93.184.216.34"], "intranet.example.org": ["10.0.0.5"],
             "sneaky.example.org": ["93.184.216.34", "127.0.0.1"], "meta.example.org": ["169.254.169.254"]}
    pages = {"http://exam.example.org/": Response(200, {"content-type": "text/html; charset=utf-8"}, PAGE),
             "http://exam.example.org/go": Response(302, {"location": "http://intranet.example.org/"})}
    fetched = []

    def transport(url, address, *, timeout, max_bytes):
        fetched.append((url, address))
        return pages[url]

    monkeypatch.setattr(web_fetch, "RESOLVER", lambda host, port: names[host])
    monkeypatch.setattr(web_fetch, "TRANSPORT", transport)
    return fetched


def test_a_public_page_becomes_readable_text(ctx, web):
    result = json.loads(TOOL.run({"url": "http://exam.example.org/"}, ctx, None).content)
    assert result["title"] == "Exam dates" and result["content"] == "Finals\nProbability: 2026-12-20 09:00"
    assert web == [("http://exam.example.org/", "93.184.216.34")]


@pytest.mark.parametrize("host", ["intranet.example.org", "sneaky.example.org", "meta.example.org"])
def test_private_loopback_and_link_local_addresses_are_refused(ctx, web, host):
    result = TOOL.run({"url": f"http://{host}/"}, ctx, None)
    assert result.status == "failed" and "内网或保留地址" in result.content and web == []


def test_a_redirect_to_a_private_address_is_refused(ctx, web):
    result = TOOL.run({"url": "http://exam.example.org/go"}, ctx, None)
    assert result.status == "failed" and len(web) == 1


def test_other_schemes_and_network_errors_are_results(ctx, web, monkeypatch):
    assert "http 或 https" in TOOL.run({"url": "file:///etc/passwd"}, ctx, None).content

    def down(url, address, *, timeout, max_bytes):
        raise ConnectionResetError()

    monkeypatch.setattr(web_fetch, "TRANSPORT", down)
    assert "ConnectionResetError" in TOOL.run({"url": "http://exam.example.org/"}, ctx, None).content


def test_long_pages_are_cut_to_max_chars(ctx, web):
    result = json.loads(TOOL.run({"url": "http://exam.example.org/", "max_chars": 200}, ctx, None).content)
    assert len(result["content"]) <= 200 and result["truncated"] is False
