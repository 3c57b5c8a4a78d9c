"""Stored text as Markdown, safely: structure renders, hostile input stays inert, highlights stay balanced."""

from __future__ import annotations

import re

import pytest

from components.rich_text import citation_href, markdown_html, segments_text, with_marks
from tests.reliability.injection import PAYLOADS

HOSTILE = [
    *PAYLOADS.values(),
    "[click](http://127.0.0.1:9/x) <http://127.0.0.1:9/auto> www.example.com/p https://127.0.0.1:9/bare",
    "[ref]\n\n[ref]: http://127.0.0.1:9/ref.png\n\n![also][ref]",
    "<iframe src=//127.0.0.1:9></iframe> <svg onload=alert(1)> &lt;b&gt;",
    "```\n</code></pre><script>alert(1)</script>\n```",
    "| a | b |\n|---|---|\n| <img src=x> | [l](http://127.0.0.1:9) |",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_nothing_in_stored_text_can_fetch_or_run(text):
    out = markdown_html(text)
    body = out.split("</style>", 1)[1]
    assert not re.search(r"<(a|img|script|iframe|svg|link|object|embed|image)\b", body, re.I), body
    tags = re.findall(r"<[^>]*>", body)  # the text's own "<" arrive escaped, as &lt;
    assert not [t for t in tags if re.search(r"\s(href|src|on\w+)=", t, re.I)], body


def test_code_blocks_tables_emphasis_and_lists_render():
    out = markdown_html("# Setup\n\nRun **this** and *that*:\n\n```python\nx = 1  # not a heading\n```\n\n"
                        "| key | value |\n|---|---|\n| a | `1` |\n\n- one\n- two\n")
    for tag in ("<h1>Setup</h1>", "<strong>this</strong>", "<em>that</em>", '<pre><code class="language-python">',
                "# not a heading", "<table>", "<td><code>1</code></td>", "<ul>", "<li>one</li>"):
        assert tag in out, tag


def test_highlights_cross_blocks_and_stay_balanced():
    text = "First para has harbour.\n\nSecond | x |\n|---|---|\n| harbour wall | y |"
    start = text.index("harbour.")
    out = markdown_html(with_marks(text, [(start, text.index("Second") + 6), (text.rindex("harbour"), text.rindex("harbour") + 7)]))
    body = out.split("</style>", 1)[1]
    assert body.count("<mark>") == body.count("</mark>") >= 3
    assert "<mark>harbour.</mark>" in body and "<mark>harbour</mark> wall" in body
    assert "\ue000" not in body and "\ue001" not in body


def test_search_segments_become_marks():
    out = markdown_html(segments_text([("the ", False), ("harbour", True), (" wall", False)]))
    assert "the <mark>harbour</mark> wall" in out


def test_citations_link_to_their_passage_and_only_known_numbers_link():
    out = markdown_html("Alice founded Acme [1]. See `[1]` and [7].", citations={1: (citation_href(12, 3), 'Doc "A"')})
    assert '<a class="rag-cite" href="documents?doc=12&amp;chunk=3" target="_blank" title="Doc &quot;A&quot;">[1]</a>' in out
    assert "<code>[1]</code>" in out and "[7]" in out and out.count("<a ") == 1
