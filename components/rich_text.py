"""Stored text (chunks, documents, answers) shown as Markdown, safely: code blocks, tables, emphasis, lists.

The text is rendered to HTML here by markdown-it-py, set up so that nothing in it can make the
browser fetch or run anything: raw HTML and entities stay literal text, and links, images,
autolinks and link references are not parsed at all (``[x](http://…)`` shows as typed). The only
links in the output are the citation links this module adds itself, to the app's own Documents page.

Highlights (search matches, a cited passage) travel through the parser as two private-use
characters and become ``<mark>`` afterwards, closed and reopened around every tag so the HTML stays
balanced when a highlight spans a table cell or a paragraph break.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from urllib.parse import urlencode

from markdown_it import MarkdownIt

MARK_ON, MARK_OFF = "\ue000", "\ue001"
_MD = (MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False, "breaks": True})
       .enable(["table", "strikethrough"])
       .disable(["link", "image", "autolink", "html_inline", "html_block", "reference", "entity"]))
_TAG = re.compile(r"(<[^>]*>)")
_CITATION = re.compile(r"\[(\d{1,3})\]")
STYLE = """<style>
.rag-md { font-size: 0.92rem; line-height: 1.5; overflow-wrap: anywhere; }
.rag-md p { margin: 0 0 0.5rem 0; }
.rag-md h1, .rag-md h2, .rag-md h3, .rag-md h4, .rag-md h5, .rag-md h6 {
  font-size: 1rem; font-weight: 600; margin: 0.4rem 0 0.3rem 0; padding: 0; }
.rag-md pre { background: #f6f8fa; padding: 0.5rem 0.7rem; border-radius: 4px; overflow-x: auto;
  font-size: 0.85rem; white-space: pre; }
.rag-md code { background: #f6f8fa; border-radius: 3px; padding: 0 0.2rem; font-size: 0.85rem; }
.rag-md table { border-collapse: collapse; margin: 0.3rem 0 0.6rem 0; font-size: 0.88rem; }
.rag-md th, .rag-md td { border: 1px solid #d0d7de; padding: 0.2rem 0.5rem; vertical-align: top; }
.rag-md th { background: #f6f8fa; }
.rag-md mark { background: #fff3a3; padding: 0; }
.rag-md mark.rag-focus { background: #ffe08a; }
.rag-md a.rag-cite { text-decoration: none; font-weight: 600; font-size: 0.8rem; vertical-align: super; }
</style>"""
_BOXED = "padding: 0.4rem 0.75rem; border-left: 3px solid #d0d7de; margin: 0.25rem 0 0.5rem 0;"


def with_marks(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with each (start, end) span wrapped in the highlight characters (spans may overlap)."""
    edges: dict[int, int] = {}
    for start, end in spans:
        start, end = max(0, start), min(len(text), end)
        if start < end:
            edges[start] = edges.get(start, 0) + 1
            edges[end] = edges.get(end, 0) - 1
    out, depth, last = [], 0, 0
    for at in sorted(edges):
        out.append(text[last:at])
        before, depth = depth, depth + edges[at]
        if before == 0 and depth > 0:
            out.append(MARK_ON)
        elif before > 0 and depth == 0:
            out.append(MARK_OFF)
        last = at
    out.append(text[last:])
    return "".join(out)


def segments_text(segments: Iterable[tuple[str, bool]]) -> str:
    """(text, is_match) pieces as one text with the matches marked."""
    return "".join(f"{MARK_ON}{t}{MARK_OFF}" if match else t for t, match in segments)


def citation_href(document_id: int, chunk_index: int) -> str:
    """The Documents page with this chunk highlighted (a relative link: pages are siblings in the URL)."""
    return "documents?" + urlencode({"doc": document_id, "chunk": chunk_index})


def markdown_html(text: str, *, citations: Mapping[int, tuple[str, str]] | None = None,
                  css_class: str = "", mark_class: str = "") -> str:
    """``text`` (with optional highlight characters) as safe HTML in a ``div.rag-md``.

    ``citations`` maps a marker number to (href, title): each ``[n]`` in the text outside code
    becomes a link to that passage. Any other ``[n]`` stays text.
    """
    body = _MD.render(text.replace("\x00", ""))
    out: list[str] = []
    marking = in_code = False
    open_mark = f'<mark class="{mark_class}">' if mark_class else "<mark>"
    for piece in _TAG.split(body):
        if not piece:
            continue
        if piece.startswith("<"):
            tag = piece.replace(MARK_ON, "").replace(MARK_OFF, "")
            name = tag[1:].lstrip("/").split(" ", 1)[0].split(">", 1)[0]
            if name in ("code", "pre"):
                in_code = not tag.startswith("</")
            out.append(tag)
            continue
        for part in re.split(f"([{MARK_ON}{MARK_OFF}])", piece):
            if part == MARK_ON:
                marking = True
            elif part == MARK_OFF:
                marking = False
            elif part:
                if citations and not in_code:
                    part = _link_citations(part, citations)
                out.append(f"{open_mark}{part}</mark>" if marking and part.strip() else part)
    classes = "rag-md" + (f" {css_class}" if css_class else "")
    style = f' style="{_BOXED}"' if "rag-chunk" in classes else ""
    return f'{STYLE}<div class="{classes}"{style}>{"".join(out)}</div>'


def _link_citations(escaped_text: str, citations: Mapping[int, tuple[str, str]]) -> str:
    def link(match: re.Match[str]) -> str:
        target = citations.get(int(match.group(1)))
        if target is None:
            return match.group(0)
        href, title = target
        return (f'<a class="rag-cite" href="{html.escape(href)}" target="_blank" '
                f'title="{html.escape(title)}">[{match.group(1)}]</a>')

    return _CITATION.sub(link, escaped_text)
