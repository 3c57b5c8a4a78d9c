"""Schema upgrades keep data: the stores written by the release at ba23b54 (schema v5) open in this code.

tests/fixtures/upgrade_v5/ was made by that release's own `rag` (scripts/make_upgrade_fixture.py):
its PostgreSQL as a pg_dump, its FalkorDB as the append-only files the embedded server keeps, and
what the release read back through its CLI (expected.json). Here a fresh embedded PostgreSQL gets
the dump and the FalkorDB starts on the files, in a data folder of their own; every table and the
whole graph are read raw; then this code starts on the folder (applying every newer migration),
and (1) every row of every v5 table and every node and edge of the graph read back the same,
(2) this code's CLI reads back what the release's CLI did (new fields may be added, none lost or
changed), (3) the conversation, the diagrams and the graph counts are there through the services.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from services.settings import Settings

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "upgrade_v5"
V5 = 5
VOLATILE = {"timings_ms"}  # measured per run, not data
# Derived from the stored text, recomputed by this code's migrations and upgrade job (services/upgrade.py):
# v5 generated chunks.tsv from the text alone; this code folds accents and weighs in the title and heading.
DERIVED = {"chunks": {"tsv"}}


def _settings(folder: Path) -> Settings:
    return Settings(data_dir=folder, database_url=None, falkordb_url=None, neo4j_uri=None)


def _restore_dump(folder: Path) -> str:
    """A fresh embedded PostgreSQL in ``folder`` with the release's dump loaded; its SQLAlchemy URL."""
    import pgserver

    from services.stores.embedded_postgres import start_embedded_postgres

    url = start_embedded_postgres(folder)
    lines = (folder / "pg" / "postmaster.pid").read_text().splitlines()
    psql = Path(pgserver.__file__).parent / "pginstall" / "bin" / "psql"
    done = subprocess.run([str(psql), "-h", lines[4], "-p", lines[3], "-U", "postgres", "-d", "postgres", "-q",
                           "-v", "ON_ERROR_STOP=1", "-f", "-"], input=gzip.decompress((FIXTURE / "postgres.sql.gz").read_bytes()),
                          capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return url


def _tables(conn: sa.Connection) -> dict[str, list[str]]:
    rows = conn.execute(sa.text("SELECT table_name, column_name FROM information_schema.columns "
                                "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position")).all()
    out: dict[str, list[str]] = {}
    for table, column in rows:
        if column not in DERIVED.get(table, ()):
            out.setdefault(table, []).append(column)
    return out


def _rows(conn: sa.Connection, table: str, columns: list[str]) -> list[tuple[Any, ...]]:
    cols = ", ".join(f'"{c}"::text' for c in columns)
    return [tuple(r) for r in conn.execute(sa.text(f'SELECT {cols} FROM "{table}" ORDER BY 1, 2'))]


def _graph(store: Any) -> dict[str, list[Any]]:
    nodes = store.query("MATCH (n) RETURN labels(n) AS labels, properties(n) AS props")
    edges = store.query("MATCH (a)-[r]->(b) RETURN type(r) AS type, properties(r) AS props, "
                        "properties(a) AS a, properties(b) AS b")
    key = lambda row: json.dumps(row, sort_keys=True, default=str)  # noqa: E731
    return {"nodes": sorted(nodes, key=key), "edges": sorted(edges, key=key)}


def _contained(old: Any, new: Any, where: str = "") -> list[str]:
    """Where ``old`` (the release's reading) is not found unchanged in ``new`` (ours, which may add keys)."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{where}: {new!r} is not an object"]
        problems = []
        for k, v in old.items():
            if k in VOLATILE:
                continue
            if k not in new:
                problems.append(f"{where}.{k}: missing")
            else:
                problems += _contained(v, new[k], f"{where}.{k}")
        return problems
    if isinstance(old, list) and where.endswith(".segments"):  # the passage must read the same; which words are
        text = "".join(str(seg[0]) for seg in old)  # marked is the highlighter's, which now marks forms of a query
        now = "".join(str(seg[0]) for seg in new) if isinstance(new, list) else None  # word, not words that only
        return [] if text == now else [f"{where}: the passage's text changed"]  # share its stem ("explore")
    if isinstance(old, list):
        if not isinstance(new, list) or len(old) != len(new):
            return [f"{where}: {len(old)} items, now {new!r:.200}"]
        return [p for i, (o, n) in enumerate(zip(old, new)) for p in _contained(o, n, f"{where}[{i}]")]
    if isinstance(old, float) and isinstance(new, float):  # a score: the model now runs on transformers
        return [] if abs(old - new) <= 1e-5 else [f"{where}: {old!r} became {new!r}"]  # directly (diff < 1e-6)
    return [] if old == new else [f"{where}: {old!r:.120} became {new!r:.120}"]


@pytest.fixture(scope="module")
def release_folder():
    if not (FIXTURE / "postgres.sql.gz").is_file():
        pytest.fail("tests/fixtures/upgrade_v5 is missing (python -m scripts.make_upgrade_fixture)")
    folder = Path(tempfile.mkdtemp(prefix="rag-upg-"))
    shutil.copytree(FIXTURE / "falkordb", folder / "falkordb")
    yield folder
    from services.stores.embedded_postgres import stop_embedded_postgres
    from services.stores.graph_store import stop_embedded_falkordb

    stop_embedded_falkordb(folder)
    stop_embedded_postgres(folder)
    shutil.rmtree(folder, ignore_errors=True)


def _rag(folder: Path, *args: str) -> Any:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "RAG_FALKORDB_URL")}
    env.update(RAG_DATA_DIR=str(folder), HF_HUB_OFFLINE="1")
    done = subprocess.run([sys.executable, "-m", "cli", *args, "--json"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_release_data_reads_back_the_same_after_the_migrations(release_folder, services):
    from services.container import build_services
    from services.stores.graph_store import create_graph_store
    from services.stores.postgres import latest_schema_version

    folder = release_folder
    engine = sa.create_engine(_restore_dump(folder), poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT max(version) FROM schema_migrations")).scalar_one() == V5
        tables = _tables(conn)
        before = {t: _rows(conn, t, cols) for t, cols in tables.items()}
    graph_store = create_graph_store(_settings(folder))
    graph_before = _graph(graph_store)
    graph_store.close()
    expected = json.loads((FIXTURE / "expected.json").read_text(encoding="utf-8"))
    counted = {t: len(rows) for t, rows in before.items()}
    assert counted["documents"] >= 6 and counted["chunks"] > 20 and counted["diagrams"] >= 1, counted
    assert counted["crawls"] >= 1 and counted["turns"] >= 4 and counted["memory_facts"] >= 1, counted
    assert len(graph_before["edges"]) > 20, "the release wrote graph facts"

    svc = build_services(_settings(folder), embedder=services.embedder)  # this code: the newer migrations run
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT max(version) FROM schema_migrations")).scalar_one() == \
                latest_schema_version() > V5
            for table, columns in tables.items():
                after = _rows(conn, table, columns)
                if table == "schema_migrations":
                    after = [r for r in after if int(r[0]) <= V5]
                assert after == before[table], f"table {table} changed in the upgrade"
        assert _graph(svc.graph_store) == graph_before
        # the BM25 postings and the walk graph of the old rows are derived by the upgrade job, not re-ingested
        assert svc.upgrade.needed()
        assert svc.upgrade.run().total == 0 and not svc.upgrade.needed()
        assert svc.search.search("nuclear weapons", collections=["speeches"], mode="keyword").hits

        by_name = {c["name"]: c for c in expected["collections"]}
        for collection in svc.collections.list():
            assert collection.document_count == by_name[collection.name]["document_count"]
            assert collection.chunk_count == by_name[collection.name]["chunk_count"]
        speeches = svc.collections.get("speeches").id
        counts = svc.graph.counts([speeches])
        assert counts["entities"] > 0 and counts["facts"] > 0, counts
        turns = svc.conversations.turns(expected["conversation"]["id"])
        answers = [t.content for t in turns if t.role == "assistant"]
        assert answers == expected["conversation"]["answers"]
        policies = next(d for d in expected["documents"]["policies"])
        diagrams = svc.diagrams.for_document(policies["id"])
        assert diagrams and svc.diagrams.get(diagrams[0]).mermaid
    finally:
        svc.close()
        engine.dispose()

    now = {"collections": _rag(folder, "collection", "list"),
           "documents": {c["name"]: _rag(folder, "document", "list", "--collection", c["name"])
                         for c in expected["collections"]},
           "search": {q: _rag(folder, "search", q, "-c", "speeches", "--mode", "semantic") for q in expected["search"]},
           "crawls": _rag(folder, "ingest", "crawls"),
           "memory": _rag(folder, "memory", "list")}
    problems = [p for key, value in now.items() for p in _contained(expected[key], value, key)]
    assert not problems, "\n".join(problems)
