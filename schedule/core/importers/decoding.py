"""Turn uploaded bytes into text: a size limit, BOMs, UTF-8, then the Chinese legacy encoding."""

from __future__ import annotations

import codecs

from schedule.core.importers.report import ImportRejected, problem

MAX_IMPORT_BYTES = 1024 * 1024

# Excel saves "Unicode text" as UTF-16 with a BOM; check the longer BOMs first.
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# GB18030 is a superset of GBK and GB2312: Excel on a Chinese Windows saves CSV in it.
_LEGACY_ENCODING = "gb18030"


def check_size(data: bytes) -> None:
    """Raise ImportRejected if the upload is empty or larger than MAX_IMPORT_BYTES."""
    if len(data) > MAX_IMPORT_BYTES:
        raise ImportRejected(
            problem("file_too_large", None, size=len(data), limit=MAX_IMPORT_BYTES)
        )
    if not data.strip():
        raise ImportRejected(problem("empty_file", None))


def decode_text(data: bytes) -> str:
    """Return the text of an upload, or raise ImportRejected(undecodable)."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _checked(_try_decode(data, encoding))
    text = _try_decode(data, "utf-8")
    if text is not None:
        return _checked(text)
    if _looks_like_damaged_utf8(data):
        raise ImportRejected(problem("undecodable", None))
    return _checked(_legacy_text(data))


def _legacy_text(data: bytes) -> str | None:
    """GB18030 (mainland exports), or Big5 (Taiwan, Hong Kong) when GB18030 reads it as private-use noise.

    GB18030 decodes Big5 bytes without an error, but some of their pairs land in its private-use area,
    which no real text uses; GBK text read as Big5 would rarely be clean of errors and of that area.
    """
    text = _try_decode(data, _LEGACY_ENCODING)
    if text is None or not _private_use(text):
        return text
    big5 = _try_decode(data, "big5")
    return big5 if big5 is not None and not _private_use(big5) else text


def _private_use(text: str) -> int:
    return sum(1 for ch in text if "\ue000" <= ch <= "\uf8ff")


def _looks_like_damaged_utf8(data: bytes) -> bool:
    # GB18030 decodes almost any byte string, so UTF-8 with a few broken bytes would come out as
    # plausible-looking nonsense. Real GBK text is mostly invalid as UTF-8; damaged UTF-8 is not.
    text = data.decode("utf-8", errors="replace")
    damaged = text.count("\ufffd")
    intact = sum(1 for ch in text if ch > "\x7f" and ch != "\ufffd")
    return intact > damaged


def _try_decode(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _checked(text: str | None) -> str:
    # NUL and other C0 controls never appear in a timetable; they mean a binary file
    # (a spreadsheet, an image) that happened to decode.
    if text is None or any(ch < " " and ch not in "\t\r\n\f" for ch in text):
        raise ImportRejected(problem("undecodable", None))
    return text.lstrip("\ufeff")
