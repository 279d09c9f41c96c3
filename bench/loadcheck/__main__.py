"""``python -m bench.loadcheck --users 300``: see the package docstring."""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import sys
import tempfile
from contextlib import ExitStack, nullcontext
from pathlib import Path

from bench.loadcheck import LoadConfig
from bench.loadcheck.scaling import ScalingRun, scaling_lines


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.loadcheck",
                                     description="Load the whole product with N concurrent students on 127.0.0.1.")
    parser.add_argument("--users", type=int, default=300)
    parser.add_argument("--blocks", type=int, default=4, help="blocks in each student's task class")
    parser.add_argument("--servers", type=int, default=1, help="daphne processes (students dealt round-robin)")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes, each on every queue")
    parser.add_argument("--worker-concurrency", type=int, default=2)
    parser.add_argument("--worker-pool", choices=["prefork", "threads", "solo"], default="prefork")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds the whole load may take")
    parser.add_argument("--http-timeout", type=float, default=300.0, help="seconds one request or frame may take")
    parser.add_argument("--answer-chars", type=int, default=200)
    parser.add_argument("--server", action="append", default=[], metavar="URL",
                        help="load this running server (repeatable) instead of starting servers, workers and "
                             "a model; its database must be DATABASE_URL's")
    parser.add_argument("--topology", action="store_true",
                        help="start the production topology (nginx, 2 daphne processes, a worker per queue, beat) "
                             "and load it through nginx twice: with one web process, then with both; print the ratio")
    parser.add_argument("--keep-logs", action="store_true", help="keep the children's logs and print where")
    args = parser.parse_args(argv)
    if args.topology and args.server:
        parser.error("--topology starts its own servers; it cannot load --server")
    if args.users < 1 or args.servers < 1 or args.workers < 1:
        parser.error("--users, --servers and --workers must be at least 1")
    for url in args.server:
        if not url.startswith(("http://127.", "http://localhost")):
            parser.error(f"--server must be on this machine (http://127.0.0.1:…); got {url}")
    return args


def _environment() -> None:
    """Production settings on plain HTTP for this process (and, through child_env, the children)."""
    defaults = {"DJANGO_SETTINGS_MODULE": "smartmate.settings", "DJANGO_DEBUG": "0",
                "DJANGO_SECRET_KEY": secrets.token_urlsafe(64), "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
                "DJANGO_SECURE_SSL_REDIRECT": "0", "LOG_LEVEL": "WARNING"}
    for name, value in defaults.items():
        os.environ.setdefault(name, value)
    os.environ.setdefault("LOADCHECK_SECRET_KEY", os.environ["DJANGO_SECRET_KEY"])


def main(argv: list[str] | None = None) -> None:
    """Start what is missing, run the load check, print the report; exit 1 on any error or mismatch."""
    args = _arguments(argv)
    config = LoadConfig(users=args.users, blocks=args.blocks, servers=args.servers, workers=args.workers,
                        worker_concurrency=args.worker_concurrency, worker_pool=args.worker_pool,
                        timeout=args.timeout, http_timeout=args.http_timeout, answer_chars=args.answer_chars)
    folder = Path(tempfile.mkdtemp(prefix="smartmate-loadcheck-"))
    with ExitStack() as stack:
        if not os.environ.get("REDIS_URL"):
            if args.server:
                sys.exit("--server needs REDIS_URL (the running deployment's Redis).")
            from bench.topology.processes import start_redis

            os.environ["REDIS_URL"] = start_redis(stack, folder)
            print(f"started redis-server at {os.environ['REDIS_URL']}", flush=True)
        if not os.environ.get("DATABASE_URL"):
            print("WARNING: DATABASE_URL is not set: running on SQLite, whose one file shared by every process "
                  "makes these figures unrepresentative of production (MariaDB).", file=sys.stderr, flush=True)
        _environment()
        if args.topology:
            runs = _run_topology(config, folder)
            reports, lines = [run.report for run in runs], scaling_lines(runs)
        else:
            report = _run(config, args, folder)
            reports, lines = [report], report.lines()
    for line in lines:
        print(line)
    if args.keep_logs:
        print(f"children's logs: {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    if any(report.error_count for report in reports):
        sys.exit(1)


def _run(config: LoadConfig, args: argparse.Namespace, folder: Path):
    import django

    django.setup()
    from django.db import connection

    from bench.loadcheck.run import loadcheck_run
    from bench.loadcheck.seed import fresh_database

    database = nullcontext(str(connection.settings_dict["NAME"])) if args.server else fresh_database()
    with database as database_name:
        print(f"{config.users} students on {connection.vendor} ({database_name}); setting up…", flush=True)
        return loadcheck_run(config, database_name=database_name, folder=folder,
                             redis_url=os.environ["REDIS_URL"], urls=args.server)


def _run_topology(config: LoadConfig, folder: Path) -> list[ScalingRun]:
    """Start the topology on a fresh database and the fake model; load it with one web process, then with two."""
    import django

    django.setup()
    from bench.loadcheck.scaling import scaling_run
    from bench.loadcheck.seed import fresh_database
    from bench.topology import topology_running
    from bench.topology.processes import start_fake_llm

    with fresh_database() as database_name, ExitStack() as stack:
        llm_url = start_fake_llm(stack, folder, config.answer_chars)
        print(f"{config.users} students per run; starting the topology on {database_name}…", flush=True)
        # Each student comes from an address of its own (X-Forwarded-For), and nginx adds a hop after it.
        topology = stack.enter_context(topology_running(
            folder / "topology", web=2, database_name=database_name, llm_url=llm_url, pinned=True,
            extra_env={"RATE_LIMIT_TRUSTED_PROXIES": "2", "LOG_LEVEL": "WARNING"}))
        return scaling_run(config, topology=topology, database_name=database_name, folder=folder,
                           redis_url=os.environ["REDIS_URL"])


if __name__ == "__main__":
    main()
