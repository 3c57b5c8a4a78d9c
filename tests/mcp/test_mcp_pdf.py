"""MCP on PDFs (issue 30): ingest_file's password, and the page of every search hit and cited source."""

from __future__ import annotations

import json

from tests.mcp.conftest import ok
from tests.services.ingest.test_pdf_ingest import thesis
from tests.utils.pdf_build import encrypted


def test_mcp_search_and_ask_give_pages(services, collection, session, tmp_path):
    path = tmp_path / "thesis.pdf"
    path.write_bytes(encrypted(thesis(), "pa55"))

    async def scenario(client):
        out = ok(await client.call_tool("ingest_file", {"collection": collection, "path": str(path), "password": "pa55"}))
        assert out["counts"]["ingested"] == 1, out
        hits = ok(await client.call_tool("search_documents", {"query": "Definition", "collections": [collection],
                                                               "mode": "keyword"}))["hits"]
        assert hits[0]["page"] == "p. 1 (PDF p. 2)" and hits[0]["pages"] == [2, 2]
        answer = ok(await client.call_tool("ask", {"question": "What is the definition of a compact set?",
                                                   "collections": [collection]}))
        assert "p. 1 (PDF p. 2)" in {s["page"] for s in answer["sources"]}, json.dumps(answer["sources"])
        assert "pa55" not in json.dumps(out)

    session(scenario)
