"""The graph walk: entity–chunk graph in PostgreSQL, seeds from the question, personalized PageRank."""

from __future__ import annotations

import uuid

import numpy as np
import pytest
import sqlalchemy as sa

from services.ingest.requests import text_request
from services.retrieval.fusion import ranked, round_robin, rrf
from services.retrieval.graph_walk import _within, longest_matches, personalized_pagerank, question_keys
from services.retrieval.retriever import GraphAwareRetriever
from services.stores import walk_store
from services.stores.walk_store import WalkEntity


def test_longest_matches_prefer_the_whole_name():
    spans = question_keys("Who starred in Kiss and Tell with Shirley Temple?")
    known = {"kiss", "tell", "kiss and tell", "shirley temple", "temple"}
    assert longest_matches(spans, known) == ["kiss and tell", "shirley temple"]


def test_pagerank_keeps_mass_and_follows_edges():
    # a path 0 - 1 - 2 and an isolated 3; all reset mass on node 0
    adjacency = {0: {1: 1.0}, 1: {0: 1.0, 2: 1.0}, 2: {1: 1.0}}
    reset = np.array([1.0, 0.0, 0.0, 0.0])
    mass = personalized_pagerank(adjacency, reset, damping=0.5, iterations=200, tolerance=1e-12)
    assert mass.sum() == pytest.approx(1.0)
    assert mass[0] > mass[1] > mass[2] > 0 and mass[3] == 0
    # the stationary equation holds: x = 0.5 * P x + 0.5 * reset
    transition = np.array([[0, 0.5, 0, 0], [1, 0, 1, 0], [0, 0.5, 0, 0], [0, 0, 0, 0]], dtype=float)
    assert np.allclose(mass, 0.5 * transition @ mass + 0.5 * reset)


def test_the_walk_reaches_the_second_hop(services, zorbex):
    """'What does the founder of Zorbex grow?': Zorbex → Founding → Ivana Petrova → Hobby (never names Zorbex)."""
    name, ids = zorbex
    cids = [services.collections.get(name).id]
    result = services.ask.retriever.walk.walk("What does the founder of Zorbex grow?", cids)
    assert [e.key for e in result.seeds] == ["zorbex"]
    with services.engine.connect() as conn:
        doc_of = dict(conn.execute(sa.text("SELECT id, document_id FROM chunks WHERE document_id = ANY(:d)"),
                                   {"d": list(ids.values())}).all())
    by_title = {title: max(v for c, v in result.scores.items() if doc_of.get(c) == doc_id)
                for title, doc_id in ids.items() if any(doc_of.get(c) == doc_id for c in result.scores)}
    assert set(by_title) == {"Founding", "Hobby"}  # the distractors share no entity with them
    assert by_title["Founding"] > by_title["Hobby"] > 0


def test_generic_concepts_are_no_seeds(services, collection):
    """A concept in most documents ('law') is left out of the seeds even when a previous turn carries it; the
    name in the question is kept."""
    for i in range(12):
        services.ingestion.run(text_request(collection, title=f"Session {i}", text=f"Congress passed a law in {1900 + i}."))
    services.ingestion.run(text_request(collection, title="Acme", text="Acme lobbied against the law on tariffs."))
    cid = services.collections.get(collection).id
    with services.engine.connect() as conn:
        law = conn.execute(sa.text("SELECT type, documents FROM graph_entities WHERE collection_id = :c AND key = 'law'"),
                           {"c": cid}).one()
    assert law.type == "CONCEPT" and law.documents == 13
    # carried over from a previous turn (concepts there can be seeds): the generic one is still left out
    walk = services.ask.retriever.walk
    seeds = [e.key for e in walk.walk("Which law did Acme oppose?", [cid], extra_keys=["law"]).seeds]
    assert seeds == ["acme"]


def test_a_concept_in_the_question_is_no_seed(services, collection):
    """'genre' is a concept named by one chunk: rare by accident of phrasing, so its specificity would send the
    walk to the passage that merely uses the word. Only the named entity seeds the walk."""
    services.ingestion.run(text_request(collection, title="Shelf", text="The genre sells well in the winter months."))
    services.ingestion.run(text_request(collection, title="Orvald Quist", text="Orvald Quist writes crime novels."))
    cid = services.collections.get(collection).id
    with services.engine.connect() as conn:
        genre = conn.execute(sa.text("SELECT type, chunks FROM graph_entities WHERE collection_id = :c AND key = 'genre'"),
                             {"c": cid}).one()
    assert genre.type == "CONCEPT" and genre.chunks == 1
    result = services.ask.retriever.walk.walk("Which genre does Orvald Quist write?", [cid])
    assert [e.key for e in result.seeds] == ["orvald quist"]


