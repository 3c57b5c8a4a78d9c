-- BM25 postings packed in blocks, so a question reads a few rows per word instead of one row per posting.
--
-- At 100k chunks a common word has tens of thousands of postings in chunk_terms; ranking them row by row
-- in the executor cost 40-80 ms at p95 (reading 9 ms, scoring 25, grouping 15, sorting 20 for the worst
-- question; docs/bench/findings.md). bm25_blocks holds the same postings, one row per (collection, lexeme,
-- block of 1024 chunk ids), as a bytea of 10-byte entries: the chunk id's offset in the block (int2), the
-- field-weighted term frequency and the field-weighted chunk length (float4 each, big-endian, as
-- int2send/float4send write them). services/stores/bm25_blocks.py scores them with numpy.
--
-- chunk_terms stays the source: statement-level triggers on it change the blocks in the same transaction
-- (ingest, re-ingest, link, unlink, delete, derive_missing): inserted postings are appended to their
-- blocks; a block that lost postings is rebuilt from chunk_terms itself. Concurrent writers to one
-- collection are already serialised by the statistics triggers (the collection's bm25_totals row is locked
-- first, and those triggers fire before these by name), and each rebuild reads with a fresh snapshot, so it
-- sees the postings of a writer that committed while it waited.
--
-- The field weights (title 2, heading 1.5, text 1) are BM25's in services/stores/chunk_store.py; the
-- ranking uses the blocks only when its weights are these (a test checks both sides agree).

CREATE FUNCTION rag_bm25_weighted(title REAL, heading REAL, body REAL) RETURNS REAL
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$ SELECT (title * 2 + heading * 1.5 + body)::real $$;

-- One packed posting: the chunk id's offset in its block, the weighted term frequency, the weighted length.
CREATE FUNCTION rag_bm25_entry(chunk_id BIGINT, tf_title REAL, tf_heading REAL, tf_text REAL,
                               len_title REAL, len_heading REAL, len_text REAL) RETURNS BYTEA
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT int2send(mod(chunk_id, 1024)::int2) || float4send(rag_bm25_weighted(tf_title, tf_heading, tf_text))
         || float4send(rag_bm25_weighted(len_title, len_heading, len_text))
$$;

CREATE TABLE bm25_blocks (
    collection_id BIGINT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    lexeme        TEXT NOT NULL,
    block         BIGINT NOT NULL,  -- chunk_id / 1024
    postings      BYTEA NOT NULL,
    PRIMARY KEY (collection_id, lexeme, block)
);
-- Out of line but uncompressed: a block is read whole, and pglz cost more to undo than the bytes it saved.
ALTER TABLE bm25_blocks ALTER COLUMN postings SET STORAGE EXTERNAL;

-- Rebuild the given blocks from chunk_terms (dropping those left empty); keys in lock order.
CREATE FUNCTION rag_bm25_repack(cids BIGINT[], lexemes TEXT[], blocks BIGINT[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bm25_blocks AS k (collection_id, lexeme, block, postings)
  SELECT a.collection_id, a.lexeme, a.block,
         string_agg(rag_bm25_entry(t.chunk_id, t.tf_title, t.tf_heading, t.tf_text,
                                   t.len_title, t.len_heading, t.len_text), ''::bytea ORDER BY t.chunk_id)
  FROM unnest(cids, lexemes, blocks) AS a(collection_id, lexeme, block)
  JOIN chunk_terms t ON t.collection_id = a.collection_id AND t.lexeme = a.lexeme
   AND t.chunk_id >= a.block * 1024 AND t.chunk_id < (a.block + 1) * 1024
  WHERE a.collection_id IN (SELECT id FROM collections)  -- not a collection being deleted
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (collection_id, lexeme, block) DO UPDATE SET postings = excluded.postings;
  DELETE FROM bm25_blocks k USING unnest(cids, lexemes, blocks) AS a(collection_id, lexeme, block)
  WHERE k.collection_id = a.collection_id AND k.lexeme = a.lexeme AND k.block = a.block
    AND NOT EXISTS (SELECT 1 FROM chunk_terms t WHERE t.collection_id = a.collection_id AND t.lexeme = a.lexeme
                    AND t.chunk_id >= a.block * 1024 AND t.chunk_id < (a.block + 1) * 1024);
END $$;

-- New postings are appended to their blocks (the order inside a block does not matter): no posting is read
-- back. The append reads the block's newest committed version, so writers never undo each other's appends.
CREATE FUNCTION rag_bm25_blocks_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bm25_blocks AS k (collection_id, lexeme, block, postings)
  SELECT collection_id, lexeme, chunk_id / 1024,
         string_agg(rag_bm25_entry(chunk_id, tf_title, tf_heading, tf_text, len_title, len_heading, len_text),
                    ''::bytea ORDER BY chunk_id)
  FROM new_rows WHERE lexeme <> ''
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (collection_id, lexeme, block) DO UPDATE SET postings = k.postings || excluded.postings;
  RETURN NULL;
END $$;

-- Removed postings: their blocks are rebuilt from what chunk_terms still holds.
CREATE FUNCTION rag_bm25_blocks_removed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE c BIGINT[]; l TEXT[]; b BIGINT[];
BEGIN
  SELECT array_agg(collection_id ORDER BY collection_id, lexeme, block), array_agg(lexeme ORDER BY collection_id, lexeme, block),
         array_agg(block ORDER BY collection_id, lexeme, block)
  INTO c, l, b
  FROM (SELECT DISTINCT collection_id, lexeme, chunk_id / 1024 AS block FROM old_rows WHERE lexeme <> '') s;
  IF c IS NOT NULL THEN PERFORM rag_bm25_repack(c, l, b); END IF;
  RETURN NULL;
END $$;

-- Named to fire after chunk_terms_stats_* (triggers on one event fire in name order).
CREATE TRIGGER chunk_terms_zblocks_insert AFTER INSERT ON chunk_terms
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_bm25_blocks_added();
CREATE TRIGGER chunk_terms_zblocks_delete AFTER DELETE ON chunk_terms
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_bm25_blocks_removed();

-- Existing postings, packed in this migration's transaction.
INSERT INTO bm25_blocks (collection_id, lexeme, block, postings)
SELECT t.collection_id, t.lexeme, t.chunk_id / 1024,
       string_agg(rag_bm25_entry(t.chunk_id, t.tf_title, t.tf_heading, t.tf_text,
                                 t.len_title, t.len_heading, t.len_text), ''::bytea ORDER BY t.chunk_id)
FROM chunk_terms t WHERE t.lexeme <> ''
GROUP BY 1, 2, 3;
