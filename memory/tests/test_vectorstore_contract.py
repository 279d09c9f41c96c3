"""Every VectorStore implementation honours the same contract: these tests run on in-memory and Milvus Lite
(searched by Milvus, and by the exact in-process copy of a Lite store), and on a Milvus server when
``MILVUS_URI`` names one (CI's Milvus pass)."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import numpy as np
import pytest

from memory.testing import milvus_server_uri
from memory.vectorstore import (
    Hit,
    InMemoryVectorStore,
    MilvusVectorStore,
    VectorRecord,
    VectorStore,
    VectorStoreError,
    VectorStoreLockedError,
)

DIM = 8
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def axis(i: int, wobble: float = 0.0) -> np.ndarray:
    """A unit-ish vector along axis ``i``, tilted towards the next axis by ``wobble``."""
    v = np.zeros(DIM, dtype=np.float32)
    v[i % DIM] = 1.0
    v[(i + 1) % DIM] = wobble
    return v


def record(memory_id: int, user_id: int, vector: np.ndarray, memory_type: str = "fact",
           status: str = "active") -> VectorRecord:
    return VectorRecord(memory_id, user_id, vector, memory_type, status)


def milvus_store(path: Path, **options) -> MilvusVectorStore:
    return MilvusVectorStore(str(path), collection="contract", dimensions=DIM, **options)


SERVER = milvus_server_uri()


@pytest.fixture(scope="module")
def server_store():
    """One collection on the server for this module (a new one takes seconds to load), dropped at its end."""
    assert SERVER is not None
    made = MilvusVectorStore(SERVER, collection=f"contract_{uuid.uuid4().hex}", dimensions=DIM, batch_size=100)
    yield made
    made.drop_collection()
    made.close()


@pytest.fixture(params=["in_memory", "milvus_lite", "milvus_lite_exact", *(["milvus_server"] if SERVER else [])])
def store(request, tmp_path):
    if request.param == "in_memory":
        made: VectorStore = InMemoryVectorStore(dimensions=DIM)
    elif request.param == "milvus_lite":  # Milvus itself answers every search
        made = milvus_store(tmp_path / "vectors.db", batch_size=100, exact_index=False)
    elif request.param == "milvus_lite_exact":  # the exact copy answers (loaded by each user's first search)
        made = milvus_store(tmp_path / "vectors.db", batch_size=100, exact_index_background=False)
    else:  # the module's collection on the server, emptied after each test
        made = request.getfixturevalue("server_store")
    made.ensure_collection()
    yield made
    if request.param == "milvus_server":
        made.delete_everything()
    made.close()


def test_both_implementations_satisfy_the_protocol(store):
    assert isinstance(store, VectorStore)


def test_search_returns_the_nearest_vectors_first(store):
    store.upsert([record(1, 7, axis(0)), record(2, 7, axis(0, 0.5)), record(3, 7, axis(3))])

    hits = store.search(7, axis(0, 0.1), top_k=3)

    assert [hit.id for hit in hits] == [1, 2, 3]
    assert hits[0].score > hits[1].score > hits[2].score


def test_scores_are_cosines_whatever_the_vector_lengths(store):
    store.upsert([record(1, 7, 5 * axis(0)), record(2, 7, axis(2))])

    hits = store.search(7, 0.1 * axis(0), top_k=2)

    assert hits[0] == Hit(1, pytest.approx(1.0, abs=1e-5))
    assert hits[1].score == pytest.approx(0.0, abs=1e-5)


def test_search_never_returns_another_users_vectors(store):
    store.upsert([record(1, 7, axis(0)), record(2, 8, axis(0)), record(3, 8, axis(0, 0.01))])

    hits = store.search(7, axis(0), top_k=10)

    assert [hit.id for hit in hits] == [1]


def test_search_on_an_empty_store_returns_nothing(store):
    assert store.search(7, axis(0), top_k=5) == []


def test_search_for_a_user_without_vectors_returns_nothing(store):
    store.upsert([record(1, 8, axis(0))])

    assert store.search(7, axis(0), top_k=5) == []


def test_top_k_limits_the_results(store):
    store.upsert([record(i, 7, axis(i)) for i in range(1, 6)])

    assert len(store.search(7, axis(1), top_k=2)) == 2


def test_search_filters_by_memory_type_and_status(store):
    store.upsert([
        record(1, 7, axis(0), "fact"),
        record(2, 7, axis(0, 0.1), "preference"),
        record(3, 7, axis(0, 0.2), "preference", status="archived"),
    ])

    assert [h.id for h in store.search(7, axis(0), 5, memory_types=["preference"])] == [2, 3]
    assert [h.id for h in store.search(7, axis(0), 5, statuses=["archived"])] == [3]
    assert [h.id for h in store.search(7, axis(0), 5, memory_types=["preference"], statuses=["active"])] == [2]
    assert store.search(7, axis(0), 5, memory_types=[]) == []


def test_upsert_of_an_existing_id_replaces_it(store):
    store.upsert([record(1, 7, axis(0), "fact")])

    store.upsert([record(1, 7, axis(4), "goal")])

    assert store.count(7) == 1
    assert [h.id for h in store.search(7, axis(4), 5, memory_types=["goal"])] == [1]
    assert store.search(7, axis(0), 5, memory_types=["fact"]) == []


def test_delete_removes_only_the_given_ids(store):
    store.upsert([record(1, 7, axis(0)), record(2, 7, axis(1)), record(3, 8, axis(0))])

    store.delete([1, 999])

    assert [h.id for h in store.search(7, axis(0), 5)] == [2]
    assert store.count(7) == 1
    assert store.count(8) == 1


def test_delete_user_removes_everything_of_that_user_only(store):
    store.upsert([record(i, 7, axis(i)) for i in range(1, 5)] + [record(9, 8, axis(1))])

    store.delete_user(7)

    assert store.count(7) == 0
    assert store.search(7, axis(1), 10) == []
    assert [h.id for h in store.search(8, axis(1), 10)] == [9]


def test_count_counts_only_that_users_vectors(store):
    store.upsert([record(1, 7, axis(0)), record(2, 7, axis(1)), record(3, 8, axis(2))])

    assert (store.count(7), store.count(8), store.count(9)) == (2, 1, 0)


def test_more_records_than_a_batch_are_all_written(store):
    rng = np.random.default_rng(3)
    store.upsert([record(i, 7, rng.standard_normal(DIM).astype(np.float32)) for i in range(1, 251)])

    assert store.count(7) == 250


def test_empty_writes_are_no_ops(store):
    store.upsert([])
    store.delete([])

    assert store.count(7) == 0


def test_a_vector_of_the_wrong_dimension_is_refused(store):
    with pytest.raises(ValueError, match=r"expected a vector of 8 floats; got shape \(3,\)"):
        store.upsert([record(1, 7, np.ones(3, dtype=np.float32))])
    with pytest.raises(ValueError, match="expected a vector of 8 floats"):
        store.search(7, np.ones(9), top_k=1)


def test_an_all_zero_vector_is_refused(store):
    with pytest.raises(ValueError, match="vector is all zeros"):
        store.upsert([record(1, 7, np.zeros(DIM, dtype=np.float32))])


def test_a_filter_value_that_is_not_an_identifier_is_refused(store):
    with pytest.raises(ValueError, match="invalid memory_type value 'fact\" or user_id > 0'"):
        store.search(7, axis(0), 5, memory_types=['fact" or user_id > 0'])
    with pytest.raises(TypeError, match="status must be a collection of strings"):
        store.search(7, axis(0), 5, statuses="active")


def test_a_closed_store_reopens_on_next_use_with_its_data(store):
    store.upsert([record(1, 7, axis(0))])
    store.flush()

    store.close()

    assert [h.id for h in store.search(7, axis(0), 1)] == [1]


# --- Milvus Lite specifics ------------------------------------------------------------------------

def test_the_first_write_to_a_new_milvus_lite_file_logs_no_error(tmp_path, caplog):
    # Milvus Lite starts a server process per file; on a machine running the suite on every core that start
    # can time out (its own "Failed to start" error, then our fallback's warning). That is the machine, not
    # the first write: such an attempt is tried once more on a fresh file, and the last one must be clean.
    for attempt in range(2):
        caplog.clear()
        store = milvus_store(tmp_path / f"vectors-{attempt}.db")
        try:
            with caplog.at_level("WARNING"):
                store.upsert([record(1, 7, axis(0))])
            assert [h.id for h in store.search(7, axis(0), 5)] == [1]
        finally:
            store.close()
        logged = [(r.name, r.getMessage()) for r in caplog.records if r.levelname in ("WARNING", "ERROR")]
        if not any(message.startswith("Failed to start MilvusLite server") for _name, message in logged):
            break
    assert logged == []


def test_a_reopened_milvus_lite_file_has_the_data(tmp_path):
    first = milvus_store(tmp_path / "vectors.db")
    first.upsert([record(1, 7, axis(0)), record(2, 7, axis(1)), record(3, 8, axis(0))])
    first.close()

    second = milvus_store(tmp_path / "vectors.db")
    try:
        assert second.count(7) == 2
        assert [h.id for h in second.search(7, axis(0, 0.1), 5)] == [1, 2]
    finally:
        second.close()


def test_a_milvus_lite_file_held_by_another_process_gives_a_clear_error(tmp_path):
    path = tmp_path / "vectors.db"
    holder = milvus_store(path)
    holder.ensure_collection()
    script = (
        "from memory.vectorstore import MilvusVectorStore, VectorStoreLockedError\n"
        f"store = MilvusVectorStore({str(path)!r}, collection='contract', dimensions={DIM})\n"
        "try:\n    store.count(1)\nexcept VectorStoreLockedError as exc:\n    print(exc)\n"
    )
    try:
        result = subprocess.run([sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True,
                                text=True, timeout=60)
    finally:
        holder.close()
    assert f"The Milvus Lite file {path} is locked by another process" in result.stdout
    assert "set MILVUS_URI=http://127.0.0.1:19530" in result.stdout
    assert VectorStoreLockedError.code == "vector_store_locked"


def test_an_existing_collection_of_another_dimension_is_reported(tmp_path):
    narrow = milvus_store(tmp_path / "vectors.db")
    narrow.ensure_collection()
    narrow.close()
    wider = MilvusVectorStore(str(tmp_path / "vectors.db"), collection="contract", dimensions=16)

    with pytest.raises(VectorStoreError, match="holds 8-dimensional vectors but EMBEDDINGS_DIMENSIONS is 16"):
        wider.ensure_collection()
    wider.close()


def test_a_lite_path_must_end_in_db(tmp_path):
    with pytest.raises(VectorStoreError, match="A Milvus Lite path must end in .db"):
        MilvusVectorStore(str(tmp_path / "vectors"))


def test_an_unreachable_server_raises_a_vector_store_error():
    store = MilvusVectorStore("http://127.0.0.1:9", dimensions=DIM, timeout=2)

    with pytest.raises(VectorStoreError, match="Could not open Milvus at http://127.0.0.1:9"):
        store.search(1, axis(0), 1)


def test_milvus_lite_and_servers_search_with_a_wider_hnsw_ef(tmp_path):
    lite = milvus_store(tmp_path / "vectors.db")
    server = MilvusVectorStore("http://127.0.0.1:19530", dimensions=DIM)

    assert lite._search_params(10) == {"metric_type": "COSINE", "params": {"ef": 256}}
    assert lite._search_params(300) == {"metric_type": "COSINE", "params": {"ef": 300}}
    assert server._search_params(10) == {"metric_type": "COSINE", "params": {"ef": 256}}


# --- Milvus server specifics (CI's Milvus pass) ----------------------------------------------------

@pytest.mark.skipif(SERVER is None, reason="needs a Milvus server: MILVUS_URI=http://127.0.0.1:PORT")
def test_a_write_or_delete_through_one_server_client_is_seen_at_once_by_another(server_store):
    other = MilvusVectorStore(server_store.uri, collection=server_store.collection, dimensions=DIM)
    try:
        server_store.upsert([record(1, 7, axis(0)), record(2, 7, axis(1))])
        seen = [h.id for h in other.search(7, axis(0), 5)]
        server_store.delete([1])
        after_delete = [h.id for h in other.search(7, axis(0), 5)]
        other.delete_user(7)
        after_purge = (server_store.count(7), server_store.search(7, axis(1), 5))
    finally:
        other.close()
        server_store.delete_everything()

    assert seen == [1, 2]
    assert after_delete == [2]
    assert after_purge == (0, [])


def test_a_server_store_reads_strongly_and_keeps_no_exact_copy():
    server = MilvusVectorStore("http://127.0.0.1:19530", dimensions=DIM)

    assert server._exact is None
    assert server._reads == {"consistency_level": "Strong"}
