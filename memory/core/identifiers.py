"""Personal identifiers in free text: ID-card, bank-card, phone and passport numbers, e-mail addresses.

Number formats with a checksum are recognised by it, so an ordinary number is not mistaken for one:
a Chinese resident ID (18 characters, ISO 7064 MOD 11-2), a payment card (13-19 digits, Luhn).
Formats without one are recognised by shape (Chinese mobiles, international numbers with a +,
landlines with an area code, passports), and any other run of 9+ digits is reported as a long
number: a student's memory has no use for one, and it is most likely an identifier.

Digits may be written full-width or grouped with spaces or hyphens ("6222 0212 3456 7890",
"138-1234-5678"); dates and times ("2026-09-21", "9:30") are not groups of that kind.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK = "10X98765432"

# A run of digits, or digit groups of 3+ joined by one space or hyphen (never a date's "-09-").
_GROUPED = re.compile(r"(?<![\dA-Za-z])\d{3,}(?:[ \-]\d{3,})+(?![\dA-Za-z])")
_RUN = re.compile(r"(?<!\d)\d+(?:[Xx](?![A-Za-z]))?")
_CN_MOBILE = re.compile(r"^(?:0?86)?1[3-9]\d{9}$")
_INTERNATIONAL = re.compile(r"(?<![\w+])\+\d{1,3}(?:[ \-]?\(?\d{1,4}\)?){2,5}(?![\w])")
_LANDLINE = re.compile(r"(?<!\d)0\d{2,3}[ \-]\d{7,8}(?!\d)")
_PASSPORT_CN = re.compile(r"(?<![A-Za-z0-9])[EG]\d{8}(?![A-Za-z0-9])")
_PASSPORT_NAMED = re.compile(r"(?:护照|passport)[^A-Za-z0-9]{0,12}(?:number|no\.?|#)?[^A-Za-z0-9]{0,4}[A-Z]{1,2}\d{6,9}",
                             re.IGNORECASE)
_EMAIL = re.compile(r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}")
LONG_NUMBER_DIGITS = 9


@dataclass(frozen=True)
class Identifier:
    """An identifier found in a text: its kind (a rule code) and where it is."""

    kind: str
    start: int
    end: int


def cn_id_valid(text: str) -> bool:
    """True for an 18-character Chinese resident ID whose last character is its MOD 11-2 check."""
    if not re.fullmatch(r"\d{17}[\dXx]", text):
        return False
    total = sum(int(digit) * weight for digit, weight in zip(text[:17], _CN_ID_WEIGHTS))
    return _CN_ID_CHECK[total % 11] == text[17].upper()


def luhn_valid(digits: str) -> bool:
    """True for a 13-19 digit number that passes the Luhn check (payment cards)."""
    if not re.fullmatch(r"\d{13,19}", digits):
        return False
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def find_identifiers(text: str) -> list[Identifier]:
    """Return the identifiers in ``text``, in order of position (one per span, the most specific kind)."""
    text = unicodedata.normalize("NFKC", text)
    found = [Identifier("email", m.start(), m.end()) for m in _EMAIL.finditer(text)]
    found += [Identifier("passport", m.start(), m.end()) for m in _PASSPORT_NAMED.finditer(text)]
    found += [Identifier("passport", m.start(), m.end()) for m in _PASSPORT_CN.finditer(text)]
    found += [Identifier("phone", m.start(), m.end()) for m in _INTERNATIONAL.finditer(text)]
    found += [Identifier("phone", m.start(), m.end()) for m in _LANDLINE.finditer(text)]
    for match in [*_GROUPED.finditer(text), *_RUN.finditer(text)]:
        kind = _number_kind(re.sub(r"[ \-]", "", match.group()))
        if kind:
            found.append(Identifier(kind, match.start(), match.end()))
    return _without_overlaps(found)


def _number_kind(number: str) -> str | None:
    digits = number.rstrip("Xx")
    if cn_id_valid(number):
        return "cn_id"
    if number != digits:
        return "long_number" if len(digits) >= LONG_NUMBER_DIGITS else None
    if _CN_MOBILE.match(digits):
        return "phone"
    if luhn_valid(digits):
        return "bank_card"
    return "long_number" if len(digits) >= LONG_NUMBER_DIGITS else None


def _without_overlaps(found: list[Identifier]) -> list[Identifier]:
    """Keep the first-found identifier of overlapping ones (the list is ordered most specific first)."""
    kept: list[Identifier] = []
    for item in found:
        if all(item.end <= other.start or item.start >= other.end for other in kept):
            kept.append(item)
    return sorted(kept, key=lambda item: (item.start, item.kind))
