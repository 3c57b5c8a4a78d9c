"""Backup and restore (issue 9): an archive restored into an empty data folder gives the same hits and graph.

The corpus is real: the three dated Acme documents (so the graph has a supersession
chain) and, when ../shared/data is beside the checkout, two .docx files with
flowcharts (one drawn with shapes, one a picture). The restore into an empty data
folder runs `rag` in subprocesses that start their own embedded PostgreSQL and
FalkorDB there; those servers are stopped at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from cli.output import to_jsonable
from services.backup.format import MEMBERS, REPRODUCTION_SETTINGS
from services.ingest.requests import files_request
from tests.conftest import SHARED, without_shared_data
from tests.reliability.backup_snapshot import snapshot
from tests.utils.stories import make_acme

SECRET = "sk-test-secret-xyz"
ROOT = Path(__file__).resolve().parents[2]
DOCX = ("it-change-management-process.docx", "vendor-onboarding-checklist.docx")
SEARCHES = (("Who is the CEO of Acme?", "hybrid"), ("approve the change request", "semantic"))

pytestmark = pytest.mark.slow


# A data folder of its own runs on its own embedded stores, also in the external-server pass
# (DATABASE_URL and RAG_FALKORDB_URL point at the session's servers): a restore from external to embedded.
SERVER_VARS = ("DATABASE_URL", "RAG_DATABASE_URL", "RAG_FALKORDB_URL", "FALKORDB_URL")


def rag(*args: Any, data_dir: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``rag ARGS`` in a fresh process (the session's data folder and stores unless ``data_dir`` is given)."""
    full_env = {**os.environ, **(env or {})}
    if data_dir is not None:
        full_env["RAG_DATA_DIR"] = str(data_dir)
        for var in SERVER_VARS:
            full_env.pop(var, None)
    return subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, env=full_env,
                          capture_output=True, text=True, timeout=600)


def ok(proc: subprocess.CompletedProcess) -> Any:
    assert proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}"
    return json.loads(proc.stdout)


def error_line(proc: subprocess.CompletedProcess, code: int) -> str:
    assert proc.returncode == code, f"exit {proc.returncode}, wanted {code}: {proc.stdout} {proc.stderr}"
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.fixture(scope="module")
def corpus(services) -> Any:
    if not SHARED.is_dir():
        without_shared_data("the two flowchart .docx files of the backup", skip=False)
    name = make_acme(services)
    if SHARED.is_dir():
        files = [(n, (SHARED / "flowchart-docx" / n).read_bytes()) for n in DOCX]
        result = services.ingestion.run(files_request(name, files, settings=services.settings))
        assert result.count("ingested") == 2, result.items
    coll = services.collections.get(name)
    with services.engine.begin() as conn:  # a finished crawl's record (crawling itself is tested in tests/services/web)
        doc = conn.execute(sa.text("SELECT document_id FROM collection_documents WHERE collection_id = :c "
                                   "AND title = 'Acme 2021'"), {"c": coll.id}).scalar_one()
        crawl = conn.execute(sa.text("INSERT INTO crawls (collection_id, root_url, status, params) VALUES "
                                     "(:c, 'https://example.test/', 'done', '{\"max_pages\": 5}') RETURNING id"),
                             {"c": coll.id}).scalar_one()
        conn.execute(sa.text("INSERT INTO crawl_pages (crawl_id, url, status, document_id) VALUES "
                             "(:k, 'https://example.test/acme', 'ingested', :d)"), {"k": crawl, "d": doc})
    yield name
    services.deletion.delete_collection(name)


@pytest.fixture(scope="module")
def archive(corpus, tmp_path_factory) -> Path:
    """`rag backup` run by a process whose environment holds an API key."""
    path = tmp_path_factory.mktemp("backup") / "acme.zip"
    shown = ok(rag("config", "show", "--json", env={"OPENAI_API_KEY": SECRET}))
    assert shown["settings"]["openai_api_key"] == "********"  # the exporting process really had the key
    made = ok(rag("backup", corpus, "-o", path, "--json", env={"OPENAI_API_KEY": SECRET}))
    assert made["path"] == str(path.resolve()) and made["collections"] == [corpus]
    return path


