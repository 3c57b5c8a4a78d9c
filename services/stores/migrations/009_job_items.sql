-- A job's items (one per file or page: its live stage, then its outcome) in rows of their own, so a
-- progress write touches only the items that changed instead of rewriting the whole list (jobs.items,
-- kept for jobs recorded before this migration).
CREATE TABLE job_items (
    job_id BIGINT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    idx    INT NOT NULL,
    entry  JSONB NOT NULL,
    PRIMARY KEY (job_id, idx)
);
