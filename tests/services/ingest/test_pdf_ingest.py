"""PDFs as analysts get them (issue 30): each case is built here, uploaded through the real ingester
(embedded PostgreSQL, FalkorDB, the local model) and checked where a user sees it: search hits, their
heading path, their page, the item's status and reason."""

from __future__ import annotations

from typing import Any

import pytest

from services.ingest.requests import files_request, text_request
from services.page_ref import page_ref
from tests.utils.ingest import only_item
from tests.utils.pdf_build import LOREM, Pdf, encrypted, form_with_comments, with_nul_title, with_page_labels

RUNNING = "On Compact Sets — Doctoral thesis, 2024"


def thesis() -> bytes:
    """Four pages, roman-numbered front matter then arabic, an outline, a running header and page numbers,
    ligature glyphs and a word hyphenated at a line end."""
    pdf = Pdf(title="Microsoft Word - thesis_final.docx", author="Ada Example", running=RUNNING)
    pdf.heading("Abstract", 20, outline_level=0).paragraph(LOREM)
    pdf.page().heading("Compact Sets", 20, outline_level=0).heading("Open Covers", 14, outline_level=1)
    pdf.paragraph("Deﬁnition 2.1. A set is compact when every open cover has a ﬁnite subcover. " + LOREM)
    pdf.line("We now turn to the sequential charac-").line("terisation of these sets, due to Heine-")
    pdf.line("Borel and Bolzano.")
    pdf.page().heading("Results", 20, outline_level=0).paragraph(LOREM + " Marmosets outnumber tamarins here.")
    pdf.page().paragraph(LOREM)
    return with_page_labels(pdf.bytes(), [(0, {"/S": "/r"}), (1, {"/S": "/D", "/St": 1})])


def ingest(services: Any, collection: str, name: str, data: bytes, password: str | None = None) -> dict[str, Any]:
    request = files_request(collection, [(name, data)], settings=services.settings, password=password)
    return only_item(services.ingestion.run(request))


def keyword(services: Any, collection: str, query: str) -> list[Any]:
    return services.search.search(query, collections=[collection], mode="keyword").hits


def test_thesis_ligature_word_is_found_with_its_page_and_heading(services, collection):
    item = ingest(services, collection, "thesis.pdf", thesis())
    assert item["status"] == "ingested", item
    [hit, *_] = keyword(services, collection, "Definition")
    assert "Definition 2.1. A set is compact" in hit.text and "ﬁ" not in hit.text
    assert hit.heading_path == ["Compact Sets", "Open Covers"]
    assert page_ref(hit.chunk_metadata) == "p. 1 (PDF p. 2)"  # the printed label, then the physical page
    assert hit.chunk_metadata["pages"] == [2, 2] and hit.chunk_metadata["page_labels"] == ["1", "1"]
    assert "characterisation" in hit.text  # joined across the line end
    assert "Heine-\nBorel" in hit.text or "Heine-Borel" in hit.text  # a real compound keeps its hyphen
    assert keyword(services, collection, "characterisation")
    [front] = [h for h in keyword(services, collection, "Abstract") if h.heading_path == ["Abstract"]]
    assert page_ref(front.chunk_metadata) == "p. i (PDF p. 1)"
    # the running header and the page numbers are gone from the text; the file-name title is not used
    assert not keyword(services, collection, "Doctoral")
    [results] = keyword(services, collection, "marmosets")
    assert results.heading_path == ["Results"] and not results.text.rstrip().endswith(("2", "3"))
    assert "source_title" not in results.metadata and results.metadata["source_author"] == "Ada Example"


def test_headings_from_font_sizes_when_there_is_no_outline(services, collection):
    pdf = Pdf(title="Field notes")
    pdf.heading("Wetland Survey", 22).paragraph(LOREM).heading("Bird Counts", 15)
    pdf.paragraph("Grebes nested on the north shore in April. " + LOREM)
    pdf.heading("Method", 15).paragraph("Counts were taken at dawn from fixed hides. " + LOREM)
    item = ingest(services, collection, "notes.pdf", pdf.bytes())
    assert item["status"] == "ingested", item
    [hit] = keyword(services, collection, "grebes")
    assert hit.heading_path == ["Wetland Survey", "Bird Counts"]
    assert page_ref(hit.chunk_metadata) == "p. 1"
    [hit] = keyword(services, collection, "hides")
    assert hit.heading_path == ["Wetland Survey", "Method"]
    assert hit.metadata["source_title"] == "Field notes"


