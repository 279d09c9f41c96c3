"""Benchmark the planner against the original one: the public set, then 50 freshly generated instances.

    python bench/planner_bench.py [--repeat 3] [--only public|generated] [--keep DIR]

Runs ../shared/bench/planner/run.py (validity, placed/oracle, steady evenness, rapid
earliness, time ratio) with `python -m schedule.core.planner` from the repository root,
first on the public instances, then on instances made by gen.py with fixed seeds (a mix of
small, medium, large and tight) in a temporary directory, and prints both summaries.
Both planners run on the interpreter running this script, so the time ratio is fair.
"""
from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = REPO_ROOT.parent / "shared" / "bench" / "planner"

# (size, first seed, count): 50 instances, seeds disjoint from the public set (1001-1020).
GENERATED_MIX = (("small", 5001, 12), ("medium", 5101, 14), ("large", 5201, 10), ("tight", 5301, 14))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark(s) and print the summaries; return 0 if every planner result was valid."""
    args = _parse_args(argv)
    if not (BENCH_DIR / "run.py").is_file():
        print(f"benchmark not found at {BENCH_DIR}", file=sys.stderr)
        return 2
    summaries: dict[str, list[str]] = {}
    status = 0
    if args.only in (None, "public"):
        code, summaries["public set (20 instances)"] = _run_bench(BENCH_DIR / "public", args.repeat)
        status |= code
    if args.only in (None, "generated"):
        with tempfile.TemporaryDirectory(prefix="planner-bench-") as scratch:
            folder = Path(args.keep) if args.keep else Path(scratch)
            folder.mkdir(parents=True, exist_ok=True)
            count = _generate(folder)
            code, summaries[f"generated set ({count} instances, gen.py fixed seeds)"] = _run_bench(folder, args.repeat)
            status |= code
    print("\n=== summaries ===")
    for title, lines in summaries.items():
        print(f"--- {title}")
        print("\n".join(lines))
    return status


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Read the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per instance and planner (run.py --repeat)")
    parser.add_argument("--only", choices=["public", "generated"], help="run one of the two sets")
    parser.add_argument("--keep", help="write the generated instances here instead of a temporary directory")
    return parser.parse_args(argv)


def _generate(folder: Path) -> int:
    """Write the generated instances into `folder`; return how many there are."""
    jobs = [(size, seed) for size, first, count in GENERATED_MIX for seed in range(first, first + count)]

    def make(job: tuple[str, int]) -> None:
        size, seed = job
        subprocess.run([sys.executable, str(BENCH_DIR / "gen.py"), "--seed", str(seed), "--size", size,
                        "--out", str(folder / f"g_{size}_{seed}.json")], check=True, cwd=BENCH_DIR)

    # Each file depends only on its seed, so generating in parallel changes nothing.
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(make, jobs))
    return len(jobs)


def _run_bench(instances: Path, repeat: int) -> tuple[int, list[str]]:
    """Run run.py on one folder, echoing its output; return its status and its summary lines."""
    planner = f"{shlex.quote(sys.executable)} -m schedule.core.planner"
    command = [sys.executable, str(BENCH_DIR / "run.py"), "--planner", planner, "--cwd", str(REPO_ROOT),
               "--instances", str(instances), "--repeat", str(repeat)]
    completed = subprocess.run(command, cwd=BENCH_DIR, capture_output=True, text=True)
    print(completed.stdout, end="")
    print(completed.stderr, end="", file=sys.stderr)
    lines = completed.stdout.splitlines()
    # The summary is everything after the last dashed rule of the table.
    rules = [i for i, line in enumerate(lines) if line and set(line) == {"-"}]
    return completed.returncode, lines[rules[-1] + 1:] if rules else lines[-5:]


if __name__ == "__main__":
    sys.exit(main())