def test_archive_holds_the_collection_and_no_secret(archive, corpus, services):
    with zipfile.ZipFile(archive) as zf:
        assert sorted(zf.namelist()) == sorted(["manifest.json", *(f"{m}.jsonl" for m in MEMBERS)])
        members = {n: zf.read(n) for n in zf.namelist()}
    manifest = json.loads(members["manifest.json"])
    assert manifest["embedding"] == {"model": services.embedder.name, "dim": services.embedder.dim}
    assert set(manifest["settings"]) == set(REPRODUCTION_SETTINGS)
    assert manifest["settings"]["chunk_size"] == services.settings.chunk_size
    counts, docx = manifest["counts"], SHARED.is_dir()
    assert counts["collections"] == 1 and counts["documents"] == 3 + 2 * docx and counts["crawl_pages"] == 1
    assert counts["facts"] >= 3 and counts["entities"] >= 4
    assert counts["diagrams"] == 3 * docx and counts["diagram_nodes"] == 19 * docx
    first_chunk = json.loads(members["chunks.jsonl"].splitlines()[0])
    assert len(first_chunk["embedding"].strip("[]").split(",")) == services.embedder.dim
    for name, data in [("archive", archive.read_bytes()), *members.items()]:
        assert SECRET.encode() not in data, f"the API key is in {name}"


@pytest.fixture
def run(services) -> Any:
    """``run(*args)``: `rag ARGS` in this process (Click's runner) on the session's services."""
    from click.testing import CliRunner

    from cli import context
    from cli.main import cli

    context.set_services(services)
    runner = CliRunner()
    yield lambda *args: runner.invoke(cli, [str(a) for a in args], prog_name="rag")
    context.set_services(None)


@pytest.fixture
def fresh_dir() -> Any:
    from services.stores.embedded_postgres import stop_embedded_postgres
    from services.stores.graph_store import stop_embedded_falkordb

    folder = Path(tempfile.mkdtemp(prefix="rag-restore-"))
    yield folder
    stop_embedded_falkordb(folder)
    stop_embedded_postgres(folder)
    shutil.rmtree(folder, ignore_errors=True)


def _hits(response: Any) -> list[tuple[str, str, float, Any, Any]]:
    return [(h["title"], h["text"], h["score"], h["semantic_score"], h["keyword_score"]) for h in response["hits"]]


def _same_hits(got: list[tuple], want: list[tuple]) -> None:
    assert [h[:2] for h in got] == [h[:2] for h in want]
    for g, w in zip(got, want):
        for a, b in zip(g[2:], w[2:]):
            assert (a is None and b is None) or abs(a - b) < 1e-6, (g, w)


def _facts(data: Any) -> list[tuple]:
    return sorted((f["relation"], f["source"], f["target"], f["valid_from"], f["valid_until"], f["status"])
                  for f in data["facts"])


def test_restore_into_an_empty_data_folder_reproduces_search_and_graph(archive, corpus, services, fresh_dir):
    from services.container import build_services
    from services.settings import Settings

    restored = ok(rag("restore", archive, "--json", data_dir=fresh_dir))
    assert restored["collections"] == [{"from": corpus, "name": corpus}] and restored["graph_restored"]
    query, mode = SEARCHES[0]  # hybrid: each hit carries its fused, semantic and keyword scores
    want = to_jsonable(services.search.search(query, collections=[corpus], mode=mode, threshold=-1.0, limit=50))
    got = ok(rag("search", query, "-c", corpus, "--mode", mode, "--threshold", "-1", "--limit", "50", "--json",
                 data_dir=fresh_dir))
    assert want["hits"] and any(h["keyword_score"] for h in want["hits"])
    _same_hits(_hits(got), _hits(want))
    want = to_jsonable(services.lookup.relationships("Acme", [corpus]))
    got = ok(rag("graph", "relationships", "Acme", "-c", corpus, "--json", data_dir=fresh_dir))
    assert _facts(got) == _facts(want)
    assert sorted(f["status"] for f in got["facts"] if f["relation"] == "ceo_of") == ["current", "superseded", "superseded"]
    want = to_jsonable(services.lookup.temporal("Acme", "2021-06", "2022", [corpus]))
    got = ok(rag("graph", "temporal", "Acme", "--from", "2021-06", "--until", "2022", "-c", corpus, "--json",
                 data_dir=fresh_dir))
    assert _facts(got) == _facts(want) and {f[1] for f in _facts(got)} == {"Bob"}

    other = build_services(Settings(data_dir=fresh_dir, database_url=None, falkordb_url=None), embedder=services.embedder)
    try:
        assert snapshot(other, corpus) == snapshot(services, corpus)  # every row, vector, diagram and fact
        for query, mode in SEARCHES[1:]:
            hits = [svc.search.search(query, collections=[corpus], mode=mode, threshold=-1.0, limit=50)
                    for svc in (other, services)]
            _same_hits(*[_hits(to_jsonable(h)) for h in hits])
    finally:
        other.close()


