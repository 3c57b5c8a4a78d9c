"""Search on a small real collection: semantic, keyword, hybrid (weighted RRF), filters, limits, safety."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest
import sqlalchemy as sa

from services.errors import EmbeddingMismatch, ValidationFailed
from services.retrieval.search import MAX_LIMIT, MAX_QUERY_CHARS
from tests.utils.ingest import ingest_text, only_item, scalar

DOCS = {
    "Bread": ("Knead the dough for ten minutes, leave it to rise until doubled, then put the loaf "
              "into a hot oven until the crust turns golden.", {"year": 1985, "party": "red"}),
    "Astronomy": ("The telescope revealed four moons circling Jupiter, and the astronomer sketched "
                  "their positions each night.", {"year": 1990, "party": "blue"}),
    "Dogs": ("Puppies need daily walks, chew toys and patient house training to grow into calm companions.",
             {"year": 1995, "party": "green"}),
    "Finance": ("The central bank raised interest rates to curb inflation, and mortgage payments climbed "
                "across the country.", {"year": 2000, "party": "red"}),
    "Football": ("The striker scored a late goal and the stadium erupted as the home team won the championship.",
                 {"year": 2005, "party": "blue", "country": "Côte d'Ivoire"}),
    "Brewing": ("Zymurgy is the branch of chemistry that studies fermentation in brewing beer and wine.",
                {"year": 2010, "party": "green"}),
}
OTHER_DOC = ("Quokka sightings", "A telescope on Rottnest Island photographed a quokka eating leaves at night.")


@dataclass
class Corpus:
    name: str
    other: str
    ids: dict[str, int]  # title -> document id
    other_id: int

    def title_of(self, document_id: int) -> str:
        return {v: k for k, v in self.ids.items()}.get(document_id, f"<other {document_id}>")


@pytest.fixture(scope="module")
def corpus(services):
    name, other = f"test-search-{uuid.uuid4().hex[:8]}", f"test-other-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Six short documents on distinct topics.",
                                metadata_schema={"custom": {"year": {"type": "integer", "required": True},
                                                            "party": "string"}})
    services.collections.create(name=other, description="A second collection, for scope isolation.")
    try:
        ids = {}
        for title, (text, meta) in DOCS.items():
            item = only_item(ingest_text(services, name, title, text, metadata=meta))
            assert item["status"] == "ingested" and item["chunks"] == 1
            ids[title] = item["document_id"]
        other_item = only_item(ingest_text(services, other, *OTHER_DOC))
        yield Corpus(name, other, ids, other_item["document_id"])
    finally:
        services.deletion.delete_collection(name)
        services.deletion.delete_collection(other)


def _search(services, corpus, query, **kw):
    kw.setdefault("collections", [corpus.name])
    return services.search.search(query, **kw)


def _titles(corpus, response) -> list[str]:
    return [corpus.title_of(h.document_id) for h in response.hits]


# -- semantic -----------------------------------------------------------------------------------


def test_semantic_finds_paraphrase_without_shared_keywords(services, corpus):
    query = "baking fresh bread"
    keyword = _search(services, corpus, query, mode="keyword")
    assert _titles(corpus, keyword) == ["Bread"]  # by its title only: no word of the query is in any text
    response = _search(services, corpus, query, mode="semantic")
    assert response.hits, response
    assert _titles(corpus, response)[0] == "Bread"
    top = response.hits[0]
    assert top.semantic_score == top.score >= 0.35 and top.keyword_score is None
    assert top.title == "Bread" and top.metadata == {"year": 1985, "party": "red"}
    assert top.text == DOCS["Bread"][0] and (top.char_start, top.char_end) == (0, len(DOCS["Bread"][0]))


@pytest.mark.parametrize("query, expected", [
    ("looking at planets through a lens", "Astronomy"),
    ("caring for a young pet", "Dogs"),
    ("soccer match victory", "Football"),
    ("monetary policy and the cost of borrowing", "Finance"),
])
def test_semantic_ranks_the_right_topic_first(services, corpus, query, expected):
    assert _titles(corpus, _search(services, corpus, query, mode="semantic", threshold=-1))[0] == expected


def test_threshold_high_gives_no_semantic_hits(services, corpus):
    response = _search(services, corpus, "baking fresh bread", mode="semantic", threshold=0.99)
    assert response.hits == [] and response.counts["semantic"] == 0


def test_threshold_minus_one_returns_limit_results_in_score_order(services, corpus):
    response = _search(services, corpus, "baking fresh bread", mode="semantic", threshold=-1, limit=3)
    assert len(response.hits) == 3
    scores = [h.score for h in response.hits]
    assert scores == sorted(scores, reverse=True)
    everything = _search(services, corpus, "baking fresh bread", mode="semantic", threshold=-1, limit=50)
    assert len(everything.hits) == len(DOCS)


@pytest.mark.parametrize("mode", ["semantic", "keyword", "hybrid"])
def test_limit_is_clamped(services, corpus, mode):
    query = "zymurgy or telescope or dough or puppies or striker or bank"
    huge = _search(services, corpus, query, mode=mode, threshold=-1, limit=10**9)
    assert len(huge.hits) == len(DOCS) <= MAX_LIMIT  # every chunk, and the call did not fail
    for small in (0, -5):
        assert len(_search(services, corpus, query, mode=mode, threshold=-1, limit=small).hits) == 1


# -- keyword ------------------------------------------------------------------------------------


def test_keyword_finds_an_exact_rare_word(services, corpus):
    response = _search(services, corpus, "zymurgy", mode="keyword")
    assert _titles(corpus, response) == ["Brewing"]
    hit = response.hits[0]
    assert hit.keyword_score is not None and hit.keyword_score > 0 and hit.semantic_score is None
    assert response.notes == []


def test_keyword_unknown_word_returns_nothing_without_note(services, corpus):
    response = _search(services, corpus, "qwxyzzyplugh", mode="keyword")
    assert response.hits == [] and response.notes == [] and response.counts["keyword"] == 0


def test_keyword_ranks_by_bm25_without_requiring_every_word(services, corpus):
    both = _search(services, corpus, "zymurgy fermentation", mode="keyword")
    assert _titles(corpus, both) == ["Brewing"] and both.notes == []
    either = _search(services, corpus, "zymurgy telescope", mode="keyword")
    # each document holds one of the two words: both are found, the rarer word's first (zymurgy is in one
    # document, telescope in one here too: then the shorter document wins by length normalisation)
    assert sorted(_titles(corpus, either)) == ["Astronomy", "Brewing"] and either.notes == []
    assert all(h.keyword_score and h.keyword_score > 0 for h in either.hits)


def test_keyword_uses_stemming(services, corpus):
    assert _titles(corpus, _search(services, corpus, "telescopes", mode="keyword")) == ["Astronomy"]
    assert _titles(corpus, _search(services, corpus, "kneading", mode="keyword")) == ["Bread"]


# -- hybrid -------------------------------------------------------------------------------------


def test_hybrid_interleaves_the_rrf_of_semantic_and_bm25_with_bm25_with_feedback(services, zorbex_and_distractors):
    """Hybrid's order, computed here from the single modes: the weighted RRF of semantic and BM25 (the
    first hop), interleaved with BM25 for the query expanded from that fusion's first two chunks."""
    query = "What does the founder of Zorbex grow in summer?"

    def run(**kw):
        return services.search.search(query, collections=[zorbex_and_distractors], **kw)

    k, w_s, w_k = services.search.rrf_k, services.search.weights["semantic"], services.search.weights["keyword"]
    depth = 50  # hybrid fuses each list's first 50 candidates; give the single modes the same depth
    sem = run(mode="semantic", threshold=-1, limit=depth)
    kw = run(mode="keyword", limit=depth)
    hyb = run(mode="hybrid", threshold=-1, limit=4)
    assert len(kw.hits) >= 2
    rank_s = {h.chunk_id: r for r, h in enumerate(sem.hits, start=1)}
    rank_k = {h.chunk_id: r for r, h in enumerate(kw.hits, start=1)}
    first = {cid: (w_s / (k + rank_s[cid]) if cid in rank_s else 0.0) + (w_k / (k + rank_k[cid]) if cid in rank_k else 0.0)
             for cid in set(rank_s) | set(rank_k)}
    first_ids = sorted(first, key=lambda c: (-first[c], c))  # ties in id order, as the service does
    fb = run(mode="keyword", limit=depth, feedback=first_ids[:2])
    assert fb.hits  # (that the expansion finds new passages is tested in test_bm25.py)
    fb_ids = [h.chunk_id for h in fb.hits]
    expected: list[int] = []
    best_rank: dict[int, int] = {}
    for rank in range(1, max(len(first_ids), len(fb_ids)) + 1):
        for ids in (first_ids, fb_ids):
            if rank <= len(ids) and ids[rank - 1] not in best_rank:
                expected.append(ids[rank - 1])
                best_rank[ids[rank - 1]] = rank
    assert [h.chunk_id for h in hyb.hits] == expected[:4]
    assert expected[:4] != first_ids[:4]  # the feedback list placed something: this query tests the interleaving
    for hit in hyb.hits:
        assert hit.score == pytest.approx(1 / best_rank[hit.chunk_id])
        assert (hit.keyword_score is not None) == (hit.chunk_id in rank_k)
    assert hyb.notes == kw.notes


