"""Keyword search ranks by Okapi BM25 inside PostgreSQL, on statistics that follow every write."""

from __future__ import annotations

import math
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import sqlalchemy as sa

from services.ingest.requests import text_request
from services.stores import bm25_blocks, chunk_store
from services.stores.chunk_store import ChunkScope
from services.stores.keyword_ranking import BM25, BM25Memo, expanded_keyword, keyword, parse_keyword_query

FOX = "The quick brown fox jumps over the lazy dog near the river bank."


def _ingest(services, name: str, title: str, text: str, mode: str = "ingest") -> int:
    result = services.ingestion.run(text_request(name, title=title, text=text, mode=mode))
    assert result.status == "done", result.items
    return int(result.items[0]["document_id"])


@pytest.fixture
def corpus(services, collection):
    texts = {
        "Foxes": FOX + " Foxes hunt at dusk; a fox is quick.",
        "Dogs": "A lazy dog sleeps all day. The dog dreams of the river.",
        "Rivers": "The river bank floods in spring. Rivers carry silt to the sea.",
        "Aschenbrödel": "Aschenbrödel is the German name of the fairy-tale heroine Cinderella.",
        "Harbours": "Pilot boats meet tankers at the outer buoy of the harbour.",
    }
    ids = {title: _ingest(services, collection, title, text) for title, text in texts.items()}
    return collection, ids


def _by_hand(services, collection: str, query: str, bm25: BM25 = BM25()) -> dict[int, float]:
    """BM25F computed in Python from each chunk's stored tsvector: the definition, not the SQL."""
    cid = services.collections.get(collection).id
    with services.engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT c.id, u.lexeme, u.weights FROM chunks c JOIN collection_documents cd ON cd.document_id = c.document_id, "
            "unnest(c.tsv) u WHERE cd.collection_id = :c"), {"c": cid}).all()
        terms = set(conn.execute(sa.text("SELECT tsvector_to_array(to_tsvector('english', rag_fold(:q)))"),
                                 {"q": query}).scalar_one())
    weight = {"A": bm25.title, "B": bm25.heading, "D": 1.0}
    tf: dict[int, dict[str, float]] = {}
    for chunk_id, lexeme, weights in rows:
        tf.setdefault(chunk_id, {})[lexeme] = sum(weight[w] for w in weights)
    n = len(tf)
    avgdl = sum(sum(v.values()) for v in tf.values()) / n
    scores = {}
    for chunk_id, freqs in tf.items():
        dl = sum(freqs.values())
        score = 0.0
        for term in terms & set(freqs):
            df = sum(1 for f in tf.values() if term in f)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            f = freqs[term]
            score += idf * f * (bm25.k1 + 1) / (f + bm25.k1 * (1 - bm25.b + bm25.b * dl / avgdl))
        if score > 0:
            scores[chunk_id] = score
    return scores


def _keyword(services, collection: str, query: str, depth: int = 50) -> dict[int, float]:
    scope = ChunkScope([services.collections.get(collection).id])
    with services.engine.connect() as conn:
        return keyword(conn, query, scope, depth=depth)


@pytest.mark.parametrize("query", ["quick fox", "lazy dog river", "river bank floods", "harbour buoy tankers"])
def test_scores_are_okapi_bm25_of_title_and_text(services, corpus, query):
    collection, _ = corpus
    got, want = _keyword(services, collection, query), _by_hand(services, collection, query)
    assert set(got) == set(want) and want
    for chunk_id, score in want.items():
        assert got[chunk_id] == pytest.approx(score, rel=1e-6)


