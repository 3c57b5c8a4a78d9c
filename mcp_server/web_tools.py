"""MCP tools for websites: analyze_website (what a site holds) and ingest_url (one page or a crawl)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from mcp_server.context import scope_of, tool_errors
from services.jsonable import to_jsonable
from services.web.crawl import CrawlRequest, CrawlResult

MAX_PAGES_LISTED = 200
Url = Annotated[str, Field(description="An http(s) URL, e.g. https://example.com/docs/. Private and internal "
                                       "addresses are refused unless the server's fetch_allow_hosts allows them.")]


def register(server: MCPServer[Any]) -> None:
    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True))
    async def analyze_website(
        ctx: Context,
        url: Url,
        time_limit: Annotated[float, Field(description="Seconds before the analysis stops and reports what it "
                                                       "found (1-120).", ge=1, le=120)] = 50,
    ) -> dict[str, Any]:
        """Look at a website before ingesting it: reads robots.txt and sitemap.xml (including sitemap indexes), or
        follows links for a while when there is no sitemap, and returns up to 150 URLs grouped by path pattern
        (e.g. {"pattern": "/docs/*", "count": 120}), the total found, and stopped_early with a reason when the
        time limit hit. Pass a group's pattern to ingest_url's include to crawl just that part."""
        with tool_errors():
            svc = (await anyio.to_thread.run_sync(scope_of, ctx)).services  # any signed-in caller: it stores nothing
            result = await anyio.to_thread.run_sync(
                lambda: svc.crawler.analyze(url, time_limit=time_limit))
        return to_jsonable(result)

    @server.tool(annotations=ToolAnnotations(open_world_hint=True))
    async def ingest_url(
        ctx: Context,
        url: Url,
        collection: Annotated[str, Field(description="The collection to store into (it must exist).")],
        crawl: Annotated[bool, Field(description="Follow links from url; false ingests only url itself.")] = False,
        max_pages: Annotated[int, Field(description="With crawl: stop after this many pages.", ge=1, le=5000)] = 50,
        max_depth: Annotated[int, Field(description="With crawl: how many links away from url to go.", ge=0, le=20)] = 3,
        same_domain: Annotated[bool, Field(description="With crawl: stay on url's host.")] = True,
        path_prefix: Annotated[str, Field(description="With crawl: only URLs whose path starts with this.")] = "",
        include: Annotated[list[str] | None, Field(description="With crawl: only URL paths matching these globs, "
                                                               "e.g. a pattern from analyze_website.")] = None,
        exclude: Annotated[list[str] | None, Field(description="With crawl: skip URL paths matching these globs.")] = None,
        mode: Annotated[Literal["ingest", "reingest"], Field(
            description="ingest: skip pages already in the collection; reingest: update changed pages and delete "
                        "the pages of the previous crawl of this url that the site no longer serves (404/410, or not "
                        "reached by a complete crawl of the same scope); pages not visited this time are kept "
                        "(listed in not_visited).")] = "ingest",
        render_js: Annotated[bool, Field(description="Run each page's scripts in headless chromium before "
                                                     "extracting it (pages built by JavaScript; slower).")] = False,
    ) -> dict[str, Any]:
        """Ingest a web page, or crawl a website, into a collection. Each page's main text (navigation and
        footers removed) becomes a document titled by its canonical URL, with metadata url, title and
        fetched_at. robots.txt is respected. Returns the crawl's outcome: counts and per-page status with a
        reason for every skipped or failed page. May take minutes for large crawls; the same crawl while one
        is running is refused."""
        request = CrawlRequest(collection, url, mode=mode, max_pages=max_pages if crawl else 1,
                               max_depth=max_depth if crawl else 0, same_domain=same_domain, path_prefix=path_prefix,
                               include=list(include or []), exclude=list(exclude or []), render_js=render_js)
        with tool_errors():
            scope = await anyio.to_thread.run_sync(scope_of, ctx)
            result = await anyio.to_thread.run_sync(lambda: scope.crawl(request))
        return _outcome(result)

    @server.tool(annotations=ToolAnnotations(open_world_hint=True))
    async def resume_crawl(
        ctx: Context,
        crawl_id: Annotated[int, Field(description="The crawl_id of a crawl that was cancelled, interrupted (the "
                                                   "process stopped) or failed.", ge=1)],
    ) -> dict[str, Any]:
        """Carry on a stopped crawl from the pages it still had queued, with its original settings. Pages it had
        already done are kept (and listed in the result). A crawl that finished cannot be resumed: call ingest_url
        again (mode reingest to refresh it). Returns the same outcome as ingest_url."""
        with tool_errors():
            scope = await anyio.to_thread.run_sync(scope_of, ctx)
            result = await anyio.to_thread.run_sync(lambda: scope.resume_crawl(crawl_id))
        return _outcome(result)


def _outcome(result: CrawlResult) -> dict[str, Any]:
    return {"crawl_id": result.crawl_id, "job_id": result.job_id, "status": result.status,
            "summary": result.summary(), "progress": to_jsonable(result.progress),
            "pages": to_jsonable(result.pages[:MAX_PAGES_LISTED]), "deleted": result.deleted,
            "not_visited": result.not_visited[:MAX_PAGES_LISTED],
            "pages_truncated": len(result.pages) > MAX_PAGES_LISTED or len(result.not_visited) > MAX_PAGES_LISTED}
