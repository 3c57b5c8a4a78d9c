"""Each `rag` command imports only what it needs (issue 18): a command that does not embed never imports
torch, transformers, sentence-transformers or spaCy, and `rag --help` imports none of the services' stack.

Every command runs in a new Python process (as a user or an agent runs it) on the session's real stores;
the process reports which modules it ended up with. Lists are checked with `python -X importtime` when
one of these fails: it shows the chain that brought the module in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from services.errors import NotFound
from services.ingest.requests import text_request

ROOT = Path(__file__).resolve().parents[2]
MODELS = ("torch", "transformers", "sentence_transformers", "spacy")
# Run one command in this process, then report its exit code and the modules it imported.
RUNNER = """
import json, sys
from cli.main import cli
try:
    cli.main(args=sys.argv[2:], prog_name="rag", standalone_mode=False)
    code = 0
except SystemExit as exc:
    code = exc.code or 0
except Exception as exc:
    code = f"{type(exc).__name__}: {exc}"
with open(sys.argv[1], "w") as out:
    json.dump({"code": code, "modules": sorted(sys.modules)}, out)
"""


def run_in_new_process(tmp_path: Path, *args: str) -> set[str]:
    """``rag ARGS`` in a new interpreter; the modules it had imported when it finished (exit 0 asserted)."""
    report = tmp_path / f"modules-{uuid.uuid4().hex[:8]}.json"
    done = subprocess.run([sys.executable, "-c", RUNNER, str(report), *args], cwd=ROOT, env={**os.environ},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and report.exists(), done.stderr[-3000:]
    result = json.loads(report.read_text())
    assert result["code"] == 0, f"rag {' '.join(args)}: {result['code']}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
    return set(result["modules"])


def heavy(modules: set[str], names: tuple[str, ...] = MODELS) -> list[str]:
    return [m for m in modules if m.split(".")[0] in names]


@pytest.fixture(scope="module")
def corpus(services):
    """A collection with one document and its graph (the graph commands need facts to find)."""
    name = f"test-lazy-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Lazy-import test.")
    result = services.ingestion.run(text_request(name, title="acme", text="In 2001 Ada Chen became CEO of Acme Corp."))
    assert result.status == "done", result.items
    yield name, result.items[0]["document_id"]
    try:
        services.deletion.delete_collection(name)
    except NotFound:
        pass


def test_help_imports_no_service_stack(tmp_path):
    modules = run_in_new_process(tmp_path, "--help")
    assert not heavy(modules, MODELS + ("llama_index", "sqlalchemy", "numpy", "pydantic_settings", "httpx"))


def test_commands_that_do_not_embed_load_no_model(tmp_path, services, corpus):
    name, document_id = corpus
    made = f"test-lazy-made-{uuid.uuid4().hex[:8]}"
    commands = [
        ("config", "show"), ("status",), ("collection", "list"), ("collection", "info", name),
        ("collection", "create", made, "-d", "Made without the model."), ("collection", "schema", name),
        ("document", "list", "-c", name), ("document", "view", str(document_id), "--chunks"),
        ("ingest", "crawls"), ("memory", "list"),
        ("graph", "relationships", "Acme", "-c", name), ("graph", "temporal", "Acme", "--from", "2000", "-c", name),
        ("backup", name, "-o", str(tmp_path / "lazy.zip")),
    ]
    try:
        found = {" ".join(c[:2]): heavy(run_in_new_process(tmp_path, *c)) for c in commands}
        assert services.collections.get(made).embedding_dim == services.embedder.dim  # the size without the model
    finally:
        try:
            services.deletion.delete_collection(made)
        except NotFound:
            pass
    assert found == {" ".join(c[:2]): [] for c in commands}


def test_listing_does_not_open_the_graph_store(tmp_path, corpus):
    """Listing collections or documents touches PostgreSQL only: no LlamaIndex, no graph driver."""
    name, _ = corpus
    for command in (("collection", "list"), ("document", "list", "-c", name)):
        assert not heavy(run_in_new_process(tmp_path, *command), ("llama_index", "falkordb", "openai")), command


def test_listings_and_status_import_no_backup_or_crawl_code(tmp_path, corpus):
    """The backup and crawl services are built on first use (Services.backup, Services.crawler): ~0.2 s of
    imports (archive formats, sitemaps, crawl scopes) that a listing or `rag status` never needs."""
    name, _ = corpus
    for command in (("collection", "list"), ("document", "list", "-c", name), ("status",)):
        modules = run_in_new_process(tmp_path, *command)
        assert not [m for m in modules if m.startswith(("services.backup", "services.web.crawl"))], command


def test_status_checks_the_graph_without_llama_index(tmp_path, corpus):
    """`rag status` runs a query on the graph through the falkordb client, not LlamaIndex's store (2.6 s)."""
    modules = run_in_new_process(tmp_path, "status")
    assert "falkordb" in modules  # the graph store was asked
    assert not heavy(modules, ("llama_index",))


def test_search_embeds_its_query_without_torch_or_llama_index(tmp_path, corpus):
    """A query is embedded by the model in NumPy (services/stores/query_encoder.py): no torch for a search."""
    name, _ = corpus
    modules = run_in_new_process(tmp_path, "search", "who became CEO of Acme", "-c", name, "--mode", "semantic")
    assert "services.stores.query_encoder" in modules and "tokenizers" in modules  # it does embed the query
    assert not heavy(modules, ("torch", "transformers", "sentence_transformers", "sklearn", "llama_index", "spacy"))


def test_ask_answers_offline_without_torch(tmp_path, corpus):
    """Issue 34: the offline answer reads sentences with spaCy (whose thinc would import torch) and scores them
    with the stored chunk vectors, so a cold `rag ask` never imports torch or transformers."""
    name, _ = corpus
    modules = run_in_new_process(tmp_path, "ask", "Who became CEO of Acme?", "-c", name)
    assert "spacy" in modules and "services.retrieval.compose" in modules  # it does compose with spaCy
    assert not heavy(modules, ("torch", "transformers", "sentence_transformers"))


def test_graph_lookups_import_no_llama_index(tmp_path, corpus):
    """FalkorDB is queried through its own client (services/stores/graph_store.py): reading facts no longer
    opens LlamaIndex's FalkorDB store, whose imports (llama_index.core) cost about 2 s of a cold command."""
    name, _ = corpus
    for command in (("graph", "relationships", "Acme", "-c", name), ("collection", "info", name)):
        modules = run_in_new_process(tmp_path, *command)
        assert "falkordb" in modules, command  # the graph was read
        assert not heavy(modules, ("llama_index",)), command


def test_ask_reads_the_question_without_the_extractor_llama_index_or_spacys_command_line(tmp_path, corpus):
    """Issue 34: a cold `rag ask` loads spaCy's pipeline through services/graph/nlp.py, not through the graph
    extractor (a LlamaIndex transform), and without spaCy's command line (typer, weasel: half of spaCy's
    import); the facts it reads come from FalkorDB's own client, not LlamaIndex's graph store; and the retrieval
    core (issue 33) keeps LlamaIndex's classes at the edge, so no llama_index module is left on this path."""
    name, _ = corpus
    modules = run_in_new_process(tmp_path, "ask", "Who became CEO of Acme?", "-c", name)
    assert "spacy" in modules and "services.graph.nlp" in modules and "falkordb" in modules  # it did both
    assert not [m for m in modules if m.startswith(("spacy.cli", "typer", "weasel", "services.graph.extraction",
                                                     "llama_index"))]