def test_a_seed_needs_a_chunk_among_the_dense_hits(services, zorbex):
    """Given dense hits, a linked name seeds the walk only if a chunk that names it is among them."""
    name, ids = zorbex
    cids = [services.collections.get(name).id]
    with services.engine.connect() as conn:
        chunk_of = dict(conn.execute(sa.text("SELECT document_id, id FROM chunks WHERE document_id = ANY(:d)"),
                                     {"d": list(ids.values())}).all())
    walk = services.ask.retriever.walk
    question = "What does the founder of Zorbex grow?"
    unrelated = {chunk_of[ids["Hobby"]]: 0.9}  # the hobby passage never names Zorbex
    assert walk.walk(question, cids, dense=unrelated).seeds == []
    supported = {chunk_of[ids["Founding"]]: 0.9, **unrelated}
    assert [e.key for e in walk.walk(question, cids, dense=supported).seeds] == ["zorbex"]


def test_the_first_hops_best_chunks_seed_the_walk_with_their_named_entities(services, zorbex):
    """Feedback seeds: the Founding passage (the first hop's best) names Ivana Petrova, the bridge; with it as
    feedback she seeds the walk beside the question's Zorbex, and the Hobby passage gains mass. Its concepts
    ("industrial sensors") are no seeds."""
    name, ids = zorbex
    cids = [services.collections.get(name).id]
    with services.engine.connect() as conn:
        chunk_of = dict(conn.execute(sa.text("SELECT document_id, id FROM chunks WHERE document_id = ANY(:d)"),
                                     {"d": list(ids.values())}).all())
        named = dict(conn.execute(sa.text(
            "SELECT e.key, e.type FROM entity_mentions m JOIN graph_entities e ON e.collection_id = m.collection_id "
            "AND e.key = m.key WHERE m.chunk_id = :c"), {"c": chunk_of[ids["Founding"]]}).all())
    assert named.get("ivana petrova") == "PERSON" and "CONCEPT" in named.values()
    walk = services.ask.retriever.walk
    question = "What does the founder of Zorbex grow?"
    plain = walk.walk(question, cids)
    fed = walk.walk(question, cids, feedback=[chunk_of[ids["Founding"]]])
    assert [e.key for e in plain.seeds] == [e.key for e in fed.seeds] == ["zorbex"]  # the question's own
    assert plain.feedback == [] and "ivana petrova" in [e.key for e in fed.feedback]
    assert all(e.type != "CONCEPT" and e.key != "zorbex" for e in fed.feedback)
    hobby = chunk_of[ids["Hobby"]]
    assert fed.scores[hobby] > plain.scores[hobby]


def test_walk_graph_follows_reingest_and_delete(services, collection):
    doc = services.ingestion.run(text_request(collection, title="Harbour",
                                              text="Captain Nemo sails the Nautilus into Vigo Bay.")).items[0]["document_id"]
    cid = services.collections.get(collection).id

    def counts():
        with services.engine.connect() as conn:
            return dict(conn.execute(sa.text("SELECT key, chunks FROM graph_entities WHERE collection_id = :c "
                                             "AND chunks > 0"), {"c": cid}).all())

    assert {"nemo", "nautilus", "vigo bay", "harbour"} <= set(counts())  # "harbour": the title
    services.ingestion.run(text_request(collection, title="Harbour", text="Ned Land harpoons a whale.", mode="reingest"))
    after = counts()
    assert "ned land" in after and "nautilus" not in after
    services.deletion.delete_document(doc)
    assert counts() == {}
    with services.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM entity_mentions WHERE document_id = :d"),
                            {"d": doc}).scalar_one() == 0


def test_ask_retrieval_finds_the_hop_semantic_search_misses(services, zorbex):
    """End to end through Ask's fused retriever: the passage two hops away is in the context."""
    name, ids = zorbex
    retrieval = services.ask.retriever.gather("What does the founder of Zorbex grow in summer?", [name], limit=3,
                                              threshold=-1)
    titles = [c.title for c in retrieval.chunks]
    assert "Hobby" in titles and retrieval.entities == ["zorbex"]
    assert retrieval.chunks[titles.index("Hobby")].list_ranks.get("graph")


