-- Keyword search ranks by Okapi BM25 inside PostgreSQL (services/stores/chunk_store.py).
--
-- chunks.tsv now holds the document's title (weight A), the chunk's heading path (B) and its text (D),
-- accent-folded by rag_fold() (the same folding is applied to queries), and is set when a chunk is
-- written. A trigger turns it into postings: chunk_terms has one row per (collection, lexeme, chunk) with
-- the term's frequency in each field, plus one row with the empty lexeme per (collection, chunk) that
-- carries the chunk's field lengths. Statement-level triggers on chunk_terms keep the per-collection
-- statistics BM25 needs (term_stats.df; bm25_totals: chunks and summed field lengths) in the same
-- transaction, so they can never drift from the chunks: a document written, re-ingested, linked to another
-- collection, unlinked or deleted (by any path, cascades included) updates them with it.
--
-- Existing chunks get tsv = NULL here; services.stores.chunk_store.derive_missing() fills them in batches
-- (resumable, with progress) and the triggers derive their postings.

CREATE FUNCTION rag_fold(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT replace(replace(replace(replace(replace(replace(replace(replace(
           translate(t, 'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẛẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹøØłŁđĐðÐħĦıŧŦƀƒ', 'AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiIJjKkLlLlLlNnNnNnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZzsOoUuAaIiOoUuUuUuUuUuAaAaGgKkOoOojGgNnAaAaAaEeEeIiIiOoOoRrRrUuUuSsTtHhAaEeOoOoOoOoYyAaBbBbBbCcDdDdDdDdDdEeEeEeEeEeFfGgHhHhHhHhHhIiIiKkKkKkLlLlLlLlMmMmMmNnNnNnNnOoOoOoOoPpPpRrRrRrRrSsSsSsSsSsTtTtTtTtUuUuUuUuUuVvVvWwWwWwWwWwXxXxYyZzZzZzhtwysAaAaAaAaAaAaAaAaAaAaAaAaEeEeEeEeEeEeEeEeIiIiOoOoOoOoOoOoOoOoOoOoOoOoUuUuUuUuUuUuUuYyYyYyYyoOlLdDdDhHitTbf'),
           'ß', 'ss'), 'æ', 'ae'), 'Æ', 'AE'), 'œ', 'oe'), 'Œ', 'OE'), 'þ', 'th'), 'Þ', 'TH'), 'ĳ', 'ij')
$$;

CREATE FUNCTION rag_chunk_tsv(title text, heading_path text[], body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', rag_fold(coalesce(title, ''))), 'A')
      || setweight(to_tsvector('english', rag_fold(array_to_string(coalesce(heading_path, '{}'), ' '))), 'B')
      || to_tsvector('english', rag_fold(coalesce(body, '')))
$$;

DROP INDEX IF EXISTS chunks_tsv_gin;
ALTER TABLE chunks DROP COLUMN tsv;
ALTER TABLE chunks ADD COLUMN tsv tsvector;
CREATE INDEX chunks_tsv_gin ON chunks USING gin (tsv);
CREATE INDEX chunks_tsv_missing ON chunks (id) WHERE tsv IS NULL;

CREATE TABLE chunk_terms (
    collection_id BIGINT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    lexeme        TEXT NOT NULL,  -- '' is the chunk's own row: its field lengths
    chunk_id      BIGINT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    tf_title      REAL NOT NULL DEFAULT 0,
    tf_heading    REAL NOT NULL DEFAULT 0,
    tf_text       REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (collection_id, lexeme, chunk_id)
);
CREATE INDEX chunk_terms_chunk ON chunk_terms (chunk_id);

CREATE TABLE term_stats (
    collection_id BIGINT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    lexeme        TEXT NOT NULL,
    df            BIGINT NOT NULL,
    PRIMARY KEY (collection_id, lexeme)
);

CREATE TABLE bm25_totals (
    collection_id BIGINT PRIMARY KEY REFERENCES collections(id) ON DELETE CASCADE,
    chunks        BIGINT NOT NULL DEFAULT 0,
    len_title     DOUBLE PRECISION NOT NULL DEFAULT 0,
    len_heading   DOUBLE PRECISION NOT NULL DEFAULT 0,
    len_text      DOUBLE PRECISION NOT NULL DEFAULT 0
);

-- Postings of chunks (for every collection their document is in), from their tsv.
CREATE FUNCTION rag_postings(chunk_ids BIGINT[]) RETURNS TABLE (
    collection_id BIGINT, lexeme TEXT, chunk_id BIGINT, tf_title REAL, tf_heading REAL, tf_text REAL)
LANGUAGE sql STABLE AS $$
  WITH terms AS (
    SELECT c.id AS chunk_id, c.document_id, u.lexeme,
           (SELECT count(*) FILTER (WHERE w = 'A') FROM unnest(u.weights) w)::real AS tf_title,
           (SELECT count(*) FILTER (WHERE w = 'B') FROM unnest(u.weights) w)::real AS tf_heading,
           (SELECT count(*) FILTER (WHERE w = 'D') FROM unnest(u.weights) w)::real AS tf_text
    FROM chunks c, unnest(c.tsv) u
    WHERE c.id = ANY(chunk_ids) AND c.tsv IS NOT NULL
  ), lengths AS (
    SELECT chunk_id, document_id, '' AS lexeme, sum(tf_title) AS tf_title, sum(tf_heading) AS tf_heading,
           sum(tf_text) AS tf_text
    FROM terms GROUP BY chunk_id, document_id
  ), rows_ AS (
    SELECT chunk_id, document_id, lexeme, tf_title, tf_heading, tf_text FROM terms
    UNION ALL
    SELECT chunk_id, document_id, lexeme, tf_title::real, tf_heading::real, tf_text::real FROM lengths
  )
  SELECT cd.collection_id, r.lexeme, r.chunk_id, r.tf_title, r.tf_heading, r.tf_text
  FROM rows_ r JOIN collection_documents cd ON cd.document_id = r.document_id
$$;

CREATE FUNCTION rag_chunks_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chunk_terms (collection_id, lexeme, chunk_id, tf_title, tf_heading, tf_text)
  SELECT * FROM rag_postings(ARRAY(SELECT id FROM new_rows WHERE tsv IS NOT NULL))
  ORDER BY 1, 2, 3;
  RETURN NULL;
END $$;
CREATE TRIGGER chunks_postings_insert AFTER INSERT ON chunks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_chunks_postings();

-- A chunk whose tsv changed (derive_missing filling it in) gets its postings again.
CREATE FUNCTION rag_chunks_repost() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM chunk_terms t USING new_rows n JOIN old_rows o ON o.id = n.id
  WHERE t.chunk_id = n.id AND n.tsv IS DISTINCT FROM o.tsv;
  INSERT INTO chunk_terms (collection_id, lexeme, chunk_id, tf_title, tf_heading, tf_text)
  SELECT * FROM rag_postings(ARRAY(SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
                                   WHERE n.tsv IS DISTINCT FROM o.tsv AND n.tsv IS NOT NULL))
  ORDER BY 1, 2, 3;
  RETURN NULL;
END $$;
CREATE TRIGGER chunks_postings_update AFTER UPDATE ON chunks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_chunks_repost();

-- A document linked to one more collection: its chunks' postings for that collection; unlinked: removed.
CREATE FUNCTION rag_link_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO chunk_terms (collection_id, lexeme, chunk_id, tf_title, tf_heading, tf_text)
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
CREATE TRIGGER collection_documents_postings_insert AFTER INSERT ON collection_documents
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_link_postings();
CREATE TRIGGER collection_documents_postings_delete AFTER DELETE ON collection_documents
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_link_postings();

-- The statistics follow the postings, whatever changed them. Lock order, to rule out deadlocks between
-- concurrent writers: the collection's totals row first, then its term rows in lexeme order (upserts of signed
-- counts, so a decrement takes its locks in the same order as an increment).
CREATE FUNCTION rag_term_stats_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bm25_totals AS b (collection_id, chunks, len_title, len_heading, len_text)
  SELECT collection_id, count(*) FILTER (WHERE lexeme = ''),
         coalesce(sum(tf_title) FILTER (WHERE lexeme = ''), 0),
         coalesce(sum(tf_heading) FILTER (WHERE lexeme = ''), 0),
         coalesce(sum(tf_text) FILTER (WHERE lexeme = ''), 0)
  FROM new_rows GROUP BY 1 ORDER BY 1
  ON CONFLICT (collection_id) DO UPDATE SET chunks = b.chunks + excluded.chunks,
    len_title = b.len_title + excluded.len_title, len_heading = b.len_heading + excluded.len_heading,
    len_text = b.len_text + excluded.len_text;
  INSERT INTO term_stats AS s (collection_id, lexeme, df)
  SELECT collection_id, lexeme, count(*) FROM new_rows WHERE lexeme <> '' GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (collection_id, lexeme) DO UPDATE SET df = s.df + excluded.df;
  RETURN NULL;
END $$;

CREATE FUNCTION rag_term_stats_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bm25_totals AS b (collection_id, chunks, len_title, len_heading, len_text)
  SELECT collection_id, -count(*) FILTER (WHERE lexeme = ''),
         -coalesce(sum(tf_title) FILTER (WHERE lexeme = ''), 0),
         -coalesce(sum(tf_heading) FILTER (WHERE lexeme = ''), 0),
         -coalesce(sum(tf_text) FILTER (WHERE lexeme = ''), 0)
  FROM old_rows WHERE collection_id IN (SELECT id FROM collections)  -- not a collection being deleted
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (collection_id) DO UPDATE SET chunks = b.chunks + excluded.chunks,
    len_title = b.len_title + excluded.len_title, len_heading = b.len_heading + excluded.len_heading,
    len_text = b.len_text + excluded.len_text;
  INSERT INTO term_stats AS s (collection_id, lexeme, df)
  SELECT collection_id, lexeme, -count(*) FROM old_rows
  WHERE lexeme <> '' AND collection_id IN (SELECT id FROM collections) GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (collection_id, lexeme) DO UPDATE SET df = s.df + excluded.df;
  DELETE FROM term_stats s USING (SELECT DISTINCT collection_id, lexeme FROM old_rows) o
  WHERE s.collection_id = o.collection_id AND s.lexeme = o.lexeme AND s.df <= 0;
  RETURN NULL;
END $$;
CREATE TRIGGER chunk_terms_stats_insert AFTER INSERT ON chunk_terms
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_term_stats_add();
CREATE TRIGGER chunk_terms_stats_delete AFTER DELETE ON chunk_terms
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rag_term_stats_remove();

-- A chunk's tsv is computed when it is written, from its document's title: every insert path (the ingester,
-- a restore, a bulk COPY) gets it. Existing chunks keep NULL until derive_missing() reaches them.
CREATE FUNCTION rag_chunk_set_tsv() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.tsv := rag_chunk_tsv((SELECT title FROM documents WHERE id = NEW.document_id), NEW.heading_path, NEW.text);
  RETURN NEW;
END $$;
CREATE TRIGGER chunks_set_tsv BEFORE INSERT ON chunks FOR EACH ROW EXECUTE FUNCTION rag_chunk_set_tsv();
