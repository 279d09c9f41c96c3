"""A pytest plugin (``-p smartmate.tests.xdist_redis`` in pytest.ini): each xdist worker gets its own Redis databases.

It must run before pytest-django imports the settings, which happens before any conftest is read,
so it is a plugin named on the command line, imported first. Under pytest-xdist each worker process
moves ``REDIS_URL`` to its own pair of databases (channel layer + cache, see ``_redis_db`` in the
settings); the Celery workers and daphne children a test starts inherit the environment, so a
worker of one test process never takes the tasks, channel messages or cached counters of another.
"""

import os


def _own_redis_databases() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_URL", "")
    if not worker.startswith("gw") or not url or os.environ.get("CELERY_BROKER_URL"):
        return
    base, _, db = url.rpartition("/")
    os.environ["REDIS_URL"] = f"{base}/{int(db or 0) + 2 * int(worker[2:])}"


_own_redis_databases()
