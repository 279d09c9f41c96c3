"""The editing benchmark still runs (tiny numbers; figures are for people, not thresholds)."""

from bench.board_bench import main


def test_the_board_benchmark_prints_a_figure_for_every_edit(capsys):
    assert main(["--repeat", "1", "--number", "20"]) == 0

    printed = capsys.readouterr().out
    for label in ("place (", "move (order allowed)", "swap (", "embed (", "Board(...) for a 7-day window"):
        assert label in printed
