"""Root test configuration: a closed network, eager Celery, an in-memory channel layer,
factories, and the live-server + Chromium fixtures page tests use."""

from __future__ import annotations

import ipaddress
import os
import socket

import pytest

# Playwright's sync API runs an event loop in the test thread; ORM calls beside it are safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# No warm start in test processes and their daphne children (smartmate/warmup.py; its own test turns it on).
os.environ.setdefault("SMARTMATE_WARM_START", "0")


pytest_plugins = ["smartmate.tests.live_server", "smartmate.tests.worker", "smartmate.tests.topology_fixtures",
                  "bench.llm_fixtures", "memory.testing"]


# --- Network: loopback only ----------------------------------------------------------------------

class NetworkBlockedError(RuntimeError):
    pass


def _is_loopback(address: object) -> bool:
    if not isinstance(address, tuple) or not address:
        return True  # AF_UNIX paths and other local families
    host = address[0]
    if host in {"localhost", ""}:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name other than localhost: it would need DNS and the network


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _guarded_connect(self: socket.socket, address: object) -> None:
    if not _is_loopback(address):
        raise NetworkBlockedError(f"Tests may only reach 127.0.0.1; blocked a connection to {address!r}.")
    return _real_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    if not _is_loopback(address):
        raise NetworkBlockedError(f"Tests may only reach 127.0.0.1; blocked a connection to {address!r}.")
    return _real_connect_ex(self, address)


def pytest_configure(config: pytest.Config) -> None:
    socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
    _quick_password_hashing()


def _quick_password_hashing() -> None:
    # Every test student's password is hashed; production's PBKDF2 rounds made that most of the suite's time.
    from django.conf import settings

    from smartmate.tests.quick_hasher import hashers_for_tests

    settings.PASSWORD_HASHERS = hashers_for_tests(list(settings.PASSWORD_HASHERS))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Playwright's sync API leaves an event loop behind that breaks later asyncio tests: browsers last
    # (e2e tests, and any other test that asks for a page, such as the worker pass's fault walk).
    items.sort(key=_drives_a_browser)


def _drives_a_browser(item: pytest.Item) -> bool:
    return item.get_closest_marker("e2e") is not None or "page" in getattr(item, "fixturenames", ())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # Zero tests collected must fail CI, not pass it quietly.
    if session.testscollected == 0 and exitstatus in (0, 5):
        session.exitstatus = 1


# --- Embedded services for every test -------------------------------------------------------------

def _django_active(request: pytest.FixtureRequest) -> bool:
    # Pure-core tests also run with `-p no:django`; then there is nothing to set up.
    return request.config.pluginmanager.hasplugin("django")


@pytest.fixture(autouse=True)
def _eager_celery_and_memory_layer(request: pytest.FixtureRequest):
    """Run tasks in-process and keep websocket traffic in memory, unless a test asks otherwise."""
    if not _django_active(request):
        yield
        return
    settings = request.getfixturevalue("settings")
    from smartmate.celery import app

    eager = request.node.get_closest_marker("worker") is None or settings.CELERY_TASK_ALWAYS_EAGER
    settings.CELERY_TASK_ALWAYS_EAGER = eager
    # Slow (model-calling) outbox topics run inline here so a test sees their effect when the turn
    # returns; tests of the background pool itself switch it on (smartmate.platform.outbox.background).
    settings.OUTBOX_BACKGROUND_IN_PROCESS = False
    app.conf.task_always_eager = eager
    app.conf.task_eager_propagates = True
    if "redis_channel_layer" not in request.fixturenames:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    yield


@pytest.fixture(autouse=True)
def _no_learned_template_thinkers():
    """Forget the models seen sending a lone </think> (smartmate.llm.cleaning), so one test's model
    does not hold the next test's streamed answers."""
    from smartmate.llm import cleaning

    cleaning._TEMPLATE_THINKERS.clear()
    yield
    cleaning._TEMPLATE_THINKERS.clear()


@pytest.fixture(autouse=True)
def _english_by_default(request: pytest.FixtureRequest):
    """Run code outside a request in English, so assertions can quote messages; tests of the
    Chinese wording switch with ``translation.override("zh-hans")``."""
    if not _django_active(request):
        yield
        return
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture
def redis_channel_layer(settings):
    """Switch the channel layer to the configured Redis (skips when REDIS_URL is not set)."""
    from django.conf import settings as live

    if not live.REDIS_URL:
        pytest.skip("REDIS_URL is not set: the Redis channel layer runs in the MariaDB + Redis CI pass")
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": live.REDIS_URL, "max_connections": 1000}], "capacity": 1000,
                       "prefix": f"smartmate-test-{os.getpid()}"},
        }
    }
    return settings.CHANNEL_LAYERS


@pytest.fixture(autouse=True)
def _fresh_cache(request: pytest.FixtureRequest):
    if not _django_active(request):
        yield
        return
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _rate_limit_clock_stands_still(request: pytest.FixtureRequest, monkeypatch):
    """Counters count in fixed windows of the wall clock: a test whose requests straddle a window's
    end would see its count restart and flake. The clock stands still inside one window; a test that
    moves between windows patches ``smartmate.platform.ratelimit.clock`` itself."""
    if not _django_active(request):
        yield
        return
    from smartmate.platform import ratelimit

    monkeypatch.setattr(ratelimit, "clock", lambda: 1_800_000_010.0)  # 10 s into a minute and an hour
    yield


@pytest.fixture
def user(db):
    from accounts.tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def other_user(db):
    from accounts.tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    # English unless a test asks otherwise, so assertions can quote exact messages.
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def auth_client(api_client, user):
    api_client.force_authenticate(user=user)
    return api_client
