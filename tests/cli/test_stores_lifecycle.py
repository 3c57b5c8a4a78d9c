"""`rag stores status|stop`: the embedded servers outlive the processes that start them, and can be seen and stopped.

Runs `rag` as real subprocesses on a data folder of its own (never the session's servers).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from services.settings import Settings
from services.stores.postgres import application_name, create_db_engine

ROOT = Path(__file__).resolve().parents[2]
EXTERNAL = ("DATABASE_URL", "RAG_FALKORDB_URL")


@pytest.fixture
def folder():
    path = Path(tempfile.mkdtemp(prefix="rag-life-"))  # short: the FalkorDB socket path has a length limit
    yield path
    _rag("stores", "stop", "--force", data_dir=path)
    shutil.rmtree(path, ignore_errors=True)


def _rag(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in EXTERNAL}
    env.update(RAG_DATA_DIR=str(data_dir), HF_HUB_OFFLINE="1")
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def _status(data_dir: Path) -> dict[str, dict]:
    done = _rag("stores", "status", "--json", data_dir=data_dir)
    assert done.returncode == 0, done.stderr
    return {s["store"]: s for s in json.loads(done.stdout)}


def _alive(pid: int) -> bool:
    """Running, and not a zombie (a stopped server whose parent exited waits for a reaper that a
    container's init may never be)."""
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        return False


def _gone(pid: int) -> bool:
    """The process has exited, waiting for its shutdown to finish (a bound for a loaded machine)."""
    deadline = time.monotonic() + 60
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_the_embedded_stores_outlive_the_cli_and_stop_on_request(folder):
    before = _status(folder)
    assert not before["postgres"]["running"] and not before["graph"]["running"]
    assert not (folder / "pg").exists(), "status started a server"

    created = _rag("collection", "create", "kept", "--description", "Outlives the stores.", data_dir=folder)
    assert created.returncode == 0, created.stderr
    # creating a collection opens PostgreSQL only (the graph store opens on its first query): a graph lookup
    looked = _rag("graph", "relationships", "Nobody", "-c", "kept", data_dir=folder)
    assert looked.returncode == 3, looked.stderr  # not found, but the graph store was opened for it
    after = _status(folder)  # the process that started them has exited; they run on
    pg, graph = after["postgres"], after["graph"]
    assert pg["kind"] == graph["kind"] == "embedded"
    assert pg["running"] and _alive(pg["pid"]) and pg["processes"] == []
    assert graph["running"] and _alive(graph["pid"]) and graph["clients"] == 0
    human = _rag("stores", "status", data_dir=folder).stdout
    assert f"PostgreSQL: embedded, running (pid {pg['pid']}) at {folder / 'pg'}; no other workbench process" in human

    engine = create_db_engine(Settings(data_dir=folder))  # this test process now uses them too
    try:
        with engine.connect():
            me = application_name().split(" ", 1)[1]  # "pytest pid N"
            assert _status(folder)["postgres"]["processes"] == [me]
            refused = _rag("stores", "stop", data_dir=folder)
            assert refused.returncode == 4, refused.stderr
            assert f"Error: The embedded stores are in use by {me}. Stop those first" in refused.stderr
            assert _status(folder)["postgres"]["running"]
    finally:
        engine.dispose()

    stopped = _rag("stores", "stop", "--json", data_dir=folder)
    assert stopped.returncode == 0, stopped.stderr
    assert json.loads(stopped.stdout) == {"stopped": ["graph", "postgres"]}
    assert _gone(pg["pid"]) and _gone(graph["pid"])
    gone = _status(folder)
    assert not gone["postgres"]["running"] and not gone["graph"]["running"]
    again = _rag("collection", "list", "--json", data_dir=folder)  # the next command brings them back, data kept
    assert again.returncode == 0 and [c["name"] for c in json.loads(again.stdout)] == ["kept"], again.stderr
    # a listing opens PostgreSQL only: the graph server stays stopped until something queries the graph
    assert _rag("stores", "stop", "--force", data_dir=folder).stdout.strip() == "Stopped: postgres."


def test_external_stores_are_reported_and_never_stopped(folder):
    env_url = "postgresql://rag:hunter2-secret@127.0.0.1:9/rag"
    done = subprocess.run([sys.executable, "-m", "cli", "stores", "stop", "--json"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "RAG_DATA_DIR": str(folder), "DATABASE_URL": env_url,
                                                       "RAG_FALKORDB_URL": "redis://:fk-secret-pw@127.0.0.1:9"})
    assert done.returncode == 0 and json.loads(done.stdout) == {"stopped": []}, done.stderr
    shown = subprocess.run([sys.executable, "-m", "cli", "stores", "status"], cwd=ROOT, capture_output=True, text=True,
                           timeout=300, env={**os.environ, "RAG_DATA_DIR": str(folder), "DATABASE_URL": env_url,
                                             "RAG_FALKORDB_URL": "redis://:fk-secret-pw@127.0.0.1:9"})
    assert shown.stdout.splitlines() == [
        "PostgreSQL: external at postgresql://rag:********@127.0.0.1:9/rag (not started or stopped by the workbench)",
        "graph: external at redis://:********@127.0.0.1:9 (not started or stopped by the workbench)",
    ], shown.stdout + shown.stderr
