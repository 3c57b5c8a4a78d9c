"""What a crawl did and what it still had to do, in ``crawls`` / ``crawl_pages``.

Every URL a crawl decides to visit is written as ``queued`` (with its depth) before it
is fetched, and its row becomes the page's outcome once it is; so a cancelled or
crashed crawl shows what was done and what was left, and ``resume`` carries on from
exactly there. A URL asked for that redirected elsewhere is marked ``redirected``;
a start page outside the crawl's scope, fetched only for its links, ``followed``. After
a re-crawl, a page of the previous crawl it did not visit is recorded ``not_visited``
(its document is kept; see :mod:`services.web.recrawl`).
"""

from __future__ import annotations

import builtins
import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from services.errors import NotFound, ValidationFailed

QUEUED = "queued"
RESUMABLE = ("cancelled", "interrupted", "failed")
NOT_PAGES = (QUEUED, "redirected", "followed")  # rows that are not one of the crawl's pages (nor its budget)
STORED = ("ingested", "replaced", "unchanged", "repaired", "not_visited")  # rows whose document the crawl holds


@dataclass
class CrawlInfo:
    id: int
    collection_id: int | None
    root_url: str
    mode: str
    params: dict[str, Any]
    status: str
    job_id: int | None
    started_at: dt.datetime
    finished_at: dt.datetime | None
    counts: dict[str, int] = field(default_factory=dict)  # page status -> pages

    @property
    def resumable(self) -> bool:
        return self.status in RESUMABLE and self.counts.get(QUEUED, 0) > 0


@dataclass
class Frontier:
    """Where a crawl stands: the URLs to visit next (url, depth), every URL already decided on, and the
    finished pages."""

    queue: list[tuple[str, int]]
    seen: set[str]
    pages: list[dict[str, Any]]


@dataclass
class PreviousCrawl:
    id: int
    params: dict[str, Any]


