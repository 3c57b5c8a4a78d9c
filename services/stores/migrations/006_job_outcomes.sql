-- A job whose every item failed ends 'failed'; one where some items failed and others were stored
-- ends 'partial' (before, both ended 'done').
ALTER TABLE jobs DROP CONSTRAINT IF EXISTS jobs_status_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_status_check
    CHECK (status IN ('running', 'done', 'partial', 'failed', 'interrupted', 'cancelled'));