def test_restore_under_a_new_name_in_the_same_store(archive, corpus, services, run):
    copy = corpus + "-copy"
    try:
        result = run("restore", archive, "--as", copy, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["collections"] == [{"from": corpus, "name": copy}]
        assert snapshot(services, copy) == snapshot(services, corpus)
        original, restored = (services.collections.get(n).id for n in (corpus, copy))
        with services.engine.connect() as conn:
            shared = conn.execute(sa.text(
                "SELECT count(*) FROM collection_documents a JOIN collection_documents b ON a.document_id = b.document_id "
                "WHERE a.collection_id = :a AND b.collection_id = :b"), {"a": original, "b": restored}).scalar_one()
            vectors = conn.execute(sa.text(
                "SELECT count(*) AS n, count(*) FILTER (WHERE a.embedding = b.embedding) AS same FROM chunks a "
                "JOIN collection_documents ca ON ca.document_id = a.document_id AND ca.collection_id = :a "
                "JOIN collection_documents cb ON cb.title = ca.title AND cb.collection_id = :b "
                "JOIN chunks b ON b.document_id = cb.document_id AND b.chunk_index = a.chunk_index"),
                {"a": original, "b": restored}).one()
        assert shared == 0  # the copy has its own documents, chunks and facts
        assert vectors.n == services.collections.get(corpus).chunk_count and vectors.same == vectors.n  # bit-identical
        for query, mode in SEARCHES:
            hits = [services.search.search(query, collections=[n], mode=mode, threshold=-1.0, limit=50) for n in (copy, corpus)]
            _same_hits(*[_hits(to_jsonable(h)) for h in hits])
    finally:
        services.deletion.delete_collection(copy)


def _store_counts(services: Any) -> tuple[int, ...]:
    with services.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT (SELECT count(*) FROM collections), (SELECT count(*) FROM documents), "
                                    "(SELECT count(*) FROM chunks), (SELECT count(*) FROM diagrams)")).one()
    nodes = services.graph_store.query("MATCH (n) RETURN count(n) AS n")[0]["n"]
    return (*rows, nodes)


