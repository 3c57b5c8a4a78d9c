"""Helpers for the concurrency suite: a real ``rag`` subprocess, racing threads, whole-document checks."""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tests.utils.ingest import wait_for_job  # noqa: F401  (re-exported for the suite)

ROOT = Path(__file__).resolve().parents[2]


def rag_process(*args: Any, data_dir: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """Start ``rag ARGS`` as its own process on the session's data folder (so on the same embedded stores)."""
    full_env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1", **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, env=full_env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen[str], timeout: float = 600) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def error_line(code: int, err: str) -> str:
    """The single ``Error:`` line a failed command printed (no traceback)."""
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, f"exit {code}: {err}"
    return lines[0]


def race(*calls: Callable[[], Any]) -> list[tuple[str, Any]]:
    """Run the calls in threads released together by a barrier; each gives ("ok", value) or ("error", exc)."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[tuple[str, Any]] = [("missing", None)] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        barrier.wait()
        try:
            outcomes[i] = ("ok", call())
        except Exception as exc:  # the outcome under test, e.g. JobInProgress
            outcomes[i] = ("error", exc)

    threads = [threading.Thread(target=run, args=(i, c), daemon=True) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    assert all(kind != "missing" for kind, _ in outcomes), outcomes
    return outcomes


def stored(services: Any, collection: str) -> list[Any]:
    """Every document of the collection with its real chunk count (one row per link)."""
    with services.engine.connect() as conn:
        return conn.execute(sa.text(
            "SELECT d.id, cd.title, d.chunk_count, d.graph_status, d.content_hash, "
            "(SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunks "
            "FROM collection_documents cd JOIN documents d ON d.id = cd.document_id "
            "JOIN collections c ON c.id = cd.collection_id WHERE c.name = :c ORDER BY cd.title"),
            {"c": collection}).all()


def assert_whole(services: Any, collection: str, expected: dict[str, str]) -> None:
    """The collection holds exactly these titles, once each, with the given text, every chunk and a done graph."""
    from services.documents import content_hash

    rows = stored(services, collection)
    assert [r.title for r in rows] == sorted(expected), [r.title for r in rows]
    for r in rows:
        assert r.content_hash == content_hash(expected[r.title]), r.title
        assert r.chunk_count == r.chunks > 0, (r.title, r.chunk_count, r.chunks)
        assert r.graph_status == "done", (r.title, r.graph_status)


def percentiles(samples: list[float]) -> dict[str, float]:
    """n, p50, p95 and max of latencies in seconds, as milliseconds (nearest-rank percentiles)."""
    ordered = sorted(samples)

    def rank(q: float) -> float:
        return ordered[max(0, math.ceil(q * len(ordered)) - 1)]

    return {"n": len(ordered), "p50_ms": round(rank(0.50) * 1000, 1), "p95_ms": round(rank(0.95) * 1000, 1),
            "max_ms": round(ordered[-1] * 1000, 1)}


def record_figures(name: str, figures: dict[str, Any]) -> Path | None:
    """Write ``docs/bench/<name>.json`` when RAG_RECORD_FIGURES=1 (measurements, never asserted)."""
    if os.environ.get("RAG_RECORD_FIGURES") != "1":
        return None
    path = ROOT / "docs" / "bench" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    stamped = {"run_at": dt.datetime.now().isoformat(timespec="seconds"), **figures}
    if hasattr(os, "getloadavg"):
        stamped["machine"] = {**figures.get("machine", {}), "load_average_1m_at_end": os.getloadavg()[0]}
    path.write_text(json.dumps(stamped, indent=2) + "\n", encoding="utf-8")
    return path
