"""Pytest fixtures for memory, registered for every app by the root conftest.

- ``_memory_isolated`` (autouse): every test gets a fresh in-memory vector store (never the shared
  ``var/milvus.db``, which one process at a time may open), and memory is switched off, so turns
  driven by other apps' tests neither call the scripted model for extraction nor read memories.
- ``memory_on``: switch memory on for a test (extraction after turns, recall into prompts).
- ``milvus_lite``: a Milvus Lite store in a temporary folder of this test process, emptied after
  each test, used as the process's vector store (Milvus Lite allows one process per file).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

# Child servers of page tests (daphne) inherit the environment: keep them off the shared
# var/milvus.db too (one process per Milvus Lite file), unless a store was chosen explicitly.
os.environ.setdefault("MILVUS_URI", "memory://")


def _django_active(request: pytest.FixtureRequest) -> bool:
    return request.config.pluginmanager.hasplugin("django")


@pytest.fixture(autouse=True)
def _memory_isolated(request: pytest.FixtureRequest) -> Iterator[None]:
    if not _django_active(request):
        yield
        return
    from memory.vectorstore import InMemoryVectorStore, set_vector_store_for_tests

    settings = request.getfixturevalue("settings")
    settings.MEMORY_ENABLED = "memory_on" in request.fixturenames
    set_vector_store_for_tests(InMemoryVectorStore(dimensions=settings.EMBEDDINGS_DIMENSIONS))
    yield
    set_vector_store_for_tests(None)


@pytest.fixture
def memory_on(settings) -> None:
    """Memory on: finished turns are extracted and prompts get the memory block."""
    settings.MEMORY_ENABLED = True


@pytest.fixture(scope="session")
def _milvus_lite_session(tmp_path_factory):
    from memory.vectorstore import MilvusVectorStore

    # The exact in-process copy loads inline, so each search is answered by it deterministically (the
    # contract suite covers Milvus answering by itself).
    store = MilvusVectorStore(str(tmp_path_factory.mktemp("milvus") / "memory.db"), collection="memory_tests",
                              dimensions=384, exact_index_background=False)
    yield store
    store.close()


@pytest.fixture
def milvus_lite(_milvus_lite_session) -> Iterator[object]:
    """Make a Milvus Lite store this test's vector store; drop its collection afterwards."""
    from memory.vectorstore import set_vector_store_for_tests

    store = _milvus_lite_session
    store.ensure_collection()
    set_vector_store_for_tests(store)
    yield store
    set_vector_store_for_tests(None)
    store.drop_collection()  # through the store, so its exact in-process copies go too
