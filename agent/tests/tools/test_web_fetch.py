"""web_fetch: public pages only (checked after DNS), readable text, size limits, no exceptions."""

from __future__ import annotations

import json
import time
from dataclasses import replace

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


# --- Addresses that carry another address; one deadline for the whole fetch ------------------------------

@pytest.mark.parametrize(("address", "public"), [
    ("2002:7f00:1::", False),  # 6to4 of 127.0.0.1 (the probe: it passed the private-address check)
    ("2002:a00:5::", False),  # 6to4 of 10.0.0.5
    ("2002:5db8:d822::", True),  # 6to4 of 93.184.216.34
    ("64:ff9b::a00:5", False),  # NAT64 of 10.0.0.5
    ("64:ff9b::5db8:d822", False),  # NAT64 of a public host: the prefix lies in reserved ::/8, refused too
    ("::ffff:169.254.169.254", False),  # IPv4-mapped cloud metadata
    ("2001:0:4136:e378:8000:63bf:f5ff:fffe", False),  # Teredo (the 2001::/32 block is not global anyway)
])
def test_ipv6_addresses_are_judged_by_the_ipv4_address_they_carry(ctx, monkeypatch, address, public):
    monkeypatch.setattr(web_fetch, "RESOLVER", lambda host, port: [address])
    monkeypatch.setattr(web_fetch, "TRANSPORT", lambda url, address, *, timeout, max_bytes:
                        Response(200, {"content-type": "text/plain"}, b"ok"))
    result = TOOL.run({"url": "http://tunnel.example.org/"}, ctx, None)
    assert (result.status == "done") is public


def test_redirects_share_one_deadline(monkeypatch):
    now = [0.0]
    given = []

    def slow(url, address, *, timeout, max_bytes):
        given.append(timeout)
        now[0] += 6.0
        return Response(302, {"location": "http://exam.example.org/next"})

    monkeypatch.setattr(web_fetch, "RESOLVER", lambda host, port: ["93.184.216.34"])
    monkeypatch.setattr(web_fetch, "TRANSPORT", slow)
    with pytest.raises(web_fetch.FetchRefused, match="超时"):
        web_fetch.fetch("http://exam.example.org/", clock=lambda: now[0])
    assert given == [15.0, 9.0, 3.0]


def test_a_server_dripping_bytes_is_cut_off_at_the_deadline():
    # The probe: a byte every 10 s kept a turn thread for minutes (each read had its own timeout).
    import socket
    import threading
    import time

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    stop = threading.Event()

    def drip():
        connection, _ = listener.accept()
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n")
        while not stop.wait(0.2):
            try:
                connection.sendall(b"x")
            except OSError:
                break
        connection.close()

    threading.Thread(target=drip, daemon=True).start()
    port = listener.getsockname()[1]
    started = time.monotonic()
    try:
        with pytest.raises(web_fetch.FetchRefused, match="超时"):
            web_fetch.http_get(f"http://127.0.0.1:{port}/", "127.0.0.1", timeout=1.0, max_bytes=10_000)
    finally:
        stop.set()
        listener.close()
    assert time.monotonic() - started < 2.0


# --- One turn's budget ------------------------------------------------------------------------------------

# The probe (M2): one turn chained 12 fetches (181 s), so four accounts held every assistant thread.
def test_a_turn_reads_at_most_its_page_budget(ctx, web, settings):
    settings.WEB_FETCH_PER_TURN = 3
    turn = replace(ctx, turn_id="turn-1")
    results = [TOOL.run({"url": "http://exam.example.org/"}, turn, None) for _ in range(5)]
    assert [r.status for r in results] == ["done"] * 3 + ["failed"] * 2
    assert results[3].content == ("读取失败：本轮已读取 3 个网页，达到上限。请用已读到的内容回答；"
                                  "还需要读别的网页时，请告诉学生，让他在下一条消息里再请你读。")
    assert len(web) == 3


def test_the_next_turn_has_a_fresh_budget(ctx, web, settings):
    settings.WEB_FETCH_PER_TURN = 1
    assert TOOL.run({"url": "http://exam.example.org/"}, replace(ctx, turn_id="turn-1"), None).status == "done"
    assert TOOL.run({"url": "http://exam.example.org/"}, replace(ctx, turn_id="turn-2"), None).status == "done"


def test_a_turn_spends_at_most_its_seconds_on_fetching(ctx, web, settings, monkeypatch):
    settings.WEB_FETCH_SECONDS_PER_TURN = 1.0
    given: list[float] = []

    def slow(url, address, *, timeout, max_bytes):
        given.append(timeout)
        time.sleep(0.6)
        return Response(200, {"content-type": "text/plain"}, b"slow page")

    monkeypatch.setattr(web_fetch, "TRANSPORT", slow)
    turn = replace(ctx, turn_id="turn-1")
    first, second = (TOOL.run({"url": "http://exam.example.org/"}, turn, None) for _ in range(2))
    assert first.status == "done" and given[0] <= 1.0  # the fetch's own deadline is the turn's time left
    assert second.status == "failed" and "本轮读取网页的时间已用完（共 1 秒）" in second.content
    assert len(given) == 1
