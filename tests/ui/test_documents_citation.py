"""A cited chunk on the Documents page (AppTest on the real stores; issue 34, items 4 and 5)."""

from __future__ import annotations

from tests.utils.app import open_page
from tests.utils.ingest import ingest_text, only_item


def _doc(services, collection, title, text) -> int:
    return only_item(ingest_text(services, collection, title, text))["document_id"]


def test_a_cited_chunk_applies_only_to_its_own_document(services, collection):
    """?doc=A&chunk=0 opens A's passage; choosing B in "Open document" must not show B's chunk 0 as cited."""
    a = _doc(services, collection, "Herons", "Herons wade in shallow water and wait for fish.")
    b = _doc(services, collection, "Kites", "Kites fly best in a steady breeze over open fields.")
    at = open_page("documents", query={"doc": str(a), "chunk": "0"})
    assert any("cited passage" in c.value for c in at.caption)
    box = next(s for s in at.selectbox if s.label == "Open document")
    box.set_value(b).run()
    assert not at.exception
    assert at.subheader[0].value == "Kites"
    assert not any("cited passage" in c.value for c in at.caption), [c.value for c in at.caption]


def test_the_cited_passage_comes_first(services, collection):
    """The passage a citation opens is the first thing under the title, above the documents table."""
    a = _doc(services, collection, "Herons", "Herons wade in shallow water and wait for fish.")
    at = open_page("documents", query={"doc": str(a), "chunk": "0"})
    main = [e for e in at.main if getattr(e, "type", "") != "markdown" or "rag" not in str(e.value)]
    kinds = [(type(e).__name__, str(getattr(e, "value", ""))[:40]) for e in main]
    first_caption = next(i for i, e in enumerate(main) if "cited passage" in str(getattr(e, "value", "")))
    table = next(i for i, e in enumerate(main) if type(e).__name__ == "Dataframe")
    assert first_caption < table, kinds
