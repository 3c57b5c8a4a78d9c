"""Which URLs a crawl takes, and in what order.

Scope comes before budget: a URL outside the crawl's scope (another host, outside
the path prefix, not matching an include glob, or matching an exclude glob) is
never queued, so it cannot take one of the ``max_pages`` places. The start URL is
always fetched, for its links; it is stored (and counted) only when it is in scope.

The queue is visited shallowest first; at one depth, URLs matching the first
include pattern (the analyzer group picked in the URL tab) come before those
matching the next, then in the order they were found.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from services.web.sitemap import matches

# The parameters that decide which pages a crawl can reach, with their defaults (max_pages only decides how
# many it visits, max_depth is compared on its own).
SCOPE_DEFAULTS: dict[str, Any] = {"same_domain": True, "path_prefix": "", "include": [], "exclude": [],
                                  "render_js": False}


@dataclass(frozen=True)
class Scope:
    host: str
    same_domain: bool = True
    path_prefix: str = ""
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def admits(self, url: str) -> bool:
        parts = urlsplit(url)
        if self.same_domain and parts.netloc != self.host:
            return False
        if self.path_prefix and not (parts.path or "/").startswith(self.path_prefix):
            return False
        if self.include and not any(matches(url, p) for p in self.include):
            return False
        return not any(matches(url, p) for p in self.exclude)

    def rank(self, url: str) -> int:
        """The index of the first include pattern the URL matches (0 without include patterns)."""
        return next((i for i, p in enumerate(self.include) if matches(url, p)), len(self.include))


class CrawlQueue:
    """The URLs still to visit, by (depth, include-pattern rank, order found)."""

    def __init__(self, scope: Scope, entries: Iterable[tuple[str, int]] = ()) -> None:
        self.scope = scope
        self._heap: list[tuple[int, int, int, str]] = []
        self._order = itertools.count()
        for url, depth in entries:
            self.push(url, depth)

    def push(self, url: str, depth: int) -> None:
        heapq.heappush(self._heap, (depth, self.scope.rank(url), next(self._order), url))

    def pop(self) -> tuple[str, int]:
        depth, _rank, _order, url = heapq.heappop(self._heap)
        return url, depth

    def __len__(self) -> int:
        return len(self._heap)


def same_scope(now: dict[str, Any], before: dict[str, Any]) -> bool:
    """Whether a crawl with params ``now`` reaches every page one with params ``before`` could reach:
    the same scope and at least the same depth (a larger ``max_pages`` alone is not enough, see recrawl)."""
    def key(params: dict[str, Any]) -> tuple[Any, ...]:
        values = [params.get(k, default) for k, default in SCOPE_DEFAULTS.items()]
        return tuple(sorted(v) if isinstance(v, list) else v for v in values)

    return key(now) == key(before) and int(now.get("max_depth", 0)) >= int(before.get("max_depth", 0))
