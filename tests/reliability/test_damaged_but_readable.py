"""Damaged input that still holds readable text: stored sanely (exact text, bounded chunks), never a crash."""

from __future__ import annotations

import pytest

from services.ingest.requests import files_request, text_request
from tests.reliability import corpus
from tests.reliability.conftest import stored_document

LONG_WORD = "Pneumono" + "x" * 10_000 + "osis"


def _ingest_file(services, collection, name: str, data: bytes):
    result = services.ingestion.run(files_request(collection, [(name, data)], settings=services.settings))
    assert result.status == "done"
    [item] = result.items
    assert item["status"] == "ingested", item
    return stored_document(services, collection, name)


DAMAGED = [
    # UTF-8 text with a Latin-1 paragraph pasted in: both parts read right, nothing replaced.
    ("mixed-encodings.txt", "Grüße aus Köln. ".encode() * 6 + "Un café crème à Genève. ".encode("latin-1"),
     ("Grüße aus Köln. Grüße", "Un café crème à Genève.")),
    # Windows-1252 smart quotes and euro sign inside UTF-8 text.
    ("cp1252-quotes.md", "Déjà vu: “UTF-8 quotes”. ".encode() + b"\x93cp1252 quotes\x94 cost \x80 5.",
     ("Déjà vu: “UTF-8 quotes”.", "“cp1252 quotes” cost € 5.")),
    # Truncated mid-sentence, unclosed tags: lxml recovers what is there.
    ("truncated.html", b"<html><head><title>Half</title></head><body><h1>Tides</h1><p>The tide turns twice a d",
     ("# Tides\n\nThe tide turns twice a d",)),
    # An internal DTD with nested entities: nothing is expanded.
    ("entities.html", b'<!DOCTYPE html [<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
     b"<html><body><p>&b;</p><p>Plain words survive.</p></body></html>", ("Plain words survive.",)),
    # NUL bytes after the sniffed head: stripped, since PostgreSQL text cannot hold them.
    ("late-nul.md", b"# Notes\n\n" + b"Harbour pilots board ships at the breakwater. " * 200 + b"\x00\x00tail words",
     ("breakwater. tail words",)),
    # Encrypted with an empty user password (owner restrictions only), as many published PDFs are.
    ("owner-only.pdf", corpus.encrypted_pdf(""), ("Lighthouse keepers trim the wick at dusk.",)),
    ]


@pytest.mark.parametrize(("name", "data", "expected"), DAMAGED, ids=[case[0] for case in DAMAGED])
def test_damaged_file_is_stored_with_its_readable_text(services, collection, name, data, expected):
    doc = _ingest_file(services, collection, name, data)
    assert all(part in doc.content for part in expected), doc.content[:300]
    assert "\x00" not in doc.content and "\ufffd" not in doc.content
    if name.endswith(".html"):
        assert "AAAAAAAAAA" not in doc.content


def test_a_10k_character_word_is_hard_split_into_bounded_chunks(services, collection):
    text = f"Before the word. {LONG_WORD} After the word."
    result = services.ingestion.run(text_request(collection, title="Long word", text=text))
    assert result.items[0]["status"] == "ingested"
    doc = stored_document(services, collection, "Long word")
    with services.engine.connect() as conn:
        import sqlalchemy as sa

        chunks = conn.execute(sa.text("SELECT text, char_start, char_end FROM chunks WHERE document_id = :d "
                                      "ORDER BY chunk_index"), {"d": doc.id}).all()
    size = services.settings.chunk_size
    assert len(chunks) >= len(text) // size
    assert all(len(c.text) <= size and c.text == text[c.char_start : c.char_end] for c in chunks)
    assert chunks[0].char_start == 0 and chunks[-1].char_end == len(text)
    # Searchable by meaning and by its ordinary words (PostgreSQL skips a >2 kB word in full text).
    assert services.search.search("After the word", collections=[collection], mode="keyword").hits
    assert services.search.search(LONG_WORD[:1500], collections=[collection], mode="hybrid", threshold=-1).hits


def test_a_10k_character_title_is_refused_before_a_job(services, collection):
    from services.errors import ValidationFailed

    with pytest.raises(ValidationFailed, match="at most 500 characters"):
        text_request(collection, title=LONG_WORD, text="Body.")
