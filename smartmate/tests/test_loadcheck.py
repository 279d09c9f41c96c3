"""The load check in its short form: 10 students walk the whole product at once against real servers.

The full form (``python -m bench.loadcheck --users 300``, see README's Benchmarks) prints
latencies; this one asserts only what must hold at any size: no step failed, and afterwards the
database holds exactly what the students were told (no block lost or applied twice, one
conversation with one message each way, background work settled).
"""

from __future__ import annotations

import pytest

from bench.loadcheck import LoadConfig
from bench.loadcheck.run import loadcheck_run

USERS = 10
BLOCKS = 3


@pytest.fixture
def redis_url():
    from django.conf import settings

    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: the load check needs Redis and real workers; "
                    "it runs in the MariaDB + Redis CI pass")
    return settings.REDIS_URL


@pytest.mark.worker
def test_ten_students_walk_the_whole_product_without_an_error_or_a_lost_row(transactional_db, redis_url, tmp_path):
    from django.db import connection

    config = LoadConfig(users=USERS, blocks=BLOCKS, servers=1, workers=2, worker_concurrency=1, timeout=240.0,
                        http_timeout=60.0)

    report = loadcheck_run(config, database_name=str(connection.settings_dict["NAME"]), folder=tmp_path,
                           redis_url=redis_url)

    printed = "\n".join(report.lines())
    assert report.error_count == 0, printed
    assert report.completed == USERS, printed
    assert [step.ok for step in report.steps] == [USERS] * len(report.steps), printed
    totals = report.data.totals
    assert totals["block events"] == USERS * BLOCKS, printed
    assert totals["blocks placed twice"] == 0, printed
    assert (totals["applied previews"], totals["change sets"], totals["conversations"]) == (USERS, USERS, USERS), printed
    assert (totals["student messages"], totals["assistant messages"]) == (USERS, USERS), printed
    assert report.data.background["memory jobs"]["succeeded"] == USERS, printed  # one extraction per finished turn
