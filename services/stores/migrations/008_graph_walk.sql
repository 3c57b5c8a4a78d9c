-- The entity–chunk graph Ask's graph walk runs on (services/retrieval/graph_walk.py), kept in PostgreSQL
-- beside the chunks so a walk is a few indexed reads. The graph step writes it with the document's facts;
-- the facts themselves stay in the graph store.
--
-- graph_entities: one row per entity of a collection, with how many of its documents and chunks name it
--   (kept by triggers on the tables below, so they follow every write, cascades included).
-- entity_mentions: which chunks name which entity (spaCy entities, noun-phrase concepts, the document's
--   title), so chunk → entity → chunk is the walk's second hop.
-- entity_documents: which documents name which entity (the document frequency the generic-concept rule uses).
-- entity_links: entity–entity edges from the extracted facts.
-- Existing documents have none of these until their graph is rebuilt (derive job / rebuild graph).

CREATE TABLE graph_entities (
    collection_id BIGINT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    key           TEXT NOT NULL,
    name          TEXT NOT NULL,
    type          TEXT NOT NULL DEFAULT '',
    documents     INT NOT NULL DEFAULT 0,
    chunks        INT NOT NULL DEFAULT 0,
    PRIMARY KEY (collection_id, key)
);
CREATE INDEX graph_entities_folded ON graph_entities (collection_id, rag_fold(key));

CREATE TABLE entity_mentions (
    collection_id BIGINT NOT NULL,
    key           TEXT NOT NULL,
    chunk_id      BIGINT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    document_id   BIGINT NOT NULL,
    PRIMARY KEY (collection_id, key, chunk_id),
    FOREIGN KEY (collection_id, key) REFERENCES graph_entities(collection_id, key) ON DELETE CASCADE
);
CREATE INDEX entity_mentions_chunk ON entity_mentions (chunk_id);
CREATE INDEX entity_mentions_document ON entity_mentions (document_id);

CREATE TABLE entity_documents (
    collection_id BIGINT NOT NULL,
    key           TEXT NOT NULL,
    document_id   BIGINT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    PRIMARY KEY (collection_id, key, document_id),
    FOREIGN KEY (collection_id, key) REFERENCES graph_entities(collection_id, key) ON DELETE CASCADE
);
CREATE INDEX entity_documents_document ON entity_documents (document_id);

CREATE TABLE entity_links (
    collection_id BIGINT NOT NULL,
    a             TEXT NOT NULL,
    b             TEXT NOT NULL,
    chunk_id      BIGINT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    PRIMARY KEY (collection_id, a, b, chunk_id),
    FOREIGN KEY (collection_id, a) REFERENCES graph_entities(collection_id, key) ON DELETE CASCADE,
    FOREIGN KEY (collection_id, b) REFERENCES graph_entities(collection_id, key) ON DELETE CASCADE
);
CREATE INDEX entity_links_b ON entity_links (collection_id, b);
CREATE INDEX entity_links_chunk ON entity_links (chunk_id);

-- Counters follow the rows (entity rows are kept at zero: the next write of the entity reuses them).
CREATE FUNCTION rag_entity_chunks_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE graph_entities e SET chunks = e.chunks + n.c
  FROM (SELECT collection_id, key, count(*) AS c FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2) n
  WHERE e.collection_id = n.collection_id AND e.key = n.key;
  RETURN NULL;
END $$;
CREATE FUNCTION rag_entity_chunks_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE graph_entities e SET chunks = e.chunks - o.c
  FROM (SELECT collection_id, key, count(*) AS c FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) o
  WHERE e.collection_id = o.collection_id AND e.key = o.key;
  RETURN NULL;
END $$;
CREATE TRIGGER entity_mentions_add AFTER INSERT ON entity_mentions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_entity_chunks_add();
CREATE TRIGGER entity_mentions_remove AFTER DELETE ON entity_mentions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_entity_chunks_remove();

CREATE FUNCTION rag_entity_documents_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE graph_entities e SET documents = e.documents + n.c
  FROM (SELECT collection_id, key, count(*) AS c FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2) n
  WHERE e.collection_id = n.collection_id AND e.key = n.key;
  RETURN NULL;
END $$;
CREATE FUNCTION rag_entity_documents_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE graph_entities e SET documents = e.documents - o.c
  FROM (SELECT collection_id, key, count(*) AS c FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) o
  WHERE e.collection_id = o.collection_id AND e.key = o.key;
  RETURN NULL;
END $$;
CREATE TRIGGER entity_documents_add AFTER INSERT ON entity_documents
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_entity_documents_add();
CREATE TRIGGER entity_documents_remove AFTER DELETE ON entity_documents
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_entity_documents_remove();
