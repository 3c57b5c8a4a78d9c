-- Collections, documents (many-to-many with collections), chunks with
-- embeddings and full-text vectors, and ingestion jobs.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE collections (
    id              BIGSERIAL PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE CHECK (length(btrim(name)) > 0),
    description     TEXT NOT NULL CHECK (length(btrim(description)) > 0),
    metadata_schema JSONB NOT NULL DEFAULT '{"custom": {}}'::jsonb,
    embedding_model TEXT NOT NULL,
    embedding_dim   INT NOT NULL CHECK (embedding_dim > 0),
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE documents (
    id           BIGSERIAL PRIMARY KEY,
    title        TEXT NOT NULL CHECK (length(btrim(title)) > 0),
    source       TEXT NOT NULL DEFAULT '',
    source_type  TEXT NOT NULL DEFAULT 'text',
    content      TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    metadata     JSONB NOT NULL DEFAULT '{}'::jsonb,
    status       TEXT NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'failed')),
    error        TEXT,
    version      INT NOT NULL DEFAULT 1,
    chunk_count  INT NOT NULL DEFAULT 0,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX documents_metadata_gin ON documents USING gin (metadata jsonb_path_ops);

-- Title and content hash are copied here so that "one title / one content per
-- collection" is a database constraint, safe under concurrent ingests.
CREATE TABLE collection_documents (
    collection_id BIGINT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    document_id   BIGINT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    title         TEXT NOT NULL,
    content_hash  TEXT NOT NULL,
    linked_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (collection_id, document_id)
);
CREATE UNIQUE INDEX collection_documents_title ON collection_documents (collection_id, title);
CREATE UNIQUE INDEX collection_documents_hash ON collection_documents (collection_id, content_hash);
CREATE INDEX collection_documents_document ON collection_documents (document_id);

-- The embedding column is untyped so collections may use models of different
-- sizes; an HNSW index per dimension is created on demand (see services/db.py).
CREATE TABLE chunks (
    id            BIGSERIAL PRIMARY KEY,
    document_id   BIGINT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    chunk_index   INT NOT NULL,
    text          TEXT NOT NULL,
    char_start    INT NOT NULL,
    char_end      INT NOT NULL,
    heading_path  TEXT[] NOT NULL DEFAULT '{}',
    metadata      JSONB NOT NULL DEFAULT '{}'::jsonb,
    embedding     vector NOT NULL,
    embedding_dim INT NOT NULL,
    tsv           tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
    UNIQUE (document_id, chunk_index)
);
CREATE INDEX chunks_tsv_gin ON chunks USING gin (tsv);

CREATE TABLE jobs (
    id            BIGSERIAL PRIMARY KEY,
    kind          TEXT NOT NULL,
    request_key   TEXT NOT NULL,
    collection_id BIGINT REFERENCES collections(id) ON DELETE SET NULL,
    status        TEXT NOT NULL DEFAULT 'running'
                  CHECK (status IN ('running', 'done', 'failed', 'interrupted', 'cancelled')),
    params        JSONB NOT NULL DEFAULT '{}'::jsonb,
    progress      JSONB NOT NULL DEFAULT '{}'::jsonb,
    items         JSONB NOT NULL DEFAULT '[]'::jsonb,
    error         TEXT,
    cancel_requested BOOLEAN NOT NULL DEFAULT false,
    owner_pid     INT,
    owner_host    TEXT,
    started_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at   TIMESTAMPTZ
);
-- At most one running job per request: the same ingest twice is refused.
CREATE UNIQUE INDEX jobs_one_running ON jobs (request_key) WHERE status = 'running';
CREATE INDEX jobs_started ON jobs (started_at DESC);
