"""The MCP server through the SDK's client over in-memory JSON-RPC: every tool, its errors, and progress."""

from __future__ import annotations

import uuid

import httpx
import pytest

from services.errors import NotFound
from services.ingest.requests import text_request
from tests.mcp.conftest import error_text, ok

TOOLS = {
    "create_collection", "list_collections", "get_collection_info", "update_collection_metadata", "delete_collection",
    "link_document_to_collection", "ingest_text", "ingest_file", "ingest_directory", "list_documents", "get_document",
    "update_document", "delete_document", "search_documents", "query_relationships", "query_temporal",
    "ask", "remember", "recall", "forget", "ingest_url", "analyze_website", "resume_crawl",
    "graph_merge_entities", "graph_rename_entity", "graph_retype_entity", "graph_split_entity", "graph_delete_entity",
    "graph_delete_fact", "graph_add_fact", "graph_suggestions", "graph_decide_suggestion", "graph_edit_history",
    "graph_undo", "graph_export",
}


@pytest.fixture
def names(services):
    made: list[str] = []

    def make(prefix: str = "mcp") -> str:
        made.append(f"test-{prefix}-{uuid.uuid4().hex[:10]}")
        return made[-1]

    yield make
    for name in made:
        try:
            services.deletion.delete_collection(name)
        except NotFound:
            pass


def test_lists_every_tool_with_described_arguments(session):
    async def scenario(client):
        return (await client.list_tools()).tools

    tools = {t.name: t for t in session(scenario)}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert len(tool.description or "") > 40, tool.name
        for arg, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{tool.name}.{arg} has no description"
    assert tools["delete_document"].annotations.destructive_hint is True
    assert tools["search_documents"].annotations.read_only_hint is True


def test_collection_tools(session, names):
    name = names()

    async def scenario(client):
        created = ok(await client.call_tool("create_collection", {
            "name": name, "description": "Made over MCP.", "metadata_schema": {"year": "integer"}}))
        assert created["name"] == name and created["metadata_schema"]["custom"]["year"]["type"] == "integer"
        listed = ok(await client.call_tool("list_collections", {}))
        assert name in [c["name"] for c in listed["collections"]]
        info = ok(await client.call_tool("get_collection_info", {"name": name}))
        assert info["document_count"] == 0 and "graph" in info
        updated = ok(await client.call_tool("update_collection_metadata", {
            "name": name, "description": "Changed.", "add_fields": {"party": {"type": "string"}}}))
        assert updated["description"] == "Changed." and set(updated["metadata_schema"]["custom"]) == {"year", "party"}
        narrowed = ok(await client.call_tool("update_collection_metadata", {"name": name, "drop_fields": ["party"]}))
        assert set(narrowed["metadata_schema"]["custom"]) == {"year"}

        dup = error_text(await client.call_tool("create_collection", {"name": name, "description": "Again."}))
        assert "AlreadyExists:" in dup
        missing = error_text(await client.call_tool("get_collection_info", {"name": "no-such-collection-here"}))
        assert "NotFound: No collection named" in missing
        assert "ValidationFailed" in error_text(await client.call_tool("update_collection_metadata", {"name": name}))
        assert "Traceback" not in missing

        gone = ok(await client.call_tool("delete_collection", {"name": name}))
        assert gone == {"collection": name, "documents_deleted": 0}
        assert "NotFound" in error_text(await client.call_tool("delete_collection", {"name": name}))

    session(scenario)


