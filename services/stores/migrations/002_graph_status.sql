-- Per-document knowledge-graph status: the chunk store and the graph are written
-- in sequence; this records where each document stands so nothing is silently inconsistent.
ALTER TABLE documents
    ADD COLUMN graph_status TEXT NOT NULL DEFAULT 'none'
        CHECK (graph_status IN ('none', 'pending', 'done', 'failed', 'disabled')),
    ADD COLUMN graph_error TEXT,
    ADD COLUMN graph_entities INT NOT NULL DEFAULT 0,
    ADD COLUMN graph_facts INT NOT NULL DEFAULT 0,
    ADD COLUMN graph_updated_at TIMESTAMPTZ;
CREATE INDEX documents_graph_status ON documents (graph_status) WHERE graph_status IN ('pending', 'failed');