def test_hybrid_contains_hits_from_both_lists(services, corpus):
    query = "zymurgy and telescopes"
    sem = _search(services, corpus, query, mode="semantic", threshold=0.2, limit=40)
    kw = _search(services, corpus, query, mode="keyword", limit=40)
    hyb = _search(services, corpus, query, mode="hybrid", threshold=0.2, limit=40)
    sem_ids, kw_ids = {h.chunk_id for h in sem.hits}, {h.chunk_id for h in kw.hits}
    assert sem_ids and kw_ids
    assert {k: v for k, v in hyb.counts.items() if k != "feedback"} == \
        {"semantic": len(sem_ids), "keyword": len(kw_ids), "returned": len(hyb.hits)}
    assert {h.chunk_id for h in hyb.hits} >= sem_ids | kw_ids
    assert any(h.keyword_score is not None for h in hyb.hits)
    assert any(h.semantic_score is not None for h in hyb.hits)


def test_hybrid_keyword_match_counts_even_below_threshold(services, corpus):
    hyb = _search(services, corpus, "zymurgy", mode="hybrid", threshold=0.99)
    assert _titles(corpus, hyb) == ["Brewing"]
    assert hyb.hits[0].semantic_score is None and hyb.hits[0].keyword_score > 0


# -- filters ------------------------------------------------------------------------------------


