"""``python -m bench.topology``: start the production topology on this machine until Ctrl-C (see the package)."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
from contextlib import ExitStack
from pathlib import Path

from bench.topology.processes import REPO_ROOT, start_redis


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Start nginx, N daphne processes, a worker per queue and beat.")
    parser.add_argument("--web", type=int, default=2, help="daphne processes behind nginx")
    parser.add_argument("--port", type=int, default=8080, help="nginx's port on 127.0.0.1")
    parser.add_argument("--dir", type=Path, default=None, help="logs, configuration, static files (default: a temporary folder)")
    parser.add_argument("--fake-llm", action="store_true", help="answer with the scripted fake model instead of LLM_BASE_URL")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smartmate.settings")
    if not os.environ.get("DATABASE_URL"):
        print("warning: DATABASE_URL is not set; several processes will share one SQLite file "
              "(start MariaDB with `bash .ci/services.sh` for a production-like run)", file=sys.stderr)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=REPO_ROOT, check=True)
    folder = args.dir or Path(tempfile.mkdtemp(prefix="smartmate-topology-"))
    folder.mkdir(parents=True, exist_ok=True)
    with ExitStack() as services:
        if not os.environ.get("REDIS_URL"):
            # Before Django reads its settings: this process pings the workers through the same broker.
            os.environ["REDIS_URL"] = start_redis(services, folder)
        return _serve(args, folder)


def _serve(args: argparse.Namespace, folder: Path) -> int:
    import django

    django.setup()
    from bench.topology import topology_running

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with _model(args.fake_llm, folder) as llm_url, topology_running(folder, web=args.web, port=args.port,
                                                                   llm_url=llm_url) as running:
        print(f"SmartMate on {running.url} (nginx) -> {', '.join(running.web_urls)}; workers {', '.join(running.workers)}")
        print(f"logs in {folder}; Ctrl-C stops everything", flush=True)
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass
    return 0


def _model(fake: bool, folder: Path):
    from contextlib import ExitStack, contextmanager

    from bench.topology.processes import start_fake_llm

    @contextmanager
    def running():
        with ExitStack() as stack:
            yield start_fake_llm(stack, folder, answer_chars=200) if fake else None

    return running()


if __name__ == "__main__":
    sys.exit(main())
