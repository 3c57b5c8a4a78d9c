"""Every page renders without an exception, with and without data (AppTest)."""

from __future__ import annotations

import pytest

from tests.utils.app import open_page

PAGES = ["home", "collections", "ingest", "search", "documents", "graph", "timeline", "ask", "memory"]


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_with_an_empty_collection(page, collection):
    at = open_page(page)
    assert not at.exception, at.exception
    assert at.title and at.title[0].value


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_with_data(page, zorbex_collection, services):
    """A collection with documents, chunks, graph facts, a job and a conversation behind every page."""
    services.ask.ask("Who founded Zorbex?", collections=[zorbex_collection])
    fact = services.memory.remember("I study logistics companies")
    try:
        at = open_page(page, query={"collection": zorbex_collection})
    finally:
        services.memory.forget(fact.id)
    assert not at.exception, at.exception
    assert at.title and at.title[0].value
    text = " ".join(str(e.value) for e in (*at.markdown, *at.caption, *at.metric) if getattr(e, "value", None))
    assert not any(phrase in text for phrase in ("No collections yet", "Nothing to search yet")), text[:500]
