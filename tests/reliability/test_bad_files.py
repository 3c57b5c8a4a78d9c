"""Broken, hostile and disguised files through the real ingest: each is refused with a reason, nothing is stored.

Each case is uploaded (``files_request`` → ``IngestionService.run``), the same path
the Ingest page and ``rag ingest file`` take. The job must end ``failed`` because its
only item failed (never with an unexpected error of its own), the item must be
``failed`` with a reason a person can act on, and no document, chunk, diagram or
graph fact may be left behind.
"""

from __future__ import annotations

import pytest

from services.ingest.requests import files_request
from tests.reliability import corpus
from tests.reliability.conftest import assert_nothing_stored

# (file name, bytes builder, what the reason must say)
BAD_FILES = [
    ("empty.docx", lambda: b"", "the file is empty"),
    ("truncated.docx", lambda: corpus.good_docx()[:1500], "corrupt, truncated"),
    ("random.docx", corpus.random_bytes, "not a valid .docx"),
    ("plain-text.docx", lambda: b"just some words, not a Word file", "not a valid .docx"),
    ("zip-not-word.docx", corpus.zip_without_word, "no word/document.xml"),
    ("broken-xml.docx", corpus.docx_with_broken_xml, "damaged: word/document.xml, which holds the document's text, "
                                                       "is not well-formed XML"),
    ("billion-laughs.docx", corpus.docx_billion_laughs, r"declares a DTD \(<!DOCTYPE …>\), which Word never writes"),
    ("zip-bomb.docx", corpus.docx_zip_bomb, "zip bomb"),
    ("lying-zip-bomb.docx", corpus.docx_lying_zip_bomb, r"damaged: word/document.xml is damaged \(its checksum"),
    ("damaged-text.docx", lambda: corpus.docx_with_damaged_part("word/document.xml"),
     r"^the file is damaged: word/document.xml is damaged \(its checksum does not match its contents\), and that "
     r"part holds the document's text\.$"),
    ("encrypted.docx", corpus.encrypted_docx, r"^the \.docx is encrypted with a password; remove it and try again\.$"),
    ("old-format.docx", corpus.ole_file, r"^this is an OLE file \(an older Office format\), not a \.docx"),
    ("blank.docx", corpus.empty_docx, r"^the Word document has no text \(none in its body, headers, footers, notes "
                                      r"or comments\)\.$"),
    ("empty.pdf", lambda: b"", "the file is empty"),
    ("truncated.pdf", lambda: corpus.text_pdf()[:300], "could not be read"),
    ("garbage.pdf", lambda: b"%PDF-1.4\n" + corpus.random_bytes(4096), "could not be read"),
    ("not-a.pdf", corpus.good_docx, "no %PDF header"),
    ("scan.pdf", corpus.blank_pdf, "no extractable text"),
    ("locked.pdf", lambda: corpus.encrypted_pdf("open-sesame"), "password"),
    ("stream-bomb.pdf", corpus.pdf_stream_bomb, "decompression limit"),
    ("empty.html", lambda: b"", "the file is empty"),
    ("only-chrome.html", lambda: b"<html><head><style>p{}</style><script>x()</script></head><nav>menu</nav></html>",
     "no readable text"),
    ("deep.html", corpus.nested_html, "nested deeper"),
    ("image.html", corpus.png_bytes, "binary"),
    ("blank.txt", lambda: b" \n\t \r\n", "empty"),
    ("utf8-bom-only.txt", lambda: b"\xef\xbb\xbf\n\n", "no text"),
    ("broken-utf16.txt", lambda: b"\xff\xfe\x00\xd8\x00\xd8", "invalid UTF-16"),
    ("random-no-nul.txt", lambda: corpus.random_bytes(nul=False), "not valid text|binary|undecodable"),
    ("elf-binary.txt", corpus.elf_bytes, "binary"),
    ("png-renamed.txt", corpus.png_bytes, "binary"),
    ("gzip-renamed.md", corpus.gzip_bytes, "binary"),
    ("control-chars.txt", lambda: bytes(range(1, 9)) * 200 + b"words", "control characters"),
    ("program.exe", lambda: corpus.elf_bytes(), "unsupported file type .exe"),
    ("no-suffix", lambda: b"plain words", r"unsupported file type \(none\)"),
]


@pytest.mark.parametrize(("name", "build", "reason"), BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_bad_upload_is_refused_and_leaves_nothing(services, collection, since, name, build, reason):
    request = files_request(collection, [(name, build())], settings=services.settings)
    result = services.ingestion.run(request)
    assert result.status == "failed" and result.error is None, result
    [item] = result.items
    assert item["status"] == "failed", item
    assert _matches(reason, item["reason"]), item["reason"]
    assert name not in item["reason"]  # the item's title names the file; the reason does not repeat it
    assert "Unexpected" not in item["reason"] and "Traceback" not in item["reason"]
    assert_nothing_stored(services, collection, [name], since)


def _matches(pattern: str, text: str) -> bool:
    import re

    return re.search(pattern, text, flags=re.I) is not None


def test_one_bad_file_does_not_stop_the_good_ones(services, collection):
    """A folder-like batch: the corrupt files fail, the readable ones are stored, in one job that ends partial."""
    files = [("good.docx", corpus.good_docx()), ("truncated.docx", corpus.good_docx()[:1500]),
             ("good.pdf", corpus.text_pdf("Pelicans dive for sardines.")), ("bomb.docx", corpus.docx_zip_bomb())]
    result = services.ingestion.run(files_request(collection, files, settings=services.settings))
    assert result.status == "partial"
    assert {i["title"]: i["status"] for i in result.items} == {
        "good.docx": "ingested", "truncated.docx": "failed", "good.pdf": "ingested", "bomb.docx": "failed"}
    hits = services.search.search("sardines", collections=[collection], mode="keyword").hits
    assert [h.title for h in hits] == ["good.pdf"]


@pytest.mark.parametrize("part", ["docProps/core.xml", "word/styles.xml"])
def test_a_damaged_part_other_than_the_text_does_not_refuse_the_document(services, collection, part):
    """A bad checksum in an unimportant part: the text is read and stored, and the item says what was left out."""
    data = corpus.docx_with_damaged_part(part)
    result = services.ingestion.run(files_request(collection, [("scratched.docx", data)], settings=services.settings))
    [item] = result.items
    assert result.status == "done" and item["status"] == "ingested", item
    assert item["reason"] == f"Read without a damaged part: {part} is damaged (its checksum does not match its " \
                             "contents); it was skipped."
    hits = services.search.search("lighthouse keeper", collections=[collection], mode="keyword").hits
    assert [h.title for h in hits] == ["scratched.docx"]
