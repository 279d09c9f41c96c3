"""One whole load check on a ready database: students, children, the load, the data check, the report."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

import httpx2 as httpx

from bench.loadcheck import LoadConfig
from bench.loadcheck.children import start_daphnes, start_workers
from bench.loadcheck.client import load_run
from bench.loadcheck.report import Report, report_build
from bench.loadcheck.seed import students_create
from bench.loadcheck.verify import data_check
from bench.topology.processes import LISTEN_BACKLOG, WS_CONNECT_TIMEOUT, child_env, start_fake_llm


def loadcheck_run(config: LoadConfig, *, database_name: str, folder: Path, redis_url: str,
                  urls: Sequence[str] = ()) -> Report:
    """Seed ``config.users`` students into ``database_name`` (Django is set up on it) and load the product.

    Without ``urls`` it starts the fake model, the daphne servers and the Celery workers (stopped
    before returning); with ``urls`` it loads those running servers and their workers as they are.
    """
    from django.db import connection
    from django.utils import timezone

    since = timezone.now()
    for warning in _capacity_warnings(config):
        print(f"WARNING: {warning}", flush=True)
    students = students_create(config.users, blocks=config.blocks)
    started = not urls
    with ExitStack() as stack:
        if started:
            llm_url = start_fake_llm(stack, folder, config.answer_chars)
            env = child_env(database_name=database_name, llm_url=llm_url, redis_url=redis_url)
            urls = start_daphnes(stack, config, env, folder)
            start_workers(stack, config, env, folder)
        _warm_up(urls, timeout=config.http_timeout)
        connection.close()  # the clients never touch the database; don't hold a connection meanwhile
        results, wall = asyncio.run(load_run(students, urls, timeout=config.timeout,
                                             http_timeout=config.http_timeout))
        data = data_check(results, since=since)  # the workers must still run: background work has to settle
    return report_build(config, results, wall=wall, data=data, setup=_setup_line(config, urls, database_name, started=started))


def _capacity_warnings(config: LoadConfig) -> list[str]:
    """Name a database limit the load will certainly hit, so its errors are not a surprise."""
    from django.db import connection

    if connection.vendor != "mysql":
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT @@max_connections")
        limit = int(cursor.fetchone()[0])
    # Django under ASGI runs each request's view in a thread of its own, with its own connection.
    wanted = config.users + config.workers * config.worker_concurrency + 10
    if limit >= wanted:
        return []
    return [f"the database allows {limit} connections; {config.users} students in flight at once can open "
            f"about {wanted} (one per request being served): expect 'Too many connections' errors."]


def _warm_up(urls: Sequence[str], *, timeout: float) -> None:
    """Ask each server's health page once, so the first student does not pay for its imports."""
    deadline = time.monotonic() + timeout
    for url in urls:
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=timeout, trust_env=False).status_code < 500:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url}/healthz did not answer within {timeout:.0f} s")
            time.sleep(0.5)


def _setup_line(config: LoadConfig, urls: Sequence[str], database_name: str, *, started: bool) -> str:
    from django.db import connection

    if not started:
        return f"database {connection.vendor} ({database_name}), running server(s) {', '.join(urls)}"
    return (f"database {connection.vendor} ({database_name}), {len(urls)} daphne process(es) (listen backlog "
            f"{LISTEN_BACKLOG}, websocket handshake timeout {WS_CONNECT_TIMEOUT} s), "
            f"{config.workers} Celery worker(s) --pool={config.worker_pool} -c {config.worker_concurrency} "
            f"on default,agent,memory, zero-latency fake model (answers of {config.answer_chars} characters), "
            f"{config.blocks} blocks per class")
