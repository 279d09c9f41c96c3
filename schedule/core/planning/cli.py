"""Run the planner as a program: one instance on stdin, one result on stdout (the JSON contract)."""
from __future__ import annotations

import json
import sys
import time

from schedule.core.planning.contract import (
    InstanceError,
    error_payload,
    parse_instance,
    problem_from_parsed,
    result_payload,
)
from schedule.core.planning.engine import solve
from schedule.core.planning.report import result_rows


def plan_payload(data: object) -> dict:
    """Plan a contract instance object and return the contract result object, with planning_ms."""
    problem, labels = problem_from_parsed(parse_instance(data))
    started = time.perf_counter()
    placements, unplaced, classes = result_rows(labels, solve(problem))
    return result_payload(placements, unplaced, classes, planning_ms=(time.perf_counter() - started) * 1000.0)


def main(stdin=None, stdout=None) -> int:
    """Read an instance on stdin, write the result on stdout; return 0, or 2 for an unreadable instance."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    try:
        payload = plan_payload(json.load(stdin))
        status = 0
    except (ValueError, InstanceError) as error:     # broken JSON or a broken contract
        print(f"planner: {error}", file=sys.stderr)
        payload = error_payload(str(error))
        status = 2
    json.dump(payload, stdout, ensure_ascii=False)
    stdout.write("\n")
    return status
