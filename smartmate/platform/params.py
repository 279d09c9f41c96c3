"""Reading whole numbers out of query strings, form fields and headers without a 500."""

from __future__ import annotations

import re

# ASCII digits only, and few enough for a 64-bit column: str.isdigit() also passes "²" and "١",
# which int() refuses or a database cannot store.
_DIGITS = re.compile(r"[0-9]{1,18}")


def digits_int(raw: str | None) -> int | None:
    """Return the number ``raw`` spells in 1-18 ASCII digits (surrounding spaces allowed), else None."""
    text = (raw or "").strip()
    return int(text) if _DIGITS.fullmatch(text) else None
