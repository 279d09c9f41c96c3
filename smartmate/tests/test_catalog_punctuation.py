"""Chinese sentences in the compiled catalog end with Chinese punctuation (。，), never an ASCII "." or ",".

The compiled catalog (django.mo) is what students read, so that is what is scanned: every translation
that holds Chinese, plural forms included.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

MO_FILE = Path(__file__).resolve().parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.mo"
CHINESE = re.compile(r"[\u4e00-\u9fff]")
# A Chinese character (or a closing Chinese bracket or quote) then an ASCII full stop or comma that ends
# the text or is followed by a space or more Chinese: "已保存." "周一, 周二". Not ".ics" or "1.5".
ASCII_STOP = re.compile(r"[\u4e00-\u9fff）」”》]\s?[.,](?=$|\s|[\u4e00-\u9fff])")
# Text a student types exactly as written: the WakeUp CSV header is comma-separated by design.
LITERALS = ("课程名称,星期,开始节数,结束节数,老师,地点,周数", "开始周,结束周,单双周", "课程名,星期几,开始时间,结束时间")


def ascii_stops(text: str) -> list[str]:
    """The places where a Chinese sentence or clause ends with ASCII punctuation."""
    for literal in LITERALS:
        text = text.replace(literal, "")
    return [match.group() for match in ASCII_STOP.finditer(text)]


def compiled_translations() -> dict[str, str]:
    with MO_FILE.open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    return {str(key): value for key, value in catalog.items() if isinstance(value, str) and CHINESE.search(value)}


def test_no_chinese_sentence_ends_with_ascii_punctuation():
    offenders = {msgid: text for msgid, text in compiled_translations().items() if ascii_stops(text)}
    assert offenders == {}


def test_the_scan_finds_ascii_punctuation_after_chinese_and_leaves_the_rest():
    assert ascii_stops("课表已导入.") == ["入."]
    assert ascii_stops("周一, 周二") == ["一,"]
    assert ascii_stops("已导入“高数”.") == ["”."]
    assert ascii_stops("下载 .ics 文件，共 1.5 MB。") == []
    assert ascii_stops("支持 WakeUp 风格的 CSV（课程名称,星期,开始节数,结束节数,老师,地点,周数）。") == []
