"""Text normalisation and number words shared by the Chinese and English rules."""

from __future__ import annotations

import re
import unicodedata

# A number as students type it: Arabic digits or Chinese numerals up to 99 (十二, 二十一, 两).
NUM = r"(?:\d{1,3}|[零〇一二两三四五六七八九十]{1,3})"

_CJK = re.compile(r"[\u3400-\u9fff]")
_SPACES = re.compile(r"\s+")
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4,
              "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
               "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
               "twelve": 12}


# Pinyin-input slips inside a clock time, one character for one (so spans stay aligned): 下五三点
# is 下午三点, 八点伴 is 八点半. Only where a clock follows or precedes, never elsewhere.
_CLOCK_TYPOS = ((re.compile(r"(?<=[上下中])五(?=\s?[\d一二两三四五六七八九十]{1,3}点)"), "午"),
                (re.compile(r"(?<=点)伴"), "半"))


def normalize(text: str) -> str:
    """Fold full-width forms (：，１２) to ASCII, collapse whitespace and mend clock-time typos."""
    folded = _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip()
    for typo, meant in _CLOCK_TYPOS:
        folded = typo.sub(meant, folded)
    return folded


def has_cjk(text: str) -> bool:
    """Whether the text contains Chinese characters (decides the M/D reading of 12/5)."""
    return bool(_CJK.search(text))


def parse_number(token: str) -> int | None:
    """Read "12", "十二", "二十一", "两" or "one"; None when it is not a number."""
    token = token.strip().lower()
    if token.isdecimal():  # not isdigit(): "²" passes it and int() refuses it
        return int(token)
    if token in _EN_NUMBERS:
        return _EN_NUMBERS[token]
    return _parse_chinese_number(token)


def _parse_chinese_number(token: str) -> int | None:
    if not token or any(ch not in _ZH_DIGITS and ch != "十" for ch in token):
        return None
    if "十" not in token:
        return _ZH_DIGITS[token] if len(token) == 1 else None
    tens_part, _, ones_part = token.partition("十")
    if "十" in ones_part or len(tens_part) > 1 or len(ones_part) > 1:
        return None
    tens = _ZH_DIGITS[tens_part] if tens_part else 1
    ones = _ZH_DIGITS[ones_part] if ones_part else 0
    return tens * 10 + ones
