"""Fuzz the whole REST API from its OpenAPI schema: no 500s, and every answer matches its documented schema.

Schemathesis (CLI, in a subprocess) generates requests for every operation of ``/api/schema/`` and sends
them, signed in with a JWT, to a live daphne child on 127.0.0.1 that shares the test database. The run
is bounded by count, not time: a fixed number of examples per operation in deterministic mode (the
same requests every run), plus the schema-derived coverage cases; about 80-130 s on a 2-core machine.

CI runs that cheap version. The deep one is opt-in from the environment:
``FUZZ_EXAMPLES=25 FUZZ_STATEFUL=1 .venv/bin/python -m pytest smartmate/tests/test_fuzz_api.py -s``
(25 examples per operation and the stateful phase, which chains calls through the schema's links:
create, then read, change and delete what was created). ``FUZZ_TIMEOUT`` overrides the time limit;
``FUZZ_SEED=<n>`` replaces the deterministic requests by random ones from that seed (new ground, reproducible).

A failure prints schemathesis' report: the operation, the request (with a curl line) and the answer.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework_simplejwt.tokens import RefreshToken

from accounts.tests.factories import UserFactory

pytestmark = [pytest.mark.fuzz]

EXAMPLES_PER_OPERATION = int(os.environ.get("FUZZ_EXAMPLES", "5"))
STATEFUL = os.environ.get("FUZZ_STATEFUL", "") == "1"
SEED = os.environ.get("FUZZ_SEED", "")
PHASES = "examples,coverage,fuzzing" + (",stateful" if STATEFUL else "")
CHECKS = "not_a_server_error,response_schema_conformance"
# A bound for a hung run, not a budget: the cheap run takes about two minutes on a quiet two-core machine
# and several times that beside other work; a deep run scales with its examples, the stateful phase adds its own.
RUN_TIMEOUT_SECONDS = int(os.environ.get("FUZZ_TIMEOUT", 1200 * max(1, EXAMPLES_PER_OPERATION // 5)
                                         + (900 if STATEFUL else 0)))


def _schemathesis(schema_url: str, token: str, workdir: Path) -> subprocess.CompletedProcess:
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", schema_url,
        "--header", f"Authorization: Bearer {token}",
        "--checks", CHECKS,
        "--max-examples", str(EXAMPLES_PER_OPERATION),
        *(["--seed", SEED] if SEED else ["--generation-deterministic"]),
        "--phases", PHASES,
        # One worker: with two threads, hypothesis describing its filters ran ast.parse in both at once and
        # CPython 3.11 failed with "AST constructor recursion depth mismatch" (a SystemError, not a finding).
        "--workers", "1",
        "--request-timeout", "20",
        "--no-color", "--output-truncate", "false",
    ]
    # In a scratch folder: schemathesis keeps a crash cache (.schemathesis/) in its working directory.
    return subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT_SECONDS, cwd=workdir)


def test_the_api_never_errors_and_always_answers_in_its_documented_shape(live_daphne, transactional_db, tmp_path):
    user = UserFactory()
    token = str(RefreshToken.for_user(user).access_token)
    result = _schemathesis(f"{live_daphne}/api/schema/?format=json", token, tmp_path)
    report = result.stdout + result.stderr
    print(report[-4_000:])  # the summary (operations, test cases, time) for a deep run under -s
    assert result.returncode == 0, report[-20_000:]
    assert "Tested: " in report and " passed" in report, report[-5_000:]
