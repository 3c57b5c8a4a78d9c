"""Offline benchmarks on the embedded stores; each writes docs/bench/<name>.json and report.py renders them.

Run them with ``make bench`` (all, then the report) or one at a time (``make bench-search``,
``python -m scripts.bench.bench_search``). None of them is a test, and none fails on speed.
"""
