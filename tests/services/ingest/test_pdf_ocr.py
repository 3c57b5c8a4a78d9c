"""Scanned PDF pages (issue 30): a page without a text layer is read by OCR (Tesseract, offline) and its
chunks are marked so; without OCR it is reported on the item, never dropped silently. Through the real
ingester and stores; the scans are pictures of text drawn here."""

from __future__ import annotations

from typing import Any

import pytest

from services.ingest import pdf_ocr
from services.page_ref import page_ref
from tests.services.ingest.test_pdf_ingest import ingest, keyword
from tests.utils.pdf_build import LOREM, scanned

SCAN = ["The albatross glides for hours", "without a single wingbeat over", "the southern ocean."]


def mixed() -> bytes:
    return scanned(["Kestrels hover above the verge. " + LOREM * 8, SCAN, "Puffins nest in burrows. " + LOREM * 4])


needs_ocr = pytest.mark.skipif(not pdf_ocr.available(), reason="tesseract-ocr is not installed (make ocr-deps)")


@needs_ocr
def test_a_scanned_page_in_a_text_pdf_is_read_by_ocr(services, collection):
    item = ingest(services, collection, "mixed.pdf", mixed())
    assert item["status"] == "ingested" and "page 2: read by OCR" in item["reason"], item
    hits = keyword(services, collection, "albatross wingbeat")  # one chunk, or two that overlap on it
    assert hits and all("albatross glides for hours" in hit.text for hit in hits)
    for hit in hits:
        first, last = hit.chunk_metadata["pages"]  # a chunk may span the short scanned page's neighbours
        assert first <= 2 <= last and hit.chunk_metadata["ocr"] is True
    text_hit = keyword(services, collection, "kestrels")[0]
    assert page_ref(text_hit.chunk_metadata) == "p. 1" and "ocr" not in text_hit.chunk_metadata


@needs_ocr
def test_an_image_only_pdf_is_ingested_after_ocr(services, collection):
    item = ingest(services, collection, "scan.pdf", scanned([SCAN, ["Gannets dive from thirty metres", "into shoals."]]))
    assert item["status"] == "ingested" and "pages 1, 2: read by OCR" in item["reason"], item
    [hit] = keyword(services, collection, "gannets")
    assert hit.chunk_metadata["pages"] == [1, 2] and hit.chunk_metadata["ocr"] is True


def test_without_ocr_blank_pages_are_reported(services, collection, monkeypatch: Any):
    monkeypatch.setattr(pdf_ocr, "available", lambda: False)
    item = ingest(services, collection, "mixed.pdf", mixed())
    assert item["status"] == "ingested" and "page 2: no text (OCR unavailable)" in item["reason"], item
    assert keyword(services, collection, "puffins") and not keyword(services, collection, "albatross")
    refused = ingest(services, collection, "scan.pdf", scanned([SCAN]))
    assert refused["status"] == "failed" and "OCR is unavailable" in refused["reason"], refused
