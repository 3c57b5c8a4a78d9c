"""The Ingest page's URL tab: analyse a website, then ingest one page or crawl it as a background job."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from components.feedback import user_errors
from components.markdown_text import md_escape
from services.container import Services
from services.ingest.stages import parse_mode
from services.web.crawl import CrawlRequest, CrawlService

ANALYSIS = "ingest.url_analysis"  # the last SiteAnalysis, kept across reruns


def _globs(text: str) -> list[str]:
    return [g.strip() for g in text.split(",") if g.strip()]


def url_tab(svc: Services, collection: str, mode: str, on_started: Callable[[int], None]) -> None:
    """Render the tab; ``on_started(job_id)`` hands a started crawl to the page's live job view."""
    crawler = svc.crawler
    url = st.text_input("URL", key="ingest.url", placeholder="https://example.com/docs/")
    render_js = st.checkbox("Render JavaScript (headless chromium)", key="ingest.url_render_js",
                            help="For pages that build their content with scripts. Slower; the page's own requests "
                                 "pass the same address checks as the crawler's.")
    a1, a2 = st.columns(2)
    if a1.button("Analyze site", key="ingest.url_analyze", disabled=not url.strip(),
                 help="Reads robots.txt and sitemap.xml (or follows links for a while) and groups the URLs found."):
        with user_errors("Could not analyse the site"), st.spinner("Analysing (at most 50 s)…"):
            st.session_state[ANALYSIS] = crawler.analyze(url)
    if a2.button("Ingest this page", key="ingest.url_one", disabled=not url.strip()):
        _start(crawler, CrawlRequest(collection, url, mode=parse_mode(mode), max_pages=1, max_depth=0,
                                     render_js=render_js), on_started)

    analysis = st.session_state.get(ANALYSIS)
    groups = []
    if analysis is not None:
        st.write(f"{analysis.total_found} URLs found from the {analysis.source}.")
        if analysis.stopped_early:
            st.info(f"Stopped early: {md_escape(analysis.reason)} The counts are what was found until then.",
                    icon=":material/timer:")
        groups = [g.pattern for g in analysis.groups]
        st.dataframe(pd.DataFrame([{"pattern": g.pattern, "pages": g.count, "example": (g.sample or [""])[0]}
                                   for g in analysis.groups]), hide_index=True, width="stretch")

    with st.form("ingest.crawl_form"):
        c1, c2, c3 = st.columns(3)
        max_pages = c1.number_input("Max pages", 1, 100_000, 50, key="ingest.crawl_pages")
        max_depth = c2.number_input("Max depth", 0, 100, 3, key="ingest.crawl_depth")
        same_domain = c3.checkbox("Same domain only", value=True, key="ingest.crawl_same")
        group = st.selectbox("Analyzer group (optional)", [""] + groups, key="ingest.crawl_group",
                             help="Crawl only URLs matching this path pattern (or the include globs); at each "
                                  "depth the group's pages come first.")
        prefix = st.text_input("Path prefix", key="ingest.crawl_prefix", placeholder="/docs/")
        i1, i2 = st.columns(2)
        include = i1.text_input("Include globs (comma-separated, on the URL path)", key="ingest.crawl_include")
        exclude = i2.text_input("Exclude globs", key="ingest.crawl_exclude")
        if st.form_submit_button("Crawl", type="primary"):
            request = CrawlRequest(collection, url, mode=parse_mode(mode), max_pages=int(max_pages),
                                   max_depth=int(max_depth), same_domain=same_domain, path_prefix=prefix.strip(),
                                   include=([group] if group else []) + _globs(include), exclude=_globs(exclude),
                                   render_js=render_js)
            _start(crawler, request, on_started)
    st.caption("Each page's main text becomes a document titled by its URL. reingest re-crawls: changed pages are "
               "updated and pages the site no longer serves are deleted; pages not visited this time are kept. "
               "robots.txt is respected.")
    _recent_crawls(svc, crawler, collection, on_started)


def _recent_crawls(svc: Services, crawler: CrawlService, collection: str, on_started: Callable[[int], None]) -> None:
    """The collection's last crawls; a stopped one with pages still queued can be resumed where it stopped."""
    with user_errors("Could not list the crawls"):
        found = crawler.state.list(collection_id=svc.collections.get(collection).id, limit=10)
        if not found:
            return
        with st.expander(f"Recent crawls into this collection ({len(found)})"):
            st.dataframe(pd.DataFrame([{"crawl": c.id, "status": c.status, "mode": c.mode, "url": c.root_url,
                                        "pages": ", ".join(f"{n} {s}" for s, n in sorted(c.counts.items())),
                                        "started": c.started_at} for c in found]), hide_index=True, width="stretch")
            for c in (c for c in found if c.resumable):
                label = f"Resume crawl {c.id} ({c.counts.get('queued', 0)} pages queued)"
                if st.button(label, key=f"ingest.crawl_resume.{c.id}", icon=":material/play_arrow:"):
                    with user_errors("Could not resume the crawl"):
                        on_started(crawler.submit_resume(c.id))


def _start(crawler: CrawlService, request: CrawlRequest, on_started: Callable[[int], None]) -> None:
    with user_errors("Could not start the crawl"):
        on_started(crawler.submit(request))
