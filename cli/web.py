"""``rag ingest url`` (one page or a crawl) and ``rag analyze`` (what a website holds, by path pattern)."""

from __future__ import annotations

import signal
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

import click

from cli.context import get_services
from cli.errors import EXIT_INTERRUPTED, CliError, fail_unless_done
from cli.output import emit, json_option
from services.authz.principal import Principal

if TYPE_CHECKING:  # the service stack is imported by the commands, not by ``rag --help``
    from services.web.crawl import CrawlResult

STORED = ("ingested", "replaced", "unchanged", "repaired")


class _CrawlLine:
    """A live line on stderr while a crawl runs: pages fetched, stored, skipped, failed, and the time so far.

    Drawn only when stdout and stderr are both terminals (and not with --json); it is
    redrawn every second, so the time moves while a slow page is fetched or embedded.
    """

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.started = time.monotonic()
        self.progress: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._width = 0
        if enabled:
            threading.Thread(target=self._tick, daemon=True, name="crawl-progress").start()

    def __call__(self, progress: dict[str, Any]) -> None:
        if self.enabled:
            with self._lock:
                self.progress = progress
                self._draw()

    def _tick(self) -> None:
        while not self._stop.wait(1.0):
            with self._lock:
                self._draw()

    def _draw(self) -> None:
        p = self.progress
        seconds = int(time.monotonic() - self.started)
        line = (f"Crawling: {int(p.get('fetched', 0))} fetched, {sum(int(p.get(s, 0)) for s in STORED)} stored, "
                f"{int(p.get('skipped', 0))} skipped, {int(p.get('failed', 0))} failed, "
                f"{seconds // 60}:{seconds % 60:02d} elapsed")
        self._width = max(self._width, len(line))
        click.echo("\r" + line.ljust(self._width), file=sys.stderr, nl=False)

    def finish(self) -> None:
        if self.enabled and not self._stop.is_set():
            self._stop.set()
            with self._lock:
                self._draw()
                click.echo("", file=sys.stderr)


def _crawl_with_progress(as_json: bool, crawl: Any) -> CrawlResult:
    """Run ``crawl(on_progress, interrupted)`` with the live line; Ctrl-C prints what was done and how to resume, exit 130."""
    line = _CrawlLine(not as_json and sys.stdout.isatty() and sys.stderr.isatty())
    from services.web.crawl import CrawlInterrupted

    stop = threading.Event()

    def on_ctrl_c(signum: int, frame: Any) -> None:
        stop.set()  # also seen at the next page if the KeyboardInterrupt below is lost in a finalizer
        raise KeyboardInterrupt

    main = threading.current_thread() is threading.main_thread()  # signal handlers live in the main thread
    previous = signal.signal(signal.SIGINT, on_ctrl_c) if main else None
    try:
        result: CrawlResult = crawl(line, stop.is_set)
    except CrawlInterrupted as stopped:
        line.finish()
        click.echo(stopped.result.summary(), err=True)
        raise CliError(f"Interrupted: {stopped.result.resume_hint()}", EXIT_INTERRUPTED) from None
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
        line.finish()
    return result


def _print_result(result: CrawlResult) -> None:
    click.echo(result.summary())
    for page in result.pages:
        if page["reason"]:
            click.echo(f"  {page['status']:<9} {page['url']}: {page['reason']}")
    if result.not_visited:
        click.echo(f"  {len(result.not_visited)} page(s) of the previous crawl were not visited this time and are "
                   "kept (--json lists them).")


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
              help="With --crawl: only URL paths matching this glob (repeatable), e.g. an analyze group '/docs/*'; "
                   "at each depth, pages matching the first glob are visited first. The start URL is always read "
                   "for its links, and stored only when it matches.")
@click.option("--exclude", multiple=True, metavar="GLOB", help="With --crawl: skip URL paths matching this glob (repeatable).")
@click.option("--render-js", is_flag=True,
              help="Run each page's scripts in headless chromium before extracting it (pages built by JavaScript).")
@click.option("--mode", type=click.Choice(["ingest", "reingest"]), default="ingest", show_default=True,
              help="ingest skips pages already stored; reingest updates changed pages and deletes pages of the "
                   "previous crawl of URL that the site no longer serves (404/410, or not reached by a complete "
                   "crawl of the same scope); pages it did not visit are kept.")
@json_option
def url(url: str, collection: str, crawl: bool, max_pages: int, max_depth: int, any_domain: bool, path_prefix: str,
        include: tuple[str, ...], exclude: tuple[str, ...], render_js: bool, mode: str, as_json: bool) -> None:
    """Ingest a web page, or crawl a website from URL; each page's canonical URL is its title.

    On a terminal a live line shows pages fetched, stored, skipped and failed. Ctrl-C stops the crawl
    like the web app's Cancel: it is recorded cancelled with its queue, `rag ingest resume ID` carries
    it on, and the command exits 130.

    JSON: {"crawl_id", "job_id", "status", "progress", "pages": [{"url", "status", "reason", "document_id",
    "depth"}], "deleted", "not_visited"}. Exits 6 when no page was stored because every one failed, 7 when
    some failed, 1 when the crawl did not finish.
    """
    from services.ingest.stages import parse_mode
    from services.web.crawl import CrawlRequest

    request = CrawlRequest(collection, url, mode=parse_mode(mode), max_pages=max_pages if crawl else 1,
                           max_depth=max_depth if crawl else 0, same_domain=not any_domain, path_prefix=path_prefix,
                           include=list(include), exclude=list(exclude), render_js=render_js)
    svc = get_services()
    svc.access.record(Principal.operator(), "document.crawl", collection, {"url": url, "mode": mode})
    crawler = svc.crawler
    result = _crawl_with_progress(as_json, lambda line, stop: crawler.run(request, on_progress=line, interrupted=stop))
    emit(result, as_json, lambda: _print_result(result))
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

    Same JSON, progress line and Ctrl-C as `rag ingest url`; the pages listed include those done before the resume.
    """
    svc = get_services()
    svc.access.record(Principal.operator(), "document.crawl", f"crawl {crawl_id}", {"resume": True})
    crawler = svc.crawler
    result = _crawl_with_progress(as_json, lambda line, stop: crawler.resume(crawl_id, on_progress=line, interrupted=stop))
    emit(result, as_json, lambda: click.echo(result.summary()))
    fail_unless_done(result, "Crawl", "page")
