"""Page-test fixtures: a real daphne child process on the test database, and Debian's Chromium.

Daphne runs as a subprocess (a forked ChannelsLiveServerTestCase hangs forever once Playwright's
sync API runs in the same pytest process) and opens the test database by name, so tests must use
``transactional_db`` for the server to see their rows.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect

# Assertions on pages wait for their condition; the bound is for a page that never gets there, and is
# generous so that a machine busy with other work (two cores at load 8) only makes them wait longer.
expect.set_options(timeout=15_000)

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# Without the background-networking flags Chromium tries to reach Google at start (closed network).
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
REPO_ROOT = Path(__file__).resolve().parents[2]
DAPHNE_LOG_TAIL_BYTES = 20_000
# Production's settings with the suite's password hasher (see child_settings); production mode runs the real ones.
CHILD_SETTINGS = "smartmate.tests.child_settings"
DEPLOYED_SETTINGS = "smartmate.settings"

_logs_by_url: dict[str, Path] = {}  # base URL -> the daphne child's log, for the failure report below
_processes_by_url: dict[str, subprocess.Popen] = {}  # base URL -> the daphne child, for tests that signal it


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited early with code {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"daphne did not listen on 127.0.0.1:{port} within {timeout} s")


@pytest.fixture(scope="session")
def live_daphne(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[str]:
    """Serve the ASGI app from a daphne child process on the test database; yield its base URL."""
    from django.db import connection

    with django_db_blocker.unblock():
        database_name = str(connection.settings_dict["NAME"])
    with daphne_serving(database_name, tmp_path_factory.mktemp("daphne") / "daphne.log") as base_url:
        yield base_url


@contextmanager
def daphne_serving(database_name: str, log_path: Path, extra_env: dict[str, str] | None = None) -> Iterator[str]:
    """Run a daphne child on ``database_name`` (``extra_env`` adds to or overrides its environment)."""
    port = _free_port()
    # Abuse limits off: a page suite signs in from 127.0.0.1 more often than a person would (extra_env can
    # turn them back on); the limits themselves are tested in-process (smartmate/tests/test_ratelimit.py).
    env = {**os.environ, "DATABASE_NAME_OVERRIDE": database_name, "DJANGO_DEBUG": "1",
           "DJANGO_SETTINGS_MODULE": CHILD_SETTINGS, "RATE_LIMITS_ENABLED": "0", **(extra_env or {})}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "smartmate.asgi:application"],
            cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        _wait_for_port(port, process)
        base_url = f"http://127.0.0.1:{port}"
        _logs_by_url[base_url], _processes_by_url[base_url] = log_path, process
        yield base_url
    except RuntimeError as exc:
        raise RuntimeError(f"{exc}\n--- daphne log ---\n{log_path.read_text(errors='replace')}") from exc
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def daphne_process(base_url: str) -> subprocess.Popen:
    """The daphne child serving ``base_url`` (started by daphne_serving)."""
    return _processes_by_url[base_url]


# --- Production mode (README, "Production mode"): DEBUG off, a real secret, collected static files ----------

PRODUCTION_STORAGE = "whitenoise.storage.CompressedManifestStaticFilesStorage"
# What the daphne child of a production-mode test is told (on top of production_env's secrets). It is
# reached as http://127.0.0.1 with no TLS proxy in front, so the redirect to https is off; everything
# else (secure cookies, HSTS, the manifest storage, JSON logs) stays as a deployment has it.
PRODUCTION_HOSTS = "127.0.0.1,localhost"


def production_env(var_dir: Path) -> dict[str, str]:
    """The environment of the README's production mode, with fresh secrets and ``var_dir`` for var/."""
    return {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
            "DJANGO_ALLOWED_HOSTS": PRODUCTION_HOSTS, "METRICS_TOKEN": secrets.token_urlsafe(32),
            "DJANGO_SECURE_SSL_REDIRECT": "0", "SMARTMATE_VAR_DIR": str(var_dir)}


