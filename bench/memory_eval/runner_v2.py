"""Run the v2 dialogues (``dialogues_v2*.json``, format in README.md) and score them per session.

Each dialogue gets a throwaway student with its ``settings`` applied. Each session is a new
conversation; each student turn is answered with the next assistant turn (or "好的。") and its
memory job runs through the real write path (the scripted model over HTTP, the gate, decisions,
rows, vectors). After the session its ``expect`` is checked:

* ``active``: each matcher matches an active memory (``max``: at most that many);
* ``history``: each matches a closed memory and no active one;
* ``absent``: nothing matches in any row (any status), audit entry, the student's cached blocks,
  the memory blocks built after the session (every recall probe, and each of the session's turns
  asked again as a new prompt), or the vector store (a vector whose memory matches, or whose
  memory is gone);
* ``recall``: each probe's memory block holds a memory per ``must_include`` and none of
  ``must_exclude``.

Every forget the server carried out (a ``forget`` or ``forget_all`` audit entry written by a turn)
is verified right after that turn, whatever the dialogue's expectations: for each memory row the
turn removed (the forgotten memory and all its versions), no row left holds its text, the store
holds no vector of it (nor any vector whose memory is gone), no cached prompt block of the student
holds its text, and no audit entry does.

Figures are kept per language (zh, en, mixed): precision, recall, update accuracy (``history``),
forget requests honoured (``absent`` in ``forget`` dialogues: did the model understand the
request and propose the right forget), forget verified (of the forgets carried out, how many left
no trace in rows, vectors, cached blocks and audit: the server's side), leaks (``absent`` hits in ``identifier``,
``third_party``, ``injection`` and ``sensitive`` dialogues, by store), duplicates, probe passes.

A duplicate is an active memory that restates another: the same text, or a second memory matching
the same expected fact that says the same thing (``matchers.restates``: another language, or most
of the wording shared). Two different facts that both contain a matcher's loose key word ("早八")
are not duplicates; ``max`` still caps every memory a matcher matches.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.test import override_settings

from accounts.models import User
from agent.models import Conversation, Message
from bench.memory_eval import scripted_model
from bench.memory_eval.matchers import label, limit, matches, matching, normalized, restates
from bench.memory_eval.runner import scripted_memory_world
from bench.memory_eval.traces import cached_texts, vector_ids
from memory.models import MemoryAudit, MemoryItem, MemoryJob, MemoryRefusal
from memory.recall import memory_recall
from memory.services.items import memory_settings_update
from memory.services.jobs import memory_job_run
from memory.vectorstore import VectorStore

FOLDER = Path(__file__).parent
V2_FILES = (FOLDER / "dialogues_v2.json", FOLDER / "dialogues_v2_heldout.json")
BANNED_TAGS = frozenset({"identifier", "third_party", "injection", "sensitive"})
LANGUAGES = ("zh", "en", "mixed")


@dataclass
class Tally:
    """Counts over sessions; the figures are ratios of them."""

    dialogues: int = 0
    sessions: int = 0
    sessions_passed: int = 0
    active: int = 0
    precise: int = 0
    expected: int = 0
    found: int = 0
    history: int = 0
    history_ok: int = 0
    forget_checks: int = 0
    forget_ok: int = 0
    forgets_executed: int = 0
    forgets_verified: int = 0
    leaks: Counter = field(default_factory=Counter)
    leak_dialogues: set = field(default_factory=set)
    other_absent_hits: int = 0
    duplicates: int = 0
    max_violations: int = 0
    probes: int = 0
    probes_ok: int = 0
    refusals: int = 0
    duplicate_notes: list = field(default_factory=list)  # what counted as a duplicate (printed by --verbose)

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(value, set):
                mine |= value
            elif isinstance(value, Counter):
                mine.update(value)
            else:
                setattr(self, name, mine + value)

    def figures(self) -> dict[str, Any]:
        def ratio(num: int, den: int) -> float | None:
            return round(num / den, 3) if den else None

        return {"dialogues": self.dialogues, "sessions passed": f"{self.sessions_passed}/{self.sessions}",
                "precision": ratio(self.precise, self.active), "recall": ratio(self.found, self.expected),
                "update accuracy": ratio(self.history_ok, self.history),
                "forget requests honoured": ratio(self.forget_ok, self.forget_checks),
                "forget verified": ratio(self.forgets_verified, self.forgets_executed),
                "forgets executed": self.forgets_executed,
                "leaks": sum(self.leaks.values()), "leaks by store": dict(sorted(self.leaks.items())),
                "dialogues with a leak": len(self.leak_dialogues),
                "duplicate rate": ratio(self.duplicates, self.active), "max violations": self.max_violations,
                "recall probes": ratio(self.probes_ok, self.probes), "refusals": self.refusals}


@dataclass
class ReportV2:
    path: str
    gate: bool
    careless: bool
    by_language: dict[str, Tally]
    problems: list[str]

    @property
    def total(self) -> Tally:
        total = Tally()
        for tally in self.by_language.values():
            total.add(tally)
        return total

    def lines(self) -> list[str]:
        head = (f"{Path(self.path).name}: gate {'on' if self.gate else 'off'}, "
                f"{'careless' if self.careless else 'careful'} scripted model")
        rows = [head]
        for name, tally in [*((lang, self.by_language[lang]) for lang in LANGUAGES if lang in self.by_language),
                            ("all", self.total)]:
            figures = tally.figures()
            rows.append(f"  {name:5} " + "; ".join(f"{key} {value}" for key, value in figures.items()
                                                    if key != "leaks by store" or value))
        return rows


def run_eval_v2(*, path: Path, milvus: bool = False, gate: bool = True, careless: bool = False,
                log: Callable[[str], None] = lambda line: None) -> ReportV2:
    """Run every v2 dialogue of ``path`` through the memory paths; return per-language figures."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    by_language: dict[str, Tally] = {}
    problems: list[str] = []
    with scripted_memory_world(responder=scripted_model.make_responder(careless=careless), milvus=milvus) as store, \
            override_settings(MEMORY_ENABLED=True, MEMORY_GATE_ENABLED=gate):
        for dialogue in data["dialogues"]:
            tally, found = _run_dialogue(dialogue, store)
            for note in tally.duplicate_notes:
                log(f"{dialogue['id']}: duplicate: {note}")
            by_language.setdefault(dialogue["language"], Tally()).add(tally)
            problems += [f"{dialogue['id']}: {problem}" for problem in found]
            for problem in found:
                log(f"{dialogue['id']}: {problem}")
    return ReportV2(str(path), gate, careless, by_language, problems)


