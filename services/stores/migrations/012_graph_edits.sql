-- The analyst's edits of a collection's fact graph (issue 31): merge, rename, retype, split, delete an entity
-- or a fact, add a fact. Each row says who made the edit, when, and what it changed: ``params`` is the edit
-- as it is replayed after a document's facts are written again (re-ingest, rebuild), ``before`` and
-- ``after`` the entities and facts it touched, as they were and as it left them (undo writes ``before``
-- back). ``status``: applied (replayed), undone (taken back, no longer replayed), failed (the graph write
-- failed and was rolled back; nothing to replay).
CREATE TABLE graph_edits (
    id            BIGSERIAL PRIMARY KEY,
    collection_id BIGINT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CHECK (kind IN ('merge', 'rename', 'retype', 'split', 'delete_entity',
                                                'delete_fact', 'add_fact')),
    params        JSONB NOT NULL,
    summary       TEXT NOT NULL,
    author        TEXT NOT NULL,
    before        JSONB NOT NULL DEFAULT '{}'::jsonb,
    after         JSONB NOT NULL DEFAULT '{}'::jsonb,
    status        TEXT NOT NULL DEFAULT 'applied' CHECK (status IN ('applied', 'undone', 'failed')),
    error         TEXT,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    undone_at     TIMESTAMPTZ,
    undone_by     TEXT
);
CREATE INDEX graph_edits_collection ON graph_edits (collection_id, id);

-- The analyst's answers to duplicate suggestions: 'rejected' hides a pair until its evidence changes,
-- 'never' hides it for good. Keys are stored in order (key_a < key_b).
CREATE TABLE graph_suggestion_decisions (
    collection_id BIGINT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    key_a         TEXT NOT NULL,
    key_b         TEXT NOT NULL,
    decision      TEXT NOT NULL CHECK (decision IN ('rejected', 'never')),
    evidence      TEXT NOT NULL DEFAULT '',
    author        TEXT NOT NULL,
    decided_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (collection_id, key_a, key_b),
    CHECK (key_a < key_b)
);
