"""The fake server's responder hook, the rule-based scripted model, and the evaluation command."""

from __future__ import annotations

import json

import pytest

from bench.fake_model import FakeLLMServer, Reply
from bench.memory_eval.__main__ import arguments, report_lines
from bench.memory_eval.runner import DIALOGUES, run_eval
from bench.memory_eval.scripted_model import decide, extract, responder
from memory.embeddings import get_embedder
from memory.prompts import render
from memory.services.vectors import memory_vectors_sync
from memory.testing import milvus_server_uri
from memory.tests.factories import make_memory
from memory.vectorstore import get_vector_store
from smartmate.llm import ChatMessage, get_llm_client


def test_a_responder_answers_first_and_the_script_answers_what_it_leaves(fake_llm):
    fake_llm.set_responder(lambda request: Reply(text="规则") if request.messages[0]["content"] == "r" else None)
    fake_llm.script("脚本")
    client = get_llm_client()

    first = client.complete("title", [ChatMessage.system("s"), ChatMessage.user("x")]).text
    second = client.complete("title", [ChatMessage.system("r"), ChatMessage.user("x")]).text

    assert (first, second) == ("脚本", "规则")
    assert len(fake_llm.requests) == 2 and fake_llm.pending == 0


def test_reset_forgets_the_responder():
    server = FakeLLMServer()
    server.set_responder(lambda request: Reply(text="x"))
    server.reset()
    assert server._state.responder is None


def test_the_scripted_extractor_reads_the_students_sentence():
    assert extract("我周三晚上要上实验课，而且我更喜欢早上学数学") == [
        {"type": "constraint", "content": "周三晚上要上实验课", "importance": 0.8, "confidence": 0.9,
         "category": "ordinary"},
        {"type": "preference", "content": "更喜欢早上学数学", "importance": 0.6, "confidence": 0.9,
         "category": "ordinary"}]


@pytest.mark.parametrize("text", ["你好", "帮我安排下周的复习", "明天几点上课？", "我室友每天早上六点起床", "好的"])
def test_the_scripted_extractor_ignores_small_talk_requests_and_other_people(text):
    assert extract(text) == []


def test_a_hedged_clause_gets_a_confidence_below_the_threshold():
    assert extract("我可能下学期考研吧")[0]["confidence"] < 0.6


def test_the_scripted_decider_compares_topics_not_answers():
    existing = [{"ref": "m1", "type": "preference", "content": "更喜欢早上学数学"},
                {"ref": "m2", "type": "constraint", "content": "周三晚上要上实验课"}]
    new = [{"ref": "f1", "content": "晚上学数学"}, {"ref": "f2", "content": "不再上实验课"},
           {"ref": "f3", "content": "比较喜欢早上学数学"}, {"ref": "f4", "content": "对花生过敏"}]

    actions = [(d["new"], d["action"], d.get("target")) for d in decide({"existing": existing, "new": new})]

    assert actions == [("f1", "UPDATE", "m1"), ("f2", "INVALIDATE", "m2"), ("f3", "NONE", "m1"), ("f4", "ADD", None)]


def test_the_responder_only_answers_memory_prompts():
    from bench.fake_model import RecordedRequest

    extraction = RecordedRequest(path="/v1/chat/completions", body={"messages": [
        {"role": "system", "content": render("extract", max_facts=3)},
        {"role": "user", "content": "## 学生的消息\n我对花生过敏\n\n## 助手的回答（仅作上下文）\n我周三有课"}]})
    other = RecordedRequest(path="/v1/chat/completions", body={"messages": [{"role": "system", "content": "你是"}]})

    assert json.loads(responder(extraction).text)["facts"][0]["content"] == "对花生过敏"
    assert responder(other) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("milvus", [False, *([True] if milvus_server_uri() else [])])  # True: CI's Milvus pass
