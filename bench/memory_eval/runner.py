"""Run the memory write and read paths over scripted dialogues and score the result.

Each dialogue gets a throwaway student. Every student message goes through the real read path
(``memory_recall``, to measure what the block adds to the prompt) and then the real write path
(an extraction job: the memory-stage LLM call over HTTP to the fake OpenAI server, decisions,
rows, vectors). The "model" is ``bench.memory_eval.scripted_model``: deterministic rules that read the
prompts, not the expected answers. The students, their rows and vectors are removed afterwards.

Scores (see ``dialogues.json`` for the expectations):

* precision: active memories at the end that match an expected one / all active memories;
* recall: expected memories (``remember`` and the new side of ``updated``) matched by an active one;
* update accuracy: ``updated`` whose old memory ended as history replaced by the new one, plus
  ``forgotten`` memories that were learned and then closed, over both;
* duplicate rate: active memories that repeat an expected memory or another memory's text / all active;
* tokens per turn: the memory block's estimated tokens in the prompt, and the memory LLM calls' tokens.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean

from django.test import override_settings

from accounts.models import User
from agent.models import Conversation, Message
from bench.fake_model import FakeLLMServer
from bench.memory_eval import scripted_model
from memory.core.dedup import normalize_text
from memory.models import MemoryItem, MemoryJob
from memory.recall import memory_recall
from memory.services.jobs import memory_job_run
from memory.vectorstore import (
    InMemoryVectorStore,
    MilvusVectorStore,
    VectorStore,
    is_lite_uri,
    set_vector_store_for_tests,
)
from smartmate.llm import ClientSettings, OpenAICompatibleClient, set_llm_client_for_tests

DIALOGUES = Path(__file__).with_name("dialogues.json")


@dataclass
class DialogueResult:
    id: str
    turns: int
    active: list[str]
    expected: int
    recalled: int
    precise: int
    updates_ok: int
    updates: int
    duplicates: int
    block_tokens: list[int]
    llm_tokens: int
    problems: list[str] = field(default_factory=list)


@dataclass
class Report:
    results: list[DialogueResult]

    def _sum(self, name: str) -> int:
        return sum(getattr(result, name) for result in self.results)

    @property
    def turns(self) -> int:
        return self._sum("turns")

    @property
    def precision(self) -> float:
        active = sum(len(result.active) for result in self.results)
        return self._sum("precise") / active if active else 1.0

    @property
    def recall(self) -> float:
        return self._sum("recalled") / max(1, self._sum("expected"))

    @property
    def update_accuracy(self) -> float:
        return self._sum("updates_ok") / max(1, self._sum("updates"))

    @property
    def duplicate_rate(self) -> float:
        active = sum(len(result.active) for result in self.results)
        return self._sum("duplicates") / active if active else 0.0

    @property
    def block_tokens_per_turn(self) -> float:
        return mean(t for result in self.results for t in result.block_tokens)

    @property
    def llm_tokens_per_turn(self) -> float:
        return self._sum("llm_tokens") / max(1, self.turns)

    def lines(self) -> list[str]:
        active = sum(len(result.active) for result in self.results)
        return [
            f"dialogues {len(self.results)}, turns {self.turns}, active memories at the end {active}",
            f"precision        {self.precision:.3f}",
            f"recall           {self.recall:.3f}  ({self._sum('recalled')}/{self._sum('expected')})",
            f"update accuracy  {self.update_accuracy:.3f}  ({self._sum('updates_ok')}/{self._sum('updates')})",
            f"duplicate rate   {self.duplicate_rate:.3f}  ({self._sum('duplicates')} duplicates)",
            f"tokens per turn  memory block in the prompt {self.block_tokens_per_turn:.1f}; "
            f"memory LLM calls {self.llm_tokens_per_turn:.1f}",
        ]


def run_eval(*, path: Path = DIALOGUES, milvus: bool = False, log: Callable[[str], None] = lambda line: None) -> Report:
    """Run every dialogue through the memory paths with the scripted model; return the scores."""
    dialogues = json.loads(path.read_text(encoding="utf-8"))["dialogues"]
    with scripted_memory_world(responder=scripted_model.responder, milvus=milvus) as store, \
            override_settings(MEMORY_ENABLED=True):
        results = [_run_dialogue(dialogue, store, log) for dialogue in dialogues]
    return Report(results)


@contextmanager
def scripted_memory_world(*, responder: Callable, milvus: bool) -> Iterator[VectorStore]:
    """A fake model answering by ``responder`` and a fresh vector store (with ``milvus``, a new collection
    on the Milvus server ``MILVUS_URI`` names, else Milvus Lite in a temporary folder; without, in memory),
    installed for the memory paths; everything is taken down afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="memory-eval-"))
    store = _eval_store(folder) if milvus else InMemoryVectorStore()
    server = FakeLLMServer(models=("scripted-memory",)).start()
    server.set_responder(responder)
    client = OpenAICompatibleClient(ClientSettings.build(base_url=server.base_url, api_key="eval",
                                                         default_model="scripted-memory", max_retries=0))
    set_llm_client_for_tests(client)
    set_vector_store_for_tests(store)
    try:
        yield store
    finally:
        set_llm_client_for_tests(None)
        set_vector_store_for_tests(None)
        server.stop()
        if isinstance(store, MilvusVectorStore) and not store.lite:
            store.drop_collection()  # a server outlives the run: leave nothing on it
        store.close()
        shutil.rmtree(folder, ignore_errors=True)


