"""Crash consistency: SIGKILL a multi-file ingest at random points, then check both stores and re-run.

Eight short Wikipedia passages, which together yield facts. Twenty seeded kills
of the ingesting process (the stores keep running, as when the app or a CLI run
is killed), and a few where the embedded PostgreSQL and FalkorDB are killed with
it and must come back over their stale pid and socket files. After each kill:
every document is whole in both stores or marked failed; nothing is orphaned;
re-running the same ingest completes the set with no duplicates and the same
facts as an uninterrupted run.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil
import pytest

from services.ingest.requests import directory_request
from tests.reliability.consistency import problems, snapshot

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
# The external-server pass (make test's second run; tests/conftest.py sets DATABASE_URL before collection)
# repeats 6 of the 20 kill points: the same checks over TCP, within CI's time budget.
KILLS = 6 if os.environ.get("DATABASE_URL") else 20
SERVER_KILLS = 3
FILES = 8


def _child(command: str, collection: str, directory: Path, data_dir: Path) -> subprocess.Popen:
    env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen([sys.executable, "-m", "tests.reliability.crash_child", command, collection, str(directory)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def _wait_started(proc: subprocess.Popen) -> float:
    """Block until the child says its ingest job runs; return that moment."""
    line = proc.stdout.readline()  # type: ignore[union-attr]
    assert line.strip() == "STARTED", f"the ingest child did not start (exit {proc.poll()}, said {line!r})"
    return time.monotonic()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, shared_data) -> Path:
    """Eight real Wikipedia passages of hotpotqa-100, one file each, named after their titles. (Until issue 29's
    round 12 these were the openings of eight addresses; its rules left them no fact, and a reference with no
    fact checks nothing of the graph.)"""
    folder = tmp_path_factory.mktemp("crash-corpus")
    passages = json.loads((shared_data / "hotpotqa-100" / "corpus.json").read_text(encoding="utf-8"))
    for title in sorted(passages)[::120][:FILES]:
        name = re.sub(r"\W+", " ", title).strip()
        (folder / f"{name}.txt").write_text("".join(passages[title]), encoding="utf-8")
    assert len(list(folder.glob("*.txt"))) == FILES
    return folder


@pytest.fixture(scope="module")
def reference(services, corpus, data_dir) -> dict:
    """An uninterrupted run in a child process: its duration and the facts each title yields."""
    name = f"crash-ref-{uuid.uuid4().hex[:6]}"
    services.collections.create(name=name, description="Uninterrupted reference run.")
    proc = _child("ingest", name, corpus, data_dir)
    started = _wait_started(proc)
    assert proc.wait(timeout=600) == 0
    duration = time.monotonic() - started
    state = snapshot(services, name)
    assert problems(state, allow_failed=False) == []
    facts = {d["title"]: state["facts"].get(d["id"], 0) for d in state["docs"]}
    assert len(facts) == FILES and sum(facts.values()) > 0
    yield {"duration": duration, "facts": facts}
    services.deletion.delete_collection(name)


def _check_recovered(state: dict, reference: dict) -> None:
    state = {**state, "facts": {int(k): v for k, v in state["facts"].items()}}  # JSON made the keys strings
    assert problems(state, allow_failed=False) == []
    got = {d["title"]: state["facts"].get(d["id"], 0) for d in state["docs"]}
    assert got == reference["facts"], "after the re-run every title has the facts of an uninterrupted run"


@pytest.mark.parametrize("seed", range(KILLS))
def test_kill_ingest_then_rerun(seed, services, corpus, reference, data_dir):
    rng = random.Random(seed)
    name = f"crash-{seed}-{uuid.uuid4().hex[:6]}"
    services.collections.create(name=name, description="Killed mid-ingest.")
    try:
        proc = _child("ingest", name, corpus, data_dir)
        _wait_started(proc)
        time.sleep(rng.uniform(0.0, reference["duration"]))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)

        services.jobs.reap_stale()
        after_kill = snapshot(services, name)
        assert problems(after_kill) == [], f"inconsistent after the kill (seed {seed})"
        assert len(after_kill["docs"]) <= FILES

        result = services.ingestion.run(directory_request(name, str(corpus), settings=services.settings))
        assert result.status == "done"
        assert result.count("failed") == 0, result.items
        _check_recovered(snapshot(services, name), reference)
    finally:
        services.deletion.delete_collection(name)


def _kill_stores(data_dir: Path) -> int:
    """SIGKILL the embedded PostgreSQL (postmaster and backends) and FalkorDB of ``data_dir``."""
    pgdata, falkor = str(data_dir / "pg"), data_dir / "falkordb" / "redis.pid"
    victims = [p for p in psutil.process_iter(["cmdline"]) if pgdata in " ".join(p.info["cmdline"] or [])]
    postmaster = int((data_dir / "pg" / "postmaster.pid").read_text().split()[0])
    victims += psutil.Process(postmaster).children(recursive=True) + [psutil.Process(postmaster)]
    victims.append(psutil.Process(int(falkor.read_text().strip())))
    for proc in {p.pid: p for p in victims}.values():
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(victims, timeout=30)
    return len(victims)


@pytest.mark.embedded_only
@pytest.mark.parametrize("seed", range(SERVER_KILLS))
def test_kill_ingest_and_stores_then_restart(seed, corpus, reference, tmp_path_factory):
    """The stores die with the ingest (as in a power cut); a fresh process brings them back and completes."""
    from services.stores.embedded_postgres import stop_embedded_postgres
    from services.stores.graph_store import stop_embedded_falkordb

    rng = random.Random(1000 + seed)
    data_dir = Path(tmp_path_factory.mktemp(f"crash-stores-{seed}"))
    name = "killed-with-stores"
    try:
        boot = subprocess.run([sys.executable, "-m", "cli", "collection", "create", name, "--description", "x"],
                              cwd=ROOT, env={**os.environ, "RAG_DATA_DIR": str(data_dir)},
                              capture_output=True, text=True, timeout=300)
        assert boot.returncode == 0, boot.stderr
        proc = _child("ingest", name, corpus, data_dir)
        _wait_started(proc)
        time.sleep(rng.uniform(0.0, reference["duration"]))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert _kill_stores(data_dir) >= 2
        assert (data_dir / "pg" / "postmaster.pid").exists(), "a stale pid file is what we recover from"

        rerun = _child("rerun", name, corpus, data_dir)
        out, _ = rerun.communicate(timeout=600)
        assert rerun.returncode == 0, out
        report = json.loads(out.strip().splitlines()[-1])
        assert report["before_problems"] == []
        assert report["status"] == "done"
        _check_recovered(report["after"], reference)
    finally:
        stop_embedded_falkordb(data_dir)
        stop_embedded_postgres(data_dir)
