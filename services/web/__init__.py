"""Websites as documents: the guarded fetcher (no private addresses unless allowed), sitemaps and link
discovery, crawls with their scope, saved state, resume and re-crawl, and JavaScript rendering in headless
chromium. Each page's main text goes through ingestion, so web is above ingest.

May import: `services.ingest`, `services.collections`, `services.deletion` (a re-crawl deletes the pages gone from
the site), `services.jobs`, `services.errors`, `services.settings`.
"""
