-- Diagrams found in documents (flowcharts drawn with shapes, or pictures), kept with the
-- document so they can be shown even without the graph; the graph holds them as subgraphs too.
CREATE TABLE diagrams (
    diagram_id     TEXT PRIMARY KEY,
    document_id    BIGINT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    idx            INT NOT NULL,
    representation TEXT NOT NULL CHECK (representation IN ('shapes', 'image')),
    layout         TEXT NOT NULL,
    nodes          JSONB NOT NULL DEFAULT '[]'::jsonb,
    edges          JSONB NOT NULL DEFAULT '[]'::jsonb,
    image          BYTEA,
    image_type     TEXT,
    UNIQUE (document_id, idx)
);
CREATE INDEX chunks_diagram ON chunks ((metadata ->> 'associated_diagram_id')) WHERE metadata ? 'associated_diagram_id';