def _eval_store(folder: Path) -> VectorStore:
    from django.conf import settings

    from memory.vectorstore.provider import IN_MEMORY_URIS

    uri = settings.MILVUS_URI.strip()
    if uri.lower() in IN_MEMORY_URIS or is_lite_uri(uri):
        return MilvusVectorStore(str(folder / "eval.db"), collection="memory_eval")
    return MilvusVectorStore(uri, token=settings.MILVUS_TOKEN or "", collection=f"memory_eval_{uuid.uuid4().hex}",
                             dimensions=settings.EMBEDDINGS_DIMENSIONS)


def _run_dialogue(dialogue: dict, store: VectorStore, log: Callable[[str], None]) -> DialogueResult:
    user = User.objects.create_user(username=f"memory-eval-{uuid.uuid4().hex[:12]}")
    block_tokens, llm_tokens, turns = [], 0, 0
    try:
        for session in dialogue["sessions"]:
            conversation = Conversation.objects.create(user=user)
            for text in session:
                block_tokens.append(memory_recall(user=user, query=text, use_cache=False).tokens)
                job = _turn(user, conversation, text)
                llm_tokens += int(job.result.get("tokens", 0))
                turns += 1
                if job.status != MemoryJob.Status.SUCCEEDED:
                    log(f"{dialogue['id']}: job {job.status}: {job.last_error or job.result}")
        result = _score(dialogue, user, turns, block_tokens, llm_tokens)
    finally:
        store.delete_user(user.pk)
        MemoryItem.objects.filter(user=user).update(superseded_by=None)
        user.delete()
    for problem in result.problems:
        log(f"{dialogue['id']}: {problem}")
    return result


def _turn(user: User, conversation: Conversation, text: str) -> MemoryJob:
    question = Message.objects.create(conversation=conversation, role=Message.Role.USER, content=text)
    answer = Message.objects.create(conversation=conversation, role=Message.Role.ASSISTANT, content="好的。")
    job = MemoryJob.objects.create(user=user, conversation_id=conversation.pk, user_message=question,
                                   assistant_message=answer)
    memory_job_run(job_id=job.pk)
    job.refresh_from_db()
    return job


def matches(content: str, keywords: list[str]) -> bool:
    text = normalize_text(content)
    return all(normalize_text(keyword) in text for keyword in keywords)


def _score(dialogue: dict, user: User, turns: int, block_tokens: list[int], llm_tokens: int) -> DialogueResult:
    rows = list(MemoryItem.objects.filter(user=user).select_related("superseded_by"))
    active = [row.content for row in rows if row.status == MemoryItem.Status.ACTIVE]
    closed = [row for row in rows if row.status != MemoryItem.Status.ACTIVE]
    expected = [*dialogue["remember"], *(update["new"] for update in dialogue["updated"])]
    problems = []
    recalled = 0
    for keywords in expected:
        if any(matches(content, keywords) for content in active):
            recalled += 1
        else:
            problems.append(f"missed {keywords}; active: {active}")
    precise = sum(1 for content in active if any(matches(content, keywords) for keywords in expected))
    problems += [f"not expected: {content!r}" for content in active
                 if not any(matches(content, keywords) for keywords in expected)]
    updates_ok = 0
    for update in dialogue["updated"]:
        replaced = any(matches(row.content, update["old"]) and row.superseded_by is not None
                       and row.superseded_by.status == MemoryItem.Status.ACTIVE
                       and matches(row.superseded_by.content, update["new"]) for row in closed)
        still = any(matches(content, update["old"]) and not matches(content, update["new"]) for content in active)
        updates_ok += replaced and not still
        if not replaced or still:
            problems.append(f"update {update} not applied")
    for keywords in dialogue["forgotten"]:
        ok = any(matches(row.content, keywords) for row in closed) and not any(
            matches(content, keywords) for content in active)
        updates_ok += ok
        if not ok:
            problems.append(f"forget {keywords} not applied")
    duplicates = sum(max(0, sum(matches(c, k) for c in active) - 1) for k in expected)
    duplicates += len(active) - len({normalize_text(content) for content in active})
    return DialogueResult(id=dialogue["id"], turns=turns, active=active, expected=len(expected), recalled=recalled,
                          precise=precise, updates_ok=updates_ok,
                          updates=len(dialogue["updated"]) + len(dialogue["forgotten"]), duplicates=duplicates,
                          block_tokens=block_tokens, llm_tokens=llm_tokens, problems=problems)
