"""Crawl a website into a collection as an ingestion job.

Each fetched page becomes a document titled by its canonical URL (so a re-crawl
finds it), with its main content read as Markdown exactly as an uploaded ``.html``
file is (:mod:`services.ingest.html_text`). Pages go through the ingester's own
prepare/write path one by one (``IngestionService.ingest_item``), so dedup,
``reingest`` replacement, chunking, embedding and the graph step are shared.
Which URLs are visited, and in what order, is :mod:`services.web.crawl_scope`.
Crawl state is kept in ``crawls``/``crawl_pages`` (:mod:`services.web.crawl_state`),
so a cancelled or interrupted crawl (the UI's Cancel, Ctrl-C, a killed process)
resumes from its queue. A ``reingest`` crawl deletes the previous crawl's pages that
the site no longer serves, and keeps those it merely did not visit
(:mod:`services.web.recrawl`).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa

from services.collections import Collection
from services.deletion import DeletionService
from services.errors import UnsupportedInput, ValidationFailed
from services.ingest.parsing import ParsedText, decode_text, html_to_text, parse_bytes
from services.ingest.pipeline import IngestionService
from services.ingest.sources import SourceItem
from services.ingest.stages import Mode, parse_mode
from services.ingest.text_hygiene import clean_value
from services.jobs import FINISHED, JobReporter, outcome_status, request_key
from services.web.crawl_scope import CrawlQueue, Scope
from services.web.crawl_state import RESUMABLE, CrawlState, Frontier
from services.web.fetch import Fetcher, FetchResult
from services.web.recrawl import settle_previous_pages
from services.web.render import Renderer, RenderFailed, chromium_path
from services.web.sitemap import SiteAnalysis, analyze_site, is_page_link, page_links
from services.web.url_safety import Resolver, canonical_url, check_url, system_resolver

log = logging.getLogger(__name__)
Progress = Callable[[dict[str, Any]], None]  # called with the job's counters after each page


@dataclass
class CrawlRequest:
    collection: str
    url: str
    mode: Mode = "ingest"
    max_pages: int = 50
    max_depth: int = 3
    same_domain: bool = True
    path_prefix: str = ""
    # Globs over the URL path, e.g. an analyzer group "/docs/*"; at one depth, URLs matching an earlier
    # pattern are visited first, so the order is kept.
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    render_js: bool = False  # run each HTML page's scripts in headless chromium before extracting it

    def params(self) -> dict[str, Any]:
        return {"max_pages": self.max_pages, "max_depth": self.max_depth, "same_domain": self.same_domain,
                "path_prefix": self.path_prefix, "include": list(dict.fromkeys(self.include)),
                "exclude": sorted(set(self.exclude)), "render_js": self.render_js}

    def scope(self) -> Scope:
        return Scope(urlsplit(self.url).netloc, self.same_domain, self.path_prefix, tuple(dict.fromkeys(self.include)),
                     tuple(self.exclude))


@dataclass
class CrawlResult:
    crawl_id: int
    job_id: int
    status: str
    progress: dict[str, Any]
    pages: list[dict[str, Any]]  # url, status, reason, document_id, depth
    deleted: list[str]  # documents of the previous crawl's pages that the site no longer serves
    not_visited: list[str] = field(default_factory=list)  # the previous crawl's pages not visited: kept

    def count(self, status: str) -> int:
        return sum(1 for p in self.pages if p["status"] == status)

    def summary(self) -> str:
        """One line: the crawl, its job and status, pages and how many ended in each outcome."""
        counts = ", ".join(f"{self.count(s)} {s}" for s in ("ingested", "replaced", "unchanged", "skipped", "gone",
                                                            "failed") if self.count(s))
        line = f"Crawl {self.crawl_id} (job {self.job_id}) {self.status}: {len(self.pages)} pages; {counts or 'nothing'}."
        if self.deleted:
            line += f" {len(self.deleted)} deleted (gone from the site)."
        if self.not_visited:
            line += f" {len(self.not_visited)} not visited this time (kept)."
        return line

    def resume_hint(self) -> str:
        return f"Crawl {self.crawl_id} stopped; carry it on with `rag ingest resume {self.crawl_id}`."


Interrupted = Callable[[], bool]


def _never() -> bool:
    return False


class CrawlInterrupted(KeyboardInterrupt):
    """Ctrl-C during a crawl: the crawl was recorded ``cancelled`` with its queue (resumable) before this
    was raised; ``result`` says what it did. Still a KeyboardInterrupt, so the program stops."""

    def __init__(self, result: CrawlResult) -> None:
        super().__init__(result.resume_hint())
        self.result = result


def extract_page(data: bytes, url: str, content_type: str) -> ParsedText:
    """A fetched page's text: HTML through the same reading as an uploaded ``.html`` file, other types by suffix."""
    if "html" in content_type:
        return html_to_text(decode_text(data, url), url)
    name = urlsplit(url).path.rsplit("/", 1)[-1] or "page"
    if content_type.startswith("text/") and "." not in name:
        name += ".md" if "markdown" in content_type else ".txt"
    return parse_bytes(data, name, max_bytes=len(data) + 1)