def test_the_evaluation_scores_dialogues_through_the_real_paths(tmp_path, milvus):
    dialogues = json.loads(DIALOGUES.read_text(encoding="utf-8"))["dialogues"]
    assert len(dialogues) >= 30
    subset = tmp_path / "three.json"
    subset.write_text(json.dumps({"dialogues": [d for d in dialogues if d["id"] in ("d01", "d05", "d15")]}))

    report = run_eval(path=subset, milvus=milvus)

    by_id = {result.id: result for result in report.results}
    assert sorted(by_id["d01"].active) == ["周三晚上要上实验课", "晚上学数学"]
    assert (by_id["d05"].active, by_id["d05"].updates_ok) == ([], 1)
    assert by_id["d15"].active == [] and report.turns == 8
    assert report.block_tokens_per_turn > 0 and report.llm_tokens_per_turn > 0


@pytest.mark.django_db(transaction=True)
def test_the_runner_prints_the_figures(tmp_path):
    subset = tmp_path / "one.json"
    subset.write_text(json.dumps({"dialogues": json.loads(DIALOGUES.read_text(encoding="utf-8"))["dialogues"][:1]}))

    out = "\n".join(report_lines(arguments(["--dialogues", str(subset)]), log=lambda line: None))

    for figure in ("precision", "recall", "update accuracy", "duplicate rate", "tokens per turn"):
        assert figure in out