def _filtered(services, corpus, filters, mode="semantic"):
    response = _search(services, corpus, "anything at all", mode=mode, threshold=-1, limit=50, filters=filters)
    return sorted(_titles(corpus, response))


@pytest.mark.parametrize("filters, expected", [
    ({"party": "red"}, ["Bread", "Finance"]),
    ({"party": "red", "year": 2000}, ["Finance"]),
    ({"year": {"gte": 1990, "lt": 2005}}, ["Astronomy", "Dogs", "Finance"]),
    ({"year": {"gt": 2000}}, ["Brewing", "Football"]),
    ({"year": {"lte": 1990}}, ["Astronomy", "Bread"]),
    ({"year": {"ne": 1985}}, ["Astronomy", "Brewing", "Dogs", "Finance", "Football"]),
    ({"party": {"in": ["blue", "green"]}}, ["Astronomy", "Brewing", "Dogs", "Football"]),
    ({"year": {"in": [1985, 2010]}}, ["Bread", "Brewing"]),
    ({"party": "red", "year": {"gt": 1990}}, ["Finance"]),
    ({"country": "Côte d'Ivoire"}, ["Football"]),
    ({"party": "purple"}, []),
    ({"party": {"gte": "green"}}, ["Bread", "Brewing", "Dogs", "Finance"]),  # text comparison
])
def test_metadata_filters(services, corpus, filters, expected):
    assert _filtered(services, corpus, filters) == expected
    assert _filtered(services, corpus, filters, mode="hybrid") == expected


