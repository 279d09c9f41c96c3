"""``manage.py memory_eval``: score extraction + decisions on scripted dialogues (see smartmate/memory_eval).

Without ``--dialogues`` it runs the first set (v1, ``dialogues.json``); ``--v2`` runs the v2
tuning and held-out files (per session, per language). ``--no-gate`` switches the write gate off,
to score what it changes; ``--careless`` uses a scripted model that proposes what a careless model
would.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from smartmate.memory_eval.runner import DIALOGUES, Report, run_eval
from smartmate.memory_eval.runner_v2 import V2_FILES, ReportV2, run_eval_v2


class Command(BaseCommand):
    help = ("Run the memory write and read paths over scripted student dialogues with a rule-based scripted "
            "model and report precision, recall, update accuracy, duplicates and tokens per turn (v1), or per "
            "session and language also forget correctness, leaks and recall probes (v2).")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dialogues", type=Path, action="append",
                            help="dialogue file (JSON, v1 or v2); repeat for several")
        parser.add_argument("--v2", action="store_true", help="run the v2 tuning and held-out files")
        parser.add_argument("--no-gate", action="store_true", help="switch the memory write gate off")
        parser.add_argument("--careless", action="store_true",
                            help="a scripted model that also proposes facts about others and any other statement")
        parser.add_argument("--milvus", action="store_true",
                            help="use Milvus: a new collection on the server MILVUS_URI names (dropped after), "
                                 "else a temporary Milvus Lite file")
        parser.add_argument("--verbose", action="store_true", help="print each dialogue's misses")

    def handle(self, *args, **options) -> None:
        log = (lambda line: self.stdout.write(f"  {line}")) if options["verbose"] else (lambda line: None)
        paths = list(options["dialogues"] or []) + (list(V2_FILES) if options["v2"] else [])
        for path in paths or [DIALOGUES]:
            report: Report | ReportV2
            if _is_v2(path):
                report = run_eval_v2(path=path, milvus=options["milvus"], gate=not options["no_gate"],
                                     careless=options["careless"], log=log)
            else:
                report = run_eval(path=path, milvus=options["milvus"], log=log)
            for line in report.lines():
                self.stdout.write(line)


def _is_v2(path: Path) -> bool:
    return json.loads(Path(path).read_text(encoding="utf-8")).get("format") == "smartmate-memory-eval/2"
