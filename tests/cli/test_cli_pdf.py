"""The CLI and MCP on PDFs (issue 30): `--password` for an encrypted file, and the page of every search hit
and every cited source ("p. 1 (PDF p. 2)"), in the human output and the JSON (tests/mcp/test_mcp_pdf.py: the same through MCP)."""

from __future__ import annotations

from tests.cli.conftest import ok_json
from tests.services.ingest.test_pdf_ingest import thesis
from tests.utils.pdf_build import encrypted


def test_password_search_and_ask_show_pages(rag, collection, tmp_path):
    locked = tmp_path / "thesis.pdf"
    locked.write_bytes(encrypted(thesis(), "pa55"))
    refused = rag("ingest", "file", collection, locked)
    assert "failed" in refused.output and "encrypted with a password" in refused.output
    wrong = rag("ingest", "file", collection, locked, "--password", "nope")
    assert "the password is wrong" in wrong.output
    assert "pa55" not in wrong.output
    done = ok_json(rag("ingest", "file", collection, locked, "--password", "pa55", "--json"))
    assert done["items"][0]["status"] == "ingested"

    human = rag("search", "Definition compact", "-c", collection, "--mode", "keyword")
    assert human.exit_code == 0, human.output
    assert "1. thesis.pdf, p. 1 (PDF p. 2) (document" in human.output
    hits = ok_json(rag("search", "Definition", "-c", collection, "--mode", "keyword", "--json"))["hits"]
    assert hits[0]["chunk_metadata"]["pages"] == [2, 2]

    answer = ok_json(rag("ask", "What is the definition of a compact set?", "-c", collection, "--json"))
    assert answer["answer"]["mode"] == "extracted", answer["answer"]
    pages = {s["page"] for s in answer["sources"]}
    assert "p. 1 (PDF p. 2)" in pages, answer["sources"]
    told = rag("ask", "What is the definition of a compact set?", "-c", collection)
    assert "thesis.pdf, p. 1 (PDF p. 2) (document" in told.output
