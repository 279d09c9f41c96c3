"""Command-line adapter of the planner: one contract instance in, one contract result out.

    python -m schedule.core.planner < instance.json > result.json
    python -m schedule.core.planner instance.json > result.json

JSON -> `PlanningInstance` (the contract adapter) -> `plan()` -> JSON.  The contract and the
benchmark that runs this command are described in docs/planner-contract.md; `stats.planning_ms`
is the time of `plan()` alone.  Exit status 0, also when items stay unplaced; 2 for an unreadable
instance.  The planner itself is `schedule.core.planning`; import it from there.
"""
from __future__ import annotations

import json
import sys
import time
from typing import Any, TextIO

from schedule.core.planning.contract import InstanceError, error_payload, instance_from_json, result_to_json
from schedule.core.planning.engine import plan


def plan_json(data: object) -> dict[str, Any]:
    """Plan a contract instance object and return the contract result object, with planning_ms."""
    instance = instance_from_json(data)
    started = time.perf_counter()
    result = plan(instance)
    return result_to_json(result, planning_ms=(time.perf_counter() - started) * 1000.0)


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Read an instance (a file named in argv, else stdin), write the result on stdout; return the exit status."""
    args = sys.argv[1:] if argv is None else argv
    stdout = stdout or sys.stdout
    try:
        if args:
            with open(args[0], encoding="utf-8") as source:
                data = json.load(source)
        else:
            data = json.load(stdin or sys.stdin)
        payload, status = plan_json(data), 0
    except (OSError, ValueError, InstanceError) as error:   # no file, broken JSON or a broken contract
        print(f"planner: {error}", file=sys.stderr)
        payload, status = error_payload(str(error)), 2
    json.dump(payload, stdout, ensure_ascii=False)
    stdout.write("\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