V2_DIALOGUE = {
    "id": "v2-x01", "language": "zh", "tags": ["identifier", "forget"], "settings": {"sensitive_memory": False},
    "script": [
        {"turns": [{"role": "student", "text": "我更喜欢早上学数学，我的手机号是13812345678"}],
         "expect": {"active": [{"all_of": ["早上", "数学"]}], "absent": ["13812345678"],
                    "recall": [{"query": "数学怎么安排", "must_include": [["数学"]]}]}},
        {"turns": [{"role": "student", "text": "别再记着我更喜欢早上学数学了"}],
         "expect": {"active": [], "absent": ["13812345678", {"all_of": ["早上", "数学"]}],
                    "recall": [{"query": "数学怎么安排", "must_include": [], "must_exclude": ["数学"]}]}},
    ],
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("careless", [False, True])
def test_the_v2_runner_checks_each_session_for_leaks_forgets_and_recall(tmp_path, careless):
    from bench.memory_eval.runner_v2 import run_eval_v2

    path = tmp_path / "v2.json"
    path.write_text(json.dumps({"format": "smartmate-memory-eval/2", "dialogues": [V2_DIALOGUE]}, ensure_ascii=False))

    report = run_eval_v2(path=path, careless=careless)

    figures = report.by_language["zh"].figures()
    assert report.problems == []
    assert (figures["sessions passed"], figures["leaks"], figures["forget requests honoured"],
            figures["recall probes"]) == ("2/2", 0, 1.0, 1.0)
    assert (figures["forget verified"], figures["forgets executed"]) == (1.0, 1)


@pytest.mark.django_db(transaction=True)
def test_without_the_gate_a_careless_model_leaks_and_the_runner_says_where(tmp_path):
    from bench.memory_eval.runner_v2 import run_eval_v2

    path = tmp_path / "v2.json"
    path.write_text(json.dumps({"format": "smartmate-memory-eval/2", "dialogues": [V2_DIALOGUE]}, ensure_ascii=False))

    report = run_eval_v2(path=path, gate=False, careless=True)

    leaks = report.by_language["zh"].leaks
    assert {"rows", "audit", "vectors"} <= set(leaks) and report.by_language["zh"].leak_dialogues == {"v2-x01"}


@pytest.mark.django_db(transaction=True)
def test_the_runner_runs_a_v2_file_with_the_gate_off(tmp_path):
    path = tmp_path / "v2.json"
    path.write_text(json.dumps({"format": "smartmate-memory-eval/2", "dialogues": [V2_DIALOGUE]}, ensure_ascii=False))

    out = "\n".join(report_lines(arguments(["--dialogues", str(path), "--no-gate", "--careless"]),
                                 log=lambda line: None))

    assert "v2.json: gate off, careless scripted model" in out and "leaks" in out and "forget requests honoured" in out


def test_the_scripted_extractor_reads_english_and_forget_requests():
    assert extract("I prefer studying maths in the morning. Can you plan tomorrow?") == [
        {"type": "preference", "content": "prefer studying maths in the morning", "importance": 0.6,
         "confidence": 0.9, "category": "ordinary"}]
    assert extract("别再记着我在准备考研了")[0]["category"] == "forget_request"
    assert extract("Please forget that I work at the library")[0]["content"] == "work at the library"


def test_a_forget_carried_out_cleanly_is_verified(user, django_capture_on_commit_callbacks):
    from bench.memory_eval.runner_v2 import Tally, _ForgetWatch
    from memory.services.items import memory_forget

    store = get_vector_store()
    kept, gone = make_memory(user, "我喜欢早上学数学"), make_memory(user, "我在准备考研")
    memory_vectors_sync(ids=[kept.pk, gone.pk])
    watch, tally = _ForgetWatch(user), Tally()

    with django_capture_on_commit_callbacks(execute=True):  # the vector delete and cache clear run on commit
        memory_forget(user=user, memory_id=gone.pk)

    assert watch.verify(store, tally) == []
    assert (tally.forgets_executed, tally.forgets_verified) == (1, 1)


def test_a_forget_that_leaves_text_or_a_vector_behind_is_not_verified(user):
    from bench.memory_eval.runner_v2 import Tally, _ForgetWatch
    from memory.cache import block_cache_set
    from memory.models import MemoryAudit, MemoryItem
    from memory.vectorstore import VectorRecord

    store = get_vector_store()
    gone = make_memory(user, "我在准备考研")
    memory_vectors_sync(ids=[gone.pk])
    watch, tally = _ForgetWatch(user), Tally()
    # A careless forget: the row goes, but its vector, a cached block and an audit entry with its text stay.
    vector = get_embedder().embed_passages(["我在准备考研"])[0]
    MemoryItem.objects.filter(pk=gone.pk).delete()
    store.upsert([VectorRecord(gone.pk, user.pk, vector, "preference")])
    block_cache_set(user.pk, "考研怎么安排", "【学习偏好】\n- 我在准备考研", generation=0)
    MemoryAudit.objects.create(user=user, operation="forget", operator="user", before={"content": "我在准备考研"})

    problems = watch.verify(store, tally)

    assert (tally.forgets_executed, tally.forgets_verified) == (1, 0)
    assert len(problems) == 3 and all(problem.startswith("forget not verified") for problem in problems)
    assert any("vector of forgotten memory" in p for p in problems) and any("cached block" in p for p in problems)
    assert any("audit holds" in p for p in problems)


@pytest.mark.parametrize(("first", "second", "same"), [
    ("我喜欢早上学数学", "我更喜欢早上学习数学", True),
    ("我喜欢早上学数学", "I prefer studying maths in the morning", True),
    ("I prefer studying maths in the morning", "I like to do math in the mornings", True),
    ("周一到周四都有早八", "这学期周一到周四全是早八", True),
    ("这学期周一到周四全是早八", "上完早八我只想回去补觉", False),
    ("I work at the library on Tuesdays", "I have basketball on Tuesdays", False),
])
def test_two_memories_matching_one_fact_are_duplicates_only_if_one_restates_the_other(first, second, same):
    from bench.memory_eval.matchers import restates

    assert restates(first, second) is same


def test_the_duplicate_rate_counts_restatements_and_not_two_facts_sharing_a_key_word():
    from bench.memory_eval.runner_v2 import Tally, _check_active

    expect = {"active": [{"fact": "周一到周四都有早八课", "any_of": ["早八"]}, {"all_of": ["数学"]}]}
    tally = Tally()
    _check_active(expect, ["这学期周一到周四全是早八", "上完早八我只想回去补觉", "我喜欢早上学数学", "我更喜欢早上学习数学"],
                  tally)

    assert (tally.duplicates, tally.active) == (1, 4)
    assert tally.duplicate_notes == ["['数学'] stored again: ['我更喜欢早上学习数学'] "
                                     "(all matches: ['我喜欢早上学数学', '我更喜欢早上学习数学'])"]
