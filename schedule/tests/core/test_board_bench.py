"""The editing benchmark still runs (tiny numbers; figures are for people, not thresholds)."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench" / "board_bench.py"


def test_the_board_benchmark_prints_a_figure_for_every_edit(capsys):
    spec = importlib.util.spec_from_file_location("board_bench", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)

    assert bench.main(["--repeat", "1", "--number", "20"]) == 0

    printed = capsys.readouterr().out
    for label in ("place (", "move (order allowed)", "swap (", "embed (", "Board(...) for a 7-day window"):
        assert label in printed