def test_a_table_becomes_a_markdown_table(services, collection):
    pdf = Pdf().line("Evaluation of the ranking", 16, "VeraBd").paragraph("The scores on the held-out set.")
    pdf.table([["Metric", "Score"], ["Recall", "0.91"], ["Precision", "0.87"]]).paragraph(LOREM)
    assert ingest(services, collection, "eval.pdf", pdf.bytes())["status"] == "ingested"
    [hit] = keyword(services, collection, "precision")
    assert "| Metric | Score |\n| --- | --- |\n| Recall | 0.91 |\n| Precision | 0.87 |" in hit.text


def test_filled_form_fields_and_comments_are_kept(services, collection):
    assert ingest(services, collection, "form.pdf", form_with_comments())["status"] == "ingested"
    [hit] = keyword(services, collection, "Quist")
    assert hit.heading_path == ["Form fields"] and "- Observer: Marta Quist" in hit.text
    assert "- Site: Heron marsh north" in hit.text and "- Calibrated: Yes" in hit.text
    [note] = [h for h in keyword(services, collection, "spring") if h.heading_path == ["Comments"]]
    assert "Check the heron count against last spring" in note.text
    assert page_ref(note.chunk_metadata) == "p. 1"


def test_a_title_ending_in_nul_ingests(services, collection):
    pdf = Pdf().paragraph("Otters hold hands while they sleep. " + LOREM)
    item = ingest(services, collection, "otters.pdf", with_nul_title(pdf.bytes(), "Otter behaviour"))
    assert item["status"] == "ingested", item
    [hit] = keyword(services, collection, "otters")
    assert hit.metadata["source_title"] == "Otter behaviour" and hit.metadata["source_author"] == "Ada Example"


def test_control_characters_and_ligatures_are_cleaned_in_every_input_type(services, collection):
    text = "Deﬁnition of a \x07bell\x00 and a ﬂoat.\f\nSecond page."
    result = services.ingestion.run(text_request(collection, title="plain", text=text))
    assert only_item(result)["status"] == "ingested"
    html = "<html><head><title>Ma\x01ps</title></head><body><p>The ﬂuvial Deﬁnition\x0b here.</p></body></html>".encode()
    assert ingest(services, collection, "page.html", html)["status"] == "ingested"
    hits = keyword(services, collection, "Definition")
    assert {h.title for h in hits} == {"plain", "page.html"}
    by_title = {h.title: h for h in hits}
    assert by_title["plain"].text == "Definition of a bell and a float.\n\nSecond page."
    assert "The fluvial Definition here." in by_title["page.html"].text
    assert by_title["page.html"].metadata["source_title"] == "Maps"


@pytest.mark.parametrize(("password", "status", "reason"), [
    (None, "failed", "the PDF is encrypted with a password; give the password"),
    ("wrong", "failed", "the password is wrong for this encrypted PDF"),
    ("s3cret", "ingested", ""),
])
def test_a_password_protected_pdf(services, collection, password, status, reason):
    pdf = Pdf().paragraph("Ledger of the lighthouse fund. " + LOREM)
    item = ingest(services, collection, "locked.pdf", encrypted(pdf.bytes(), "s3cret"), password=password)
    assert item["status"] == status and reason in item["reason"]
    assert bool(keyword(services, collection, "ledger")) == (status == "ingested")
    assert "s3cret" not in repr(services.jobs.recent(3))  # the job's record holds no password
    request = files_request(collection, [("locked.pdf", b"%PDF-")], settings=services.settings, password="s3cret")
    assert "s3cret" not in repr(request)  # nor does the request, its items or their loaders (a log line)
