"""Building blocks of the planner; `schedule.core.planner` is the entry point.

problem      plain values of the engine (named tuples) and grid constants
candidates   the usable 2-section pairs of the grid and each class's candidate list
sharing      how many items each class places: a fair maximum flow over shared pairs,
             then a ledger that keeps those counts reachable while pairs are chosen
placement    which pairs the classes take, least slack first
spreading    even targets, and polishing with the pairs left free
engine       the steps above, from a Problem to per-class outcomes
report       result rows: placements in item order, unplaced items with reasons, figures
contract     the JSON contract of ../shared/bench/planner/instance_format.md
cli          `python -m schedule.core.planner`: stdin to stdout, no dataclasses imported
model        frozen dataclasses of the Python API
adapters     dataclasses <-> engine values and JSON
"""
