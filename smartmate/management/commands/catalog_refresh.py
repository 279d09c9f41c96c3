"""Refresh the Chinese catalog from the source without losing the entries written by hand.

``makemessages`` knows only the strings it finds in the code; the catalog also holds entries written by
hand for strings Django builds itself (field names without a verbose name, Django's own validator
sentences, third-party admin labels). A plain ``makemessages --no-obsolete`` drops them and the pages
turn English. This command runs ``makemessages``, keeps every hand-written entry (one with no source
reference) that still has a translation, drops what the code no longer uses, and compiles.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

CATALOG = Path(settings.BASE_DIR) / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
IGNORED = [".venv/*", "var/*", "bench/*"]


class Command(BaseCommand):
    help = "makemessages for zh_Hans keeping the hand-written entries, then compilemessages."

    def handle(self, *args, **options) -> None:
        try:
            import polib  # a development tool only
        except ImportError as exc:  # pragma: no cover - requirements-dev.txt installs it
            raise CommandError("polib is missing: pip install -r requirements-dev.txt") from exc
        hand_written = [e for e in polib.pofile(str(CATALOG)) if not e.occurrences and not e.obsolete
                        and e.translated()]
        call_command("makemessages", locale=["zh_Hans"], ignore_patterns=IGNORED, verbosity=0)
        catalog = polib.pofile(str(CATALOG))
        kept = {(e.msgctxt, e.msgid) for e in hand_written}
        for entry in list(catalog):
            if entry.obsolete:
                if (entry.msgctxt, entry.msgid) in kept:
                    entry.obsolete = False
                else:
                    catalog.remove(entry)
            entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
        present = {(e.msgctxt, e.msgid) for e in catalog}
        for entry in hand_written:
            if (entry.msgctxt, entry.msgid) not in present:
                catalog.append(entry)
        catalog.save()
        call_command("compilemessages", locale=["zh_Hans"], ignore_patterns=[".venv"], verbosity=0)
        missing = [e.msgid for e in catalog.untranslated_entries() + catalog.fuzzy_entries()]
        for msgid in missing:
            self.stdout.write(f"untranslated: {msgid}")
        self.stdout.write(f"{len(catalog)} entries, {len(hand_written)} hand-written kept, {len(missing)} to translate")
