"""Vector storage for memories: one interface, a Milvus implementation and an in-memory one.

Importing this package is cheap: pymilvus loads only when a Milvus store is first used.

    from memory.vectorstore import VectorRecord, get_vector_store
    store = get_vector_store()
    store.upsert([VectorRecord(id=memory.id, user_id=user.id, vector=v, memory_type="fact")])
    hits = store.search(user.id, query_vector, top_k=8, statuses=["active"])
"""

from memory.vectorstore.base import (
    Hit,
    VectorRecord,
    VectorStore,
    VectorStoreError,
    VectorStoreLockedError,
)
from memory.vectorstore.memory import InMemoryVectorStore
from memory.vectorstore.milvus import MilvusVectorStore, is_lite_uri
from memory.vectorstore.provider import (
    build_vector_store,
    close_vector_store,
    get_vector_store,
    set_vector_store_for_tests,
)

__all__ = [
    "Hit",
    "InMemoryVectorStore",
    "MilvusVectorStore",
    "VectorRecord",
    "VectorStore",
    "VectorStoreError",
    "VectorStoreLockedError",
    "build_vector_store",
    "close_vector_store",
    "get_vector_store",
    "is_lite_uri",
    "set_vector_store_for_tests",
]
