"""``rag ingest url`` (one page or a crawl) and ``rag analyze`` (what a website holds, by path pattern)."""

from __future__ import annotations

import click

from cli.context import get_services
from cli.errors import fail_unless_done
from cli.output import emit, json_option


@click.command("url")
@click.argument("url")
@click.argument("collection")
@click.option("--crawl", is_flag=True, help="Follow links from URL (otherwise only URL itself is ingested).")
@click.option("--max-pages", type=click.IntRange(1, 100_000), default=50, show_default=True,
              help="With --crawl: stop after this many pages.")
@click.option("--max-depth", type=click.IntRange(0, 100), default=3, show_default=True,
              help="With --crawl: how many links away from URL to go.")
@click.option("--any-domain", is_flag=True, help="With --crawl: also follow links to other hosts.")
@click.option("--path-prefix", default="", help="With --crawl: only follow URLs whose path starts with this, e.g. /docs/.")
@click.option("--include", multiple=True, metavar="GLOB",
              help="With --crawl: only URL paths matching this glob (repeatable), e.g. an analyze group '/docs/*'.")
@click.option("--exclude", multiple=True, metavar="GLOB", help="With --crawl: skip URL paths matching this glob (repeatable).")
@click.option("--render-js", is_flag=True,
              help="Run each page's scripts in headless chromium before extracting it (pages built by JavaScript).")
@click.option("--mode", type=click.Choice(["ingest", "reingest"]), default="ingest", show_default=True,
              help="ingest skips pages already stored; reingest updates changed pages and deletes pages of the "
                   "previous crawl of URL that are gone.")
@json_option
def url(url: str, collection: str, crawl: bool, max_pages: int, max_depth: int, any_domain: bool, path_prefix: str,
        include: tuple[str, ...], exclude: tuple[str, ...], render_js: bool, mode: str, as_json: bool) -> None:
    """Ingest a web page, or crawl a website from URL; each page's canonical URL is its title.

    JSON: {"crawl_id", "job_id", "status", "progress", "pages": [{"url", "status", "reason", "document_id",
    "depth"}], "deleted"}. Exits 1 when the crawl did not finish or a page failed.
    """
    from services.ingest.stages import parse_mode
    from services.web.crawl import CrawlRequest

    request = CrawlRequest(collection, url, mode=parse_mode(mode), max_pages=max_pages if crawl else 1,
                           max_depth=max_depth if crawl else 0, same_domain=not any_domain, path_prefix=path_prefix,
                           include=list(include), exclude=list(exclude), render_js=render_js)
    result = get_services().crawler.run(request)

    def human() -> None:
        click.echo(result.summary())
        for page in result.pages:
            if page["reason"]:
                click.echo(f"  {page['status']:<9} {page['url']}: {page['reason']}")

    emit(result, as_json, human)
    fail_unless_done(result, "Crawl", "page")


@click.command("analyze")
@click.argument("url")
@click.option("--time-limit", type=click.FloatRange(1, 600), default=50, show_default=True,
              help="Stop after this many seconds and report what was found.")
@click.option("--max-urls", type=click.IntRange(1, 10_000), default=150, show_default=True,
              help="List at most this many URLs.")
@json_option
def analyze(url: str, time_limit: float, max_urls: int, as_json: bool) -> None:
    """Show what a website holds before crawling it: its pages grouped by path pattern.

    Reads robots.txt Sitemap lines and sitemap.xml (indexes and nested sitemaps); without a sitemap,
    follows links for a while. A group's pattern can be passed to `rag ingest url --crawl --include`.
    JSON: {"url", "source", "total_found", "urls", "groups": [{"pattern", "count", "sample"}], "sitemaps",
    "stopped_early", "reason"}.
    """
    result = get_services().crawler.analyze(url, time_limit=time_limit, max_urls=max_urls)

    def human() -> None:
        click.echo(f"{result.total_found} URLs found from {result.source}.")
        for group in result.groups:
            click.echo(f"  {group.count:>6}  {group.pattern}")
        if result.stopped_early:
            click.echo(f"Stopped early: {result.reason}")

    emit(result, as_json, human)


@click.command("crawls")
@click.option("--collection", default=None, help="Only crawls into this collection.")
@click.option("--limit", type=click.IntRange(1, 500), default=20, show_default=True, help="At most this many crawls, newest first.")
@json_option
def crawls(collection: str | None, limit: int, as_json: bool) -> None:
    """Recent crawls, newest first, with their status and pages per status (queued = not visited yet).

    A cancelled, interrupted or failed crawl with queued pages can be resumed with `rag ingest resume ID`.
    """
    svc = get_services()
    coll_id = svc.collections.get(collection).id if collection else None
    found = svc.crawler.state.list(collection_id=coll_id, limit=limit)

    def human() -> None:
        if not found:
            click.echo("No crawls.")
        for c in found:
            counts = ", ".join(f"{n} {s}" for s, n in sorted(c.counts.items())) or "no pages"
            hint = "  (resumable)" if c.resumable else ""
            click.echo(f"{c.id:>5}  {c.status:<11} {c.mode:<8} {c.root_url}  {counts}{hint}")

    emit(found, as_json, human)


@click.command("resume")
@click.argument("crawl_id", type=int)
@json_option
def resume(crawl_id: int, as_json: bool) -> None:
    """Carry on a cancelled, interrupted or failed crawl from the pages it still had queued.

    Same JSON as `rag ingest url`; the pages listed include those done before the resume.
    """
    result = get_services().crawler.resume(crawl_id)
    emit(result, as_json, lambda: click.echo(result.summary()))
    fail_unless_done(result, "Crawl", "page")
