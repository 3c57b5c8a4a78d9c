"""The pages render hostile names, titles and metadata inert (AppTest on the real app and stores).

Markdown sinks (markdown, captions, headings, alerts) must never receive a payload
unescaped; HTML sinks (``st.html``, the Mermaid iframe) must carry it HTML-escaped;
no element may allow raw HTML. The check walks every element the page rendered.
"""

from __future__ import annotations

import html
from typing import Any

import pytest

from services.graph.mermaid import escape_label
from tests.reliability.injection import PAYLOADS
from tests.utils.app import open_page

MARKDOWN_SINKS = ("markdown", "caption", "title", "header", "subheader", "error", "warning", "info", "success")
HTML_SPECIAL = set("<>&\"'")


@pytest.fixture(autouse=True)
def clear_streamlit_caches(services, monkeypatch):
    """Each AppTest builds its own services container, like a fresh server (as in tests/ui)."""
    from tests.utils.app import fresh_app_caches

    with fresh_app_caches(monkeypatch):
        yield


def _walk(node: Any) -> list[Any]:
    out = [node]
    for child in getattr(node, "children", {}).values():
        out += _walk(child)
    return out


def assert_rendered_inert(at: Any) -> int:
    """Check every rendered element; return how many carried (escaped) payload text, to prove the check ran."""
    assert not at.exception, at.exception
    seen = 0
    for element in _walk(at._tree):
        kind = getattr(element, "type", "")
        proto = getattr(element, "proto", None)
        if kind in MARKDOWN_SINKS or (proto is not None and hasattr(proto, "allow_html")):
            assert not getattr(proto, "allow_html", False), element
            body = str(getattr(element, "value", "") or getattr(proto, "body", ""))
            for payload in PAYLOADS.values():
                assert payload not in body, f"raw {payload!r} in a {kind}: {body[:300]}"
            seen += any(_escaped_form(p) in body for p in PAYLOADS.values())
        elif kind in ("html", "iframe") or (proto is not None and hasattr(proto, "srcdoc")):
            body = str(getattr(proto, "body", "") or getattr(proto, "srcdoc", ""))
            for payload in PAYLOADS.values():
                if set(payload) & HTML_SPECIAL:
                    assert payload not in body, f"raw {payload!r} in {kind}: {body[:300]}"
            assert "<script>alert" not in body and "onerror=alert" not in body.replace("#lt;", "<")
    return seen


def _escaped_form(payload: str) -> str:
    from components.markdown_text import md_escape

    return md_escape(payload)


@pytest.mark.parametrize("kind", ["script", "md-js-link", "md-image", "st-directives"])
def test_search_results_render_payloads_inert(services, planted, kind):
    item = planted[kind]
    at = open_page("search")
    at.text_input(key="search.query").set_value(item.payload + " harbour")
    at.multiselect(key="search.scope").set_value([item.collection])
    next(b for b in at.button if b.label == "Search").click().run()
    response = at.session_state["search.response"]
    assert [h.document_id for h in response.hits] == [item.document_id]
    assert assert_rendered_inert(at) >= 1
    chunks = [e.proto.body for e in _walk(at._tree) if getattr(e, "type", "") == "html" and "rag-chunk" in e.proto.body]
    assert len(chunks) == 1 and "was written on the <mark>harbour</mark> wall" in chunks[0]


@pytest.mark.parametrize("kind", ["script", "md-image"])
def test_document_page_renders_payloads_inert(services, planted, kind):
    item = planted[kind]
    at = open_page("documents", query={"doc": str(item.document_id)})
    assert at.selectbox(key="documents.open").value == item.document_id
    assert assert_rendered_inert(at) >= 1


@pytest.mark.parametrize("kind", ["script", "md-js-link", "cypher"])
def test_graph_page_renders_payload_entities_inert(services, planted, kind):
    item = planted[kind]
    at = open_page("graph", query={"collection": item.collection, "entity": item.payload})
    assert at.selectbox(key="graph.collection").value == item.collection
    assert assert_rendered_inert(at) >= 1
    mermaid = "\n".join(c.value for c in at.code)
    assert mermaid.startswith("flowchart LR") and f'["{escape_label(item.payload)}"]' in mermaid
    frames = [e.proto.srcdoc for e in _walk(at._tree) if getattr(e, "type", "") == "iframe"]
    assert len(frames) == 1 and html.escape(f'["{escape_label(item.payload)}"]') in frames[0]


def test_collections_and_ingest_pages_render_payload_names_inert(services, planted):
    item = planted["md-image"]
    at = open_page("collections")
    at.selectbox(key="collections.view").set_value(item.collection).run()
    assert_rendered_inert(at)
    at = open_page("ingest")
    at.selectbox(key="ingest.collection").set_value(item.collection).run()
    assert assert_rendered_inert(at) >= 1


def test_error_messages_naming_a_payload_render_it_inert(services, planted):
    item = planted["md-image"]
    at = open_page("collections")
    at.text_input[0].set_value(item.collection)
    at.text_area[0].set_value("A second collection with the same hostile name.")
    next(b for b in at.button if b.label == "Create").click().run()
    assert any("already exists" in e.value for e in at.error)
    assert assert_rendered_inert(at) >= 1
