"""Time per test family, printed at the end of every run (issue 33: where the suite's minutes go).

A family is a top-level folder of tests/ (``browser``, ``reliability`` …), a sub-package of tests/services
(``services/graph`` …), or ``top level`` for the files directly in tests/. Its time is the sum of its tests'
setup, call and teardown durations, so a session fixture's start counts for the family of the first test
that asks for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def family_of(nodeid: str) -> str:
    parts = nodeid.split("::")[0].split("/")
    if len(parts) < 3 or parts[0] != "tests":
        return "top level"
    if parts[1] == "services" and len(parts) >= 4:
        return f"services/{parts[2]}"
    return parts[1]


def family_seconds(reports: Iterable[Any]) -> dict[str, tuple[float, int]]:
    """Per family: seconds summed over every phase's report, and the number of tests (their call phases)."""
    seen: set[tuple[str, str]] = set()
    times: dict[str, list[float]] = {}
    for report in reports:
        key = (report.nodeid, report.when)
        if not report.nodeid or key in seen:
            continue
        seen.add(key)
        entry = times.setdefault(family_of(report.nodeid), [0.0, 0])
        entry[0] += report.duration
        entry[1] += report.when == "call"
    return {name: (round(sec, 1), int(n)) for name, (sec, n) in sorted(times.items(), key=lambda kv: -kv[1][0])}


def family_lines(reports: Iterable[Any]) -> list[str]:
    table = family_seconds(reports)
    total = sum(sec for sec, _n in table.values())
    lines = [f"{name:<22} {sec:>8.1f} s  {n:>5} tests" for name, (sec, n) in table.items()]
    return lines + [f"{'all families':<22} {total:>8.1f} s  {sum(n for _s, n in table.values()):>5} tests"]
