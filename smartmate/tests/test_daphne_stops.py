"""daphne stops within seconds of SIGTERM, idle or under load (smartmate.platform.shutdown).

Under load it used to wait a minute or more: request threads waited on the stopped event loop and
Python's exit joined them. A restart became a 63 s outage.
"""

from __future__ import annotations

import signal
import threading
import time
import urllib.request

import pytest
from django.db import connection

from smartmate.tests.live_server import daphne_process, daphne_serving

CLIENTS = 30
PATHS = ("/healthz", "/accounts/login/", "/offline/")


def _hammer(base_url: str, stop: threading.Event, served: list[int]) -> None:
    while not stop.is_set():
        for path in PATHS:
            try:
                with urllib.request.urlopen(base_url + path, timeout=20) as response:
                    response.read()
                served.append(1)
            except OSError:  # refused or cut once the server stops: expected here
                if stop.is_set():
                    return


def _seconds_to_exit_after_sigterm(base_url: str) -> float:
    process = daphne_process(base_url)
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except Exception:  # noqa: BLE001 - reported as the figure below
        return float("inf")
    return time.monotonic() - started


@pytest.mark.django_db(transaction=True)
def test_daphne_stops_within_ten_seconds_of_sigterm_under_load(tmp_path):
    with daphne_serving(str(connection.settings_dict["NAME"]), tmp_path / "daphne.log",
                        {"SMARTMATE_WARM_START": "0"}) as base_url:
        stop, served = threading.Event(), []
        clients = [threading.Thread(target=_hammer, args=(base_url, stop, served), daemon=True) for _ in range(CLIENTS)]
        for client in clients:
            client.start()
        deadline = time.monotonic() + 30
        while len(served) < 200 and time.monotonic() < deadline:  # the server is busy with every client
            time.sleep(0.05)
        seconds = _seconds_to_exit_after_sigterm(base_url)
        stop.set()
    print(f"{len(served)} requests served; stopped {seconds:.1f} s after SIGTERM under load")
    assert len(served) >= 200
    assert seconds <= 10
    assert "shutdown: stopping" in (tmp_path / "daphne.log").read_text(errors="replace")


@pytest.mark.django_db(transaction=True)
def test_an_idle_daphne_stops_at_once(tmp_path):
    with daphne_serving(str(connection.settings_dict["NAME"]), tmp_path / "daphne.log",
                        {"SMARTMATE_WARM_START": "0"}) as base_url:
        seconds = _seconds_to_exit_after_sigterm(base_url)
    print(f"idle: stopped {seconds:.1f} s after SIGTERM")
    assert seconds < 4  # the deadline's timer does not hold a process that can exit