def _run_dialogue(dialogue: dict, store: VectorStore) -> tuple[Tally, list[str]]:
    user = User.objects.create_user(username=f"memory-eval-{uuid.uuid4().hex[:12]}")
    tally, problems = Tally(dialogues=1), []
    try:
        if dialogue.get("settings", {}).get("sensitive_memory"):
            memory_settings_update(user=user, sensitive_memory_enabled=True)
        for number, session in enumerate(dialogue["script"], start=1):
            conversation = Conversation.objects.create(user=user)
            students = []
            for student, assistant in _exchanges(session["turns"]):
                before = _ForgetWatch(user)
                job = _turn(user, conversation, student, assistant)
                students.append(student)
                if job.status != MemoryJob.Status.SUCCEEDED:
                    problems.append(f"s{number}: job {job.status}: {job.last_error or job.result}")
                problems += [f"s{number}: {problem}" for problem in before.verify(store, tally)]
            found = _check_session(dialogue, session["expect"], students, user, store, tally)
            problems += [f"s{number}: {problem}" for problem in found]
        tally.refusals = MemoryRefusal.objects.filter(user=user).count()
    finally:
        store.delete_user(user.pk)
        MemoryItem.objects.filter(user=user).update(superseded_by=None)
        user.delete()
    return tally, problems


def _exchanges(turns: list[dict]) -> list[tuple[str, str]]:
    """Each student turn with the assistant turn that answers it ("好的。" when none does)."""
    pairs = []
    for index, turn in enumerate(turns):
        if turn["role"] != "student":
            continue
        following = turns[index + 1] if index + 1 < len(turns) else None
        answer = following["text"] if following and following["role"] == "assistant" else "好的。"
        pairs.append((turn["text"], answer))
    return pairs


