"""Without ../shared/data, the tests that read it skip (or run narrower) and the summary line counts them;
under CI=true they fail with a clear message instead. Run as a separate pytest on a sample test file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = '''
from tests.conftest import without_shared_data


def test_reads_the_corpus(shared_data):
    assert shared_data.is_dir()


def test_runs_narrower_without_it():
    without_shared_data("the sample's extra questions", skip=False)


def test_needs_nothing():
    pass
'''


def _run(tmp_path: Path, *, ci: str | None, workers: int = 0) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_sample.py").write_text(SAMPLE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update(PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               RAG_TEST_SHARED_DATA=str(tmp_path / "no-shared-data"))
    if ci is not None:
        env["CI"] = ci
    parallel = ["-n", str(workers)] if workers else []  # pytest-xdist: the workers' reports reach the summary
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.conftest", "-c", os.devnull, *parallel,
                           "--rootdir", str(tmp_path), "-p", "no:cacheprovider", "-q", "-rs", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("workers", [0, 2], ids=["one process", "two xdist workers"])
def test_missing_shared_data_is_counted_in_the_summary_line(tmp_path: Path, workers: int):
    done = _run(tmp_path, ci=None, workers=workers)
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert "2 passed" in last and "1 skipped" in last and "2 without ../shared/data" in last, done.stdout
    assert "needs ../shared/data" in done.stdout  # the skip's reason, listed by -rs


@pytest.mark.parametrize("ci", ["true", "1"])
def test_missing_shared_data_fails_under_ci(tmp_path: Path, ci: str):
    done = _run(tmp_path, ci=ci)
    assert done.returncode == 1, done.stdout + done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert "1 failed" in last and "1 error" in last and "1 passed" in last, done.stdout  # the fixture errs
    assert "CI=true requires it" in done.stdout
