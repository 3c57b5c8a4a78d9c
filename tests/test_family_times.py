"""The per-family time table printed at the end of a run (tests/utils/family_times.py)."""

from __future__ import annotations

from types import SimpleNamespace

from tests.utils.family_times import family_lines, family_of, family_seconds


def _report(nodeid: str, when: str, duration: float) -> SimpleNamespace:
    return SimpleNamespace(nodeid=nodeid, when=when, duration=duration)


def test_families_are_folders_and_service_packages():
    assert family_of("tests/browser/test_smoke.py::test_home") == "browser"
    assert family_of("tests/services/graph/test_nlp.py::test_x") == "services/graph"
    assert family_of("tests/services/conftest.py") == "services"
    assert family_of("tests/test_architecture.py::test_layers") == "top level"


def test_phases_are_summed_once_each_and_families_ranked_by_time():
    reports = [
        _report("tests/reliability/test_crash.py::test_a[0]", "setup", 9.0),
        _report("tests/reliability/test_crash.py::test_a[0]", "call", 20.0),
        _report("tests/reliability/test_crash.py::test_a[0]", "call", 20.0),  # the same report in two lists
        _report("tests/reliability/test_crash.py::test_a[0]", "teardown", 1.0),
        _report("tests/services/graph/test_x.py::test_b", "call", 2.5),
        _report("tests/services/graph/test_x.py::test_c", "call", 0.25),
        _report("", "collect", 5.0),
    ]
    assert family_seconds(reports) == {"reliability": (30.0, 1), "services/graph": (2.8, 2)}
    lines = family_lines(reports)
    assert lines[0].split() == ["reliability", "30.0", "s", "1", "tests"]
    assert lines[-1].split() == ["all", "families", "32.8", "s", "3", "tests"]
