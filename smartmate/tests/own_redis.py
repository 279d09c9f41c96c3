"""A redis-server of a test's (or a bench's) own, on a free port, so restarting it disturbs nobody else."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait(condition: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError("redis-server did not change state in time")
        time.sleep(0.05)


class OwnRedis:
    """A redis-server without persistence in ``directory``: a stop loses its queues, as a crash would."""

    def __init__(self, directory: Path) -> None:
        self.directory, self.port = directory, _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        subprocess.run(["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--daemonize", "yes",
                        "--save", "", "--appendonly", "no", "--dir", str(self.directory),
                        "--pidfile", str(self.directory / "redis.pid"), "--logfile", str(self.directory / "redis.log")],
                       check=True, capture_output=True)
        _wait(self.answers, 10)

    def stop(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True, check=False)
        _wait(lambda: not self.answers(), 10)

    def answers(self) -> bool:
        return b"PONG" in subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True).stdout
