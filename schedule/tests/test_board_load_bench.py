"""The board-loading benchmark still runs (tiny numbers; figures are for people, not thresholds)."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "board_load_bench.py"


def test_the_loading_benchmark_prints_a_figure_for_every_board(db):
    from smartmate.demo import seed_demo

    spec = importlib.util.spec_from_file_location("board_load_bench", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    user, _summary = seed_demo()

    lines = bench.report(user, repeat=2)

    assert [line.split(",")[0] for line in lines] == ["board_load", "board_load", "working_load", "preview_board"]
    assert all(" ms " in line and "queries" in line for line in lines)
