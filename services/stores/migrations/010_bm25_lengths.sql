-- Each BM25 posting carries its chunk's field lengths (len_title, len_heading, len_text), so ranking needs
-- no per-candidate lookup of the chunk's ''-row: at 100k chunks a three-word query touched ~30k postings
-- and spent most of its ~300 ms in those lookups (docs/benchmarks.md). The ''-row stays: the statistics
-- triggers read it. Existing postings get their lengths here, in this migration's transaction.

ALTER TABLE chunk_terms
  ADD COLUMN len_title REAL NOT NULL DEFAULT 0,
  ADD COLUMN len_heading REAL NOT NULL DEFAULT 0,
  ADD COLUMN len_text REAL NOT NULL DEFAULT 0;

UPDATE chunk_terms t SET len_title = l.tf_title, len_heading = l.tf_heading, len_text = l.tf_text
FROM chunk_terms l
WHERE l.collection_id = t.collection_id AND l.lexeme = '' AND l.chunk_id = t.chunk_id;

DROP FUNCTION rag_postings(BIGINT[]);
CREATE FUNCTION rag_postings(chunk_ids BIGINT[]) RETURNS TABLE (
    collection_id BIGINT, lexeme TEXT, chunk_id BIGINT, tf_title REAL, tf_heading REAL, tf_text REAL,
    len_title REAL, len_heading REAL, len_text REAL)
LANGUAGE sql STABLE AS $$
  WITH terms AS (
    SELECT c.id AS chunk_id, c.document_id, u.lexeme,
           (SELECT count(*) FILTER (WHERE w = 'A') FROM unnest(u.weights) w)::real AS tf_title,
           (SELECT count(*) FILTER (WHERE w = 'B') FROM unnest(u.weights) w)::real AS tf_heading,
           (SELECT count(*) FILTER (WHERE w = 'D') FROM unnest(u.weights) w)::real AS tf_text
    FROM chunks c, unnest(c.tsv) u
    WHERE c.id = ANY(chunk_ids) AND c.tsv IS NOT NULL
  ), lengths AS (
    SELECT chunk_id, document_id, sum(tf_title)::real AS len_title, sum(tf_heading)::real AS len_heading,
           sum(tf_text)::real AS len_text
    FROM terms GROUP BY chunk_id, document_id
  ), rows_ AS (
    SELECT chunk_id, lexeme, tf_title, tf_heading, tf_text FROM terms
    UNION ALL
    SELECT chunk_id, '', len_title, len_heading, len_text FROM lengths
  )
  SELECT cd.collection_id, r.lexeme, r.chunk_id, r.tf_title, r.tf_heading, r.tf_text,
         l.len_title, l.len_heading, l.len_text
  FROM rows_ r JOIN lengths l ON l.chunk_id = r.chunk_id
  JOIN collection_documents cd ON cd.document_id = l.document_id
$$;

CREATE OR REPLACE FUNCTION rag_chunks_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chunk_terms (collection_id, lexeme, chunk_id, tf_title, tf_heading, tf_text,
                           len_title, len_heading, len_text)
  SELECT * FROM rag_postings(ARRAY(SELECT id FROM new_rows WHERE tsv IS NOT NULL))
  ORDER BY 1, 2, 3;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION rag_chunks_repost() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM chunk_terms t USING new_rows n JOIN old_rows o ON o.id = n.id
  WHERE t.chunk_id = n.id AND n.tsv IS DISTINCT FROM o.tsv;
  INSERT INTO chunk_terms (collection_id, lexeme, chunk_id, tf_title, tf_heading, tf_text,
                           len_title, len_heading, len_text)
  SELECT * FROM rag_postings(ARRAY(SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
                                   WHERE n.tsv IS DISTINCT FROM o.tsv AND n.tsv IS NOT NULL))
  ORDER BY 1, 2, 3;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION rag_link_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO chunk_terms (collection_id, lexeme, chunk_id, tf_title, tf_heading, tf_text,
                             len_title, len_heading, len_text)
    SELECT p.* FROM rag_postings(ARRAY(SELECT c.id FROM chunks c JOIN new_rows n ON n.document_id = c.document_id)) p
    JOIN new_rows n ON n.collection_id = p.collection_id
    ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING;
  ELSE
    DELETE FROM chunk_terms t USING old_rows o, chunks c
    WHERE c.document_id = o.document_id AND t.chunk_id = c.id AND t.collection_id = o.collection_id;
  END IF;
  RETURN NULL;
END $$;
