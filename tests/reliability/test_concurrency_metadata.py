"""No lost updates on a document's metadata: concurrent merges of different keys all survive (threads and a
``rag`` process at once), and a full replace built from a stale copy is refused, in the service, the CLI,
MCP and the Documents page."""

from __future__ import annotations

import json
import threading

import anyio
import pytest
import streamlit as st
from click.testing import CliRunner
from mcp import Client

from services.errors import EditConflict
from tests.reliability.concurrency import error_line, finish, race, rag_process
from tests.utils.app import open_page
from tests.utils.ingest import ingest_text, only_item

WRITERS = 8


@pytest.fixture
def document(services, collection) -> int:
    item = only_item(ingest_text(services, collection, "Harbour log",
                                 "The harbour master records every ship that enters the bay.",
                                 metadata={"origin": "test"}))
    return int(item["document_id"])


def metadata(services, document_id: int) -> dict:
    return services.documents.get(document_id, with_chunks=False).summary.metadata


def test_concurrent_merges_of_different_keys_all_survive(services, document, data_dir):
    """Eight threads hammer their own key while a `rag document update` process sets another one."""
    stop = threading.Event()
    last: dict[str, int] = {}
    errors: list[BaseException] = []

    def writer(key: str) -> None:
        n = 0
        try:
            while not stop.is_set() or n < 5:
                n += 1
                services.documents.update_metadata(document, {key: n})
                last[key] = n
        except BaseException as exc:  # reported below; the thread must not die silently
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(f"writer_{i}",), daemon=True) for i in range(WRITERS)]
    for t in threads:
        t.start()
    proc = rag_process("document", "update", document, "--metadata", '{"from_cli": "yes"}', "--json",
                       data_dir=data_dir)
    code, out, err = finish(proc, timeout=300)
    running_during_cli = all(t.is_alive() for t in threads)
    stop.set()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert code == 0, err
    assert json.loads(out)["metadata"]["from_cli"] == "yes"
    assert running_during_cli, "the threads finished before the CLI wrote; the test proved nothing"
    assert sum(last.values()) > 5 * WRITERS

    final = metadata(services, document)
    assert final == {"origin": "test", "from_cli": "yes", **last}, (final, last)


def test_replace_with_the_same_stale_copy_lets_exactly_one_win(services, document):
    """Five editors opened the same version; all save a full replace at once: one wins, four are refused."""
    etag = services.documents.get(document, with_chunks=False).summary.metadata_etag
    calls = [lambda i=i: services.documents.update_metadata(document, {"editor": i}, replace=True,
                                                            expected_etag=etag) for i in range(5)]
    outcomes = race(*calls)
    wins = [value for kind, value in outcomes if kind == "ok"]
    refused = [value for kind, value in outcomes if kind == "error"]
    assert len(wins) == 1 and len(refused) == 4, outcomes
    assert all(isinstance(e, EditConflict) and "changed by someone else" in str(e) for e in refused)
    assert metadata(services, document) == wins[0].metadata and set(wins[0].metadata) == {"editor"}


def test_stale_replace_is_refused_in_service_cli_and_mcp(services, document):
    opened = services.documents.get(document, with_chunks=False).summary
    services.documents.update_metadata(document, {"reviewed": True})  # someone else, after we opened it

    with pytest.raises(EditConflict, match="changed by someone else since you opened it"):
        services.documents.update_metadata(document, {"origin": "mine"}, replace=True,
                                           expected_etag=opened.metadata_etag)
    assert metadata(services, document) == {"origin": "test", "reviewed": True}

    from cli import context
    from cli.main import cli
    from mcp_server.server import build_server

    context.set_services(services)
    try:
        stale = CliRunner().invoke(cli, ["document", "update", str(document), "--replace", "--metadata", "{}",
                                         "--if-match", opened.metadata_etag], prog_name="rag")
        assert stale.exit_code == 4, stale.output
        assert "changed by someone else" in error_line(stale.exit_code, stale.stderr)

        async def mcp_scenario() -> tuple[str, dict]:
            async with Client(build_server(), mode="legacy", raise_exceptions=True) as client:
                refused = await client.call_tool("update_document", {
                    "document_id": document, "metadata": {}, "replace": True, "expected_etag": opened.metadata_etag})
                assert refused.is_error
                current = (await client.call_tool("get_document", {"document_id": document})).structured_content
                fresh = await client.call_tool("update_document", {
                    "document_id": document, "metadata": {"origin": "agent"}, "replace": True,
                    "expected_etag": current["summary"]["metadata_etag"]})
                assert not fresh.is_error, fresh.content
                return refused.content[0].text, fresh.structured_content

        text, saved = anyio.run(mcp_scenario)
    finally:
        context.set_services(None)
    assert text.startswith("Error executing tool update_document: EditConflict:"), text
    assert saved["metadata"] == {"origin": "agent"}
    assert metadata(services, document) == {"origin": "agent"}


@pytest.fixture
def fresh_app_caches(services):
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()


def _editor(at):
    return next(t for t in at.text_area if t.label.startswith("Metadata (JSON"))


def _button(at, label: str):
    return next(b for b in at.button if b.label == label)


def test_documents_page_refuses_a_stale_full_replace(services, document, fresh_app_caches):
    at = open_page("documents", query={"doc": str(document)})
    assert json.loads(_editor(at).value) == {"origin": "test"}

    services.documents.update_metadata(document, {"year": 1999})  # another session saves meanwhile
    _editor(at).set_value('{"origin": "edited in the browser"}')
    _button(at, "Save metadata").click().run()
    assert not at.exception
    assert any("changed by someone else since you opened it" in e.value for e in at.error), [e.value for e in at.error]
    assert any("Reload the editor" in i.value for i in at.info)
    assert metadata(services, document) == {"origin": "test", "year": 1999}  # nothing was overwritten

    _button(at, "Reload the editor").click().run()
    assert json.loads(_editor(at).value) == {"origin": "test", "year": 1999}
    assert not at.info
    _editor(at).set_value('{"origin": "edited in the browser", "year": 1999}')
    _button(at, "Save metadata").click().run()
    assert not at.exception and not at.error
    assert any("Metadata saved" in s.value for s in at.success)
    assert metadata(services, document) == {"origin": "edited in the browser", "year": 1999}
