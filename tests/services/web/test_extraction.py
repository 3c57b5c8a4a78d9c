"""One reading of the web: what a page's stored text holds, measured against the page's own main content.

Recall is the share of the words of the page's main-content element that the extracted
text keeps (counted with repeats). For the PostgreSQL manual the main content is the body
without its navigation header and footer; for the Sphinx pages, the ``role="main"`` element
without its ``nav`` (the page's own table of contents). A chunk is boilerplate when it
carries text that only the site's chrome has.
"""

from __future__ import annotations

import collections
import re

import lxml.html
import pytest
import sqlalchemy as sa

from services.documents import content_hash
from services.ingest.chunking import chunk_text
from services.ingest.parsing import parse_bytes
from services.ingest.requests import files_request
from services.web.crawl import CrawlRequest, extract_page
from services.web.fetch import Fetcher
from tests.services.web.conftest import crawler, loopback_resolver, web_settings
from tests.services.web.sites import SPHINX_CHROME, sphinx_page

WORD = re.compile(r"\w+")
BLOCK_TAGS = {"p", "div", "dt", "dd", "li", "td", "th", "tr", "pre", "br", "table", "ul", "ol", "dl", "section",
              "blockquote", "caption", "h1", "h2", "h3", "h4", "h5", "h6"}
PG_CHROME = re.compile(r"\bPrev\b\s+\bUp\b|\bUp\b\s+\bHome\b|\bHome\b\s+\bNext\b")
LIMIT = 10 * 1024 * 1024


def _words(text: str) -> collections.Counter[str]:
    return collections.Counter(w.lower() for w in WORD.findall(text))


def main_content_words(html: str) -> collections.Counter[str]:
    """The words of the page's main-content element, blocks kept apart (independent of the extractor)."""
    root = lxml.html.document_fromstring(html.encode())
    for el in root.xpath("//script|//style|//div[contains(@class,'navheader') or contains(@class,'navfooter')]"):
        el.drop_tree()
    found = root.xpath("//*[@role='main']")
    main = found[0] if found else root.find("body")
    for el in main.xpath(".//nav|.//a[contains(@class,'headerlink')]"):
        el.drop_tree()
    for el in main.iter():
        if isinstance(el.tag, str) and el.tag in BLOCK_TAGS:
            el.text, el.tail = " " + (el.text or ""), " " + (el.tail or "")
    return _words(main.text_content())


def measure(pages: dict[str, str], chrome: re.Pattern[str]) -> dict[str, float]:
    """Word recall against the main content (overall and the worst page) and the boilerplate share of chunks."""
    total = kept = chunks = boilerplate = 0
    worst = 1.0
    for url, html in pages.items():
        main = main_content_words(html)
        text = extract_page(html.encode(), url, "text/html").text
        got = _words(text)
        hit = sum(min(n, got[w]) for w, n in main.items())
        total, kept = total + sum(main.values()), kept + hit
        worst = min(worst, hit / max(1, sum(main.values())))
        for chunk in chunk_text(text):
            chunks += 1
            boilerplate += bool(chrome.search(chunk.text))
    return {"recall": kept / total, "worst_page": worst, "chunks": chunks, "boilerplate": boilerplate / chunks}


def test_the_postgresql_manual_keeps_its_main_content_and_drops_its_chrome(services, pg_docs_site, shared_data):
    names = sorted(p.name for p in (shared_data / "postgresql-docs").glob("*.html"))[::6]  # ~195 pages, every kind
    with Fetcher(settings=web_settings(services), resolver=loopback_resolver) as fetcher:
        fetched = {f"{pg_docs_site}/{n}": fetcher.fetch(f"{pg_docs_site}/{n}") for n in names}
    assert all(got.ok for got in fetched.values())
    figures = measure({url: got.body.decode("utf-8") for url, got in fetched.items()}, PG_CHROME)
    assert figures["recall"] >= 0.98, figures
    assert figures["worst_page"] >= 0.95, figures  # no page loses a section
    assert figures["boilerplate"] < 0.02, figures