def _recomputed(services, cid: int) -> tuple[dict[str, int], tuple[int, float, float, float]]:
    with services.engine.connect() as conn:
        df = {r.lexeme: int(r.df) for r in conn.execute(sa.text(
            "SELECT u.lexeme, count(*) AS df FROM chunks c JOIN collection_documents cd ON cd.document_id = c.document_id, "
            "unnest(c.tsv) u WHERE cd.collection_id = :c GROUP BY u.lexeme"), {"c": cid})}
        totals = conn.execute(sa.text(
            "SELECT count(DISTINCT c.id), "
            "coalesce(sum((SELECT count(*) FROM unnest(c.tsv) u, unnest(u.weights) w WHERE w = 'A')), 0), "
            "coalesce(sum((SELECT count(*) FROM unnest(c.tsv) u, unnest(u.weights) w WHERE w = 'B')), 0), "
            "coalesce(sum((SELECT count(*) FROM unnest(c.tsv) u, unnest(u.weights) w WHERE w = 'D')), 0) "
            "FROM chunks c JOIN collection_documents cd ON cd.document_id = c.document_id WHERE cd.collection_id = :c "
            "AND c.tsv <> ''::tsvector"), {"c": cid}).one()
    return df, (int(totals[0]), float(totals[1]), float(totals[2]), float(totals[3]))


def _maintained(services, cid: int) -> tuple[dict[str, int], tuple[int, float, float, float]]:
    with services.engine.connect() as conn:
        df = {r.lexeme: int(r.df) for r in conn.execute(sa.text(
            "SELECT lexeme, df FROM term_stats WHERE collection_id = :c"), {"c": cid})}
        row = conn.execute(sa.text("SELECT chunks, len_title, len_heading, len_text FROM bm25_totals "
                                   "WHERE collection_id = :c"), {"c": cid}).first()
    return df, (int(row[0]), float(row[1]), float(row[2]), float(row[3])) if row else (0, 0.0, 0.0, 0.0)


def _packed(services, cids: list[int]) -> set[tuple[int, str, int, float, float]]:
    """Every posting in bm25_blocks, unpacked: (collection, lexeme, chunk, weighted tf, weighted length);
    none twice."""
    out: set[tuple[int, str, int, float, float]] = set()
    entries_seen = 0
    with services.engine.connect() as conn:
        for cid, lexeme, block, postings in conn.execute(sa.text(
                "SELECT collection_id, lexeme, block, postings FROM bm25_blocks WHERE collection_id = ANY(:c)"),
                {"c": cids}):
            entries = np.frombuffer(postings, bm25_blocks.POSTING)
            assert len(entries), "an empty block is deleted, not kept"
            entries_seen += len(entries)
            out |= {(cid, lexeme, block * bm25_blocks.BLOCK + int(e["offset"]), float(e["tf"]), float(e["dl"]))
                    for e in entries}
    assert entries_seen == len(out)
    return out


def _postings(services, cids: list[int]) -> set[tuple[int, str, int, float, float]]:
    """The same from chunk_terms, weighted here by BM25's field weights."""
    wt, wh = BM25().title, BM25().heading
    with services.engine.connect() as conn:
        return {(r[0], r[1], r[2], r[3] * wt + r[4] * wh + r[5], r[6] * wt + r[7] * wh + r[8]) for r in conn.execute(
            sa.text("SELECT collection_id, lexeme, chunk_id, tf_title, tf_heading, tf_text, len_title, len_heading, "
                    "len_text FROM chunk_terms WHERE collection_id = ANY(:c) AND lexeme <> ''"), {"c": cids})}


def test_packed_blocks_use_the_rankings_field_weights():
    assert (BM25().title, BM25().heading) == bm25_blocks.FIELD_WEIGHTS


