"""What every benchmark shares: a Django process set up as production runs it, a fresh database for
the run, and the same percentiles, so figures from different benchmarks mean the same thing.

Django is set up by ``django_setup_for_bench`` before anything imports a model: benchmarks import
their Django modules inside functions, after ``main`` has called it.
"""

from __future__ import annotations

import os
import secrets
import statistics
import tempfile
import timeit
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


def django_setup_for_bench(**env: str) -> None:
    """Set up Django as in production (DEBUG off, quiet logs) unless the environment says otherwise."""
    import django

    defaults = {"DJANGO_SETTINGS_MODULE": "smartmate.settings", "DJANGO_DEBUG": "0",
                "DJANGO_SECRET_KEY": secrets.token_urlsafe(64), "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
                "LOG_LEVEL": "WARNING", **env}
    for name, value in defaults.items():
        os.environ.setdefault(name, value)
    django.setup()


@contextmanager
def bench_database() -> Iterator[str]:
    """Create a fresh migrated database for the run and drop it afterwards; yield its name.

    SQLite: a file in a temporary folder. MySQL/MariaDB: ``<DATABASE_URL's name>_bench``.
    """
    from django.db import connection

    with tempfile.TemporaryDirectory(prefix="smartmate-bench-") as folder:
        settings = connection.settings_dict
        original = settings["NAME"]
        test = settings.setdefault("TEST", {})
        test["NAME"] = str(Path(folder) / "bench.sqlite3") if connection.vendor == "sqlite" else f"{original}_bench"
        name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            yield str(name)
        finally:
            connection.creation.destroy_test_db(original, verbosity=0)


def percentile(samples: Sequence[float], share: float) -> float:
    """The nearest-rank percentile ``share`` (0..1) of ``samples``; 0.0 for none."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def percentiles(samples: Sequence[float]) -> tuple[float, float]:
    """Return (p50, p95) of ``samples``: the median and the nearest-rank 95th percentile."""
    if not samples:
        return 0.0, 0.0
    return statistics.median(samples), percentile(samples, 0.95)


def timed_ms(call: Callable[[], object], repeat: int) -> list[float]:
    """The milliseconds of ``repeat`` single calls, sorted."""
    return sorted(seconds * 1000 for seconds in timeit.repeat(call, number=1, repeat=repeat))


def load_average() -> str:
    """The machine's 1/5/15-minute load, printed beside figures that a busy machine would change."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())
