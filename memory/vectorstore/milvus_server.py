"""Start a Milvus server (the ``milvus`` package: embedded Milvus 2.3 standalone) for CI and tests.

    python -m memory.vectorstore.milvus_server --data-dir /tmp/milvus-ci --port 19530

prints ``MILVUS_URI=http://127.0.0.1:19530`` once the server answers, then runs until SIGTERM or
Ctrl+C and stops the server it started (``--pid-file`` records this launcher's pid for a stop
script). Install the package first: ``pip install -r requirements-milvus.txt`` (CI only).

Every port the server opens is chosen here, free on 127.0.0.1 at start: the client (gRPC) port given,
the internal gRPC ports of its coordinators and nodes, its metrics/health HTTP port and the embedded
etcd's client and peer ports (etcd, left to itself, always takes 2379 and 2380, so a second server on
the machine would clash). etcd listens on 127.0.0.1 only; Milvus 2.3 binds its gRPC and metrics ports on
every interface and has no setting to narrow them, so run it on a host whose firewall closes them (the
README's production section says so).

No Django here: CI runs this before any settings exist.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

START_TIMEOUT = 120.0
#: Components that talk to each other over gRPC at the address they advertise: left unset, each picks the
#: host's first non-loopback address, and the server's internal traffic leaves loopback.
COMPONENTS = ("rootCoord", "proxy", "queryCoord", "queryNode", "indexCoord", "indexNode", "dataCoord", "dataNode")
#: Milvus waits up to 30 minutes for a graceful stop; a test server holds nothing worth that long.
GRACEFUL_STOP_SECONDS = 10
#: Settings changed from the package's (measured with ``python -m bench.recall_bench --server``):
SERVER_SETTINGS = {
    # A Strong read waits for the next time tick: at the default 200 ms every search took 200 ms (p50).
    "proxy.timeTickInterval": 20,
    # Rows not yet sealed into an indexed segment are searched through a coarse IVF "interim" index
    # (nprobe 16 of 128): recall@10 0.30 against exact; searched one by one instead they are exact.
    "queryNode.segcore.interimIndex.enableIndex": "false",  # written into the YAML as is
}


@dataclass(frozen=True)
class RunningServer:
    uri: str
    data_dir: Path
    start_seconds: float


def free_port() -> int:
    """A TCP port nobody listens on at 127.0.0.1 right now (the OS picks it)."""
    with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _write_etcd_config(config_dir: Path) -> tuple[Path, int]:
    """The embedded etcd's own config, loopback only on free ports, and its client port (Milvus reads the
    file's path from ``ETCD_CONFIG_PATH``; its ``etcd.endpoints`` must name the same client port)."""
    client, peer = free_port(), free_port()
    config_dir.mkdir(parents=True, exist_ok=True)
    path = config_dir / "embed-etcd.yaml"
    path.write_text(
        f"listen-client-urls: http://127.0.0.1:{client}\n"
        f"advertise-client-urls: http://127.0.0.1:{client}\n"
        f"listen-peer-urls: http://127.0.0.1:{peer}\n"
        f"initial-advertise-peer-urls: http://127.0.0.1:{peer}\n"
        f"initial-cluster: default=http://127.0.0.1:{peer}\n"
        "auto-compaction-mode: revision\n"
        "auto-compaction-retention: '1000'\n",
        encoding="utf-8",
    )
    return path, client


def _configured_server(data_dir: Path, port: int) -> tuple[Any, Path]:
    """A ``milvus.MilvusServer`` whose every port is free and chosen here (none left to its defaults), and
    the path of its etcd config."""
    from milvus import MilvusServer  # the optional `milvus` package (requirements-milvus.txt)

    server = MilvusServer()
    server.set_base_dir(str(data_dir))
    etcd_config, etcd_client_port = _write_etcd_config(data_dir / "configs")
    # Given as settings (not defaults), a port that cannot be bound fails the start instead of being
    # silently moved to the next one up, which would leave the printed MILVUS_URI pointing nowhere.
    ports = {key: free_port() for key in server.config_keys if key.endswith("_port")}
    server.config.update(**{**ports, "proxy_port": port, "etcd_port": etcd_client_port})
    server.config.try_bind_port = _bindable
    for component in COMPONENTS:
        server.config.set(f"{component}.ip", "127.0.0.1")
    server.config.set("common.gracefulStopTimeout", GRACEFUL_STOP_SECONDS)
    for key, value in SERVER_SETTINGS.items():
        server.config.set(key, value)
    # The package probes upwards from this number for its metrics/health port: start it somewhere free.
    server.webservice_port = free_port()
    return server, etcd_config