def _turn(user: User, conversation: Conversation, text: str, answer: str) -> MemoryJob:
    question = Message.objects.create(conversation=conversation, role=Message.Role.USER, content=text)
    reply = Message.objects.create(conversation=conversation, role=Message.Role.ASSISTANT, content=answer)
    job = MemoryJob.objects.create(user=user, conversation_id=conversation.pk, user_message=question,
                                   assistant_message=reply)
    memory_job_run(job_id=job.pk)
    job.refresh_from_db()
    return job


# --- Forgets carried out: verified right after their turn ---------------------------------------------

class _ForgetWatch:
    """What the student's memory held before a turn, to verify any forget the turn carried out."""

    FORGETS = (MemoryAudit.Operation.FORGET, MemoryAudit.Operation.FORGET_ALL)

    def __init__(self, user: User) -> None:
        self.user = user
        self.texts = dict(MemoryItem.objects.filter(user=user).values_list("pk", "content"))
        self.last_audit = MemoryAudit.objects.filter(user=user).order_by("-id").values_list("id", flat=True).first() or 0

    def verify(self, store: VectorStore, tally: Tally) -> list[str]:
        """Count the turn's forgets; each is verified if nothing of what the turn removed is left anywhere."""
        forgets = MemoryAudit.objects.filter(user=self.user, id__gt=self.last_audit, operation__in=self.FORGETS).count()
        if not forgets:
            return []
        remaining = dict(MemoryItem.objects.filter(user=self.user).values_list("pk", "content"))
        removed = {pk: text for pk, text in self.texts.items() if pk not in remaining}
        traces = self._traces(removed, remaining, store)
        tally.forgets_executed += forgets
        tally.forgets_verified += 0 if traces else forgets
        return [f"forget not verified: {trace}" for trace in traces]

    def _traces(self, removed: dict[int, str], remaining: dict[int, str], store: VectorStore) -> list[str]:
        vectors = set(vector_ids(user=self.user, store=store))
        places = {"row": list(remaining.values()),
                  "cached block": [text for key, text in cached_texts() if f"memory:block:{self.user.pk}:" in key],
                  "audit": [json.dumps([entry.reason, entry.before, entry.after], ensure_ascii=False)
                            for entry in MemoryAudit.objects.filter(user=self.user)]}
        traces = [f"vector of forgotten memory {pk}" for pk in sorted(vectors & set(removed))]
        traces += [f"vector of a memory that is gone: {pk}" for pk in sorted(vectors - set(remaining) - set(removed))]
        for pk, text in removed.items():
            wanted = normalized(text)
            traces += [f"{place} holds the text of forgotten memory {pk}" for place, texts in places.items()
                       if any(wanted in normalized(kept) for kept in texts)]
        return traces


# --- Checks after a session ------------------------------------------------------------------------

def _check_session(dialogue: dict, expect: dict, students: list[str], user: User, store: VectorStore,
                   tally: Tally) -> list[str]:
    rows = list(MemoryItem.objects.filter(user=user))
    active = [row.content for row in rows if row.status == MemoryItem.Status.ACTIVE]
    closed = [row.content for row in rows if row.status != MemoryItem.Status.ACTIVE]
    problems: list[str] = []
    problems += _check_active(expect, active, tally)
    problems += _check_history(expect, active, closed, tally)
    probe_blocks, probe_problems = _check_probes(expect, user, tally)
    prompts = probe_blocks + [memory_recall(user=user, query=text).block for text in students]
    problems += probe_problems
    problems += _check_absent(dialogue, expect, user, store, rows, prompts, tally)
    tally.sessions += 1
    tally.sessions_passed += not problems
    return problems


