"""Read a web page as Markdown: the one reading of HTML, for uploaded ``.html`` files and crawled pages.

The page's main content is found by structure: ``<main>``, else ``role="main"``,
else a single ``<article>``, else ``<body>``. Inside it, site chrome is dropped by
what the markup says it is: ``nav``/``aside``/``footer`` elements (and a ``header``
outside the content), navigation, banner and search roles, hidden elements, and
classes or ids such as ``navheader``, ``sidebar``, ``breadcrumb`` or ``cookie``
(never an element holding most of the content). Everything else is kept; no
scoring decides that a section is unimportant, so whole sections cannot vanish.

The text is Markdown: ``h1``–``h6`` become ``#`` headings (the only headings: a
paragraph line that would read as one is escaped), ``<pre>`` becomes a fenced code
block, a table a Markdown table, lists ``-``/``1.`` items. Heading permalinks (the
pilcrows of Sphinx and MkDocs) and horizontal rules are dropped.
"""

from __future__ import annotations

import re
from typing import Any

from services.errors import UnsupportedInput

_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_BLOCKS = {
    "address", "article", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "header", "hgroup", "legend", "li", "main", "p", "section", "summary",
}
_INVISIBLE = {
    "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed", "form", "button",
    "input", "select", "textarea", "title", "head", "img", "picture", "video", "audio", "map", "math-annotation",
}
_CHROME_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar"}
# A class or id token that names site chrome: the word alone or joined by - or _ ("site-nav", "navbar-top").
_CHROME_TOKEN = re.compile(
    r"^(?:.*[-_])?(?:nav|navbar|navbox|navheader|navfooter|navigation|navmenu|menu|menubar|sidebar|sphinxsidebar"
    r"|breadcrumbs?|footer|related|skip-?link|cookies?|cookie-?banner|consent|banner|masthead|share|sharing|social"
    r"|comments|advert|ads|toolbar|pagination|pager)(?:[-_].*)?$"
)
_CHROME_IDS = {"nav", "navbar", "navigation", "menu", "sidebar", "footer", "breadcrumbs", "breadcrumb", "cookie-banner",
               "comments", "masthead", "site-header", "site-footer"}