def test_document_tools_search_and_link(session, services, names):
    first, second = names(), names()
    for name in (first, second):
        services.collections.create(name=name, description="Document tools.")

    async def scenario(client):
        out = ok(await client.call_tool("ingest_text", {
            "collection": first, "title": "Lanterns", "text": "# Night\nPaper lanterns float on the river at night.",
            "metadata": {"festival": "autumn"}}))
        assert out["status"] == "done" and out["counts"]["ingested"] == 1
        doc_id = out["items"][0]["document_id"]
        skipped = ok(await client.call_tool("ingest_text", {
            "collection": first, "title": "Lanterns", "text": "Paper lanterns float on the river at night."}))
        assert skipped["counts"]["skipped"] == 1 and "already" in skipped["items"][0]["reason"]

        docs = ok(await client.call_tool("list_documents", {"collection": first}))["documents"]
        assert [(d["id"], d["title"]) for d in docs] == [(doc_id, "Lanterns")]
        doc = ok(await client.call_tool("get_document", {"document_id": doc_id, "include_chunks": True, "max_chars": 100}))
        assert doc["summary"]["metadata"] == {"festival": "autumn"} and doc["truncated"] is False
        assert doc["chunks"][0]["heading_path"] == ["Night"]
        cut = ok(await client.call_tool("get_document", {"document_id": doc_id, "max_chars": 100}))
        assert "chunks" not in cut

        hits = ok(await client.call_tool("search_documents", {"query": "floating lanterns", "collections": [first]}))
        assert hits["hits"][0]["document_id"] == doc_id and hits["hits"][0]["heading_path"] == ["Night"]
        assert "segments" not in hits["hits"][0]
        none = ok(await client.call_tool("search_documents", {
            "query": "lanterns", "collections": [first], "mode": "keyword", "filters": {"festival": "spring"}}))
        assert none["hits"] == []

        updated = ok(await client.call_tool("update_document", {
            "document_id": doc_id, "metadata": {"city": "Hoi An"}, "remove_keys": ["festival"]}))
        assert updated["metadata"] == {"city": "Hoi An"}

        linked = ok(await client.call_tool("link_document_to_collection", {"document_id": doc_id, "collection": second}))
        assert linked["collection"]["document_count"] == 1
        again = error_text(await client.call_tool("link_document_to_collection", {"document_id": doc_id, "collection": second}))
        assert "AlreadyExists" in again
        in_second = ok(await client.call_tool("search_documents", {"query": "lanterns", "collections": [second]}))
        assert [h["document_id"] for h in in_second["hits"]] == [doc_id]

        assert ok(await client.call_tool("delete_document", {"document_id": doc_id})) == {"document_id": doc_id, "deleted": True}
        assert "NotFound" in error_text(await client.call_tool("get_document", {"document_id": doc_id}))
        assert "ValidationFailed" in error_text(await client.call_tool("search_documents", {"query": "  "}))
        bad_args = error_text(await client.call_tool("get_document", {"document_id": "not a number"}))
        assert "document_id" in bad_args

    session(scenario)


def test_ingest_file_and_directory_with_progress(session, services, names, tmp_path):
    name = names()
    services.collections.create(name=name, description="Ingest over MCP.")
    note = tmp_path / "note.md"
    note.write_text("# Note\nThe harbour opens at dawn.\n")
    folder = tmp_path / "folder"
    folder.mkdir()
    for n in range(5):
        (folder / f"doc{n}.txt").write_text(f"Document number {n} describes bridge {n} over the canal.\n")
    (folder / "image.png").write_bytes(b"\x89PNG\r\n")
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(value, total, message):
        progress.append((value, total, message))

    async def scenario(client):
        single = ok(await client.call_tool("ingest_file", {"collection": name, "path": str(note), "metadata": {"k": 1}}))
        assert single["items"][0]["title"] == "note.md" and single["counts"]["ingested"] == 1
        missing = error_text(await client.call_tool("ingest_file", {"collection": name, "path": str(tmp_path / "nope.md")}))
        assert "ValidationFailed" in missing and "is not a file" in missing

        out = ok(await client.call_tool("ingest_directory", {"collection": name, "path": str(folder), "include": ["*"]},
                                        progress_callback=on_progress))
        assert out["counts"] == {"ingested": 5, "replaced": 0, "unchanged": 0, "repaired": 0, "skipped": 1, "failed": 0}
        assert out["items_truncated"] is False and "Job" in out["summary"]
        bad = error_text(await client.call_tool("ingest_directory", {"collection": name, "path": str(tmp_path / "none")}))
        assert "is not a directory" in bad

    session(scenario)
    assert len(progress) >= 3, f"too few progress notifications: {progress}"
    values = [p[0] for p in progress]
    assert values == sorted(set(values)), values  # strictly increasing
    assert values[-1] == 6 and all(p[1] == 6 for p in progress)
    assert all(p[2] for p in progress)


def test_duplicate_running_ingest_is_a_tool_error(session, services, collection):
    job_id, _ = services.ingestion.start(text_request(collection, title="Busy", text="Running already."))

    async def scenario(client):
        return error_text(await client.call_tool("ingest_text", {
            "collection": collection, "title": "Busy", "text": "Running already."}))

    try:
        text = session(scenario)
    finally:
        services.jobs.finish(job_id, status="cancelled")
    assert text.startswith("Error executing tool ingest_text: JobInProgress:") and "Wait for that ingest" in text


