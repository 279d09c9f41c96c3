"""The scripted memory model's reading of English: the same rules as its Chinese ones, in English words.

``classify`` takes one clause and returns a fact (or None) in the shape the extraction contract
wants; ``clauses`` splits a message; ``topic`` gives the words a decision compares. Like the
Chinese rules, these read the student's text, never the evaluation's expected answers.
"""

from __future__ import annotations

import re
from typing import Any

_SPLIT = re.compile(r"[;!?\n]|,\s*(?:and|but|so)?\s*|(?<!\d)\.(?!\d)|\s+(?:and|but|also|plus)\s+(?=(?:i|i'm|my)\b)",
                    re.IGNORECASE)
_QUESTION = re.compile(r"^(?:can|could|would|will|should|what|when|where|how|why|which|who|do|does|did|is|are|am)\b"
                       r"|\b(?:please|help me|can you|could you|would you|show me|tell me|remind me|let me know)\b"
                       r"|^(?:schedule|plan|arrange|add|move|put|book|set|make|find|check|list|give)\b", re.IGNORECASE)
_SMALL_TALK = re.compile(r"^(?:hi|hello|hey|thanks|thank you|ok|okay|sure|great|cool|good (?:morning|night)|bye|yes|no)\b",
                         re.IGNORECASE)
_LEADING = re.compile(r"^(?:(?:also|actually|now|and|but|so|well|oh|ok|okay|nvm|fyi|btw|by the way|anyway|currently|"
                      r"these days|i am|i'm|i've|i|we)(?![\w'])[\s,]*)+", re.IGNORECASE)
_TRAILING = re.compile(r"[\s.!]+$")
_OTHERS = re.compile(r"^(?:my )?(?:roommates?|flatmates?|classmates?|friends?|mom|mum|mother|dad|father|sister|"
                     r"brother|girlfriend|boyfriend|partner|teacher|professor|advisor|he|she|they)\b", re.IGNORECASE)
_ONE_OFF = re.compile(r"\b(?:today|tomorrow|tonight|this (?:week|weekend|morning|afternoon|evening)|next week|"
                      r"right now)\b", re.IGNORECASE)
_HEDGE = re.compile(r"\b(?:maybe|perhaps|might|probably|not sure|i guess|thinking about|considering|possibly)\b",
                    re.IGNORECASE)
TIME = re.compile(r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b|"
                  r"weekends?|weekdays?|every (?:day|week|morning|evening|night)|daily|mornings?|afternoons?|evenings?|"
                  r"nights?|noon|midnight|before bed|bedtime|"
                  r"\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2} o'clock|\d{1,2}:\d{2})\b", re.IGNORECASE)
NEGATION = re.compile(r"\b(?:no longer|not any ?more|any ?more|quit|stopped|dropped|cancel+ed|gave up)\b", re.IGNORECASE)
CHANGE = re.compile(r"^(?:(?:have |'ve )?(?:changed|switched|moved)(?: it)? to|now prefer)\s+", re.IGNORECASE)
_LIKING = re.compile(r"\b(?:prefer|prefers|like|likes|love|enjoy|rather|usually|tend to|habit of|best|favou?rite|"
                     r"more|want to|want)\b", re.IGNORECASE)
FORGET = re.compile(r"(?:^|\b(?:can you|could you|please|pls|plz|just|and)\s+)(?:please\s+)?(?:forget(?: everything)?"
                    r"(?: about| that| the)?|stop remembering(?: that)?|don'?t keep|no longer remember|"
                    r"(?:remove|delete|erase|drop) (?:the|that) (?:memory|note|thing)(?: that| of| about)?|"
                    r"(?:forget|delete|erase|remove|drop) (?:what|everything) you (?:know|remember|have|stored|saved)"
                    r"(?: about| of)?|"
                    r"(?:don'?t|do not) remember(?: that)?|"
                    r"(?:you )?(?:don'?t|do not) (?:need|have) to remember(?: that)?|no need to remember(?: that)?|"
                    r"i (?:don'?t|do not) want you to (?:remember|keep)(?: that)?)\s+", re.IGNORECASE)

RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("goal", re.compile(r"\b(?:goal|aim|target|want to (?:get|score|pass|reach)|hope to (?:get|pass|score)|aiming|"
                        r"plan to (?:pass|get|take)|score (?:at least )?\d+|pass the|get into|gpa|ielts|toefl|gre|"
                        r"grad(?:uate)? school)\b", re.IGNORECASE)),
    ("constraint", re.compile(r"\b(?:can'?t|cannot|not available|busy|don'?t schedule|no study(?:ing)?|must|have to|"
                              r"class(?:es)?|lab|practice|training|shift|part-time|tutor|tutoring|tutorial|lecture|seminar|"
                              r"gym|volunteer|club|rehearsal|meeting|curfew|go home|work|job|nothing (?:before|after)|"
                              r"no \w+ (?:before|after))\b", re.IGNORECASE)),
    ("preference", re.compile(r"\b(?:prefer|prefers|like|love|enjoy|rather|usually|always|tend to|habit|focus|concentrate|"
                              r"productive|best in|no more than|at most|at a time|per session|switched to|changed to)\b",
                              re.IGNORECASE)),
    ("fact", re.compile(r"\b(?:i am|i'm|my name|major|majoring|sophomore|freshman|junior|senior|year student|"
                        r"live in|living in|dorm|allergic|from|born|left-handed|near-?sighted|vegetarian)\b",
                        re.IGNORECASE)),
)
_STOP = frozenset("a an the to in on at of for with my i i'm am is are be was do does have has it that this and or "
                  "but so very really just now than then when time".split())
_IMPORTANCE = {"constraint": 0.8, "goal": 0.7, "preference": 0.6, "fact": 0.5}


def is_english(text: str) -> bool:
    """True when a text is mostly Latin letters (the scripted model reads it with these rules)."""
    latin = sum(1 for char in text if char.isascii() and char.isalpha())
    cjk = sum(1 for char in text if "\u4e00" <= char <= "\u9fff")
    return latin > 3 * cjk


def clauses(text: str) -> list[tuple[str, bool]]:
    """The message's clauses, each with whether it was asked (ended by a question mark)."""
    out, position = [], 0
    for piece in _SPLIT.split(text):
        if not piece:
            continue
        start = text.find(piece, position)
        position = start + len(piece) if start >= 0 else position
        asked = position < len(text) and text[position] == "?"
        if piece.strip():
            out.append((piece.strip(), asked))
    return out


def classify(clause: str, asked: bool, *, careless: bool = False) -> dict[str, Any] | None:
    """One clause → a fact for the extraction contract, or None (question, small talk, one-off …)."""
    if FORGET.search(clause):
        return forget_request(clause)
    if asked or _QUESTION.search(clause) or _SMALL_TALK.search(clause):
        return None
    content = _TRAILING.sub("", _LEADING.sub("", clause)).strip()
    if len(content.split()) < 2 or (_OTHERS.match(content) and not careless):
        return None
    content = CHANGE.sub("", content, count=1)
    negated = bool(NEGATION.search(content))
    for memory_type, pattern in RULES:
        if not pattern.search(clause):
            continue
        if memory_type == "constraint" and (_ONE_OFF.search(clause) or not (
                TIME.search(clause) or negated or re.search(r"can'?t|cannot|must|have to", clause, re.I))):
            continue
        return _fact(memory_type, content, 0.5 if _HEDGE.search(clause) else 0.9)
    if negated:
        return _fact("fact", content, 0.85)
    if careless and not _ONE_OFF.search(clause) and len(content.split()) >= 3:
        return _fact("fact", content, 0.5 if _HEDGE.search(clause) else 0.8)
    return None


def forget_request(clause: str) -> dict[str, Any] | None:
    """"Forget that I'm preparing for the GRE" → forget "preparing for the GRE"."""
    content = FORGET.split(clause, maxsplit=1)[-1].strip()
    content = re.sub(r"\b(?:thing|stuff|please|pls)\b|^(?:hey|so|ok)\b", "", content, flags=re.IGNORECASE).strip(" ,.")
    content = _TRAILING.sub("", _LEADING.sub("", content))
    content = re.sub(r"^(?:the\s+)?(?:note|memory|thing|stuff|part)\s+(?:about|that|of)\s+|^about\s+", "", content,
                     flags=re.IGNORECASE).strip()
    content = re.sub(r"^my\s+", "", content, flags=re.IGNORECASE).strip()
    content = re.sub(r"\s+(?:any ?more|for now|from now on)$", "", content, flags=re.IGNORECASE).strip()
    if len(content) < (2 if re.search(r"[\u4e00-\u9fff]", content) else 3):
        return None
    memory_type = next((name for name, pattern in RULES if pattern.search(content)), "fact")
    return {"type": memory_type, "content": content, "importance": 0.5, "confidence": 0.9,
            "category": "forget_request"}


def _fact(memory_type: str, content: str, confidence: float) -> dict[str, Any]:
    return {"type": memory_type, "content": content, "importance": _IMPORTANCE[memory_type],
            "confidence": confidence, "category": "ordinary"}


def topic(text: str) -> set[str]:
    """The words a decision compares: no time, liking, negation or filler words; crude stems."""
    residue = TIME.sub(" ", text)
    for pattern in (NEGATION, _LIKING):
        residue = pattern.sub(" ", residue)
    words = re.findall(r"[a-z0-9']+", residue.lower())
    return {_stem(word) for word in words if word not in _STOP and len(word) > 1}


def times(text: str) -> list[str]:
    return sorted(match.lower() for match in TIME.findall(text))


def _stem(word: str) -> str:
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word
