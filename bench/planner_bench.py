"""Benchmark the planner against the baseline planner: the public set, then 50 freshly generated instances.

    python -m bench.planner_bench [--repeat 3] [--inner 21] [--only public|generated] [--keep DIR]
                                  [--seed-base N] [--batches 1]

The benchmark kit (validator, oracle, baseline, generator, runner) is not part of this repository:
it is read from BENCH_DIR, and docs/planner-contract.md says what it checks.  For each set it runs
the kit's run.py (validity, placed/oracle, steady evenness, rapid earliness, time ratio) with
`python -m schedule.core.planner` from the repository root, which times whole processes
(interpreter start-up, imports, JSON in and out, planning), and then times `plan()` alone in
this process on the same instances (`--inner` runs each, after one warm-up run; the instance is
read before the clock starts).  Both timings are printed side by side per instance, with their
totals.  The first set is the kit's public one; then come `--batches` batches of 50 made by its
gen.py (a mix of small, medium, large and tight) in a temporary directory.  Each batch draws a
fresh seed base at run time, because twenty public instances or one fixed batch are easy to tune
to; the base is printed, and `--seed-base N` repeats a batch exactly.  Every set gets its own
summary, plus a line per size (the kit's summary mixes them).
Both planners run on the interpreter running this script, so the time ratio is fair.
"""
from __future__ import annotations

import argparse
import compileall
import json
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from schedule.core.planning import instance_from_json, plan

REPO_ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = REPO_ROOT.parent / "shared" / "bench" / "planner"

# (size, count): 50 instances per batch; the seeds are base, base + 1, ... for every size (gen.py
# seeds its generator with "size:seed", so the sizes do not share draws).
GENERATED_MIX = (("small", 12), ("medium", 14), ("large", 10), ("tight", 14))
# Fresh bases are drawn above the public set's seeds (1001-1020) and the old fixed ones (5001-5314).
FRESH_SEED_RANGE = (100_000, 1_000_000_000)


