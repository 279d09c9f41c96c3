"""A web-like process for cross-process memory tests: Django set up on the test database, reading one
JSON command a line on stdin and answering one JSON line on stdout.

    {"op": "recall", "user_id": 1, "query": "..."}   -> {"pid", "block", "outcome", "hits": [ids]}
    {"op": "forget", "user_id": 1, "memory_id": 5}   -> {"pid", "forgotten": [ids]}

``hits`` are the ids the process's own vector store returns for the query, before recall drops rows that
are no longer active in the database: they show whether this process's store is stale.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smartmate.settings")
    django.setup()
    from smartmate.warmup import warm_up

    warm_up()  # as a web process does on start: a cold embedder would spend recall's whole time budget
    print(json.dumps({"pid": os.getpid(), "ready": True}), flush=True)
    for line in sys.stdin:
        print(json.dumps(_answer(json.loads(line))), flush=True)


def _answer(command: dict) -> dict:
    from django.conf import settings

    from accounts.models import User
    from memory.recall import memory_recall, query_vector
    from memory.services.items import memory_forget
    from memory.vectorstore import get_vector_store

    user = User.objects.get(pk=command["user_id"])
    if command["op"] == "forget":
        return {"pid": os.getpid(), "forgotten": memory_forget(user=user, memory_id=command["memory_id"])}
    recall = memory_recall(user=user, query=command["query"])
    hits = get_vector_store().search(user.pk, query_vector(command["query"]), top_k=settings.MEMORY_RECALL_TOP_K,
                                     statuses=["active"])
    return {"pid": os.getpid(), "block": recall.block, "outcome": recall.outcome, "hits": [hit.id for hit in hits]}


if __name__ == "__main__":
    main()
