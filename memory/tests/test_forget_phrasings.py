"""How students ask memory to forget one thing, in Chinese and English: the scripted extractor must read them.

The phrasings were written down from how students talk, before looking at which dialogues of the
evaluation failed (and never from the held-out file): the extractor is tuned to these, not to the data.
Each must come out as one ``forget_request`` naming the topic, without the request's own words; the
look-alikes at the end (reminders, the student forgetting something) must not.
"""

from __future__ import annotations

import pytest

from bench.memory_eval.scripted_model import extract

FORGET_ONE_THING = [
    ("别再记着我在准备考研了", ["准备考研"]),
    ("别记着我在图书馆打工了", ["图书馆打工"]),
    ("不用记我周三有篮球训练了", ["周三", "篮球训练"]),
    ("不要再记我喜欢早上学数学", ["早上学数学"]),
    ("忘掉我在准备考研这件事", ["准备考研"]),
    ("把我在准备考研这件事忘了吧", ["准备考研"]),
    ("把我喜欢早上学数学这条删掉", ["早上学数学"]),
    ("删掉那条关于考研的记忆", ["考研"]),
    ("删掉关于考研的那条", ["考研"]),
    ("你可以忘记我在做家教的事了", ["做家教"]),
    ("请忘记我在做家教", ["做家教"]),
    ("我不想让你记得我在准备考研", ["准备考研"]),
    ("关于我在准备考研的事，别记了", ["准备考研"]),
    ("考研的事你就别记着了", ["考研"]),
    ("那条说我周末打工的记忆删了吧", ["周末打工"]),
    ("把我对花生过敏从记忆里删掉", ["花生过敏"]),
    ("别再记得我每天晚上跑步了", ["每天晚上跑步"]),
    ("不用再记住我喜欢在宿舍学习", ["在宿舍学习"]),
    # a second list, also written before looking at any failure
    ("忘了我说的考研那件事吧", ["考研"]),
    ("考研那个你忘了吧", ["考研"]),
    ("把考研从你的记忆里去掉", ["考研"]),
    ("你不用记得我在准备考研", ["准备考研"]),
    ("我在准备考研这个你别记了", ["准备考研"]),
    ("别把我在准备考研记下来", ["准备考研"]),
    ("不要记录我在准备考研", ["准备考研"]),
    ("我准备考研的事不用记", ["准备考研"]),
    ("Forget that I'm preparing for the GRE", ["preparing for the gre"]),
    ("Please forget that I work at the library", ["work at the library"]),
    ("Stop remembering that I have basketball on Wednesdays", ["basketball on wednesdays"]),
    ("Can you stop remembering my tutoring job", ["tutoring job"]),
    ("Delete what you know about my tutoring job", ["tutoring job"]),
    ("Delete the memory about my GRE prep", ["gre prep"]),
    ("Don't remember that I like studying at night anymore", ["studying at night"]),
    ("You don't need to remember that I work weekends", ["work weekends"]),
    ("Forget about my part-time job", ["part-time job"]),
    ("Erase the note that I'm allergic to peanuts", ["allergic to peanuts"]),
    ("Remove the memory that I go to the gym on Mondays", ["gym on mondays"]),
    ("I don't want you to remember that I'm preparing for the GRE", ["preparing for the gre"]),
    ("No need to remember my gym schedule", ["gym schedule"]),
    ("Forget what I said about the library job", ["library job"]),
    ("Please don't keep the note about my GRE prep", ["gre prep"]),
    ("Remove what you saved about my tutoring job", ["tutoring job"]),
    ("Forget the thing about my tutoring job", ["tutoring job"]),
    ("Please forget my gym schedule", ["gym schedule"]),
]

NOT_A_FORGET_REQUEST = [
    "别忘了周五交作业",
    "我忘了带书",
    "不要忘记提醒我交报告",
    "我不记得周三有没有课",
    "Don't forget my exam on Friday",
    "I forgot my homework at home",
    "I can't remember when the exam is",
    "忘了带书",
    "别把周三的课排满",
]


@pytest.mark.parametrize("text, topic", FORGET_ONE_THING)
def test_a_request_to_forget_one_thing_names_its_topic(text, topic):
    proposed = extract(text)

    forgets = [fact for fact in proposed if fact.get("category") == "forget_request"]
    assert len(forgets) == 1, proposed
    content = forgets[0]["content"].casefold()
    assert all(word in content for word in topic), content
    assert not any(verb in content for verb in ("别再记", "忘掉", "删掉", "forget", "remember", "delete")), content
    assert len(proposed) == 1, proposed  # the request is not also stored as a fact


@pytest.mark.parametrize("text", NOT_A_FORGET_REQUEST)
def test_reminders_and_the_student_forgetting_are_not_forget_requests(text):
    assert not [fact for fact in extract(text) if fact.get("category") == "forget_request"]