class CrawlState:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def enqueue(self, crawl_id: int, links: list[tuple[str, int]]) -> None:
        if not links:
            return
        with self.engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO crawl_pages (crawl_id, url, status, depth) VALUES (:c, :u, 'queued', :d) "
                                 "ON CONFLICT (crawl_id, url) DO NOTHING"),
                         [{"c": crawl_id, "u": u, "d": d} for u, d in links])

    def redirected(self, crawl_id: int, asked: str, final: str, *, in_scope: bool = True) -> None:
        """The URL asked for led to ``final``: its queued row is not a page of its own."""
        reason = f"Redirected to {final}" + ("" if in_scope else ", outside the crawl's scope (not stored).")
        with self.engine.begin() as conn:
            conn.execute(sa.text("UPDATE crawl_pages SET status = 'redirected', reason = :r "
                                 "WHERE crawl_id = :c AND url = :u AND status = 'queued'"),
                         {"c": crawl_id, "u": asked, "r": reason})

    def record(self, crawl_id: int, url: str, status: str, reason: str | None, document_id: int | None,
               depth: int) -> dict[str, Any]:
        with self.engine.begin() as conn:
            conn.execute(
                sa.text("INSERT INTO crawl_pages (crawl_id, url, status, reason, document_id, depth) "
                        "VALUES (:c, :u, :s, :r, :d, :depth) ON CONFLICT (crawl_id, url) DO UPDATE SET "
                        "status = EXCLUDED.status, reason = EXCLUDED.reason, document_id = EXCLUDED.document_id, "
                        "fetched_at = now()"),
                {"c": crawl_id, "u": url, "s": status, "r": reason, "d": document_id, "depth": depth},
            )
        return {"url": url, "status": status, "reason": reason, "document_id": document_id, "depth": depth}

    def pages(self, crawl_id: int, *, include_queued: bool = False) -> list[dict[str, Any]]:
        """What a crawl did, page by page (also for a cancelled or crashed crawl); with ``include_queued``,
        then what it still had to visit (and the URLs that redirected)."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT url, status, reason, document_id, depth FROM crawl_pages WHERE crawl_id = :c "
                + ("" if include_queued else "AND status NOT IN ('queued', 'redirected', 'followed') ")
                + "ORDER BY status = 'queued', fetched_at, url"), {"c": crawl_id})
            return [dict(r._mapping) for r in rows]

    def get(self, crawl_id: int) -> CrawlInfo:
        found = self.list(crawl_id=crawl_id)
        if not found:
            raise NotFound(f"No crawl with id {crawl_id}.")
        return found[0]

    def mark_interrupted(self) -> None:
        """A crawl whose job ended without it (its process died and the job was reaped) is interrupted."""
        with self.engine.begin() as conn:
            conn.execute(sa.text("UPDATE crawls SET status = 'interrupted', finished_at = now() WHERE status = 'running' "
                                 "AND job_id IN (SELECT id FROM jobs WHERE status <> 'running')"))

    def list(self, *, collection_id: int | None = None, crawl_id: int | None = None, limit: int = 20) -> list[CrawlInfo]:
        self.mark_interrupted()
        where, params = [], {"limit": max(1, min(int(limit), 500))}
        if collection_id is not None:
            where.append("c.collection_id = :coll")
            params["coll"] = collection_id
        if crawl_id is not None:
            where.append("c.id = :id")
            params["id"] = crawl_id
        sql = ("SELECT c.*, COALESCE((SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*) AS n "
               "FROM crawl_pages WHERE crawl_id = c.id GROUP BY status) s), '{}'::jsonb) AS counts FROM crawls c "
               + ("WHERE " + " AND ".join(where) if where else "") + " ORDER BY c.id DESC LIMIT :limit")
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text(sql), params).mappings().all()
        return [CrawlInfo(r["id"], r["collection_id"], r["root_url"], r["mode"], dict(r["params"]), r["status"],
                          r["job_id"], r["started_at"], r["finished_at"], {k: int(v) for k, v in r["counts"].items()})
                for r in rows]

    def frontier(self, crawl_id: int) -> Frontier:
        """The state to resume from: queued URLs (shallowest first) and everything already done.

        A page stored completely by this crawl just before it stopped (the process died between writing the
        document and recording the page) counts as done; one whose graph step did not finish stays queued,
        and the resumed crawl repairs it.
        """
        with self.engine.begin() as conn:
            conn.execute(sa.text(_SETTLE_STORED), {"c": crawl_id, "cid": str(crawl_id)})
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT url, status, reason, document_id, depth FROM crawl_pages "
                                        "WHERE crawl_id = :c ORDER BY depth, fetched_at, url"), {"c": crawl_id}).all()
        queue = [(r.url, r.depth) for r in rows if r.status == QUEUED]
        pages = [dict(r._mapping) for r in rows if r.status not in NOT_PAGES]
        return Frontier(queue, {r.url for r in rows}, pages)

    def reopen(self, crawl_id: int, job_id: int) -> None:
        """Hand a stopped crawl to a new job; refuses one that finished or is running."""
        with self.engine.begin() as conn:
            done = conn.execute(sa.text("UPDATE crawls SET status = 'running', job_id = :j, finished_at = NULL "
                                        "WHERE id = :c AND status = ANY(:ok) RETURNING id"),
                                {"c": crawl_id, "j": job_id, "ok": list(RESUMABLE)}).first()
        if done is None:
            raise ValidationFailed(f"Crawl {crawl_id} cannot be resumed: only a cancelled, interrupted or failed "
                                   "crawl can (start it again instead).")

    def previous_done(self, collection_id: int, root: str, before: int) -> PreviousCrawl | None:
        """The last crawl of ``root`` into the collection, before crawl ``before``, that ran to its end."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.text("SELECT id, params FROM crawls WHERE collection_id = :c AND root_url = :u "
                                       "AND id < :me AND status = 'done' ORDER BY id DESC LIMIT 1"),
                               {"c": collection_id, "u": root, "me": before}).first()
        return PreviousCrawl(int(row.id), dict(row.params)) if row is not None else None

    def stored_pages(self, crawl_id: int) -> builtins.list[tuple[str, int]]:
        """(url, depth) of the pages whose documents a crawl held when it ended."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT url, depth FROM crawl_pages WHERE crawl_id = :c "
                                        "AND status = ANY(:kept) ORDER BY url"), {"c": crawl_id, "kept": list(STORED)})
            return [(r.url, int(r.depth)) for r in rows]

    def document_ids(self, collection_id: int, urls: builtins.list[str]) -> dict[str, int]:
        """The documents titled by these URLs in the collection (a crawled page's title is its URL)."""
        if not urls:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT title, document_id FROM collection_documents "
                                        "WHERE collection_id = :c AND title = ANY(:t)"), {"c": collection_id, "t": urls})
            return {r.title: int(r.document_id) for r in rows}

    def finish(self, crawl_id: int, status: str) -> None:
        """Record the outcome; a finished crawl's leftover queue (beyond max_pages) is not kept."""
        with self.engine.begin() as conn:
            conn.execute(sa.text("UPDATE crawls SET status = :s, finished_at = now() WHERE id = :id"),
                         {"s": status, "id": crawl_id})
            if status == "done":
                conn.execute(sa.text("DELETE FROM crawl_pages WHERE crawl_id = :id AND status = 'queued'"),
                             {"id": crawl_id})


_SETTLE_STORED = """
UPDATE crawl_pages p SET status = 'ingested', document_id = cd.document_id,
       reason = 'Stored just before the crawl stopped.'
FROM crawls c, collection_documents cd JOIN documents d ON d.id = cd.document_id
WHERE p.crawl_id = :c AND p.status = 'queued' AND c.id = p.crawl_id AND cd.collection_id = c.collection_id
  AND cd.title = p.url AND d.metadata->>'crawl_id' = :cid AND d.graph_status NOT IN ('pending', 'failed')
"""
