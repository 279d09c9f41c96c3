"""The exact in-process copy of a Milvus Lite store: same answers as brute force, in step with every write."""

from __future__ import annotations

import numpy as np
import pytest

from memory.vectorstore import InMemoryVectorStore, MilvusVectorStore, VectorRecord
from memory.vectorstore.exact_index import ExactUserIndex

DIM = 32


def unit_vectors(count: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).standard_normal((count, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def lite(tmp_path, **options) -> MilvusVectorStore:
    store = MilvusVectorStore(str(tmp_path / "vectors.db"), collection="exact", dimensions=DIM, **options)
    store.ensure_collection()
    return store


@pytest.fixture
def world(tmp_path):
    """User 1 owns 600 vectors; users 2 and 3 own copies of 200 of them each (a leak shows as a tie)."""
    vectors = unit_vectors(600, seed=3)
    records = [VectorRecord(i + 1, 1, vectors[i], ("fact", "goal")[i % 2]) for i in range(600)]
    records += [VectorRecord(1000 * user + i, user, vectors[i]) for user in (2, 3) for i in range(200)]
    store = lite(tmp_path)
    store.upsert(records)
    exact = InMemoryVectorStore(dimensions=DIM)
    exact.upsert(records)
    yield store, exact
    store.close()


def test_a_lite_store_keeps_an_exact_copy_and_a_server_store_does_not(tmp_path):
    store = MilvusVectorStore(str(tmp_path / "vectors.db"), dimensions=DIM)  # nothing opened yet
    assert store._exact is not None
    assert MilvusVectorStore("http://127.0.0.1:19530", dimensions=DIM)._exact is None


def test_the_copy_answers_exactly_what_brute_force_answers_and_only_for_the_user(world):
    store, exact = world
    assert store.warm_exact_index(1, timeout=60) and store.warm_exact_index(2, timeout=60)

    for seed, user in [(s, u) for s in range(20) for u in (1, 2)]:
        query = unit_vectors(1, seed=100 + seed)[0]
        got = store.search(user, query, top_k=10, statuses=["active"])
        want = exact.search(user, query, top_k=10, statuses=["active"])
        assert [hit.id for hit in got] == [hit.id for hit in want]
        assert [hit.score for hit in got] == pytest.approx([hit.score for hit in want], abs=1e-5)
        assert all((hit.id < 1000) == (user == 1) and (user == 1 or hit.id // 1000 == user) for hit in got)
    typed = store.search(1, unit_vectors(1, seed=7)[0], top_k=5, memory_types=["goal"])
    assert [hit.id for hit in typed] == [hit.id for hit in exact.search(1, unit_vectors(1, seed=7)[0], 5,
                                                                        memory_types=["goal"])]
    assert all(hit.id % 2 == 0 for hit in typed)


def test_the_first_search_is_answered_by_milvus_and_loads_the_copy_in_the_background(world):
    store, _exact = world
    query = unit_vectors(1, seed=5)[0]

    first = store.search(1, query, top_k=3)

    assert [hit.id for hit in first]  # Milvus answered while the copy loads
    assert store.warm_exact_index(1, timeout=60)
    assert store._exact is not None and store._exact.loads == 1 and store._exact.held_users() == [1]
    assert store.search(1, query, top_k=3)[0].id == first[0].id
    assert store._exact.loads == 1


def test_writes_after_the_load_show_at_once(world):
    store, exact = world
    assert store.warm_exact_index(1, timeout=60)
    target = unit_vectors(1, seed=42)[0]

    store.upsert([VectorRecord(5000, 1, target)])
    assert store.search(1, target, top_k=1)[0].id == 5000

    store.upsert([VectorRecord(5000, 1, -target)])  # the memory was edited: its vector moved away
    assert 5000 not in [hit.id for hit in store.search(1, target, top_k=10)]

    store.upsert([VectorRecord(7, 1, target)])
    store.delete([7])  # forgotten
    assert 7 not in [hit.id for hit in store.search(1, target, top_k=50)]
    exact.upsert([VectorRecord(5000, 1, -target)])
    assert [h.id for h in store.search(1, target, top_k=10)] == [h.id for h in exact.search(1, target, top_k=10)
                                                                if h.id != 7]


def test_forget_everything_empties_the_copy_and_other_users_keep_theirs(world):
    store, _exact = world
    assert store.warm_exact_index(1, timeout=60) and store.warm_exact_index(2, timeout=60)

    store.delete_user(1)

    assert store.search(1, unit_vectors(1, seed=9)[0], top_k=5) == []
    assert len(store.search(2, unit_vectors(1, seed=9)[0], top_k=5)) == 5


def test_a_record_moved_to_another_user_leaves_the_first_users_copy(world):
    store, _exact = world
    assert store.warm_exact_index(1, timeout=60) and store.warm_exact_index(2, timeout=60)
    target = unit_vectors(1, seed=11)[0]

    store.upsert([VectorRecord(3, 2, target)])

    assert 3 not in [hit.id for hit in store.search(1, target, top_k=20)]
    assert store.search(2, target, top_k=1)[0].id == 3


def test_a_closed_store_drops_its_copies_and_reloads_what_milvus_holds(world):
    store, _exact = world
    assert store.warm_exact_index(1, timeout=60)

    store.close()

    assert store._exact is not None and store._exact.held_users() == []
    assert store.warm_exact_index(1, timeout=60)


def test_a_load_that_a_write_overlapped_is_not_kept():
    index = ExactUserIndex(DIM, background=False)
    old, new = unit_vectors(2, seed=1)

    def loader_racing_a_write(user_id: int) -> list[VectorRecord]:
        read = [VectorRecord(1, user_id, old)]  # what the store held when the load read it
        with index.writing():  # ... and a write lands before the load is installed
            index.upserted([VectorRecord(1, user_id, new)])
        return read

    assert index.search(1, new, 1, types=None, statuses=None, loader=loader_racing_a_write) is None
    assert index.held_users() == []
    assert index.search(1, new, 1, types=None, statuses=None, loader=lambda user: [VectorRecord(1, user, new)])[0].id == 1


def test_a_user_with_more_vectors_than_the_copy_may_hold_is_searched_in_the_store(tmp_path):
    store = lite(tmp_path, exact_index_background=False)
    assert store._exact is not None
    store._exact.max_vectors = 50
    vectors = unit_vectors(80, seed=2)
    store.upsert([VectorRecord(i + 1, 1, vectors[i]) for i in range(60)] +
                 [VectorRecord(i + 100, 2, vectors[i]) for i in range(20)])

    assert store.search(1, vectors[0], top_k=1)[0].id == 1
    assert store.search(1, vectors[0], top_k=1)[0].id == 1
    assert store._exact.held_users() == [] and store._exact.loads == 1  # not loaded again and again
    assert store.search(2, vectors[0], top_k=1)[0].id == 100
    assert store._exact.held_users() == [2]
    store.close()


def test_copies_are_evicted_least_recently_searched_first():
    index = ExactUserIndex(DIM, max_vectors=10, background=False)
    vectors = unit_vectors(12, seed=4)

    def loader(user_id: int) -> list[VectorRecord]:
        return [VectorRecord(user_id * 100 + i, user_id, vectors[i]) for i in range(4)]

    for user in (1, 2, 1, 3):
        index.search(user, vectors[0], 1, types=None, statuses=None, loader=loader)

    assert index.held_users() == [1, 3]