@pytest.fixture(scope="session")
def production_static(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """Run ``collectstatic`` once per session as production does; return (var dir, production env).

    The files land in ``<var dir>/staticfiles`` (the settings' STATIC_ROOT) with hashed names and a manifest,
    exactly what the production storage serves and refuses to guess past.
    """
    var_dir = tmp_path_factory.mktemp("production-var")
    env = production_env(var_dir)
    child_env = {**os.environ, "DJANGO_SETTINGS_MODULE": DEPLOYED_SETTINGS, **env}
    result = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                            cwd=REPO_ROOT, env=child_env, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"collectstatic failed:\n{result.stdout}{result.stderr}")
    return var_dir, env


@pytest.fixture(scope="session")
def live_production(django_db_setup, django_db_blocker, production_static, tmp_path_factory) -> Iterator[str]:
    """A daphne child in production mode (DEBUG=0, collected static files, rate limits on as deployed)."""
    from django.db import connection

    var_dir, env = production_static
    with django_db_blocker.unblock():
        database_name = str(connection.settings_dict["NAME"])
    # The page walk signs in a few students from one address, well within the real limits; the deployed
    # settings themselves, password hashers included.
    extra = {**env, "RATE_LIMITS_ENABLED": "1", "DJANGO_SETTINGS_MODULE": DEPLOYED_SETTINGS}
    with daphne_serving(database_name, tmp_path_factory.mktemp("daphne-prod") / "daphne.log", extra) as base_url:
        yield base_url


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failed page test reports what its daphne child logged while it ran: the server's side of the story
    (an exception in a consumer, a locked database) is otherwise lost with the child's temporary log."""
    report = yield
    funcargs = getattr(item, "funcargs", {})
    base_url = funcargs.get("live_daphne") or funcargs.get("live_production")
    log_path = _logs_by_url.get(base_url) if isinstance(base_url, str) else None
    if log_path is None or not log_path.exists():
        return report
    if call.when == "setup":
        item.stash[_log_offset] = log_path.stat().st_size
    elif report.failed:
        with open(log_path, "rb") as log:
            log.seek(max(item.stash.get(_log_offset, 0), log_path.stat().st_size - DAPHNE_LOG_TAIL_BYTES))
            report.sections.append(("daphne log during this test", log.read().decode(errors="replace")))
    return report


_log_offset = pytest.StashKey[int]()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Launch Debian's Chromium; never a downloaded browser."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(
            f"{CHROMIUM} is missing: page tests need Debian's chromium "
            "(apt-get install chromium fonts-wqy-microhei; `make test` does it)."
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def live_page(page, live_daphne):
    """A Chromium page pointed at the live server; it waits for conditions up to 30 s (a bound, not a budget)."""
    page.set_default_timeout(30_000)
    page.base_url = live_daphne  # type: ignore[attr-defined]
    return page


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    """Browse as a student in China: Chinese pages, Shanghai time."""
    # Tall enough for a whole 12-section week board, so drags never leave the viewport. No service
    # worker: the offline worker answers navigations through itself, so a page arrives in pieces and a
    # selector can match while the rest is still parsing. The offline tests make their own contexts.
    return {**browser_context_args, "locale": "zh-CN", "timezone_id": "Asia/Shanghai",
            "viewport": {"width": 1280, "height": 1200}, "service_workers": "block"}


def log_in(page, username: str) -> None:
    """Sign in through the login page (as a student would) and wait for the dashboard."""
    from accounts.tests.factories import DEFAULT_PASSWORD

    page.goto(f"{page.base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("[data-test=login-submit]")
    page.wait_for_url(f"{page.base_url}/")


def wait_until(page, expression: str, arg=None, *, timeout: float = 15.0, interval: float = 0.02) -> None:
    """Poll a JavaScript expression (or function, given ``arg``) until it is truthy.

    Not ``page.wait_for_function``: its polling evaluates the predicate with ``eval`` inside the page,
    which the site's Content-Security-Policy (no 'unsafe-eval') refuses whenever the first check is
    false. ``page.evaluate`` goes through the DevTools protocol, which the policy does not govern.
    """
    import time

    deadline = time.monotonic() + timeout
    while not (page.evaluate(expression, arg) if arg is not None else page.evaluate(expression)):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(interval * 1000)
