"""Look at a website before crawling it: which pages it has, grouped by path pattern.

Sources, in order: ``Sitemap:`` lines of robots.txt, ``sitemap.xml`` beside the
given URL and at the domain root (sitemap indexes and nested sitemaps are
followed). Without a sitemap, a small link-discovery crawl. A hard time limit
stops the analysis and says so.
"""

from __future__ import annotations

import fnmatch
import gzip
import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import etree
from lxml import html as lxml_html

from services.web.fetch import Fetcher
from services.web.url_safety import canonical_url, check_url

MAX_SITEMAPS = 50
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>")
DISCOVERY_PAGES = 40
_PAGE_SUFFIXES = ("", ".html", ".htm", ".xhtml", ".php", ".asp", ".aspx", ".jsp", ".shtml",
                  ".txt", ".md", ".markdown", ".pdf", ".docx")


@dataclass
class UrlGroup:
    pattern: str  # a glob over the URL path, usable as a crawl include pattern
    count: int
    sample: list[str] = field(default_factory=list)


@dataclass
class SiteAnalysis:
    url: str
    source: str  # sitemap | links
    total_found: int
    urls: list[str]
    groups: list[UrlGroup]
    sitemaps: list[str]
    stopped_early: bool = False
    reason: str | None = None


def path_pattern(url: str) -> str:
    """``/docs/a/b.html`` → ``/docs/*``; ``/sql-createindex.html`` → ``/sql-*``; else ``/*``."""
    path = urlsplit(url).path or "/"
    segments = [s for s in path.split("/") if s]
    if len(segments) > 1:
        return f"/{segments[0]}/*"
    if segments and "-" in segments[0]:
        return f"/{segments[0].split('-', 1)[0]}-*"
    return "/*"


def matches(url: str, pattern: str) -> bool:
    """Glob match on the URL path (or on the whole URL when the pattern has a scheme)."""
    target = url if "://" in pattern else (urlsplit(url).path or "/")
    return fnmatch.fnmatchcase(target, pattern)


def group_urls(urls: list[str], *, samples: int = 3) -> list[UrlGroup]:
    counts: Counter[str] = Counter()
    sample: dict[str, list[str]] = {}
    for url in urls:
        pattern = path_pattern(url)
        counts[pattern] += 1
        if len(sample.setdefault(pattern, [])) < samples:
            sample[pattern].append(url)
    return [UrlGroup(p, n, sample[p]) for p, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def is_page_link(url: str) -> bool:
    path = urlsplit(url).path.lower().rsplit("/", 1)[-1]
    suffix = path[path.rfind("."):] if "." in path else ""
    return suffix in _PAGE_SUFFIXES


def parse_html(html: str) -> Any:
    """An lxml tree of a page; an XML declaration (XHTML pages) is dropped, lxml refuses it in a str."""
    return lxml_html.fromstring(_XML_DECL.sub("", html, count=1) or "<html></html>")


def page_links(base_url: str, html: str) -> list[str]:
    """Absolute, canonical http(s) links of a page (fragments dropped), in document order."""
    try:
        tree = parse_html(html)
    except (etree.ParserError, ValueError):
        return []
    out: list[str] = []
    for href in tree.xpath("//a/@href"):
        href = str(href).strip()
        if not href or href.startswith(("mailto:", "javascript:", "tel:", "#")):
            continue
        try:
            out.append(canonical_url(urljoin(base_url, href)))
        except Exception:  # a malformed href: ignore it
            continue
    return list(dict.fromkeys(out))


def parse_sitemap(data: bytes) -> tuple[list[str], list[str]]:
    """(page URLs, nested sitemap URLs) of a sitemap or sitemap index; gzip is unpacked."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)[:50_000_000]
        except OSError:
            return [], []
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return [], []
    if root is None:
        return [], []
    locs = [str(t).strip() for t in root.xpath("//*[local-name()='loc']/text()")]
    if etree.QName(root).localname == "sitemapindex":
        return [], locs
    return locs, []


def analyze_site(url: str, *, fetcher: Fetcher, time_limit: float = 50, max_urls: int = 150) -> SiteAnalysis:
    """Find a site's pages (sitemaps first, else links) within ``time_limit`` seconds."""
    start = canonical_url(url)
    check_url(start, resolver=fetcher.resolver, allowed=fetcher.allowed)  # refuse an unsafe URL up front
    deadline = time.monotonic() + time_limit
    state: dict[str, Any] = {"stopped": False, "reason": None}

    def remaining() -> float | None:
        left = deadline - time.monotonic()
        if left <= 0:
            state["stopped"], state["reason"] = True, f"Stopped at the {time_limit:g}-second time limit."
            return None
        return left

    parts = urlsplit(start)
    origin = f"{parts.scheme}://{parts.netloc}"
    candidates = [str(u) for u in fetcher.robots_for(start).sitemaps]
    base = start if start.endswith("/") or "." not in start.rsplit("/", 1)[-1] else start.rsplit("/", 1)[0]
    candidates += [base.rstrip("/") + "/sitemap.xml", origin + "/sitemap.xml"]
    found: list[str] = []
    seen_maps: set[str] = set()
    queue = deque(dict.fromkeys(candidates))
    used: list[str] = []
    while queue and len(seen_maps) < MAX_SITEMAPS:
        left = remaining()
        if left is None:
            break
        sm = queue.popleft()
        if sm in seen_maps:
            continue
        seen_maps.add(sm)
        got = fetcher.fetch(sm, types=(), timeout=min(left, fetcher.settings.fetch_timeout))
        if not got.ok:
            continue
        pages, nested = parse_sitemap(got.body)
        if pages or nested:
            used.append(sm)
        found.extend(pages)
        queue.extend(nested)
    pages_found = [u for u in dict.fromkeys(_canon_all(found))]
    if pages_found:
        source = "sitemap"
    else:
        source = "links"
        pages_found = _discover(start, fetcher, remaining, max_urls)
    return SiteAnalysis(start, source, len(pages_found), pages_found[:max_urls], group_urls(pages_found),
                        used, state["stopped"], state["reason"])


def _canon_all(urls: list[str]) -> list[str]:
    out = []
    for u in urls:
        try:
            out.append(canonical_url(u))
        except Exception:
            continue
    return out


def _discover(start: str, fetcher: Fetcher, remaining: Any, max_urls: int) -> list[str]:
    """A bounded breadth-first crawl on the start URL's host, collecting page links."""
    host = urlsplit(start).netloc
    found = [start]
    seen = {start}
    queue = deque([start])
    fetched = 0
    while queue and fetched < DISCOVERY_PAGES and len(found) < max_urls * 4:
        left = remaining()
        if left is None:
            break
        url = queue.popleft()
        got = fetcher.fetch(url, timeout=min(left, fetcher.settings.fetch_timeout))
        fetched += 1
        if not got.ok or "html" not in got.content_type:
            continue
        for link in page_links(got.final_url, got.body.decode("utf-8", errors="replace")):
            if link in seen or urlsplit(link).netloc != host or not is_page_link(link):
                continue
            seen.add(link)
            found.append(link)
            queue.append(link)
    return found
