"""``manage.py memory_eval``: score extraction + decisions on the scripted dialogues (see memory/eval)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from memory.eval.runner import DIALOGUES, run_eval


class Command(BaseCommand):
    help = ("Run the memory write and read paths over scripted student dialogues with a rule-based scripted "
            "model and report precision, recall, update accuracy, duplicate rate and tokens per turn.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dialogues", type=Path, default=DIALOGUES, help="dialogue file (JSON)")
        parser.add_argument("--milvus", action="store_true", help="use a temporary Milvus Lite file as the store")
        parser.add_argument("--verbose", action="store_true", help="print each dialogue's misses")

    def handle(self, *args, **options) -> None:
        log = (lambda line: self.stdout.write(f"  {line}")) if options["verbose"] else (lambda line: None)
        report = run_eval(path=options["dialogues"], milvus=options["milvus"], log=log)
        for line in report.lines():
            self.stdout.write(line)
