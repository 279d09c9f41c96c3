"""The production topology on one machine: nginx in front of N daphne processes, workers per queue, beat.

    python -m bench.topology [--web 2] [--dir DIR] [--port 8080] [--fake-llm]

Everything listens on 127.0.0.1 and is a child of this command: Ctrl-C (or SIGTERM) stops exactly what
it started. The databases come from the environment as for any deployment: ``DATABASE_URL`` (MariaDB;
start one with ``bash .ci/services.sh``) and ``REDIS_URL`` (without it, a private redis-server is
started), ``MILVUS_URI`` (a Milvus server; without one, each process keeps memories in memory, which
several processes cannot share). The processes run in production mode (DEBUG off, collected static
files, a fresh secret, rate limits on, one trusted proxy hop):

- nginx (Debian's package) from ``deploy/nginx.conf``, the only port a student reaches;
- ``--web`` daphne processes (backlog 1024, 30 s websocket handshake), no stickiness;
- one Celery worker per queue: ``default`` (outbox, sweeps, reminders), ``agent`` (assistant turns),
  ``memory`` (memory extraction), and beat.

The topology tests (``smartmate/tests/test_topology.py``) start it through ``topology_running``.
``deploy/systemd/`` has unit files for the same processes on a real host.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench.topology.processes import (
    HOST,
    REPO_ROOT,
    daphne_command,
    free_port,
    log_tail,
    start_redis,
    stopping,
    terminate_and_wait,
    wait_for_port,
)

NGINX_TEMPLATE = REPO_ROOT / "deploy" / "nginx.conf"
QUEUES = (("default", 2), ("agent", 2), ("memory", 1))  # queue, worker processes


@dataclass
class Child:
    """One process of the topology, with what it takes to start it again (a fault bench restarts them)."""

    command: list[str]
    log: Path
    process: subprocess.Popen
    port: int | None = None


@dataclass
class Topology:
    """What is running: the proxy's URL (the students' door), each daphne's own URL, every child by name."""

    url: str
    web_urls: list[str]
    folder: Path
    env: dict[str, str]
    pinned_urls: list[str] = field(default_factory=list)  # nginx's door to web-0, web-1... (``pinned=True``)
    web_logs: list[Path] = field(default_factory=list)
    workers: list[str] = field(default_factory=list)
    children: dict[str, Child] = field(default_factory=dict)  # web-0, web-1, worker-agent, ..., beat
    _stack: ExitStack | None = None

    def web_log_text(self, index: int) -> str:
        return self.web_logs[index].read_text(errors="replace")

    def kill(self, name: str) -> None:
        """SIGKILL a child and its own children (a prefork worker's pool) at once, as a crashed host would."""
        process = self.children[name].process
        pool = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
        for pid in [process.pid, *map(int, pool)]:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
        process.wait()

    def stop(self, name: str, timeout: float = 30) -> float:
        """SIGTERM a child and wait for it; return the seconds it took to exit."""
        process, started = self.children[name].process, time.monotonic()
        terminate_and_wait(process, timeout)
        return time.monotonic() - started

    def start_again(self, name: str) -> None:
        """Start a stopped child with its first command and log (a supervisor's restart)."""
        child = self.children[name]
        assert self._stack is not None, "only inside topology_running"
        log = self._stack.enter_context(open(child.log, "ab"))
        child.process = subprocess.Popen(child.command, cwd=REPO_ROOT, env=self.env, stdout=log,
                                         stderr=subprocess.STDOUT)
        self._stack.enter_context(stopping(child.process, grace=30))
        if child.port is not None:
            wait_for_port(child.port, child.process, timeout=60, what=name, log=child.log)


