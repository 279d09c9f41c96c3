"""The committed Chinese catalog is complete and compiled."""

from __future__ import annotations

import ast
from pathlib import Path

from django.utils import translation

CATALOG = Path(__file__).resolve().parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"


def _compiled(entry) -> str:
    """What the compiled catalog answers for a .po entry (with its context and plural form, if any)."""
    if entry.msgctxt and entry.msgid_plural:
        return translation.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, 1)
    if entry.msgctxt:
        return translation.pgettext(entry.msgctxt, entry.msgid)
    if entry.msgid_plural:
        return translation.ngettext(entry.msgid, entry.msgid_plural, 1)
    return translation.gettext(entry.msgid)


def _entries(po_text: str) -> dict[str, str]:
    """Read msgid -> msgstr pairs from a .po file (enough of the format for this check)."""
    entries: dict[str, str] = {}
    current: dict[str, list[str]] = {}
    key = ""
    for line in po_text.splitlines() + [""]:
        if line.startswith("msgid "):
            if current.get("msgid") is not None:
                entries["".join(current["msgid"])] = "".join(current.get("msgstr", []))
            current, key = {"msgid": [ast.literal_eval(line[6:])]}, "msgid"
        elif line.startswith("msgstr "):
            current["msgstr"], key = [ast.literal_eval(line[7:])], "msgstr"
        elif line.startswith("msgstr[0] "):
            current["msgstr"], key = [ast.literal_eval(line[10:])], "msgstr"
        elif line.startswith(("msgid_plural ", "msgstr[")):
            key = ""  # later plural forms: Chinese has one, already read
        elif line.startswith('"') and key:
            current[key].append(ast.literal_eval(line))
    if current.get("msgid") is not None:
        entries["".join(current["msgid"])] = "".join(current.get("msgstr", []))
    entries.pop("", None)
    return entries


def test_every_message_has_a_chinese_translation():
    untranslated = [msgid for msgid, msgstr in _entries(CATALOG.read_text(encoding="utf-8")).items() if not msgstr]
    assert untranslated == []


def test_no_translation_is_left_fuzzy():
    # gettext ignores fuzzy entries, so a fuzzy translation silently shows English.
    assert "#, fuzzy" not in CATALOG.read_text(encoding="utf-8")


def test_the_compiled_catalog_matches_the_source_catalog():
    import polib

    stale = []
    with translation.override("zh-hans"):
        for entry in polib.pofile(str(CATALOG)):
            if entry.obsolete or not entry.translated():
                continue
            if _compiled(entry) != (entry.msgstr or entry.msgstr_plural.get(0, "")):
                stale.append(entry.msgid)
    assert stale == [], "run: python manage.py compilemessages -l zh_Hans --ignore .venv"