def test_filters_apply_to_keyword_search(services, corpus):
    assert _titles(corpus, _search(services, corpus, "zymurgy", mode="keyword", filters={"party": "red"})) == []
    assert _titles(corpus, _search(services, corpus, "zymurgy", mode="keyword",
                                   filters={"year": {"gte": 2010}})) == ["Brewing"]


@pytest.mark.parametrize("filters, message", [
    ({"year": {"between": [1990, 2000]}}, "unknown operator 'between'"),
    ({"party": {"in": "red"}}, "'in' takes a list"),
    (["party", "red"], "JSON object"),
    ({"": 1}, "non-empty strings"),
])
def test_bad_filters_are_refused(services, corpus, filters, message):
    with pytest.raises(ValidationFailed, match=message):
        _search(services, corpus, "bread", mode="semantic", filters=filters)


def test_in_filter_with_non_ascii_value(services, corpus):
    assert _filtered(services, corpus, {"country": {"in": ["Côte d'Ivoire"]}}) == ["Football"]


# -- validation, scope and safety ---------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "   ", "\n\t", None])
def test_empty_query_is_refused(services, corpus, query):
    with pytest.raises(ValidationFailed, match="Type something"):
        _search(services, corpus, query)


def test_overlong_query_and_bad_mode_are_refused(services, corpus):
    with pytest.raises(ValidationFailed, match=f"at most {MAX_QUERY_CHARS}"):
        _search(services, corpus, "x" * (MAX_QUERY_CHARS + 1))
    with pytest.raises(ValidationFailed, match="mode"):
        _search(services, corpus, "bread", mode="fuzzy")


@pytest.mark.parametrize("mode", ["semantic", "keyword", "hybrid"])
def test_collection_scope_isolation(services, corpus, mode):
    own = _search(services, corpus, "quokka telescope on an island", mode=mode, threshold=-1, limit=200)
    assert own.hits and corpus.other_id not in {h.document_id for h in own.hits}
    assert {h.document_id for h in own.hits} <= set(corpus.ids.values())
    both = _search(services, corpus, "quokka telescope on an island", mode=mode, threshold=-1, limit=200,
                   collections=[corpus.name, corpus.other])
    assert corpus.other_id in {h.document_id for h in both.hits}
    only_other = _search(services, corpus, "quokka", mode=mode, threshold=-1, collections=[corpus.other])
    assert {h.document_id for h in only_other.hits} == {corpus.other_id}


def test_unknown_collection_in_scope_is_not_found(services, corpus):
    from services.errors import NotFound

    with pytest.raises(NotFound):
        _search(services, corpus, "bread", collections=[f"missing-{uuid.uuid4().hex}"])


def test_collection_built_with_other_model_is_refused_for_semantic(services, collection):
    ingest_text(services, collection, "Doc", "The telescope saw a comet.")
    with services.engine.begin() as conn:
        conn.execute(sa.text("UPDATE collections SET embedding_model = 'other:model' WHERE name = :n"),
                     {"n": collection})
    with pytest.raises(EmbeddingMismatch):
        services.search.search("comet", collections=[collection], mode="semantic")
    with pytest.raises(EmbeddingMismatch):
        services.search.search("comet", collections=[collection], mode="hybrid")
    keyword = services.search.search("comet", collections=[collection], mode="keyword")
    assert [h.title for h in keyword.hits] == ["Doc"]
    everywhere = services.search.search("comet", mode="semantic", threshold=-1, limit=200)
    assert any(collection in note and "Skipped" in note for note in everywhere.notes)
    assert "Doc" not in {h.title for h in everywhere.hits}


