"""Production mode passes Django's deployment checklist with zero warnings; the embedded defaults stay on http."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PRINT_SETTINGS = (
    "import json; from django.conf import settings as s; print(json.dumps({name: getattr(s, name, None) for name in "
    "['DEBUG', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', "
    "'SECURE_PROXY_SSL_HEADER', 'ALLOWED_HOSTS']}))"
)


def _production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="smartmate.settings", DJANGO_DEBUG="0",
               DJANGO_SECRET_KEY=secrets.token_urlsafe(64), DJANGO_ALLOWED_HOSTS="smartmate.example.edu",
               DJANGO_BEHIND_TLS_PROXY="1", SMARTMATE_VAR_DIR=str(tmp_path), METRICS_TOKEN=secrets.token_urlsafe(32),
               RATE_LIMIT_TRUSTED_PROXIES="1", **extra)
    return env


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def test_check_deploy_in_production_mode_reports_zero_issues(tmp_path):
    result = _manage(_production_env(tmp_path), "check", "--deploy", "--fail-level", "DEBUG")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."


def test_check_deploy_warns_when_production_has_no_metrics_token(tmp_path):
    env = _production_env(tmp_path)
    del env["METRICS_TOKEN"]
    result = _manage(env, "check", "--deploy")
    assert result.returncode == 0, result.stderr
    assert "?: (smartmate.W001) METRICS_TOKEN is not set: /metrics answers only direct loopback requests" \
        in result.stderr
    assert "System check identified 1 issue (0 silenced)." in result.stderr


def test_check_deploy_warns_when_a_proxy_is_not_trusted_for_client_addresses(tmp_path):
    # The probe: behind the TLS proxy every student shared one address for the login limits.
    env = _production_env(tmp_path)
    del env["RATE_LIMIT_TRUSTED_PROXIES"]
    result = _manage(env, "check", "--deploy")
    assert "?: (smartmate.W002) The app runs behind a proxy (DJANGO_BEHIND_TLS_PROXY) but RATE_LIMIT_TRUSTED_PROXIES is 0" \
        in result.stderr
    assert "System check identified 1 issue (0 silenced)." in result.stderr


def test_plain_check_in_production_mode_leaves_the_metrics_token_to_check_deploy(tmp_path):
    env = _production_env(tmp_path)
    del env["METRICS_TOKEN"]
    assert "smartmate.W001" not in _manage(env, "check").stderr


def test_production_mode_sets_secure_cookies_hsts_and_the_proxy_header(tmp_path):
    result = _manage(_production_env(tmp_path), "shell", "-c", PRINT_SETTINGS)
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values == {"DEBUG": False, "SESSION_COOKIE_SECURE": True, "CSRF_COOKIE_SECURE": True,
                      "SECURE_SSL_REDIRECT": True, "SECURE_HSTS_SECONDS": 31_536_000,
                      "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
                      "ALLOWED_HOSTS": ["smartmate.example.edu"]}


@pytest.mark.parametrize(("unset", "message"), [
    ("DJANGO_SECRET_KEY", "DJANGO_SECRET_KEY is required when DJANGO_DEBUG=0."),
    ("DJANGO_ALLOWED_HOSTS", "DJANGO_ALLOWED_HOSTS is required when DJANGO_DEBUG=0."),
])
def test_production_mode_refuses_to_start_without_its_secrets(tmp_path, unset, message):
    env = _production_env(tmp_path)
    del env[unset]
    result = _manage(env, "check")
    assert result.returncode != 0
    assert message in result.stderr


def test_the_embedded_defaults_serve_plain_http(tmp_path):
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="smartmate.settings", SMARTMATE_VAR_DIR=str(tmp_path))
    result = _manage(env, "shell", "-c", PRINT_SETTINGS)
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values["DEBUG"] is True
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SESSION_COOKIE_SECURE"] is False
    assert "127.0.0.1" in values["ALLOWED_HOSTS"]
