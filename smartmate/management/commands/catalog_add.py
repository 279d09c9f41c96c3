"""Add or update Chinese catalog entries from a JSON file and recompile the catalog.

``makemessages`` rewrites the whole ``.po`` file; this adds only the entries given, under a file
lock, so several people (or helpers) adding strings at once do not lose each other's entries.

    python manage.py catalog_add entries.json

``entries.json`` maps each msgid to its Chinese text; a plural entry maps to
``{"plural": "<msgid_plural>", "forms": ["<form 0>"]}`` (Chinese has one form).
"""

from __future__ import annotations

import fcntl
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = "Add Chinese catalog entries from a JSON file {msgid: msgstr} and recompile django.mo."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("entries", help="JSON file mapping msgid to its Chinese text")
        parser.add_argument("--locale", default="zh_Hans")

    def handle(self, *args, **options) -> None:
        try:
            import polib  # no stubs published; a development tool only
        except ImportError as exc:  # pragma: no cover - requirements-dev.txt installs it
            raise CommandError("polib is missing: pip install -r requirements-dev.txt") from exc
        entries = json.loads(Path(options["entries"]).read_text(encoding="utf-8"))
        po_path = Path(settings.BASE_DIR) / "locale" / options["locale"] / "LC_MESSAGES" / "django.po"
        with open(po_path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            catalog = polib.pofile(str(po_path))
            added = sum(_put(catalog, polib, msgid, text) for msgid, text in entries.items())
            catalog.save(str(po_path))
            catalog.save_as_mofile(str(po_path.with_suffix(".mo")))
        self.stdout.write(f"{added} added, {len(entries) - added} updated; {po_path.with_suffix('.mo')} compiled")


def _put(catalog, polib, msgid: str, text: str | dict) -> bool:
    """Set one entry; True when it was new."""
    entry = catalog.find(msgid)
    new = entry is None
    if new:
        entry = polib.POEntry(msgid=msgid)
        catalog.append(entry)
    if isinstance(text, dict):
        entry.msgid_plural = text["plural"]
        entry.msgstr_plural = dict(enumerate(text["forms"]))
    else:
        entry.msgstr = text
    if "fuzzy" in entry.flags:
        entry.flags.remove("fuzzy")
    return new