def test_graph_tools(session, services, names):
    if services.graph is None:
        pytest.skip("the graph is turned off")
    name = names("mcp-graph")
    services.collections.create(name=name, description="Graph over MCP.", metadata_schema={"custom": {"date": "date"}})
    services.ingestion.run(text_request(name, title="ceos", metadata={"date": "2022-01-01"},
                                        text="Dana was the CEO of Acme in 2019. Erin became CEO of Acme in 2021."))

    async def scenario(client):
        rel = ok(await client.call_tool("query_relationships", {"entity": "ACME", "collections": [name]}))
        assert rel["entity"]["key"] == "acme"
        assert {(f["source_key"], f["status"]) for f in rel["facts"] if f["relation"] == "ceo_of"} == {
            ("dana", "superseded"), ("erin", "current")}
        window = ok(await client.call_tool("query_temporal", {
            "entity": "Acme", "start_date": "2019-06", "end_date": "2020", "collections": [name]}))
        assert (window["from"], window["until"]) == ("2019-06-01", "2020-12-31")
        assert {f["source_key"] for f in window["facts"] if f["relation"] == "ceo_of"} == {"dana"}
        open_end = ok(await client.call_tool("query_temporal", {"entity": "acme", "start_date": "2022", "collections": [name]}))
        assert {f["source_key"] for f in open_end["facts"] if f["relation"] == "ceo_of"} == {"erin"}
        assert "NotFound" in error_text(await client.call_tool("query_relationships", {"entity": "zebulon", "collections": [name]}))
        assert "is not a date" in error_text(await client.call_tool("query_temporal", {"entity": "acme", "start_date": "soon"}))
        merged = ok(await client.call_tool("graph_merge_entities", {"collection": name, "names": ["Erin", "Dana"],
                                                                    "author": "agent"}))
        assert (merged["kind"], merged["author"]) == ("merge", "agent")
        added = ok(await client.call_tool("graph_add_fact", {"collection": name, "subject": "Erin", "relation": "born in",
                                                             "object": "Oslo", "valid_from": "1980"}))
        fact_id = added["params"]["fact"]["id"]
        ok(await client.call_tool("graph_delete_fact", {"collection": name, "fact_id": fact_id}))
        ok(await client.call_tool("graph_rename_entity", {"collection": name, "name": "Erin", "new_name": "Erin Ek"}))
        ok(await client.call_tool("graph_retype_entity", {"collection": name, "name": "Erin Ek", "new_type": "org"}))
        history = ok(await client.call_tool("graph_edit_history", {"collection": name}))["edits"]
        assert [e["kind"] for e in history] == ["retype", "rename", "delete_fact", "add_fact", "merge"]
        assert ok(await client.call_tool("graph_undo", {"collection": name}))["kind"] == "retype"
        files = ok(await client.call_tool("graph_export", {"collection": name, "format": "csv"}))["files"]
        assert files["nodes.csv"].startswith("key:ID,") and "Erin Ek" in files["nodes.csv"]
        assert "suggestions" in ok(await client.call_tool("graph_suggestions", {"collection": name}))
        assert "No entity named 'Zed'" in error_text(await client.call_tool(
            "graph_delete_entity", {"collection": name, "name": "Zed"}))

    session(scenario)


def test_http_bearer_token_is_required_when_set():
    from mcp_server.server import BearerAuth

    async def inner(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"reached"})

    async def scenario():
        app = BearerAuth(inner, "s3cret")
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as http:
            assert (await http.post("/mcp")).status_code == 401
            assert (await http.post("/mcp", headers={"Authorization": "Bearer wrong"})).status_code == 401
            good = await http.post("/mcp", headers={"Authorization": "Bearer s3cret"})
            assert good.status_code == 200 and good.text == "reached"

    import anyio

    anyio.run(scenario)


def test_ask_and_memory_tools(session, services):
    from tests.utils.stories import make_zorbex

    name, _ = make_zorbex(services)

    async def scenario(client):
        answer = ok(await client.call_tool("ask", {"question": "Who founded Zorbex?", "collections": [name]}))
        assert "**Ivana Petrova** founded Zorbex" in answer["answer"]["text"] and answer["sources"][0]["title"] == "Founding"
        follow = ok(await client.call_tool("ask", {"question": "What does she grow?", "collections": [name],
                                                   "conversation_id": answer["conversation_id"]}))
        assert "tomatoes" in follow["answer"]["text"]
        fact = ok(await client.call_tool("remember", {"fact": "I track sensor companies"}))
        recalled = ok(await client.call_tool("recall", {"query": "which companies do I follow"}))
        assert recalled["facts"][0]["id"] == fact["id"]
        assert ok(await client.call_tool("forget", {"fact_id": fact["id"]})) == {"forgotten": fact["id"]}
        assert "NotFound" in error_text(await client.call_tool("forget", {"fact_id": fact["id"]}))

    try:
        session(scenario)
    finally:
        services.deletion.delete_collection(name)
