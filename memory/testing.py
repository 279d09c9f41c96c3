"""Pytest fixtures for memory, registered for every app by the root conftest.

- ``_memory_isolated`` (autouse): every test gets a fresh in-memory vector store (never the shared
  ``var/milvus.db``, which one process at a time may open), and memory is switched off, so turns
  driven by other apps' tests neither call the scripted model for extraction nor read memories.
- ``memory_on``: switch memory on for a test (extraction after turns, recall into prompts).
- ``milvus_lite``: a Milvus Lite store in a temporary folder of this test process, emptied after
  each test, used as the process's vector store (Milvus Lite allows one process per file).
- ``milvus_server``: a collection of this test session on the Milvus server ``MILVUS_URI`` names
  (CI's Milvus pass: ``MILVUS_URI=http://127.0.0.1:PORT``), emptied after each test.
- ``MILVUS_BACKENDS``: the Milvus fixtures store-parametrized tests run on: the server when
  ``MILVUS_URI`` names one, else Milvus Lite (passes without a server).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

# Child servers of page tests (daphne) inherit the environment: keep them off the shared
# var/milvus.db too (one process per Milvus Lite file), unless a store was chosen explicitly.
os.environ.setdefault("MILVUS_URI", "memory://")


def milvus_server_uri() -> str | None:
    """The Milvus server this test run was given (``MILVUS_URI=http://...``), or None."""
    from memory.vectorstore.milvus import is_lite_uri
    from memory.vectorstore.provider import IN_MEMORY_URIS

    uri = os.environ["MILVUS_URI"].strip()
    return None if uri.lower() in IN_MEMORY_URIS or is_lite_uri(uri) else uri


MILVUS_BACKENDS = ["milvus_server"] if milvus_server_uri() else ["milvus_lite"]


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
    yield from _as_the_vector_store(_milvus_lite_session)


@pytest.fixture(scope="session")
def _milvus_server_session():
    from memory.vectorstore import MilvusVectorStore

    uri = milvus_server_uri()
    if uri is None:
        pytest.skip("no Milvus server: set MILVUS_URI=http://127.0.0.1:PORT (python -m memory.vectorstore.milvus_server)")
    # One collection per test process: xdist workers and other runs may share the server.
    store = MilvusVectorStore(uri, collection=f"memory_tests_{os.getpid()}", dimensions=384)
    yield store
    store.drop_collection()
    store.close()


@pytest.fixture
def milvus_server(_milvus_server_session) -> Iterator[object]:
    """Make this session's collection on the Milvus server this test's vector store; empty it afterwards
    (kept, not dropped: a server takes about 2 s to load a new collection)."""
    store = _milvus_server_session
    yield from _as_the_vector_store(store, empty=store.delete_everything)


def _as_the_vector_store(store, empty=None) -> Iterator[object]:
    from memory.vectorstore import set_vector_store_for_tests

    store.ensure_collection()
    set_vector_store_for_tests(store)
    yield store
    set_vector_store_for_tests(None)
    (empty or store.drop_collection)()  # through the store, so its exact in-process copies go too
