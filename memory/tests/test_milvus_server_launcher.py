"""``python -m memory.vectorstore.milvus_server`` starts a Milvus server CI can use and stops what it started.

Needs the optional ``milvus`` package (requirements-milvus.txt): CI's Milvus pass installs it."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from memory.vectorstore import MilvusVectorStore
from memory.vectorstore.milvus_server import free_port

pytest.importorskip("milvus", reason="the Milvus server package: pip install -r requirements-milvus.txt")

REPO_ROOT = Path(__file__).resolve().parents[2]


def listening_addresses(port: int) -> set[str]:
    """The IPv4 addresses something listens on at ``port`` (from /proc/net/tcp; "0.0.0.0" is every one)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, hex_port = local.split(":")
        if state == "0A" and int(hex_port, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return found


def etcd_ports(data_dir: Path) -> list[int]:
    config = (data_dir / "configs" / "embed-etcd.yaml").read_text()
    return [int(line.rsplit(":", 1)[1]) for line in config.splitlines() if line.startswith("listen-")]


def test_the_launcher_serves_on_the_port_given_keeps_etcd_on_loopback_and_stops_on_sigterm(tmp_path):
    port, pid_file = free_port(), tmp_path / "launcher.pid"
    launcher = subprocess.Popen(
        [sys.executable, "-m", "memory.vectorstore.milvus_server", "--data-dir", str(tmp_path / "milvus"),
         "--port", str(port), "--pid-file", str(pid_file)],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert launcher.stdout is not None
        announced = launcher.stdout.readline().strip()  # printed once the server answers
        store = MilvusVectorStore(f"http://127.0.0.1:{port}", collection="launcher", dimensions=8)
        counted = store.count(1)
        store.close()
        etcd = {p: listening_addresses(p) for p in etcd_ports(tmp_path / "milvus")}
        written_pid = int(pid_file.read_text())
    finally:
        launcher.send_signal(signal.SIGTERM)
        exit_code = launcher.wait(timeout=60)

    assert announced == f"MILVUS_URI=http://127.0.0.1:{port}"
    assert counted == 0
    assert list(etcd.values()) == [{"127.0.0.1"}, {"127.0.0.1"}]
    assert written_pid == launcher.pid
    assert exit_code == 0 and not pid_file.exists()
    assert listening_addresses(port) == set()  # the server process went with the launcher
