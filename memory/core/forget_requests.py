"""Recognise a student asking memory to forget *everything* ("把你记得的都忘掉", "forget everything").

A forget request that names a topic ("别再记着考研", "forget everything about my tutoring job") is
matched against memories by the decision step or the forget tool; a request for everything names no
topic, so similarity finds nothing to forget and the request would silently do nothing. These rules
read the request itself. They are deliberately narrow: the whole message must be the request (a
polite word around it is fine), a negated verb ("别忘了…", "don't forget everything") is never one,
and "everything about <topic>" is a topic request, not this.
"""

from __future__ import annotations

import re
import unicodedata

_ZH_ALL_OF_YOU = r"(?:你|您)?(?:记得|记住|记着|知道|存着|保存)的(?:关于我的)?(?:东西|事情?|内容|记忆|一切|所有|全部)?"
# "所有东西都忘了" alone is the student saying they forgot something: the object must be memory or "about me".
_ZH_ALL = r"(?:所有|全部)(?:的)?(?:关于我的)?记忆|关于我的(?:一切|所有|全部)(?:记忆|东西|事情?|内容)?"
_ZH_VERB = r"(?:忘掉|忘了|忘记|删掉|删了|删除|清空|清除|抹掉|重置)"
# "我(跟你)说过的" is everything only with 都/全部 after it ("把我说过的都忘了吧").
_ZH_ALL_I_SAID = r"(?:之前|以前)?我?(?:跟你|和你|对你)?(?:说过|说|讲过|讲|告诉过你|告诉你)的(?:话|东西|事情?|内容)?"
_ZH_PATTERNS = (
    # 把你记得的都忘掉 / 你记住的东西全部删掉 / 把所有记忆都清空 / 关于我的一切都忘了吧
    re.compile(rf"^(?:请|麻烦)?(?:你)?(?:把|将)?(?:{_ZH_ALL_OF_YOU}|{_ZH_ALL}|(?:我的|你的)记忆)(?:都|全都|全部|统统)?(?:给我)?"
               rf"{_ZH_VERB}"),
    # 你把我说过的都忘了吧 / 把之前跟你说的都忘了 / 把我跟你说过的全部删掉
    re.compile(rf"^(?:请|麻烦)?(?:你)?(?:把|将)?{_ZH_ALL_I_SAID}(?:都|全都|全部|统统)(?:给我)?{_ZH_VERB}"),
    # 忘掉所有记忆 / 清空全部记忆 / 忘掉关于我的一切 / 清空记忆
    re.compile(rf"^(?:请|麻烦)?(?:你)?(?:全部|统统)?{_ZH_VERB}(?:掉)?(?:{_ZH_ALL}|{_ZH_ALL_OF_YOU}|(?:我的|你的)?记忆)$"),
)
_EN_PATTERN = re.compile(
    r"^(?:(?:ok|okay|hey|please|pls|plz|just|can you|could you|would you)\s+)*"
    r"(?:forget|delete|erase|wipe|clear)\s+"
    r"(?:everything|all(?:\s+of)?\s+(?:it|that|this|my\s+memories|your\s+memories|the\s+memories)|all\s+memories|"
    r"(?:all\s+)?(?:what|everything)\s+you\s+(?:know|remember|have|saved|stored)|your\s+memory|my\s+memories|"
    r"(?:everything|all)\s+(?:that\s+)?i(?:'ve|\s+have)?\s+(?:told\s+you|said|shared)(?:\s+(?:so\s+far|before))?)"
    r"(?:\s+(?:about|of|on)\s+me)?(?:\s+(?:you\s+)?(?:know|remember|have|saved|stored)(?:\s+about\s+me)?)?"
    r"(?:\s+(?:please|pls|now|thanks|thank you))*$")
_NEGATED = re.compile(r"别忘|不要忘|不用忘|不能忘|别删|不要删|don'?t|do not|never|not")
_TRAILING = re.compile(r"[\s。！!？?，,.~～]+$")
_ZH_TAIL = re.compile(r"(?:吧|啊|呀|哈|哦|嘛)+$")


# "reset" only with memory as its object: "reset everything" may mean the timetable.
_EN_RESET = re.compile(r"^(?:(?:please|pls|can you|could you)\s+)*reset\s+(?:your\s+memory|my\s+memories|"
                       r"(?:all\s+)?(?:the\s+|your\s+)?memories)(?:\s+(?:please|now))*$")


def is_forget_everything(text: str) -> bool:
    """True when ``text`` is, as a whole, a request to forget everything memory holds about the student."""
    clean = unicodedata.normalize("NFKC", text or "").strip().casefold()
    clean = _TRAILING.sub("", clean)
    if not clean or len(clean) > 80 or _NEGATED.search(clean):
        return False
    if _EN_PATTERN.match(clean) or _EN_RESET.match(clean):
        return True
    chinese = _ZH_TAIL.sub("", re.sub(r"\s+", "", clean))
    chinese = _TRAILING.sub("", chinese)
    return any(pattern.search(chinese) for pattern in _ZH_PATTERNS)


_EVERYTHING_ABOUT = re.compile(
    r"\b(?:forget|delete|erase)\s+(?:everything|all(?:\s+the\s+(?:details|stuff))?)\s+(?:about|on|regarding)\s+(?!me\b)"
    r"|关于.{1,20}?的(?:一切|所有|全部)|(?:的|这些|那些)(?:事|事情|东西|内容)(?:都|全都|全部|统统)(?:给我)?(?:忘|删)")


def asks_for_everything_about(text: str) -> bool:
    """True when the student asks to forget *everything about* a topic ("Forget everything about my tutoring
    job", "关于家教的一切都忘掉"): every detail learned with it goes too, not only the closest memory."""
    clean = unicodedata.normalize("NFKC", text or "").casefold()
    return not _NEGATED.search(clean) and bool(_EVERYTHING_ABOUT.search(clean))