@dataclass(frozen=True)
class InProcessTiming:
    """Milliseconds of `plan()` alone on one instance, over several runs."""

    min_ms: float
    median_ms: float


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark(s) and print the summaries; return 0 if every planner result was valid."""
    args = _parse_args(argv)
    if not (BENCH_DIR / "run.py").is_file():
        print(f"benchmark not found at {BENCH_DIR}", file=sys.stderr)
        return 2
    _compile_planner()
    summaries: dict[str, list[str]] = {}
    status = 0
    if args.only in (None, "public"):
        code, summaries["public set (20 instances)"] = _bench_set(BENCH_DIR / "public", args)
        status |= code
    if args.only in (None, "generated"):
        for base in _seed_bases(args):
            print(f"\n=== generated batch: gen.py seed base {base} (repeat with --seed-base {base})")
            with tempfile.TemporaryDirectory(prefix="planner-bench-") as scratch:
                folder = Path(args.keep) / f"base_{base}" if args.keep else Path(scratch)
                folder.mkdir(parents=True, exist_ok=True)
                count = _generate(folder, base)
                title = f"generated batch ({count} instances, gen.py seed base {base})"
                code, summaries[title] = _bench_set(folder, args)
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
    parser.add_argument("--inner", type=int, default=21, help="in-process runs of plan() per instance")
    parser.add_argument("--only", choices=["public", "generated"], help="run one of the two sets")
    parser.add_argument("--keep", help="write the generated instances here instead of a temporary directory")
    parser.add_argument("--seed-base", type=int, help="generate the batch from this seed base instead of a fresh one")
    parser.add_argument("--batches", type=int, default=1, help="fresh generated batches of 50 to run")
    return parser.parse_args(argv)


def _compile_planner() -> None:
    """Write the planner's bytecode cache, so every timed process starts as an installed planner does.

    Python writes it on the first import, unless PYTHONDONTWRITEBYTECODE is set (as in some
    sandboxes): then each of the bench's hundreds of processes would recompile every module
    edited since the cache was last written, timing the compiler instead of the planner.
    """
    compileall.compile_dir(REPO_ROOT / "schedule" / "core", quiet=1)


def _seed_bases(args: argparse.Namespace) -> list[int]:
    """Return the seed base of every batch: the one asked for, or fresh ones drawn now."""
    if args.seed_base is not None:
        return [args.seed_base]
    # SystemRandom, not the seeded module generator: each run must see instances nobody tuned to.
    draw = random.SystemRandom()
    return [draw.randrange(*FRESH_SEED_RANGE) for _ in range(max(args.batches, 1))]


def _generate(folder: Path, base: int) -> int:
    """Write the batch of seed base `base` into `folder`; return how many instances there are."""
    jobs = [(size, seed) for size, count in GENERATED_MIX for seed in range(base, base + count)]

    def make(job: tuple[str, int]) -> None:
        size, seed = job
        subprocess.run([sys.executable, str(BENCH_DIR / "gen.py"), "--seed", str(seed), "--size", size,
                        "--out", str(folder / f"g_{size}_{seed}.json")], check=True, cwd=BENCH_DIR)

    # Each file depends only on its seed, so generating in parallel changes nothing.
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(make, jobs))
    return len(jobs)


def _bench_set(instances: Path, args: argparse.Namespace) -> tuple[int, list[str]]:
    """Time one folder whole-process and in-process; print both per instance; return status and summary."""
    # In-process first: right after hundreds of short processes the same runs measure up to a third slower.
    timings = {path.stem: _time_in_process(path, args.inner) for path in sorted(instances.glob("*.json"))}
    code, summary, rows = _run_bench(instances, args.repeat)
    lines = _timing_table(rows, timings)
    print("\n".join(lines))
    return code, summary + lines[-2:] + _per_size_lines(rows)


def _per_size_lines(rows: list[dict]) -> list[str]:
    """Return one line of figures per instance size (the size is part of every instance file name)."""
    sizes: dict[str, list[dict]] = {}
    for row in rows:
        size = next((z for z, _ in GENERATED_MIX if z in row["instance"]), "other")
        sizes.setdefault(size, []).append(row)
    return [_size_line(size, group) for size, group in sizes.items()]


def _size_line(size: str, rows: list[dict]) -> str:
    """Summarise one size like run.py does: validity, placed/oracle, paired evenness and earliness."""
    valid = sum(row["planner"]["valid"] for row in rows)
    ratio = statistics.mean((row["planner"]["metrics"] or {}).get("placed_over_oracle", 0.0)
                            if row["planner"]["valid"] else 0.0 for row in rows)
    ev_p, ev_b = _paired(rows, "evenness_cv")
    ea_p, ea_b = _paired(rows, "earliness")
    worst = [m.get("steady_max_per_day") for m in (row["planner"]["metrics"] for row in rows) if m]
    worst_days = [w for w in worst if w is not None]
    return (f"  {size:<7} n={len(rows):<3} valid {valid}/{len(rows)}  placed/oracle {ratio:.3f}  "
            f"evenness {_mean_text(ev_p)} vs {_mean_text(ev_b)} ({len(ev_p)} steady)  "
            f"earliness {_mean_text(ea_p, 3)} vs {_mean_text(ea_b, 3)} ({len(ea_p)} rapid)  "
            f"worst steady items/day {max(worst_days) if worst_days else '-'}")


def _paired(rows: list[dict], key: str) -> tuple[list[float], list[float]]:
    """Return the planner's and the baseline's values of a class measure, over classes both placed."""
    ours, theirs = [], []
    for row in rows:
        mine, base = row["planner"]["metrics"], row["baseline"]["metrics"]
        if not (mine and base):
            continue
        by_id = {c["id"]: c for c in base["classes"]}
        for figure in mine["classes"]:
            other = by_id.get(figure["id"])
            if other and figure.get(key) is not None and other.get(key) is not None:
                ours.append(figure[key])
                theirs.append(other[key])
    return ours, theirs


def _mean_text(values: list[float], digits: int = 2) -> str:
    """Return the mean of values, or '-' for none."""
    return f"{statistics.mean(values):.{digits}f}" if values else "-"


def _run_bench(instances: Path, repeat: int) -> tuple[int, list[str], list[dict]]:
    """Run run.py on one folder, echoing its output; return its status, summary lines and per-instance rows."""
    planner = f"{shlex.quote(sys.executable)} -m schedule.core.planner"
    with tempfile.TemporaryDirectory(prefix="planner-run-") as scratch:
        details = Path(scratch) / "details.json"
        command = [sys.executable, str(BENCH_DIR / "run.py"), "--planner", planner, "--cwd", str(REPO_ROOT),
                   "--instances", str(instances), "--repeat", str(repeat), "--json-out", str(details)]
        completed = subprocess.run(command, cwd=BENCH_DIR, capture_output=True, text=True)
        rows = json.loads(details.read_text(encoding="utf-8"))["instances"] if details.is_file() else []
    print(completed.stdout, end="")
    print(completed.stderr, end="", file=sys.stderr)
    lines = completed.stdout.splitlines()
    # The summary is everything after the last dashed rule of the table.
    rules = [i for i, line in enumerate(lines) if line and set(line) == {"-"}]
    return completed.returncode, lines[rules[-1] + 1:] if rules else lines[-5:], rows


def _time_in_process(path: Path, runs: int) -> InProcessTiming:
    """Time `plan()` alone on one instance file: a warm-up run, then `runs` timed runs."""
    instance = instance_from_json(json.loads(path.read_text(encoding="utf-8")))
    plan(instance)
    times = []
    for _ in range(max(runs, 1)):
        started = time.perf_counter()
        plan(instance)
        times.append((time.perf_counter() - started) * 1000.0)
    return InProcessTiming(min_ms=min(times), median_ms=statistics.median(times))


def _timing_table(rows: list[dict], timings: dict[str, InProcessTiming]) -> list[str]:
    """Return the per-instance whole-process and in-process times, then two summary lines."""
    head = (f"{'instance':<26} | {'process ms P/B':>15} | {'planning_ms P':>13} | "
            f"{'plan() in-process ms min/median':>31}")
    lines = ["", "whole process (run.py, median of --repeat) beside plan() alone in this process", head,
             "-" * len(head)]
    proc_p = proc_b = 0.0
    for row in rows:
        timing = timings.get(row["instance"])
        if timing is None:
            continue
        proc_p += row["planner"]["proc_ms"]
        proc_b += row["baseline"]["proc_ms"]
        lines.append(f"{row['instance']:<26} | {row['planner']['proc_ms']:>7.1f}/{row['baseline']['proc_ms']:<7.1f} | "
                     f"{row['planner']['plan_ms']:>13.2f} | {timing.min_ms:>15.2f}/{timing.median_ms:<15.2f}")
    lines.append("-" * len(head))
    medians = [t.median_ms for t in timings.values()]
    mins = [t.min_ms for t in timings.values()]
    lines.append(f"in-process plan() over {len(timings)} instances: total {sum(mins):.1f} ms (sum of minima), "
                 f"{sum(medians):.1f} ms (sum of medians); per instance median {statistics.median(medians):.2f} ms, "
                 f"max {max(medians):.2f} ms")
    lines.append(f"whole-process total: planner {proc_p / 1000:.2f} s, baseline {proc_b / 1000:.2f} s "
                 f"(ratio {proc_p / proc_b if proc_b else float('nan'):.2f}x); planning is "
                 f"{100 * sum(medians) / proc_p if proc_p else float('nan'):.1f}% of the planner's process time")
    return lines


if __name__ == "__main__":
    sys.exit(main())
