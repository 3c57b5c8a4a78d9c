-- Website crawls: one row per crawl and one per page it reached, so a cancelled
-- or crashed crawl shows what was done, and a re-crawl of the same root knows
-- which pages the previous crawl stored.
CREATE TABLE crawls (
    id            BIGSERIAL PRIMARY KEY,
    collection_id BIGINT REFERENCES collections(id) ON DELETE CASCADE,
    root_url      TEXT NOT NULL,
    mode          TEXT NOT NULL DEFAULT 'ingest',
    params        JSONB NOT NULL DEFAULT '{}'::jsonb,
    status        TEXT NOT NULL DEFAULT 'running'
                  CHECK (status IN ('running', 'done', 'failed', 'cancelled', 'interrupted')),
    job_id        BIGINT REFERENCES jobs(id) ON DELETE SET NULL,
    started_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at   TIMESTAMPTZ
);
CREATE INDEX crawls_root ON crawls (collection_id, root_url, started_at DESC);

CREATE TABLE crawl_pages (
    crawl_id    BIGINT NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    status      TEXT NOT NULL,
    reason      TEXT,
    document_id BIGINT,
    depth       INT NOT NULL DEFAULT 0,
    fetched_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (crawl_id, url)
);
