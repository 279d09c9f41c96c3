"""Settings come from the environment and refuse malformed or impossible values at start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from smartmate.platform.env import env_bool, env_int, env_url, parse_database_url

REPO_ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_KEY = "p" * 20 + "-production-secret-key-for-tests-only-0123456789"


def _run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_DEBUG", "DATABASE_NAME_OVERRIDE",
                          "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO_ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)


def test_env_bool_rejects_a_word_that_is_not_a_boolean(monkeypatch):
    monkeypatch.setenv("SOME_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="SOME_FLAG='maybe' is not a boolean"):
        env_bool("SOME_FLAG", False)


def test_env_int_rejects_text_and_values_out_of_range(monkeypatch):
    monkeypatch.setenv("SOME_NUMBER", "ten")
    with pytest.raises(ImproperlyConfigured, match="SOME_NUMBER='ten' is not an integer"):
        env_int("SOME_NUMBER", 1)
    monkeypatch.setenv("SOME_NUMBER", "0")
    with pytest.raises(ImproperlyConfigured, match="SOME_NUMBER=0 is below the minimum 1"):
        env_int("SOME_NUMBER", 1, minimum=1)


def test_env_url_rejects_a_wrong_scheme_and_hides_the_password(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "http://user:hunter2@127.0.0.1:6379/0")
    with pytest.raises(ImproperlyConfigured) as error:
        env_url("REDIS_URL", schemes=("redis", "rediss"))
    assert "must start with one of redis://, rediss://" in str(error.value)
    assert "hunter2" not in str(error.value)


def test_database_url_parses_mysql_parts():
    url = parse_database_url("DATABASE_URL", "mysql://app:s%40cret@127.0.0.1:3306/app")
    assert (url.engine, url.name, url.user, url.password, url.host, url.port) == (
        "django.db.backends.mysql", "app", "app", "s@cret", "127.0.0.1", "3306")


def test_database_url_refuses_an_unknown_engine():
    with pytest.raises(ImproperlyConfigured, match="must start with mysql://"):
        parse_database_url("DATABASE_URL", "postgres://u:p@127.0.0.1/db")


def test_start_refuses_a_broker_without_a_shared_channel_layer():
    result = _run_manage("check", CELERY_BROKER_URL="redis://127.0.0.1:6379/0")
    assert result.returncode != 0
    assert "CELERY_BROKER_URL is set but REDIS_URL is not" in result.stderr


def test_start_refuses_production_mode_without_a_secret_key():
    result = _run_manage("check", DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="smartmate.example.com",
                         DJANGO_SECRET_KEY="")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is required when DJANGO_DEBUG=0" in result.stderr


def test_start_refuses_a_malformed_debug_flag():
    result = _run_manage("check", DJANGO_DEBUG="sometimes")
    assert result.returncode != 0
    assert "DJANGO_DEBUG='sometimes' is not a boolean" in result.stderr


def test_production_mode_passes_the_deploy_check_with_zero_warnings():
    result = _run_manage("check", "--deploy", "--fail-level", "WARNING", DJANGO_DEBUG="0",
                         DJANGO_SECRET_KEY=PRODUCTION_KEY, DJANGO_ALLOWED_HOSTS="smartmate.example.com",
                         METRICS_TOKEN="scrape-" + "x" * 32)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