@pytest.fixture
def two_collections(services):
    names = [f"walk-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    for n in names:
        services.collections.create(name=n, description="Walk scope test.")
    yield names
    for n in names:
        services.deletion.delete_collection(n)


def test_the_walk_stays_in_its_collections(services, two_collections):
    a, b = two_collections
    services.ingestion.run(text_request(a, title="A1", text="Orvald Quist founded Brimco."))
    services.ingestion.run(text_request(b, title="B1", text="Orvald Quist paints lighthouses."))
    cid_a = services.collections.get(a).id
    result = services.ask.retriever.walk.walk("Who founded Brimco?", [cid_a])
    with services.engine.connect() as conn:
        docs = set(conn.execute(sa.text("SELECT DISTINCT d.title FROM chunks c JOIN documents d ON d.id = c.document_id "
                                        "WHERE c.id = ANY(:ids)"), {"ids": list(result.scores)}).scalars())
    assert docs == {"A1"}


def test_the_second_hop_takes_the_most_specific_entities_within_its_budget():
    def e(key: str, chunks: int) -> WalkEntity:
        return WalkEntity(key, key, "PERSON", 1, chunks)

    seed, hub_seed = e("seed", 3), e("everywhere", 900)
    others = {x.key: x for x in (e("rare", 1), e("some", 5), e("common", 10), e("often", 50))}
    kept = _within({**others, "seed": seed, "everywhere": hub_seed}, [seed, hub_seed], 10, 200)
    assert list(kept) == ["seed", "everywhere", "rare", "some"]  # 3 + 1 + 5 mentions; "common" would pass 10


def test_mentions_leave_out_entities_named_by_too_many_chunks_unless_kept(services, collection):
    """The walk never goes through a hub, so its mentions are not fetched (a seed's are)."""
    services.ingestion.run(text_request(collection, title="Harbour", text="Captain Nemo sails the Nautilus."))
    services.ingestion.run(text_request(collection, title="Dock", text="Captain Nemo repairs the Nautilus at dawn."))
    services.ingestion.run(text_request(collection, title="Bay", text="Ned Land harpoons a whale in Vigo Bay."))
    cid = services.collections.get(collection).id
    with services.engine.connect() as conn:
        chunks = list(conn.execute(sa.text(
            "SELECT c.id FROM chunks c JOIN collection_documents cd ON cd.document_id = c.document_id "
            "WHERE cd.collection_id = :c"), {"c": cid}).scalars())
        every = {e.key: e.chunks for _, e in walk_store.mentions_of_chunks(conn, chunks)}
        bounded = {e.key for _, e in walk_store.mentions_of_chunks(conn, chunks, max_chunks=1)}
        kept = {e.key for _, e in walk_store.mentions_of_chunks(conn, chunks, max_chunks=1, keep=["nemo"])}
    assert every["nemo"] == 2 and every["ned land"] == 1
    assert "nemo" not in bounded and "nautilus" not in bounded and {"ned land", "vigo bay"} <= bounded
    assert kept == bounded | {"nemo"}


def test_ask_fuses_by_hop_first_hop_rrf_interleaved_with_feedback_and_walk(services, zorbex_and_distractors):
    """Ask's default fusion, recomputed from each chunk's rank in every list: the RRF of semantic and BM25
    (Search's k and weights), then the feedback list and the walk, interleaved in that order."""
    base = services.ask.retriever
    retriever = GraphAwareRetriever(core=base.core, weights=base.weights, use_mmr=False)
    result = retriever.gather("What does the founder of Zorbex grow in summer?", [zorbex_and_distractors],
                              limit=200, threshold=-1)
    assert result.counts["fused"] == len(result.chunks)  # every candidate returned: the lists are complete
    assert result.counts["feedback"] and result.counts["graph"]
    rank_of = {c.chunk_id: c.list_ranks for c in result.chunks}

    def ranked_by(name: str) -> list[int]:
        return sorted((c for c, r in rank_of.items() if name in r), key=lambda c: rank_of[c][name])

    k, w = base.core.rrf_k, base.weights
    first = {c: sum(w[n] / (k + r[n]) for n in ("semantic", "keyword") if n in r) for c, r in rank_of.items()
             if "semantic" in r or "keyword" in r}
    lists = [sorted(first, key=lambda c: (-first[c], c)), ranked_by("feedback"), ranked_by("graph")]
    expected, _ = round_robin(lists)
    assert [c.chunk_id for c in result.chunks] == expected
    # The data tells the interleaving from the first hop alone and from a sum of reciprocal ranks.
    assert expected != lists[0]
    assert expected != ranked(rrf([(ids, 1.0) for ids in lists], k))


def test_hop_fusion_takes_the_first_hop_then_the_feedback_list_then_the_walk(services):
    """Ask's fusion of given lists: semantic [1, 2] and BM25 [2, 3] make the first hop [2, 1, 3]; each round
    then takes the first hop's, the feedback list's and the walk's next new chunk, in that order."""
    base = services.ask.retriever
    retriever = GraphAwareRetriever(core=base.core, weights=base.weights)
    lists = {"semantic": [1, 2], "keyword": [2, 3], "feedback": [4, 5], "graph": [6, 4]}
    order, fused = retriever.fuse(lists)
    assert order == [2, 4, 6, 1, 5, 3]
    assert [fused[c] for c in order] == [1.0, 1.0, 1.0, 0.5, 0.5, 1 / 3]
    retriever.weights = {**base.weights, "graph": 0.0}  # a list weighted 0 is left out
    assert retriever.fuse(lists)[0] == [2, 4, 1, 5, 3]