def test_statistics_follow_ingest_reingest_link_unlink_and_delete(services, corpus):
    collection, ids = corpus
    other = f"test-{uuid.uuid4().hex[:10]}"
    services.collections.create(name=other, description="Second collection.")
    try:
        cids = [services.collections.get(n).id for n in (collection, other)]

        def consistent() -> None:
            for cid in cids:
                assert _maintained(services, cid) == _recomputed(services, cid)
            with services.engine.connect() as conn:  # every posting carries its chunk's field lengths
                assert conn.execute(sa.text(
                    "SELECT count(*) FROM chunk_terms t JOIN chunk_terms l ON l.collection_id = t.collection_id "
                    "AND l.lexeme = '' AND l.chunk_id = t.chunk_id WHERE t.collection_id = ANY(:c) AND "
                    "(t.len_title, t.len_heading, t.len_text) <> (l.tf_title, l.tf_heading, l.tf_text)"),
                    {"c": cids}).scalar_one() == 0
            assert _packed(services, cids) == _postings(services, cids)

        consistent()
        services.collections.link(ids["Foxes"], other)
        consistent()
        _ingest(services, collection, "Foxes", "# Den\n\nA completely different text about badgers.", mode="reingest")
        consistent()
        _ingest(services, collection, "Notes", "\n\n".join(f"Paragraph {i} about lighthouses." for i in range(400)))
        consistent()
        with services.engine.begin() as conn:  # unlink
            conn.execute(sa.text("DELETE FROM collection_documents WHERE collection_id = :c AND document_id = :d"),
                         {"c": cids[1], "d": ids["Foxes"]})
        consistent()
        services.deletion.delete_document(ids["Dogs"])
        consistent()
        assert _keyword(services, collection, "badgers") and not _keyword(services, collection, "quick jumps")  # old text gone
    finally:
        services.deletion.delete_collection(other)
    with services.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM term_stats WHERE collection_id = :c"),
                            {"c": cids[1]}).scalar_one() == 0
        assert conn.execute(sa.text("SELECT count(*) FROM bm25_blocks WHERE collection_id = :c"),
                            {"c": cids[1]}).scalar_one() == 0


def _write_document(conn, cid: int, title: str, text: str) -> int:
    """A document and its chunks written in ``conn``'s open transaction, as the ingester's write step does."""
    digest = uuid.uuid4().hex
    doc = conn.execute(sa.text(
        "INSERT INTO documents (title, content, content_hash) VALUES (:t, :x, :h) RETURNING id"),
        {"t": title, "x": text, "h": digest}).scalar_one()
    conn.execute(sa.text("INSERT INTO collection_documents (collection_id, document_id, title, content_hash) "
                         "VALUES (:c, :d, :t, :h)"), {"c": cid, "d": doc, "t": title, "h": digest})
    vector = chunk_store.vector_literal(np.full(8, 0.1))
    chunk_store.insert_chunks(conn, [chunk_store.ChunkRow(doc, i, part, 0, len(part), [], {}, vector, 8)
                                     for i, part in enumerate(text.split("\n\n"))])
    return int(doc)


@pytest.mark.parametrize("second_writer", ["writes", "deletes"])
def test_blocks_stay_whole_when_two_writers_overlap(services, collection, second_writer):
    """While one transaction writes a document, a second one writes another with the same words, or deletes
    one that shares them: whatever order they finish in, every block ends up holding exactly its postings
    (a rebuild that read the blocks' postings before the first writer committed would drop its postings)."""
    cid = services.collections.get(collection).id
    text = "The lighthouse keeper logs the tide.\n\nFog hides the harbour lights."
    with services.engine.begin() as conn:
        older = _write_document(conn, cid, "Log zero", text)
    with services.engine.connect() as first, services.engine.connect() as second:
        second_pid = second.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()
        second.commit()
        first.begin()
        _write_document(first, cid, "Log one", text)

        def write_second() -> None:
            with second.begin():
                if second_writer == "writes":
                    _write_document(second, cid, "Log two", text)
                else:
                    second.execute(sa.text("DELETE FROM documents WHERE id = :d"), {"d": older})

        with ThreadPoolExecutor(1) as pool:
            done = pool.submit(write_second)
            with services.engine.connect() as watch:  # the second writer is waiting on the first one's locks
                while not done.done() and not watch.execute(sa.text(
                        "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = :p"),
                        {"p": second_pid}).scalar():
                    time.sleep(0.01)
            first.commit()
            done.result()
    packed = _packed(services, [cid])
    assert packed == _postings(services, [cid])
    assert len(_keyword(services, collection, "lighthouse keeper")) == (3 if second_writer == "writes" else 1)


