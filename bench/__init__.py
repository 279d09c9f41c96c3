"""Benchmarks: each module runs as ``python -m bench.<name>`` from the repository root (README: Benchmarks)."""