def _bindable(port: int) -> socket.socket | None:
    """The package's free-port check, but as Milvus (Go) binds: with SO_REUSEADDR, so the port of a server
    stopped a moment ago (its connections in TIME_WAIT) counts as free, as it is to Milvus."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen()
    except OSError:
        sock.close()
        return None
    return sock


def _start(server: Any, etcd_config: Path) -> None:
    """Start the server process; it inherits this process's environment, plus where its etcd config is."""
    server.wait_for_started = False  # its own wait sleeps a fixed second and never asks the gRPC port
    previous = os.environ.get("ETCD_CONFIG_PATH")
    os.environ["ETCD_CONFIG_PATH"] = str(etcd_config)
    try:
        server.start()
    finally:
        if previous is None:
            del os.environ["ETCD_CONFIG_PATH"]
        else:
            os.environ["ETCD_CONFIG_PATH"] = previous


def _answers(uri: str, timeout: float) -> bool:
    """True once the server serves a client call (its health page answers a few seconds earlier)."""
    from memory.vectorstore.milvus import _import_pymilvus

    _import_pymilvus()  # pymilvus refuses to import beside a MILVUS_URI that is not a server's (tests set one)
    from pymilvus import MilvusClient, MilvusException

    try:
        client = MilvusClient(uri=uri, timeout=timeout)
    except MilvusException:
        return False
    try:
        client.list_collections(timeout=timeout)
        return True
    except MilvusException:
        return False
    finally:
        client.close()


def _wait_until_it_answers(uri: str, health_url: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(health_url, timeout=2) as response:
                if b"OK" in response.read() and _answers(uri, timeout=5):
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"Milvus at {uri} did not answer within {START_TIMEOUT:.0f} s")


@contextmanager
def milvus_server(data_dir: Path, port: int | None = None) -> Iterator[RunningServer]:
    """Run a Milvus server on 127.0.0.1 for the duration of the block, then stop it."""
    port = port or free_port()
    started = time.monotonic()
    server, etcd_config = _configured_server(data_dir.resolve(), port)
    _start(server, etcd_config)
    try:
        uri = f"http://127.0.0.1:{server.listen_port}"
        _wait_until_it_answers(uri, f"http://127.0.0.1:{server.webservice_port}/healthz",
                               time.monotonic() + START_TIMEOUT)
        yield RunningServer(uri, data_dir, time.monotonic() - started)
    finally:
        _stop(server)


def _stop(server: Any) -> None:
    """SIGTERM and time for a clean exit (the package's own stop kills it after 1 s, which can leave etcd's data
    half-written); SIGKILL only if the server's own stop deadline passed without it exiting."""
    process = server.server_proc
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=GRACEFUL_STOP_SECONDS + 10)
        except Exception:  # noqa: BLE001 - any failure to wait ends in a kill, below
            process.kill()
            process.wait(timeout=5)
    server.stop()


class StopRequested(Exception):
    """SIGTERM or Ctrl+C: leave the server's block (while it starts, too), which stops it."""


def _stop_requested(signum: int, _frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # one stop at a time: a second signal must not cut it short
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise StopRequested


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, required=True, help="where the server keeps data and logs")
    parser.add_argument("--port", type=int, default=0, help="client (gRPC) port on 127.0.0.1; 0 picks a free one")
    parser.add_argument("--pid-file", type=Path, help="write this launcher's pid here (SIGTERM it to stop)")
    args = parser.parse_args(argv)

    signal.signal(signal.SIGTERM, _stop_requested)
    signal.signal(signal.SIGINT, _stop_requested)
    if args.pid_file:
        args.pid_file.write_text(f"{os.getpid()}\n", encoding="utf-8")
    try:
        with milvus_server(args.data_dir, args.port or None) as running:
            print(f"MILVUS_URI={running.uri}", flush=True)
            print(f"milvus server answering after {running.start_seconds:.1f} s (data {running.data_dir})",
                  file=sys.stderr, flush=True)
            while True:
                signal.pause()
    except StopRequested:
        pass
    finally:
        if args.pid_file:
            args.pid_file.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