def production_env(folder: Path, *, redis_url: str, database_name: str | None, var_dir: Path,
                   llm_url: str | None) -> dict[str, str]:
    """The environment of every process: production mode on plain HTTP behind one proxy hop."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="smartmate.settings", DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=env.get("TOPOLOGY_SECRET_KEY") or secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost", DJANGO_SECURE_SSL_REDIRECT="0",
        METRICS_TOKEN=env.get("METRICS_TOKEN") or secrets.token_urlsafe(32),
        REDIS_URL=redis_url, SMARTMATE_VAR_DIR=str(var_dir),
        RATE_LIMITS_ENABLED=env.get("RATE_LIMITS_ENABLED", "1"),
        RATE_LIMIT_TRUSTED_PROXIES=env.get("RATE_LIMIT_TRUSTED_PROXIES", "1"),  # 2 when a load client adds a hop
        MILVUS_URI=env.get("MILVUS_URI", "") if env.get("MILVUS_URI", "").startswith("http") else "memory",
        SMARTMATE_WARM_START="0", PYTHONUNBUFFERED="1",
    )
    env.pop("CELERY_BROKER_URL", None)  # the broker follows REDIS_URL
    if database_name:
        env["DATABASE_NAME_OVERRIDE"] = database_name
    if llm_url:
        env.update(LLM_BASE_URL=llm_url, LLM_API_KEY=env.get("LLM_API_KEY") or "topology")
    return env


def collect_static(env: dict[str, str]) -> None:
    """``collectstatic`` into the run's var dir, as a deployment does before it starts."""
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=REPO_ROOT, env=env,
                   check=True, capture_output=True, timeout=300)


def _start(stack: ExitStack, env: dict[str, str], command: list[str], log_path: Path, port: int | None = None,
           grace: float = 15.0) -> Child:
    log = stack.enter_context(open(log_path, "ab"))
    process = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    stack.enter_context(stopping(process, grace=grace))
    return Child(command=command, log=log_path, process=process, port=port)


def start_web(stack: ExitStack, env: dict[str, str], folder: Path, count: int) -> dict[str, Child]:
    """Start ``count`` daphne processes (``web-0``...); wait until each listens."""
    children = {}
    for index in range(count):
        port = free_port()
        children[f"web-{index}"] = _start(stack, env, daphne_command(port), folder / f"web-{index}.log", port=port)
    for name, child in children.items():
        assert child.port is not None
        wait_for_port(child.port, child.process, timeout=60, what=name, log=child.log)
    return children


def start_workers(stack: ExitStack, env: dict[str, str], folder: Path) -> tuple[dict[str, Child], list[str]]:
    """One Celery worker per queue (``worker-<queue>``) and ``beat``; wait until each worker answers a ping."""
    from smartmate.celery import app

    children, names = {}, []
    for queue, concurrency in QUEUES:
        name = f"{queue}-{secrets.token_hex(3)}@{socket.gethostname()}"
        children[f"worker-{queue}"] = _start(stack, env, [
            sys.executable, "-m", "celery", "-A", "smartmate", "worker", "-Q", queue, "--pool=prefork",
            f"--concurrency={concurrency}", "--without-gossip", "--without-mingle", "--loglevel=WARNING", "-n", name],
            folder / f"worker-{queue}.log", grace=30)
        names.append(name)
    children["beat"] = _start(stack, env, [sys.executable, "-m", "celery", "-A", "smartmate", "beat",
                                           "--loglevel=WARNING", "-s", str(folder / "beat-schedule")],
                              folder / "beat.log")
    deadline = time.monotonic() + 90
    for (queue, _), name in zip(QUEUES, names, strict=True):
        child = children[f"worker-{queue}"]
        while not app.control.ping(destination=[name], timeout=0.5):
            if child.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"The topology's Celery worker {name} did not start{log_tail(child.log)}")
    return children, names


