"""The worker-throughput benchmark still runs: a tiny round on a real Celery worker completes every turn.

No timing thresholds (the figures are for people, see docs/worker-throughput.md); only that every turn
submitted the consumer's way reached ``turn.done`` in every phase and the figures add up.
"""

from __future__ import annotations

import pytest

from bench.topology.processes import fallback_reply
from bench.worker_throughput_bench import ThroughputConfig, run, summary_lines


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_small_round_completes_every_turn_in_process_and_on_a_worker(fake_llm, settings, tmp_path):
    from django.conf import settings as live
    from django.db import connection

    import smartmate.settings as configured

    if live.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured: the real-worker tests run in the MariaDB + Redis CI pass")
    settings.CHANNEL_LAYERS = configured.CHANNEL_LAYERS  # the worker's layer: the bench listens where it sends
    settings.MEMORY_ENABLED = False
    fake_llm.set_fallback(fallback_reply(60))
    config = ThroughputConfig(turns=6, students=3, workers=(1,), rounds=1, warmup=2, timeout=90, answer_chars=60)

    [results] = run(config, folder=tmp_path, llm_url=fake_llm.base_url,
                    database_name=str(connection.settings_dict["NAME"]), echo=False)

    for phase in results:
        assert (phase.completed, sum(phase.errors.values())) == (6, 0), (phase.name, phase.errors)
        assert phase.events >= 6 * 4  # at least status, a delta, usage and turn.done per turn
        assert phase.measured_turns == 4 and phase.rate > 0
        assert phase.cpu_seconds > 0
    assert [result.name for result in results] == ["in-process", "in-process x1", "worker -c 1"]
    worker = summary_lines([results])[2]
    assert "per process / in-process " in worker and "per process / in-process x1 " in worker