def test_blocks_rank_as_the_sql_ranking_does_over_overlapping_collections(services, corpus, monkeypatch):
    """The packed path (no filters, phrases or exclusions) and the row-by-row SQL path give the same scores;
    a chunk in two of the searched collections counts once."""
    collection, ids = corpus
    other = f"test-{uuid.uuid4().hex[:10]}"
    services.collections.create(name=other, description="Second collection.")
    try:
        services.collections.link(ids["Foxes"], other)
        services.collections.link(ids["Rivers"], other)
        scope = ChunkScope([services.collections.get(n).id for n in (collection, other)])
        for query in ("quick fox", "river bank floods", "lazy dog river fox"):
            with services.engine.connect() as conn:
                packed = keyword(conn, query, scope, depth=50)
                with monkeypatch.context() as m:  # weights the blocks were not packed with: row by row
                    m.setattr(bm25_blocks, "FIELD_WEIGHTS", (0.0, 0.0))
                    by_rows = keyword(conn, query, scope, depth=50)
            assert packed and list(packed) == list(by_rows)
            assert packed == pytest.approx(by_rows, rel=1e-9)
    finally:
        services.deletion.delete_collection(other)


def test_websearch_syntax_phrases_exclusions_and_or(services, corpus):
    collection, ids = corpus
    hits = lambda q: {h.title for h in services.search.search(q, collections=[collection], mode="keyword").hits}  # noqa: E731
    assert hits("river") == {"Foxes", "Dogs", "Rivers"}
    assert hits('"river bank"') == {"Foxes", "Rivers"}  # the phrase must occur
    assert hits("river -dog") == {"Rivers"}  # Foxes and Dogs mention a dog
    assert hits("buoy or cinderella") == {"Harbours", "Aschenbrödel"}
    parsed = parse_keyword_query('tide "outer buoy" -storm -"heavy rain" or sea')
    assert parsed.phrases == ("outer buoy",) and set(parsed.excluded) == {"storm", "heavy rain"}
    assert "storm" not in parsed.words and "rain" not in parsed.words and "outer buoy" in parsed.words


def test_accents_fold_on_both_sides_and_titles_are_searched(services, corpus):
    collection, _ = corpus
    titles = lambda q: [h.title for h in services.search.search(q, collections=[collection], mode="keyword").hits]  # noqa: E731
    assert titles("Aschenbrodel") == ["Aschenbrödel"]
    assert titles("aschenbrödel") == ["Aschenbrödel"]
    assert titles("harbours") == ["Harbours"]  # in the title (and the text's "harbour")


def test_incidental_words_do_not_take_over_a_long_question(services, collection):
    """Common words ("in charge", "citizens") weigh little against the question's rare ones."""
    for i in range(40):
        _ingest(services, collection, f"Council {i}", f"The citizens put the council in charge of roads, year {i}.")
    _ingest(services, collection, "Zorbex", "Zorbex was founded by Ivana Petrova, who grows tomatoes.")
    top = services.search.search("Which citizens were in charge when Ivana Petrova founded Zorbex?",
                                 collections=[collection], mode="keyword", limit=3).hits
    assert top[0].title == "Zorbex"


def test_rankings_do_not_move_when_statistics_are_analysed(services, corpus):
    collection, _ = corpus
    question = "Which quick animal hunts near the river bank at dusk?"
    before = [(h.chunk_id, round(h.score, 9)) for h in services.search.search(
        question, collections=[collection], mode="keyword").hits]
    with services.engine.begin() as conn:
        conn.execute(sa.text("ANALYZE chunks"))
        conn.execute(sa.text("ANALYZE chunk_terms"))
    after = [(h.chunk_id, round(h.score, 9)) for h in services.search.search(
        question, collections=[collection], mode="keyword").hits]
    assert before == after and before