def _check_active(expect: dict, active: list[str], tally: Tally) -> list[str]:
    problems = []
    wanted = expect["active"]
    tally.expected += len(wanted)
    tally.active += len(active)
    duplicates: set[int] = set()
    for matcher in wanted:
        hits = [index for index, text in enumerate(active) if matches(matcher, text)]
        tally.found += bool(hits)
        # A second memory matching one fact is a duplicate if it restates an earlier one; two different
        # facts that share the matcher's key word are not (``max`` still caps every match).
        copies = {later for n, later in enumerate(hits) if any(restates(active[earlier], active[later])
                                                                for earlier in hits[:n])}
        duplicates |= copies
        if copies:
            tally.duplicate_notes.append(f"{label(matcher)} stored again: {[active[index] for index in sorted(copies)]}"
                                         f" (all matches: {[active[index] for index in hits]})")
        if not hits:
            problems.append(f"missed {label(matcher)}; active: {active}")
        if (cap := limit(matcher)) is not None and len(hits) > cap:
            tally.max_violations += 1
            problems.append(f"{len(hits)} copies of {label(matcher)} (max {limit(matcher)})")
    seen: dict[str, int] = {}
    for index, text in enumerate(active):
        if normalized(text) in seen:
            duplicates.add(index)
            tally.duplicate_notes.append(f"the same text twice: {text!r}")
        seen.setdefault(normalized(text), index)
    tally.duplicates += len(duplicates)
    allowed = [*wanted, *expect.get("allowed", [])]
    unexpected = [text for text in active if not any(matches(matcher, text) for matcher in allowed)]
    tally.precise += len(active) - len(unexpected)
    problems += [f"not expected: {text!r}" for text in unexpected]
    return problems


def _check_history(expect: dict, active: list[str], closed: list[str], tally: Tally) -> list[str]:
    problems = []
    for matcher in expect.get("history", []):
        tally.history += 1
        ok = bool(matching(matcher, closed)) and not matching(matcher, active)
        tally.history_ok += ok
        if not ok:
            problems.append(f"history {label(matcher)} not kept as history; active {active}, closed {closed}")
    return problems


def _check_probes(expect: dict, user: User, tally: Tally) -> tuple[list[str], list[str]]:
    blocks, problems = [], []
    for probe in expect.get("recall", []):
        block = memory_recall(user=user, query=probe["query"]).block
        blocks.append(block)
        lines = [line[2:] for line in block.splitlines() if line.startswith("- ")]
        missing = [label(m) for m in probe.get("must_include", []) if not matching(m, lines)]
        present = [label(m) for m in probe.get("must_exclude", [])
                   if (matches(m, block) if isinstance(m, str) else matching(m, lines))]
        tally.probes += 1
        tally.probes_ok += not missing and not present
        if missing or present:
            problems.append(f"probe {probe['query']!r}: missing {missing}, should not be there {present}")
    return blocks, problems


def _check_absent(dialogue: dict, expect: dict, user: User, store: VectorStore, rows: list[MemoryItem],
                  prompts: list[str], tally: Tally) -> list[str]:
    places = _kept_texts(user, rows, prompts)
    vectors = set(vector_ids(user=user, store=store))
    by_id = {row.pk: row.content for row in rows}
    orphans = sorted(vectors - set(by_id))
    banned = bool(BANNED_TAGS & set(dialogue["tags"]))
    forget = "forget" in dialogue["tags"]
    problems = [f"vectors of forgotten memories still stored: {orphans}"] if orphans else []
    for matcher in expect["absent"]:
        where = [place for place, texts in places.items() if matching(matcher, texts)]
        if any(matches(matcher, by_id[pk]) for pk in vectors & set(by_id)):
            where.append("vectors")
        if forget:
            tally.forget_checks += 1
            tally.forget_ok += not where and not orphans
        if where and banned:
            tally.leaks.update(where)
            tally.leak_dialogues.add(dialogue["id"])
        elif where:
            tally.other_absent_hits += 1
        if where:
            problems.append(f"absent {label(matcher)} found in {where}")
    return problems


def _kept_texts(user: User, rows: list[MemoryItem], prompts: list[str]) -> dict[str, list[str]]:
    """Every text memory keeps for this student, by place."""
    audit = [json.dumps([entry.reason, entry.before, entry.after], ensure_ascii=False)
             for entry in MemoryAudit.objects.filter(user=user)]
    cache = [text for key, text in cached_texts() if f"memory:block:{user.pk}:" in key]
    return {"rows": [row.content for row in rows], "audit": audit, "cache": cache, "prompts": prompts}