@pytest.mark.parametrize("preload", [0, 1, 2])
def test_hybrid_hits_loaded_during_the_feedback_pass_are_the_hits(services, corpus, preload, monkeypatch):
    """Hybrid loads the first fusion's best hits while its feedback pass runs, and the rest after: whatever
    share was guessed, the same hits, scores and highlights."""
    from services.retrieval import search as search_module

    def hits() -> list[tuple[int, float, list[tuple[str, bool]]]]:
        response = services.search.search("telescopes orbit the moon", collections=[corpus.name], mode="hybrid",
                                          threshold=-1, limit=5)
        return [(h.chunk_id, h.score, h.segments) for h in response.hits]

    expected = hits()
    monkeypatch.setattr(search_module, "PRELOAD", preload)
    assert len(expected) == 5 and hits() == expected


@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_without_highlight_the_same_hits_come_back_unmarked(services, corpus, mode):
    """Ask's retrievers skip the highlighting: same hits, scores and text, one plain segment each."""
    marked = services.search.search("telescopes orbit", collections=[corpus.name], mode=mode, threshold=-1)
    plain = services.search.search("telescopes orbit", collections=[corpus.name], mode=mode, threshold=-1,
                                   highlight=False)
    assert [(h.chunk_id, h.score, h.text) for h in plain.hits] == [(h.chunk_id, h.score, h.text) for h in marked.hits]
    assert any(m for h in marked.hits for _, m in h.segments)
    assert all(h.segments == [(h.text, False)] for h in plain.hits)


def test_highlight_segments_mark_the_matched_term(services, corpus):
    response = _search(services, corpus, "telescopes", mode="keyword")
    (hit,) = response.hits
    assert "".join(text for text, _ in hit.segments) == hit.text
    matches = [text for text, is_match in hit.segments if is_match]
    assert matches == ["telescope"]
    assert ("The ", False) == hit.segments[0]
    semantic = _search(services, corpus, "telescope", mode="semantic", threshold=-1, limit=50)
    for h in semantic.hits:
        assert "".join(t for t, _ in h.segments) == h.text
        marked = [t.lower() for t, m in h.segments if m]
        assert marked == (["telescope"] if h.document_id == corpus.ids["Astronomy"] else [])


def test_highlight_marks_forms_of_the_word_not_words_that_share_its_stem(services, collection):
    """English stemming folds "important" and "importance" into "import": they match for BM25, but an analyst
    who searched "imports" should see "imports" and "imported" marked, not "important" (issue 34)."""
    text = "The importance of imports: an important debate on imported goods. Imports rose; importing slowed."
    only_item(ingest_text(services, collection, "Imports", text))
    for mode in ("keyword", "hybrid"):
        response = services.search.search("imports", collections=[collection], mode=mode, threshold=-1)
        (hit,) = response.hits
        assert "".join(t for t, _ in hit.segments) == hit.text
        assert [t for t, m in hit.segments if m] == ["imports", "imported", "Imports", "importing"], mode


@pytest.mark.parametrize("query", ["'; DROP TABLE chunks; --", "a & b | !c", '"unbalanced', "x) OR 1=1 --",
                                   "foo:* <-> !!", "\\", "%_%", "the of and", "nonexistentword -telescope"])
@pytest.mark.parametrize("mode", ["semantic", "keyword", "hybrid"])
def test_sql_and_tsquery_metacharacters_are_harmless(services, corpus, query, mode):
    response = _search(services, corpus, query, mode=mode, threshold=0.0, limit=10)
    assert response.query == query.strip() and response.mode == mode
    assert {h.document_id for h in response.hits} <= set(corpus.ids.values())
    for table in ("chunks", "documents", "collections", "collection_documents", "jobs"):
        assert scalar(services, "SELECT to_regclass(:t) IS NOT NULL", t=f"public.{table}") is True
    assert scalar(services, "SELECT count(*) FROM chunks WHERE document_id = ANY(:ids)",
                  ids=list(corpus.ids.values())) == len(DOCS)


def test_or_fallback_does_not_turn_negation_into_match_all(services, corpus):
    response = _search(services, corpus, "nonexistentword -telescope", mode="keyword")
    assert response.hits == []
