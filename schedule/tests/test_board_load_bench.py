"""The board-loading benchmark still runs (tiny numbers; figures are for people, not thresholds)."""

from bench.board_load_bench import report


def test_the_loading_benchmark_prints_a_figure_for_every_board(db):
    from smartmate.demo import seed_demo

    user, _summary = seed_demo()

    lines = report(user, repeat=2)

    assert [line.split(",")[0] for line in lines] == ["board_load", "board_load", "working_load", "preview_board"]
    assert all(" ms " in line and "queries" in line for line in lines)