_CODE_INLINE = {"code", "kbd", "samp", "tt", "var"}
_PERMALINK_TEXT = re.compile(r"^[\s¶§#🔗\u200b]*$")
_SPACE = re.compile(r"\s+")
_LOOKS_STRUCTURAL = re.compile(r"^(#{1,6}(?=\s|$)|```|~~~)", re.MULTILINE)  # would read as a heading or a fence
_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang|highlight)-([A-Za-z0-9_+#-]+)")
_BR = "\x00"  # a <br> inside inline text, until the line is assembled


def html_to_markdown(html: str, name: str = "page") -> tuple[str, str | None]:
    """The page's main content as Markdown, and its ``<title>``; raises :class:`UnsupportedInput`."""
    import lxml.html
    from lxml import etree

    parser = lxml.html.HTMLParser(huge_tree=False, encoding="utf-8")  # the bytes below are UTF-8, whatever <meta> says
    try:
        root = lxml.html.document_fromstring(html.encode("utf-8", "replace"), parser=parser)
    except (etree.ParserError, ValueError):
        raise UnsupportedInput("the HTML could not be parsed.", file=name) from None
    if any("depth" in e.message.lower() or e.type_name == "ERR_RESOURCE_LIMIT" for e in parser.error_log):
        raise UnsupportedInput(
            "the HTML is nested deeper than the parser allows (256 levels); content past that would be lost.", file=name)
    title_el = root.find(".//title")
    title = " ".join(title_el.text_content().split()) if title_el is not None else None
    main = main_element(root)
    _drop_chrome(main)
    writer = _Writer()
    try:
        writer.children(main)
    except RecursionError:
        raise UnsupportedInput("the HTML is nested too deeply to read.", file=name) from None
    text = writer.result()
    if not text.strip():
        raise UnsupportedInput("the HTML has no readable text.", file=name)
    return text, title or None


def main_element(root: Any) -> Any:
    """``<main>``, else ``role="main"``, else the only ``<article>``, else ``<body>`` (or the root)."""
    for path in ("//main", "//*[@role='main']"):
        found = [e for e in root.xpath(path) if not _hidden(e)]
        if found:
            return found[0]
    articles = root.xpath("//article")
    if len(articles) == 1:
        return articles[0]
    body = root.find("body")
    return body if body is not None else root


def _hidden(el: Any) -> bool:
    style = (el.get("style") or "").replace(" ", "").lower()
    return el.get("hidden") is not None or el.get("aria-hidden") == "true" or "display:none" in style


def _in_content(el: Any, main: Any) -> bool:
    """Whether ``el`` sits in content the page marked as such (``main``, ``article``, ``role="main"``)."""
    return any(a.tag in ("main", "article") or a.get("role") == "main" for a in (main, *main.iterancestors(),
                                                                               *el.iterancestors()))


def _chrome(el: Any, main: Any) -> str:
    """Whether ``el`` is site chrome: "marked" (by its tag, role or hidden state), "named" (by a class,
    or an id that is exactly a chrome word), or "" (content).

    Ids are matched whole only: section ids are made from headings ("edit-menu"), and a
    section or heading is content whatever its name says.
    """
    tag = el.tag
    if tag in ("nav", "footer") or (el.get("role") or "").lower() in _CHROME_ROLES or _hidden(el):
        return "marked"
    if tag in ("aside", "header"):
        return "" if _in_content(el, main) else "marked"  # an article's header, a footnote aside: content
    if tag == "section" or tag in _HEADINGS:
        return ""
    classes, ident = _class_tokens(el), el.get("id", "").lower()
    if "header" in classes or ident == "header":
        return "" if _in_content(el, main) else "named"
    return "named" if any(_CHROME_TOKEN.match(t) for t in classes) or ident in _CHROME_IDS else ""


def _drop_chrome(main: Any) -> None:
    """Remove chrome and invisible elements under ``main``; one named chrome that holds most of the text stays
    (a wrapper called "page-header" around everything is not the page's header)."""
    total = len(_SPACE.sub("", main.text_content())) or 1
    doomed = []
    for el in main.iter():
        if not isinstance(el.tag, str) or el is main:
            continue
        kind = "marked" if el.tag in _INVISIBLE else _chrome(el, main)
        if kind == "marked" or (kind == "named" and len(_SPACE.sub("", el.text_content())) < 0.5 * total):
            doomed.append(el)
        elif el.tag == "a" and _permalink(el):
            doomed.append(el)
    for el in doomed:
        if el.getparent() is not None:
            el.drop_tree()  # keeps the element's tail text


def _permalink(a: Any) -> bool:
    """A heading's self-link (¶, §, #, 🔗): it says nothing, so it is dropped."""
    if "headerlink" in _class_tokens(a):
        return True
    return (a.get("href") or "").startswith("#") and bool(_PERMALINK_TEXT.match(a.text_content())) and len(a) == 0


def _class_tokens(el: Any) -> list[str]:
    return str(el.get("class", "")).lower().split()


def _inline_text(el: Any) -> str:
    return _SPACE.sub(" ", el.text_content()).strip()


def _code_span(text: str) -> str:
    text = _SPACE.sub(" ", text).strip()
    if not text:
        return ""
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _fenced(el: Any) -> str:
    code = el.text_content().replace("\r\n", "\n").strip("\n")
    if not code.strip():
        return ""
    longest = max((len(m) for m in re.findall(r"`{3,}", code)), default=2)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{_language(el)}\n{code.rstrip()}\n{fence}"


def _language(el: Any) -> str:
    parent = el.getparent()
    for node in (el, *list(el)[:1], parent, parent.getparent() if parent is not None else None):
        if node is not None and isinstance(node.tag, str):
            found = _LANGUAGE.search(node.get("class", ""))
            if found and found.group(1).lower() not in ("default", "none", "text"):
                return found.group(1).lower()
    return ""


class _Writer:
    """Walks an element's content into Markdown blocks; ``flat`` renders everything inline (table cells)."""

    def __init__(self, *, flat: bool = False) -> None:
        self.flat = flat
        self.blocks: list[str] = []
        self.inline: list[str] = []

    def result(self) -> str:
        self.flush()
        return "\n\n".join(b for b in self.blocks if b.strip())

    def flush(self) -> None:
        lines = [_SPACE.sub(" ", part).strip() for part in "".join(self.inline).split(_BR)]
        self.inline.clear()
        text = "\n".join(line for line in lines if line)
        if text:
            self.blocks.append(_LOOKS_STRUCTURAL.sub(r"\\\1", text))

    def block(self, text: str) -> None:
        self.flush()
        if text:
            self.blocks.append(text)

    def children(self, el: Any) -> None:
        if el.text:
            self.inline.append(el.text)
        for child in el:
            self.element(child)
            if child.tail:
                self.inline.append(child.tail)

    def element(self, el: Any) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if not tag:  # a comment or processing instruction: only its tail counts
            return
        if self.flat and (tag in _HEADINGS or tag in ("pre", "table", "ul", "ol")):
            self.inline.append(" " + (_code_span(el.text_content()) if tag == "pre" else _inline_text(el)) + " ")
        elif tag in _HEADINGS:
            self.block(f"{'#' * _HEADINGS[tag]} {_inline_text(el)}" if _inline_text(el) else "")
        elif tag == "pre":
            self.block(_fenced(el))
        elif tag == "table":
            self.block(_table(el))
        elif tag in ("ul", "ol"):
            self.block(_list(el))
        elif tag == "br":
            self.inline.append(" " if self.flat else _BR)
        elif tag == "hr":
            self.flush()
        elif tag in _CODE_INLINE:
            self.inline.append(_code_span(el.text_content()))
        elif tag in _BLOCKS or tag in ("tr", "td", "th", "tbody", "thead", "tfoot"):
            if self.flat:
                self.inline.append(" ")
                self.children(el)
                self.inline.append(" ")
            else:
                self.flush()
                self.children(el)
                self.flush()
        else:
            self.children(el)


def _render(el: Any, *, flat: bool = False) -> str:
    writer = _Writer(flat=flat)
    writer.children(el)
    return writer.result()


def _list(el: Any) -> str:
    """A list as Markdown items; an item's later blocks (paragraphs, code, nested lists) are indented under it.

    Anything but an ``li`` directly in the list (invalid, but seen) becomes an item too, so nothing is lost.
    """
    items = []
    number = int(el.get("start", "1")) if (el.get("start") or "1").isdigit() else 1
    for li in el:
        if not isinstance(li.tag, str):
            continue
        marker = f"{number}. " if el.tag == "ol" else "- "
        number += 1
        body = _render(li)
        if not body:
            continue
        pad = " " * len(marker)
        lines = body.split("\n")
        items.append(marker + lines[0] + "".join("\n" + (pad + line if line else "") for line in lines[1:]))
    return "\n".join(items)


def _table(el: Any) -> str:
    """A Markdown table (the first row is the header); a layout table (one column, or tables inside) as blocks."""
    rows = [r for r in el.iter("tr") if _owning_table(r) is el]
    if any(t is not el for t in el.iter("table")) or max((len(_cells(r)) for r in rows), default=0) < 2:
        return _render(el)
    grid = []
    for row in rows:
        cells: list[str] = []
        for cell in _cells(row):
            text = _render(cell, flat=True).replace("\n", " ").replace("|", "\\|")
            span = int(cell.get("colspan", "1")) if (cell.get("colspan") or "1").isdigit() else 1
            cells += [text] + [""] * (min(span, 50) - 1)
        if any(cells):
            grid.append(cells)
    if not grid:
        return ""
    width = max(len(r) for r in grid)
    lines = ["| " + " | ".join(r + [""] * (width - len(r))) + " |" for r in grid]
    lines.insert(1, "|" + " --- |" * width)
    caption = el.find("caption")
    head = _inline_text(caption) if caption is not None else ""
    return (head + "\n\n" if head else "") + "\n".join(lines)


def _owning_table(el: Any) -> Any:
    return next((a for a in el.iterancestors() if a.tag == "table"), None)


def _cells(row: Any) -> list[Any]:
    return [c for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")]