def nginx_config(folder: Path, port: int, web_urls: list[str], pinned_ports: Sequence[int] = ()) -> str:
    """``deploy/nginx.conf`` with this run's port, upstreams and files (all inside ``folder``).

    ``pinned_ports`` (none, or one per web process in order) open a door per process: every request
    to ``pinned_ports[i]`` goes to ``web_urls[i]`` only. The students' port stays unpinned.
    """
    addresses = [url.split("://", 1)[1] for url in web_urls]
    main = f"daemon off;\npid {folder}/nginx.pid;\nerror_log {folder}/nginx-error.log warn;"
    temp = "".join(f"\n    {kind}_temp_path {folder}/nginx-{kind};" for kind in
                   ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    slots = {
        "MAIN": main,
        "HTTP": f"access_log {folder}/nginx-access.log;{temp}",
        "WEB_SERVERS": "\n".join(f"        server {address} max_fails=1 fail_timeout=2s;" for address in addresses),
        "LISTEN": f"{HOST}:{port}",
        **_pinned_slots(pinned_ports, addresses),
    }
    text = NGINX_TEMPLATE.read_text()
    for name, value in slots.items():
        text = text.replace(f"{{{{{name}}}}}", value)
    return text


def _pinned_slots(pinned_ports: Sequence[int], addresses: list[str]) -> dict[str, str]:
    """The template's PINNED_ slots: an upstream of one process per door, the door's port, its listen line."""
    doors = list(zip(pinned_ports, addresses, strict=True)) if pinned_ports else []
    return {
        "PINNED_UPSTREAMS": "".join(f"\n    upstream smartmate_web_{index} {{\n        server {address};\n"
                                    f"        keepalive 8;\n    }}\n" for index, (_, address) in enumerate(doors)),
        "PINNED_PORTS": "\n".join(f"        {door} smartmate_web_{index};" for index, (door, _) in enumerate(doors)),
        "PINNED_LISTEN": "\n".join(f"        listen {HOST}:{door};" for door, _ in doors),
    }


def start_nginx(stack: ExitStack, folder: Path, port: int, web_urls: list[str],
                pinned_ports: Sequence[int] = ()) -> str:
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if binary is None:
        raise RuntimeError("nginx is missing: apt-get install nginx (the topology's proxy is Debian's nginx)")
    config = folder / "nginx.conf"
    config.write_text(nginx_config(folder, port, web_urls, pinned_ports))
    log_path = folder / "nginx-error.log"
    process = subprocess.Popen([binary, "-p", str(folder), "-c", str(config)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.STDOUT)
    stack.enter_context(stopping(process, grace=5))
    for listening in (port, *pinned_ports):
        wait_for_port(listening, process, timeout=30, what="nginx", log=log_path)
    return f"http://{HOST}:{port}"


@contextmanager
def topology_running(folder: Path, *, web: int = 2, port: int | None = None, database_name: str | None = None,
                     var_dir: Path | None = None, llm_url: str | None = None,
                     extra_env: dict[str, str] | None = None, pinned: bool = False) -> Iterator[Topology]:
    """Start the whole topology in ``folder``; stop all of it on leaving.

    ``var_dir`` with static files already collected there (production mode) skips ``collectstatic``.
    ``pinned`` also opens a door of nginx per web process (``Topology.pinned_urls``), for tests that
    must know which process serves a browser tab.
    """
    folder.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        redis_url = os.environ.get("REDIS_URL") or start_redis(stack, folder)
        env = production_env(folder, redis_url=redis_url, database_name=database_name,
                             var_dir=var_dir or folder / "var", llm_url=llm_url)
        env.update(extra_env or {})
        if var_dir is None:
            collect_static(env)
        web_children = start_web(stack, env, folder, web)
        web_urls = [f"http://{HOST}:{child.port}" for child in web_children.values()]
        worker_children, workers = start_workers(stack, env, folder)
        pinned_ports = [free_port() for _ in web_urls] if pinned else []
        url = start_nginx(stack, folder, port or free_port(), web_urls, pinned_ports)
        yield Topology(url=url, web_urls=web_urls, folder=folder, env=env,
                       pinned_urls=[f"http://{HOST}:{door}" for door in pinned_ports],
                       web_logs=[child.log for child in web_children.values()], workers=workers,
                       children={**web_children, **worker_children}, _stack=stack)
