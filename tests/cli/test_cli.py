"""The ``rag`` CLI on the real stores: every command group, --json shapes, and errors as exit codes."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from cli.errors import exit_code_for
from services import errors
from services.ingest.requests import text_request
from tests.cli.conftest import assert_error, ok_json

ROOT = Path(__file__).resolve().parents[2]


def _name() -> str:
    return f"test-cli-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def made(services):
    """Collection names created through the CLI, deleted afterwards."""
    names: list[str] = []
    yield names
    for name in names:
        try:
            services.deletion.delete_collection(name)
        except errors.NotFound:
            pass


# -- collection ---------------------------------------------------------------------------------


def test_collection_lifecycle_with_json_shapes(rag, made):
    name = _name()
    made.append(name)
    created = ok_json(rag("collection", "create", name, "-d", "Made by the CLI test.", "--schema",
                          '{"year": {"type": "integer"}}', "--json"))
    assert created["name"] == name and created["description"] == "Made by the CLI test."
    assert created["metadata_schema"] == {"custom": {"year": {"type": "integer", "required": False}}}
    assert {"id", "embedding_model", "embedding_dim", "created_at", "document_count", "chunk_count"} <= set(created)

    listed = ok_json(rag("collection", "list", "--json"))
    assert name in [c["name"] for c in listed]
    assert name in rag("collection", "list").stdout

    info = ok_json(rag("collection", "info", name, "--json"))
    assert info["graph"] == {"entities": 0, "facts": 0} and info["document_count"] == 0
    assert "year (integer)" in rag("collection", "info", name).stdout

    updated = ok_json(rag("collection", "update", name, "-d", "New words.", "--json"))
    assert updated["description"] == "New words."

    schema = ok_json(rag("collection", "schema", name, "--add", '{"party": "string"}', "--json"))
    assert set(schema["custom"]) == {"year", "party"}
    assert "party: string" in rag("collection", "schema", name).stdout
    narrowed = ok_json(rag("collection", "schema", name, "--drop", "party", "--optional", "year", "--json"))
    assert narrowed == {"custom": {"year": {"type": "integer", "required": False}}}
    assert_error(rag("collection", "schema", name, "--drop", "nope"), 2, "no field 'nope'")

    refused = rag("collection", "delete", name, input="n\n")
    assert refused.exit_code == 1 and "Aborted" in refused.output
    gone = ok_json(rag("collection", "delete", name, "--yes", "--json"))
    assert gone == {"collection": name, "documents_deleted": 0}
    assert_error(rag("collection", "info", name), 3, f"No collection named {name!r}")


def test_collection_errors_map_to_exit_codes(rag, collection):
    assert_error(rag("collection", "create", collection, "-d", "Again."), 4, "already exists")
    assert_error(rag("collection", "create", _name(), "-d", "   "), 2, "needs a description")
    assert_error(rag("collection", "create", _name(), "-d", "x", "--schema", "{oops"), 2, "--schema is not valid JSON")
    assert_error(rag("collection", "create", _name(), "-d", "x", "--schema", "[1]"), 2, "must be a JSON object")
    assert_error(rag("collection", "schema", collection, "--add", '{"n": "nonsense"}'), 2, "")
    assert_error(rag("collection", "update", "no-such-collection-here", "-d", "x", "--json"), 3, "No collection named")
    usage = rag("collection", "create", _name())  # a missing required option is Click's usage error
    assert usage.exit_code == 2 and "Missing option" in usage.stderr


@pytest.mark.parametrize(("error", "code"), [
    (errors.NotFound, 3), (errors.AlreadyExists, 4), (errors.JobInProgress, 4), (errors.ValidationFailed, 2),
    (errors.UnsupportedInput, 2), (errors.EmbeddingMismatch, 2), (errors.ConfigError, 5),
    (errors.StoreUnavailable, 5), (errors.WorkbenchError, 1),
])
def test_exit_code_mapping(error, code):
    assert exit_code_for(error("x")) == code


# -- ingest and documents -----------------------------------------------------------------------


def test_ingest_text_from_argument_and_stdin(rag, collection):
    first = ok_json(rag("ingest", "text", collection, "Otters hold hands while they sleep.", "--title", "Otters",
                        "--metadata", '{"topic": "animals"}', "--json"))
    assert set(first) == {"job_id", "status", "progress", "items", "error"}
    assert first["status"] == "done" and first["items"][0]["status"] == "ingested"
    assert first["progress"]["files_total"] == 1 and first["progress"]["chunks_written"] >= 1
    second = rag("ingest", "text", collection, "--title", "Ravens", input="Ravens can solve puzzles.\n")
    assert second.exit_code == 0, second.output
    assert "1 ingested" in second.stdout
    again = rag("ingest", "text", collection, "Otters hold hands while they sleep.", "--title", "Otters")
    assert again.exit_code == 0 and "0 ingested" in again.stdout and "skipped" in again.stdout
    replaced = ok_json(rag("ingest", "text", collection, "Otters float on their backs.", "--title", "Otters",
                           "--mode", "reingest", "--json"))
    assert replaced["items"][0]["status"] == "replaced"


def test_ingest_file_and_directory(rag, collection, tmp_path):
    (tmp_path / "a.md").write_text("# Alpha\nThe alpha file talks about lighthouses.\n")
    (tmp_path / "b.txt").write_text("The beta file talks about windmills.\n")
    (tmp_path / "skip.bin").write_bytes(b"\x00\x01binary")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "c.txt").write_text("The gamma file talks about canals.\n")
    single = ok_json(rag("ingest", "file", collection, tmp_path / "a.md", "--json"))
    assert [i["title"] for i in single["items"]] == ["a.md"] and single["items"][0]["status"] == "ingested"
    out = ok_json(rag("ingest", "directory", collection, tmp_path, "--exclude", "a.md", "--json"))
    statuses = {i["title"]: i["status"] for i in out["items"]}
    assert statuses["b.txt"] == "ingested" and statuses["skip.bin"] == "skipped"
    assert any(t.endswith("c.txt") and s == "ingested" for t, s in statuses.items())
    flat = ok_json(rag("ingest", "directory", collection, tmp_path, "--no-recursive", "--include", "*.txt", "--json"))
    assert [i["status"] for i in flat["items"]] == ["skipped"]  # b.txt is already there
    assert_error(rag("ingest", "file", collection, tmp_path / "missing.txt"), 2, "is not a file")
    assert_error(rag("ingest", "directory", collection, tmp_path / "nope"), 2, "is not a directory")
    assert_error(rag("ingest", "text", "no-such-collection-here", "x", "--title", "t"), 3, "No collection named")


def test_ingest_that_stores_nothing_exits_6_after_printing_the_result(rag, services, made):
    name = _name()
    made.append(name)
    services.collections.create(name=name, description="Needs a year.",
                                metadata_schema={"custom": {"year": {"type": "integer", "required": True}}})
    result = rag("ingest", "text", name, "No year given here.", "--title", "Yearless")
    assert result.exit_code == 6 and "Traceback" not in result.output
    assert "1 failed" in result.stdout and "  failed    Yearless: " in result.stderr and "year" in result.stderr
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("Error: Ingest job ") and "stored nothing: 1 item(s) failed" in error, error


def test_duplicate_running_ingest_is_refused_with_exit_4(rag, services, collection):
    request = text_request(collection, title="Busy", text="Same request twice.")
    job_id, _ = services.ingestion.start(request)  # recorded as running, as if another process were ingesting
    try:
        assert_error(rag("ingest", "text", collection, "Same request twice.", "--title", "Busy"), 4, "already")
    finally:
        services.jobs.finish(job_id, status="cancelled")


def test_document_commands(rag, services, collection):
    services.ingestion.run(text_request(collection, title="Kettles", text="# Tea\nKettles boil water for tea.",
                                        metadata={"room": "kitchen"}))
    docs = ok_json(rag("document", "list", "--collection", collection, "--json"))
    assert [d["title"] for d in docs] == ["Kettles"]
    assert {"id", "source", "metadata", "chunk_count", "collections", "graph_status", "updated_at"} <= set(docs[0])
    doc_id = docs[0]["id"]
    assert ok_json(rag("document", "list", "--filter", '{"room": "kitchen"}', "--title", "kettl", "--json"))[0]["id"] == doc_id
    assert "Kettles" in rag("document", "list", "-c", collection).stdout

    view = ok_json(rag("document", "view", doc_id, "--chunks", "--json"))
    assert set(view) == {"summary", "content", "chunks"} and "boil water" in view["content"]
    assert view["chunks"][0]["heading_path"] == ["Tea"]
    assert "Kettles boil water" in rag("document", "view", doc_id).stdout

    updated = ok_json(rag("document", "update", doc_id, "--metadata", '{"shelf": 2}', "--remove", "room", "--json"))
    assert updated["metadata"] == {"shelf": 2}
    assert_error(rag("document", "update", doc_id), 2, "Nothing to change")
    assert_error(rag("document", "view", 987654321), 3, "No document with id 987654321")

    assert ok_json(rag("document", "delete", doc_id, "--yes", "--json")) == {"document_id": doc_id, "deleted": True}
    assert_error(rag("document", "delete", doc_id, "--yes"), 3, "No document")


# -- search -------------------------------------------------------------------------------------


def test_search_modes_filters_and_shape(rag, services, collection):
    services.ingestion.run(text_request(collection, title="Bees", text="Honey bees dance to show where flowers are.",
                                        metadata={"kind": "insect"}))
    services.ingestion.run(text_request(collection, title="Whales", text="Blue whales sing long songs under the sea.",
                                        metadata={"kind": "mammal"}))
    data = ok_json(rag("search", "bees dancing", "-c", collection, "--json"))
    assert {"query", "mode", "hits", "counts", "timings_ms", "notes"} <= set(data)
    assert data["mode"] == "hybrid" and data["hits"][0]["title"] == "Bees"
    assert {"chunk_id", "document_id", "title", "score", "text", "segments", "metadata"} <= set(data["hits"][0])
    keyword = ok_json(rag("search", "whales", "-c", collection, "--mode", "keyword", "--json"))
    assert [h["title"] for h in keyword["hits"]] == ["Whales"]
    filtered = ok_json(rag("search", "animals", "-c", collection, "--mode", "semantic", "--threshold", "-1",
                           "--filter", '{"kind": "mammal"}', "--limit", "5", "--json"))
    assert {h["title"] for h in filtered["hits"]} == {"Whales"}
    human = rag("search", "honey", "-c", collection)
    assert human.exit_code == 0 and "1. Bees" in human.stdout and "[Honey]" in human.stdout
    assert_error(rag("search", "   ", "-c", collection), 2, "Type something")
    assert_error(rag("search", "x", "-c", "no-such-collection-here"), 3, "No collection named")
    assert_error(rag("search", "x", "--filter", '{"year": {"around": 3}}'), 2, "unknown operator")
    assert rag("search", "x", "--mode", "fuzzy").exit_code == 2


# -- config, status, entry points ---------------------------------------------------------------


def test_config_show_masks_and_names_the_config_file(rag, services):
    data = ok_json(rag("config", "show", "--json"))
    assert data["config_file"] == {"path": os.environ["RAG_CONFIG_FILE"], "exists": False}
    assert data["settings"]["data_dir"] == str(services.settings.data_dir)
    assert data["settings"]["openai_api_key"] in (None, "********")
    human = rag("config", "show").stdout
    assert "user config file:" in human and "not found" in human and "chunk_size = " in human


def test_status_reports_every_store(rag, services):
    data = ok_json(rag("status", "--json"))
    assert data["postgres"]["pgvector_version"] and data["embedding"]["dimension"] == services.embedder.dim
    assert data["graph"] is None or data["graph"]["kind"]
    assert isinstance(data["collections"], int)
    assert "postgres.server_version" in rag("status").stdout


def test_python_m_cli_runs_without_starting_stores(tmp_path):
    env = {**os.environ, "RAG_CONFIG_FILE": str(tmp_path / "config.toml"), "RAG_CHUNK_SIZE": "500"}
    (tmp_path / "config.toml").write_text('chunk_overlap = 50\n')
    out = subprocess.run([sys.executable, "-m", "cli", "config", "show", "--json"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert '"exists": true' in out.stdout and '"chunk_size": 500' in out.stdout and '"chunk_overlap": 50' in out.stdout
    bad = subprocess.run([sys.executable, "-m", "cli", "config", "show"], cwd=ROOT, timeout=60, capture_output=True,
                         text=True, env={**env, "RAG_CHUNK_SIZE": "not-a-number"})
    assert bad.returncode == 5 and bad.stderr.startswith("Error: Invalid settings") and "Traceback" not in bad.stderr


def test_ingest_directory_titles_documents_from_their_metadata(rag, services, collection, tmp_path):
    (tmp_path / "1846_polk.txt").write_text("The war with Mexico goes on.\n")
    (tmp_path / "1862_lincoln.txt").write_text("The dogmas of the quiet past are inadequate.\n")
    (tmp_path / "1790_washington.txt").write_text("I embrace with great satisfaction the opportunity.\n")
    (tmp_path / "metadata.csv").write_text("file,president,year,title\n1846_polk.txt,James K. Polk,1846,\n"
                                           "1862_lincoln.txt,Abraham Lincoln,1862,\n"
                                           "1790_washington.txt,George Washington,1790,The first annual message\n")
    out = ok_json(rag("ingest", "directory", collection, tmp_path, "--title-template", "{president}, {year}", "--json"))
    titles = sorted(i["title"] for i in out["items"])
    assert titles == ["Abraham Lincoln, 1862", "James K. Polk, 1846", "The first annual message"], titles
    stored = {d.title: d.metadata for d in services.documents.list(collection_id=services.collections.get(collection).id)}
    assert stored["James K. Polk, 1846"] == {"president": "James K. Polk", "year": "1846"}  # 'title' is no field
    missing = rag("ingest", "directory", collection, tmp_path, "--title-template", "{president} ({party})")
    assert missing.exit_code != 0 and "{party}" in missing.output and "1846_polk.txt" in missing.output