def _rewrite(src: Path, dst: Path, member: str, change: Any) -> Path:
    """Copy an archive with one member changed (``change(bytes) -> bytes``); checksums stay valid."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            zout.writestr(info.filename, change(data) if info.filename == member else data)
    return dst


def _edit_json(data: bytes, edit: Any) -> bytes:
    value = json.loads(data)
    edit(value)
    return json.dumps(value).encode()


def _damage(kind: str, src: Path, dst: Path) -> Path:
    data = bytearray(src.read_bytes())
    if kind == "truncated":
        dst.write_bytes(bytes(data[: len(data) * 3 // 5]))
    elif kind == "flipped bytes":
        with zipfile.ZipFile(src) as zf:
            info = zf.getinfo("chunks.jsonl")
        middle = info.header_offset + 30 + len(info.filename) + len(info.extra) + info.compress_size // 2
        for i in range(middle, middle + 8):
            data[i] ^= 0xFF
        dst.write_bytes(bytes(data))
    else:  # a row removed, checksums recomputed: only the manifest's counts can tell
        _rewrite(src, dst, "crawl_pages.jsonl", lambda b: b"")
    return dst


def test_restore_refuses_a_name_that_exists(archive, corpus, services, run):
    before = _store_counts(services)
    result = run("restore", archive)
    assert result.exit_code == 4 and "already exists" in result.stderr, result.output
    assert _store_counts(services) == before


@pytest.mark.parametrize("kind", ["truncated", "flipped bytes", "row removed"])
def test_a_damaged_archive_is_refused_and_nothing_is_written(archive, services, run, tmp_path, kind):
    before = _store_counts(services)
    damaged = _damage(kind, archive, tmp_path / "damaged.zip")
    result = run("restore", damaged, "--as", "damaged-restore")
    assert result.exit_code == 2, result.output
    line = result.stderr.strip()
    assert line.startswith("Error:") and ("damaged" in line or "truncated" in line or "altered" in line), line
    assert _store_counts(services) == before


def test_a_different_embedding_model_is_refused(archive, corpus, services, run, tmp_path):
    def other_model(manifest: dict[str, Any]) -> None:
        manifest["collections"][0].update(embedding_model="openai:text-embedding-3-large", embedding_dim=3072)

    before = _store_counts(services)
    changed = _rewrite(archive, tmp_path / "model.zip", "manifest.json", lambda b: _edit_json(b, other_model))
    result = run("restore", changed, "--as", "other-model-restore")
    assert result.exit_code == 2, result.output
    assert "text-embedding-3-large" in result.stderr and services.embedder.name in result.stderr
    assert _store_counts(services) == before


def test_an_unknown_format_version_is_refused(archive, services, run, tmp_path):
    changed = _rewrite(archive, tmp_path / "v9.zip", "manifest.json",
                       lambda b: _edit_json(b, lambda m: m.update(format_version=9)))
    result = run("restore", changed, "--as", "future-restore")
    assert result.exit_code == 2 and "format version 9" in result.stderr, result.output


def test_a_graph_failure_undoes_the_whole_restore(archive, corpus, services, run, tmp_path):
    """The graph store rejects a fact whose sentence is a map: PostgreSQL rolls back and the graph is cleaned."""
    def bad_fact(data: bytes) -> bytes:
        lines = data.decode().splitlines()
        row = json.loads(lines[-1])
        row["sentence"] = {"not": {"a": "property value"}}
        return "\n".join([*lines[:-1], json.dumps(row)]).encode() + b"\n"

    before = _store_counts(services)
    changed = _rewrite(archive, tmp_path / "graph.zip", "facts.jsonl", bad_fact)
    result = run("restore", changed, "--as", "graph-failure-restore")
    assert result.exit_code == 5 and "Restoring the graph failed" in result.stderr, result.output
    assert _store_counts(services) == before


def test_a_fact_whose_entity_is_missing_is_not_dropped_without_a_word(archive, corpus, services, run, tmp_path):
    """A fact is created only where both its entities match: one naming an entity the archive lacks would
    vanish silently, so the restore checks every fact it wrote and undoes everything instead."""
    def orphan_fact(data: bytes) -> bytes:
        lines = data.decode().splitlines()
        row = json.loads(lines[0])
        row["target"] = "an-entity-nobody-wrote"
        return "\n".join([json.dumps(row), *lines[1:]]).encode() + b"\n"

    before = _store_counts(services)
    changed = _rewrite(archive, tmp_path / "orphan.zip", "facts.jsonl", orphan_fact)
    result = run("restore", changed, "--as", "orphan-fact-restore")
    assert result.exit_code == 5, result.output
    assert "did not keep 1 of" in result.stderr and "an-entity-nobody-wrote" in result.stderr, result.stderr
    assert _store_counts(services) == before


def test_backup_arguments_and_all_collections(services, run, corpus, tmp_path):
    assert run("backup", "--json").exit_code == 2
    missing = run("backup", "no-such-collection-xyz", "-o", tmp_path / "x.zip")
    assert missing.exit_code == 3 and not (tmp_path / "x.zip").exists()
    result = services.backup.export(None, tmp_path, all_collections=True)
    with zipfile.ZipFile(result.path) as zf:
        manifest = json.loads(zf.read("manifest.json"))
    assert {c["name"] for c in manifest["collections"]} == {c.name for c in services.collections.list()}
    assert Path(result.path).parent == tmp_path and not list(tmp_path.glob("*.partial"))
    made = run("backup", corpus, "-o", tmp_path / "human.zip")
    assert made.exit_code == 0 and f"Backed up {corpus} to " in made.output, made.output
    restored = run("restore", tmp_path / "human.zip", "--as", corpus + "-human")
    assert restored.exit_code == 0 and f"Restored {corpus} as {corpus}-human: " in restored.output, restored.output
    services.deletion.delete_collection(corpus + "-human")


def test_graph_pages_neither_repeat_nor_skip(archive, corpus, services, tmp_path, monkeypatch):
    from services.backup import export as backup_export

    monkeypatch.setattr(backup_export, "GRAPH_PAGE", 3)  # the corpus's graph now spans several pages
    paged = services.backup.export(corpus, tmp_path / "paged.zip")
    with zipfile.ZipFile(archive) as whole, zipfile.ZipFile(paged.path) as small:
        for member in ("entities.jsonl", "facts.jsonl", "diagram_nodes.jsonl", "diagram_edges.jsonl"):
            want, got = (sorted(z.read(member).splitlines()) for z in (whole, small))
            assert got == want, member
        assert len(small.read("entities.jsonl").splitlines()) > 3
