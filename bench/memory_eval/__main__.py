"""Score memory extraction and decisions on scripted student dialogues.

    python -m bench.memory_eval [--dialogues FILE ...] [--v2] [--no-gate] [--careless] [--milvus] [--verbose]

Runs the memory write and read paths over the dialogues with a rule-based scripted model on a fresh
migrated database and prints precision, recall, update accuracy, duplicates and tokens per turn
(v1), or per session and language also forget correctness, leaks and recall probes (v2). Without
``--dialogues`` it runs the first set (``dialogues.json``); ``--v2`` runs the v2 tuning and held-out
files. ``--no-gate`` switches the write gate off, to score what it changes; ``--careless`` uses a
scripted model that proposes what a careless model would.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.memory_eval", description=__doc__.split("\n")[0])
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
    return parser.parse_args(argv)


def report_lines(options: argparse.Namespace, log: Callable[[str], None]) -> list[str]:
    """Run every chosen dialogue file (Django set up, a database ready) and return the report's lines."""
    from bench.memory_eval.runner import DIALOGUES, Report, run_eval
    from bench.memory_eval.runner_v2 import V2_FILES, ReportV2, run_eval_v2

    lines: list[str] = []
    for path in [*(options.dialogues or []), *(V2_FILES if options.v2 else [])] or [DIALOGUES]:
        report: Report | ReportV2
        if _is_v2(path):
            report = run_eval_v2(path=path, milvus=options.milvus, gate=not options.no_gate,
                                 careless=options.careless, log=log)
        else:
            report = run_eval(path=path, milvus=options.milvus, log=log)
        lines.extend(report.lines())
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    from bench.harness import bench_database, django_setup_for_bench

    options = arguments(argv)
    django_setup_for_bench()
    log = (lambda line: print(f"  {line}")) if options.verbose else (lambda line: None)
    with bench_database():
        for line in report_lines(options, log):
            print(line)
    return 0


def _is_v2(path: Path) -> bool:
    return json.loads(Path(path).read_text(encoding="utf-8")).get("format") == "smartmate-memory-eval/2"


if __name__ == "__main__":
    sys.exit(main())
