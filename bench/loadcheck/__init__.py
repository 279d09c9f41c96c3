"""The whole-product load check: N students at once log in, load the week board, plan, apply and chat.

    python -m bench.loadcheck --users 300 [--timeout 600] [--servers 1] [--workers 2]
    python -m bench.loadcheck --topology --users 300

Everything runs and connects on 127.0.0.1 only. The check starts what it needs as child processes:
a Redis server (unless ``REDIS_URL`` is set), the scripted fake model (``bench.fake_model``,
answering every call at once with the same fallback reply), ``--servers`` daphne processes and
``--workers`` Celery workers on the queues default, agent and memory. Daphne listens with a backlog of
1024 and waits 30 s for a websocket handshake (its defaults, 50 and 5 s, reset and reject connections
when hundreds of students arrive in the same instant). It migrates a fresh database:
``<name>_loadcheck`` on the MySQL/MariaDB of ``DATABASE_URL``, or, without it, a SQLite file (with a
warning: one file shared by several processes says nothing about production). ``--server URL``
reuses a running deployment instead (its workers and model too; its database must be the one of
``DATABASE_URL``, where the students are added under a fresh name prefix). ``--topology`` starts the
production topology instead (``bench.topology``: nginx, two daphne processes, a worker per queue,
beat) and runs the load twice through nginx, with one web process and then with both, printing the two
reports and their ratio (``scaling.py``).

Each student is created with a small timetable (``STUDENT_TIMETABLE``) and one task class of
``--blocks`` blocks, then every virtual student runs, all at once (``client.student_run``):

    login (JWT) → week board → plan preview of its class → apply → new conversation → websocket
    ticket → websocket connect → one chat message, read until ``turn.done``

Writes carry an ``X-Idempotency-Key`` as a careful client's do. Each student gets its own client
address in ``X-Forwarded-For`` (the servers trust one proxy hop), so the abuse limits stay on and
count per student as they would for real students, instead of refusing the 11th login from one
address. Every wait has a deadline and the whole load is bounded by ``--timeout``: the run ends by
itself, and its children are stopped in every case.

Reported: errors per step (target 0), p50/p95 latency per step, the wall time of the load, and a
data check afterwards (``verify``): each student has exactly its timetable's events plus one event
per block the preview placed (applied once, no block twice), one applied preview and one change
set, one conversation holding one student and one assistant message, and no outbox event dead or
left unfinished. The exit status is 1 when anything is off. On MySQL/MariaDB it warns first when
``max_connections`` is below the number of requests that can be in flight: Django under ASGI serves
each request in a thread of its own, with a database connection of its own.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LoadConfig:
    """One run: how many students, how much of the product each one uses, how long it may all take."""

    users: int = 300
    blocks: int = 4
    servers: int = 1
    workers: int = 2
    worker_concurrency: int = 2
    worker_pool: str = "prefork"
    timeout: float = 600.0
    answer_chars: int = 200
    http_timeout: float = 300.0