def test_sphinx_pages_keep_their_main_content_and_drop_their_chrome():
    pages = {f"http://127.0.0.1/{t}.html": sphinx_page(t.title(), t) for t in ("moorings", "tides", "buoys")}
    chrome = re.compile("|".join(re.escape(c) for c in SPHINX_CHROME))
    figures = measure(pages, chrome)
    assert figures["recall"] >= 0.98 and figures["worst_page"] >= 0.98, figures
    assert figures["boilerplate"] == 0, figures


def test_code_stays_code_and_headings_come_from_the_page_structure():
    text = extract_page(sphinx_page("Moorings", "moorings").encode(), "http://127.0.0.1/m.html", "text/html").text
    assert "¶" not in text and "***" not in text and "\n---\n" not in text
    assert ("```python3\n# sort the moorings by weight\nledger = sorted(items)\n# keep the heaviest moorings first\n"
            "ledger.reverse()\n```") in text
    assert ("| Name | Meaning |\n| --- | --- |\n| `weigh()` | Weigh the moorings on the quay \\| in kilograms |\n"
            "| `count()` | Count every moorings in the ledger |") in text
    assert "moorings.weigh(item)\n\nReturn the weight" in text
    assert "Dawn is when the first ferry" in text  # a footnote is content, though it is an <aside>
    headings = {("Moorings",), ("Moorings", "Usage"), ("Moorings", "Reference")}
    chunks = chunk_text(text, size=300, overlap=60)
    assert {c.heading_path for c in chunks} == headings  # never "sort the moorings by weight"


def test_a_paragraph_that_starts_with_a_hash_is_not_a_heading():
    html = "<html><body><main><h1>Tally</h1><p># of boats: 12</p><p>line one<br/>### not a title</p></main></body></html>"
    text = parse_bytes(html.encode(), "tally.html", max_bytes=LIMIT).text
    assert text == "# Tally\n\n\\# of boats: 12\n\nline one\n\\### not a title"
    assert {c.heading_path for c in chunk_text(text)} == {("Tally",)}


def test_an_uploaded_page_and_the_same_page_crawled_read_the_same(services, collection, pg_docs_site, shared_data):
    """The same bytes give the same text and content hash whichever way they come in."""
    page = shared_data / "postgresql-docs" / "sql-createindex.html"
    assert parse_bytes(page.read_bytes(), page.name, max_bytes=LIMIT).text == \
        extract_page(page.read_bytes(), pg_docs_site + "/" + page.name, "text/html").text

    crawled = crawler(services).run(CrawlRequest(collection, pg_docs_site + "/" + page.name, max_pages=1, max_depth=0))
    assert crawled.pages[0]["status"] == "ingested"
    services.collections.create(name=collection + "-upload", description="The same page, uploaded.")
    try:
        uploaded = services.ingestion.run(files_request(collection + "-upload", [(page.name, page.read_bytes())],
                                                        settings=services.settings))
        assert uploaded.items[0]["status"] == "ingested", uploaded.items
        with services.engine.connect() as conn:
            hashes = conn.execute(sa.text(
                "SELECT c.name, d.content_hash, d.chunk_count FROM documents d JOIN collection_documents cd "
                "ON cd.document_id = d.id JOIN collections c ON c.id = cd.collection_id WHERE c.name = ANY(:n)"),
                {"n": [collection, collection + "-upload"]}).all()
    finally:
        services.deletion.delete_collection(collection + "-upload")
    assert len(hashes) == 2 and hashes[0].content_hash == hashes[1].content_hash, hashes
    assert hashes[0].content_hash == content_hash(parse_bytes(page.read_bytes(), page.name, max_bytes=LIMIT).text)


@pytest.mark.parametrize("name", ["sql-createindex.html", "functions-string.html"])
def test_the_manual_reads_with_its_sections_and_code(shared_data, name):
    """The manual's reference pages keep their h2 sections and their synopsis as a code block."""
    html = (shared_data / "postgresql-docs" / name).read_bytes()
    text = extract_page(html, "http://127.0.0.1/" + name, "text/html").text
    assert "Prev" not in text.split("\n")[0] and not PG_CHROME.search(text)
    if name == "sql-createindex.html":
        assert text.startswith("## CREATE INDEX\n\nCREATE INDEX — define a new index\n\n## Synopsis\n\n```\nCREATE")
        assert "## Description" in text and "## Parameters" in text and "## Examples" in text