class CrawlService:
    def __init__(self, *, ingestion: IngestionService, deletion: DeletionService, resolver: Resolver | None = None) -> None:
        self.ingestion = ingestion
        self.deletion = deletion  # a re-crawl deletes the documents of pages gone from the site
        self.settings = ingestion.settings
        self.engine = ingestion.engine
        self.resolver = resolver  # None: the system resolver (tests inject one)
        self.state = CrawlState(self.engine)

    # -- entry points ---------------------------------------------------------------------
    def analyze(self, url: str, *, time_limit: float = 50, max_urls: int = 150) -> SiteAnalysis:
        """Sitemap analysis (or bounded link discovery) of a site before crawling it."""
        with Fetcher(settings=self.settings, resolver=self.resolver) as fetcher:
            return analyze_site(url, fetcher=fetcher, time_limit=time_limit, max_urls=max_urls)

    def start(self, request: CrawlRequest) -> tuple[int, int, Collection]:
        """Validate, record the job and the crawl; raises JobInProgress if the same crawl runs."""
        if request.mode not in ("ingest", "reingest"):
            raise ValidationFailed("mode must be 'ingest' or 'reingest'.")
        if not 1 <= request.max_pages <= 100_000 or not 0 <= request.max_depth <= 100:
            raise ValidationFailed("max_pages must be 1-100000 and max_depth 0-100.")
        root = canonical_url(request.url)
        check_url(root, resolver=self.resolver or system_resolver, allowed=self.settings.fetch_allow_hosts)
        if request.render_js:
            chromium_path(self.settings)  # no chromium: say so before a job is recorded
        request.url = root
        coll = self.ingestion.collections.get(request.collection)
        self.ingestion.collections.check_model(coll)
        key = request_key("crawl", coll.id, root=root, mode=request.mode, **request.params())
        job_id = self.ingestion.jobs.start(kind="ingest:url", key=key, collection_id=coll.id,
                                           params={"collection": coll.name, "mode": request.mode, "kind": "url",
                                                   "url": root, **request.params()})
        self.state.mark_interrupted()
        with self.engine.begin() as conn:
            crawl_id = int(conn.execute(
                sa.text("INSERT INTO crawls (collection_id, root_url, mode, params, job_id) "
                        "VALUES (:c, :u, :m, CAST(:p AS jsonb), :j) RETURNING id"),
                {"c": coll.id, "u": root, "m": request.mode, "p": json.dumps(request.params()), "j": job_id},
            ).scalar_one())
        self.state.enqueue(crawl_id, [(root, 0)])
        return job_id, crawl_id, coll

    def _reopen(self, crawl_id: int) -> tuple[int, Collection, CrawlRequest, Frontier]:
        """Start a job that carries on a stopped crawl from its stored queue."""
        self.state.mark_interrupted()
        info = self.state.get(crawl_id)
        if info.status not in RESUMABLE or info.collection_id is None:
            raise ValidationFailed(f"Crawl {crawl_id} is {info.status}: only a cancelled, interrupted or failed crawl "
                                   "can be resumed (start it again instead).")
        coll = self.ingestion.collections.get(info.collection_id)
        known = set(CrawlRequest.__dataclass_fields__) - {"collection", "url", "mode"}
        request = CrawlRequest(coll.name, info.root_url, mode=parse_mode(info.mode),
                               **{k: v for k, v in info.params.items() if k in known})
        key = request_key("crawl", coll.id, root=info.root_url, mode=request.mode, **request.params())
        job_id = self.ingestion.jobs.start(kind="ingest:url", key=key, collection_id=coll.id,
                                           params={"collection": coll.name, "mode": request.mode, "kind": "url",
                                                   "url": info.root_url, "resumes": crawl_id, **request.params()})
        try:
            self.state.reopen(crawl_id, job_id)
        except Exception as exc:
            self.ingestion.jobs.finish(job_id, status="failed", error=str(exc))
            raise
        return job_id, coll, request, self.state.frontier(crawl_id)

    def resume(self, crawl_id: int, *, on_progress: Progress | None = None,
               interrupted: Interrupted = _never) -> CrawlResult:
        """Carry on a cancelled, interrupted or failed crawl where it stopped (CLI, MCP, tests)."""
        job_id, coll, request, frontier = self._reopen(crawl_id)
        return self.execute(job_id, crawl_id, coll, request, frontier, on_progress=on_progress, interrupted=interrupted)

    def submit_resume(self, crawl_id: int) -> int:
        """``resume`` in a background thread; returns the job id at once (the UI polls the job)."""
        job_id, coll, request, frontier = self._reopen(crawl_id)
        threading.Thread(target=self.execute, args=(job_id, crawl_id, coll, request, frontier), daemon=True,
                         name=f"crawl-job-{job_id}").start()
        return job_id

    def run(self, request: CrawlRequest, *, on_progress: Progress | None = None,
            interrupted: Interrupted = _never) -> CrawlResult:
        """Crawl synchronously (CLI, MCP, tests); Ctrl-C leaves the crawl cancelled and resumable
        and raises :class:`CrawlInterrupted`. ``interrupted()`` true has the same effect at the next
        page boundary: the CLI's SIGINT handler sets it too, because Python drops a KeyboardInterrupt
        raised while a finalizer (``__del__``) runs, and a crawl must not go on after Ctrl-C."""
        job_id, crawl_id, coll = self.start(request)
        return self.execute(job_id, crawl_id, coll, request, on_progress=on_progress, interrupted=interrupted)

    def submit(self, request: CrawlRequest) -> int:
        """Crawl in a background thread; returns the job id at once (the UI polls the job)."""
        job_id, crawl_id, coll = self.start(request)
        threading.Thread(target=self.execute, args=(job_id, crawl_id, coll, request), daemon=True,
                         name=f"crawl-job-{job_id}").start()
        return job_id

    # -- the crawl ------------------------------------------------------------------------
    def execute(self, job_id: int, crawl_id: int, coll: Collection, request: CrawlRequest,
                frontier: Frontier | None = None, *, on_progress: Progress | None = None,
                interrupted: Interrupted = _never) -> CrawlResult:
        frontier = frontier or Frontier([(request.url, 0)], {request.url}, [])
        pages = frontier.pages
        reporter = JobReporter(self.ingestion.jobs, job_id)
        reporter.update(files_total=request.max_pages, files_done=len(pages), fetched=0, chunks_total=0, chunks_embedded=0,
                        chunks_written=0, ingested=0, replaced=0, unchanged=0, skipped=0, failed=0, deleted=0,
                        graph_facts=0, graph_entities=0, graph_failed=0, crawl_id=crawl_id)
        report = on_progress or (lambda progress: None)
        report(dict(reporter.progress))
        deleted: list[str] = []
        not_visited: list[str] = []
        status, error, stopped = "failed", None, False
        try:
            with Fetcher(settings=self.settings, resolver=self.resolver) as fetcher, ExitStack() as stack:
                renderer = stack.enter_context(Renderer(self.settings, fetcher)) if request.render_js else None
                status, complete = self._crawl(fetcher, crawl_id, coll, request, reporter, frontier, renderer, report,
                                               interrupted)
            if status == "done" and request.mode == "reingest":
                settled = settle_previous_pages(
                    state=self.state, deletion=self.deletion, reporter=reporter, crawl_id=crawl_id,
                    collection_id=coll.id, root=request.url, params=request.params(), pages=pages, complete=complete)
                deleted, not_visited = settled.deleted, settled.not_visited
        except KeyboardInterrupt:  # Ctrl-C in the CLI: stop like the UI's Cancel, keeping the queue
            status, stopped = "cancelled", True
            _close_unfinished(reporter, "Interrupted (Ctrl-C) before this page was stored; a resume fetches it again.")
        except Exception as exc:
            log.exception("crawl job %s crashed", job_id)
            status, error = "failed", f"Unexpected error: {exc.__class__.__name__}: {exc}"
        finally:
            reporter.flush()
            job_status = outcome_status(reporter.items) if status == "done" else status  # partial/failed by pages
            self.ingestion.jobs.finish(job_id, status=job_status, error=error)
            self.state.finish(crawl_id, status)  # the crawl itself ran to its end: a re-crawl compares with it
        result = CrawlResult(crawl_id, job_id, job_status, dict(reporter.progress), pages, deleted, not_visited)
        if stopped:
            raise CrawlInterrupted(result)
        return result

    def _crawl(self, fetcher: Fetcher, crawl_id: int, coll: Collection, request: CrawlRequest,
               reporter: JobReporter, frontier: Frontier, renderer: Renderer | None, report: Progress,
               interrupted: Interrupted) -> tuple[str, bool]:
        """Visit the queue until it runs out or ``max_pages`` pages are done; (status, whether the queue ran out)."""
        scope = request.scope()
        queue, seen, pages = CrawlQueue(scope, frontier.queue), frontier.seen, frontier.pages
        while queue and len(pages) < request.max_pages:
            if reporter.cancelled():
                return "cancelled", False
            if interrupted():
                raise KeyboardInterrupt
            url, depth = queue.pop()
            got = fetcher.fetch(url)
            if interrupted():  # the page stays queued (recorded before it was visited): a resume fetches it
                raise KeyboardInterrupt
            admitted = scope.admits(got.final_url) or not got.ok  # a failure is reported under the URL asked for
            if got.final_url != url and got.ok:
                self.state.redirected(crawl_id, url, got.final_url, in_scope=admitted or depth == 0)
                if got.final_url in seen:
                    continue  # a redirect to a page this crawl already has
            seen.add(got.final_url)
            reporter.add(fetched=1)
            if not admitted and depth > 0:  # redirected out of the scope: not stored, no place in the budget
                report(dict(reporter.progress))
                continue
            if renderer is not None and got.ok and "html" in got.content_type:
                got = self._render(renderer, got, reporter)
            if admitted:
                pages.append(self._store_page(got, coll, request, reporter, crawl_id, depth))
                reporter.add(files_done=1)
            else:  # the start page outside the scope: read for its links only
                self.state.record(crawl_id, url, "followed", "Outside the crawl's scope: read for its links, "
                                  "not stored.", None, depth)
            report(dict(reporter.progress))
            if got.ok and "html" in got.content_type and depth < request.max_depth:
                found = []
                for link in page_links(got.final_url, got.body.decode("utf-8", errors="replace")):
                    if link not in seen and is_page_link(link) and scope.admits(link):
                        seen.add(link)
                        found.append((link, depth + 1))
                self.state.enqueue(crawl_id, found)  # stored before they are visited: a resume starts from here
                for link, link_depth in found:
                    queue.push(link, link_depth)
        return "done", not queue

    @staticmethod
    def _render(renderer: Renderer, got: FetchResult, reporter: JobReporter) -> FetchResult:
        """The page after its scripts ran (links and text come from it), or a failure with the reason."""
        try:
            rendered = renderer.render(got.final_url, got.body, got.content_type)
        except RenderFailed as exc:
            return replace(got, status=None, reason=str(exc))
        if rendered.blocked:
            log.info("rendering %s: refused %d request(s): %s", got.final_url, len(rendered.blocked),
                     rendered.blocked[:5])
            reporter.add(render_blocked=len(rendered.blocked))
        return replace(got, body=rendered.html, content_type="text/html; charset=utf-8")

    def _store_page(self, got: FetchResult, coll: Collection, request: CrawlRequest, reporter: JobReporter,
                    crawl_id: int, depth: int) -> dict[str, Any]:
        url = got.final_url if got.ok else got.url  # a failure is reported under the URL that was asked for
        if not got.ok:
            status = "gone" if got.gone else "skipped" if got.status and got.status < 400 else "failed"
            reporter.item(title=url, source=url, status="skipped" if status == "gone" else status,
                          reason=got.reason or "")
            reporter.add(**{"skipped" if status in ("gone", "skipped") else "failed": 1})
            return self.state.record(crawl_id, url, status, got.reason, None, depth)
        fetched_at = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        metadata: dict[str, Any] = {"url": url, "fetched_at": fetched_at, "crawl_id": crawl_id}

        def load() -> ParsedText:
            parsed = extract_page(got.body, url, got.content_type)
            if parsed.title_hint:  # _prepare reads the metadata after load(): the page title lands in it
                metadata["title"] = clean_value(parsed.title_hint)  # no control characters (text_hygiene)
            return parsed

        item = SourceItem(url, url, "url", load, metadata)
        try:
            record = self.ingestion.ingest_item(item, coll, request.mode, reporter)
        except UnsupportedInput as exc:  # defensive: the ingester records these itself
            record = {"status": "skipped", "reason": str(exc)}
        if record["status"] == "cancelled":  # Cancel reached the page mid-ingest: nothing stored, it stays queued
            return {"url": url, "status": "queued", "reason": record.get("reason"), "document_id": None, "depth": depth}
        return self.state.record(crawl_id, url, record["status"], record.get("reason") or None,
                                 record.get("document_id"), depth)

    def pages(self, crawl_id: int) -> list[dict[str, Any]]:
        """What a crawl did, page by page (also for a cancelled or crashed crawl)."""
        return self.state.pages(crawl_id)


def _close_unfinished(reporter: JobReporter, reason: str) -> None:
    """Mark the job's items that were still being worked on as cancelled, with ``reason``."""
    for index, item in enumerate(list(reporter.items)):
        if item.get("status") not in FINISHED:
            reporter.update_item(index, status="cancelled", reason=reason)
