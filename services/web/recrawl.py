"""After a ``reingest`` crawl: what becomes of the pages the previous crawl of the same root stored.

A page's document is deleted only when the site no longer serves it:

- this crawl fetched it and the server answered 404 or 410 ("gone"), or
- this crawl covered the previous crawl's scope completely (the same scope, at
  least the same depth, and its queue ran out before ``max_pages``) and did not
  reach it: nothing links to it any more.

Any other page the previous crawl stored and this one did not visit (a narrower
``include``, a smaller ``max_pages``, a crawl that stopped early) keeps its
document and is recorded as ``not_visited``, so the next re-crawl still knows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.deletion import DeletionService
from services.jobs import JobReporter
from services.web.crawl_scope import same_scope
from services.web.crawl_state import CrawlState

GONE = "Gone from the site: it answered 404/410."
UNLINKED = "Gone from the site: a complete crawl of the same scope no longer reaches it."
NOT_VISITED = "Not visited this time (outside this crawl's scope or budget); its document is kept."


@dataclass
class Settled:
    deleted: list[str] = field(default_factory=list)
    not_visited: list[str] = field(default_factory=list)


def settle_previous_pages(*, state: CrawlState, deletion: DeletionService, reporter: JobReporter, crawl_id: int,
                          collection_id: int, root: str, params: dict[str, Any], pages: list[dict[str, Any]],
                          complete: bool) -> Settled:
    """Delete the previous crawl's pages that are gone, keep (and record) those not visited; ``pages`` (this
    crawl's, as its result lists them) gets an entry for every deleted page."""
    settled = Settled()
    previous = state.previous_done(collection_id, root, crawl_id)
    if previous is None:
        return settled
    covered = complete and same_scope(params, previous.params)
    now = {p["url"]: p["status"] for p in pages}
    fates: list[tuple[str, int, str]] = []  # url, depth, what becomes of it
    for url, depth in state.stored_pages(previous.id):
        if now.get(url) == "gone":
            fates.append((url, depth, GONE))
        elif url not in now:
            fates.append((url, depth, UNLINKED if covered else NOT_VISITED))
    doc_ids = state.document_ids(collection_id, [url for url, _, _ in fates])
    for url, depth, reason in fates:
        doc_id = doc_ids.get(url)
        if doc_id is None:  # deleted by hand since: nothing to keep or delete
            continue
        if reason == NOT_VISITED:
            state.record(crawl_id, url, "not_visited", reason, doc_id, depth)
            settled.not_visited.append(url)
            continue
        deletion.delete_document(doc_id)
        settled.deleted.append(url)
        reporter.item(title=url, source=url, status="deleted", reason=reason)
        reporter.add(deleted=1)
        entry = state.record(crawl_id, url, "deleted", reason, doc_id, depth)
        pages[:] = [p for p in pages if p["url"] != url] + [entry]
    if settled.not_visited:
        reporter.add(not_visited=len(settled.not_visited))
    return settled