def test_chunks_written_before_bm25_are_derived_in_batches(services, corpus):
    """Chunks stored before the BM25 migration have no tsv: unfindable by keyword until derived."""
    collection, ids = corpus
    cid = services.collections.get(collection).id
    with services.engine.begin() as conn:  # what migration 007 leaves for chunks it found
        conn.execute(sa.text("DELETE FROM chunk_terms WHERE chunk_id IN (SELECT id FROM chunks WHERE document_id = :d)"),
                     {"d": ids["Harbours"]})
        conn.execute(sa.text("ALTER TABLE chunks DISABLE TRIGGER chunks_postings_update"))
        conn.execute(sa.text("UPDATE chunks SET tsv = NULL WHERE document_id = :d"), {"d": ids["Harbours"]})
        conn.execute(sa.text("ALTER TABLE chunks ENABLE TRIGGER chunks_postings_update"))
    assert not _keyword(services, collection, "tankers buoy")
    with services.engine.begin() as conn:
        assert chunk_store.missing_count(conn) >= 1
        while chunk_store.derive_missing(conn, batch=1):
            pass
        assert chunk_store.missing_count(conn) == 0
    assert _keyword(services, collection, "tankers buoy")
    assert _maintained(services, cid) == _recomputed(services, cid)


def test_feedback_expansion_reaches_the_second_hop(services, collection):
    """Pseudo-relevance feedback: the words of the passage that answers the first hop (the bridge entity)
    find the passage the second hop needs, which shares no word with the question."""
    texts = {
        "Zorbex": "Zorbex, a maker of industrial sensors, was founded by Ivana Petrova in Plovdiv.",
        "Petrova's garden": "Ivana Petrova grows heirloom tomatoes and keeps bees behind her house.",
        "Sensors": "Industrial sensors measure pressure, flow and temperature in factories.",
        "Bees": "Bees pollinate orchards; a hive keeps its queen warm through the winter.",
    }
    ids = {title: _ingest(services, collection, title, text) for title, text in texts.items()}
    scope = ChunkScope([services.collections.get(collection).id])
    with services.engine.connect() as conn:
        chunk_of = {t: int(conn.execute(sa.text("SELECT id FROM chunks WHERE document_id = :d"), {"d": d}).scalar_one())
                    for t, d in ids.items()}
        plain = keyword(conn, "who founded the sensor maker Zorbex", scope, depth=10)
        expanded = expanded_keyword(conn, "who founded the sensor maker Zorbex", [chunk_of["Zorbex"]],
                                                scope, depth=10)
        excluded = expanded_keyword(conn, "who founded Zorbex -tomatoes", [chunk_of["Zorbex"]],
                                                scope, depth=10)
    assert chunk_of["Petrova's garden"] not in plain
    assert chunk_of["Petrova's garden"] in expanded  # through "ivana" and "petrova"
    assert max(expanded, key=expanded.get) == chunk_of["Zorbex"]  # the question's own words still weigh most
    assert chunk_of["Petrova's garden"] not in excluded  # an excluded word stays excluded


@pytest.mark.parametrize("query", ["quick fox river", "lazy dog sleeps by the river bank"])
def test_a_feedback_pass_that_reuses_the_first_passs_scores_ranks_as_one_from_scratch(services, corpus, query):
    """Hybrid's feedback pass adds the first pass's scores (the question's words, weighed alike) to those of
    its expansion words instead of scoring every posting again: the same chunks, order and scores."""
    collection, ids = corpus
    scope = ChunkScope([services.collections.get(collection).id])
    memo = BM25Memo()
    with services.engine.connect() as conn:
        first = keyword(conn, query, scope, depth=2, memo=memo)
        assert memo.scores, "the first pass kept its scores"
        reused = expanded_keyword(conn, query, list(first), scope, depth=50, memo=memo)
        fresh = expanded_keyword(conn, query, list(first), scope, depth=50)
    assert len(fresh) > len(first)  # the expansion words reached more chunks
    assert list(reused) == list(fresh)
    assert reused == pytest.approx(fresh, rel=1e-9)
