"""Graph reads on the real stores: paths, neighbourhoods, filters, entity lookup, chunk entities, counts.

One module-scoped collection holds three documents whose extracted facts are
(checked in ``test_fixture_graph_is_what_the_extractor_gives``)::

    alice -work_for-> acme -(located in)-> berlin -capital_of-> germany
    dana -ceo_of-> acme (2019, superseded 2021)   erin -ceo_of-> acme (2021, current)
    globex -acquire-> initech -hire-> peter         (a separate component)
"""

from __future__ import annotations

import uuid

import pytest

from services.errors import NotFound, ValidationFailed
from tests.utils.graph import DATE_SCHEMA, ingest

DOCS = {
    "chain": "Alice works for Acme. Acme is located in Berlin. Berlin is the capital of Germany.",
    "deals": "Globex acquired Initech in 2015. Initech hired Peter in 2016.",
    "ceos": "Dana was the CEO of Acme in 2019. Erin became CEO of Acme in 2021.",
}


@pytest.fixture(scope="module")
def kg(services):
    name = f"test-paths-{uuid.uuid4().hex[:10]}"
    coll = services.collections.create(name=name, description="Paths and queries.", metadata_schema=DATE_SCHEMA)
    docs = {title: ingest(services, name, title, text, {"date": "2022-01-01"})["document_id"]
            for title, text in DOCS.items()}
    yield {"name": name, "id": coll.id, "docs": docs}
    try:
        services.deletion.delete_collection(name)
    except NotFound:
        pass


def _triples(facts):
    return {(f.source_key, f.relation, f.target_key) for f in facts}


def _located(facts):
    """The Acme→Berlin fact, whatever label the extractor gives 'is located in'."""
    (fact,) = [f for f in facts if (f.source_key, f.target_key) == ("acme", "berlin")]
    return fact


def test_fixture_graph_is_what_the_extractor_gives(services, kg):
    hood = services.graph.neighbourhood(kg["id"], "alice", depth=3)
    located = _located(hood.facts).relation
    assert located in ("locate_in", "located_in")
    assert _triples(hood.facts) == {
        ("alice", "worked_for", "acme"), ("acme", located, "berlin"), ("berlin", "capital_of", "germany"),
        ("dana", "ceo_of", "acme"), ("erin", "ceo_of", "acme"),
    }
    assert _triples(services.graph.neighbourhood(kg["id"], "initech").facts) == {
        ("globex", "acquired", "initech"), ("initech", "employs", "peter")}


def test_two_hop_path(services, kg):
    paths = services.graph.paths(kg["id"], "alice", "berlin")
    assert len(paths) == 1
    (path,) = paths
    assert len(path) == 2
    assert (path[0].source_key, path[0].relation, path[0].target_key) == ("alice", "worked_for", "acme")
    assert (path[1].source_key, path[1].target_key) == ("acme", "berlin")
    assert path[0].sentence == "Alice works for Acme."
    assert {f.document_id for f in path} == {kg["docs"]["chain"]}
    # the same facts can be fetched by id
    assert _triples(services.graph.facts_by_ids([f.id for f in path])) == _triples(path)
    assert services.graph.facts_by_ids([]) == []


def test_paths_are_undirected_and_bounded_by_max_hops(services, kg):
    (three,) = services.graph.paths(kg["id"], "alice", "germany")
    assert [(f.source_key, f.target_key) for f in three] == [("alice", "acme"), ("acme", "berlin"), ("berlin", "germany")]
    assert services.graph.paths(kg["id"], "alice", "germany", max_hops=2) == []
    (back,) = services.graph.paths(kg["id"], "berlin", "alice")  # against the edge direction
    assert [(f.source_key, f.relation, f.target_key) for f in back][1] == ("alice", "worked_for", "acme")
    assert [(f.source_key, f.target_key) for f in back] == [("acme", "berlin"), ("alice", "acme")]
    # two CEOs meet through the company
    (ceos,) = services.graph.paths(kg["id"], "dana", "erin")
    assert [f.relation for f in ceos] == ["ceo_of", "ceo_of"]
    assert services.graph.paths(kg["id"], "alice", "acme", max_hops=1)[0][0].relation == "worked_for"


def test_no_path_between_components_or_unknown_entities(services, kg):
    assert services.graph.paths(kg["id"], "alice", "peter") == []
    assert services.graph.paths(kg["id"], "alice", "nobody") == []
    assert services.graph.paths(kg["id"], "nobody", "alice") == []


@pytest.mark.parametrize("hops", [0, 4, 10])
def test_path_hops_out_of_range_are_refused(services, kg, hops):
    with pytest.raises(ValidationFailed, match="max_hops"):
        services.graph.paths(kg["id"], "alice", "germany", max_hops=hops)


@pytest.mark.parametrize("depth", [0, 4])
def test_neighbourhood_depth_out_of_range_is_refused(services, kg, depth):
    with pytest.raises(ValidationFailed, match="Depth"):
        services.graph.neighbourhood(kg["id"], "alice", depth=depth)


def test_neighbourhood_rejects_unknown_status(services, kg):
    with pytest.raises(ValidationFailed, match="Status"):
        services.graph.neighbourhood(kg["id"], "acme", status="deleted")


def test_neighbourhood_grows_with_depth(services, kg):
    sizes = [len(services.graph.neighbourhood(kg["id"], "alice", depth=d).facts) for d in (1, 2, 3)]
    assert sizes == [1, 4, 5]
    one = services.graph.neighbourhood(kg["id"], "alice", depth=1)
    assert set(one.nodes) == {"alice", "acme"}
    assert one.nodes["alice"].name == "Alice" and one.nodes["alice"].type == "PERSON"
    assert services.graph.neighbourhood(kg["id"], "nobody").facts == []
    assert len(services.graph.neighbourhood(kg["id"], "alice", depth=3, limit=2).facts) == 2


def test_relation_filter(services, kg):
    ceo = services.graph.neighbourhood(kg["id"], "acme", relations=["ceo_of"])
    assert _triples(ceo.facts) == {("dana", "ceo_of", "acme"), ("erin", "ceo_of", "acme")}
    far = services.graph.neighbourhood(kg["id"], "alice", depth=3, relations=["capital_of"])
    assert _triples(far.facts) == {("berlin", "capital_of", "germany")}
    both = services.graph.neighbourhood(kg["id"], "acme", relations=["worked_for", "employs"])
    assert _triples(both.facts) == {("alice", "worked_for", "acme")}
    assert services.graph.neighbourhood(kg["id"], "acme", relations=["no_such_relation"]).facts == []


def test_status_filter_superseded(services, kg):
    old = services.graph.neighbourhood(kg["id"], "acme", status="superseded")
    assert [(f.source_key, f.valid_from, f.valid_until, f.date_source) for f in old.facts] == [
        ("dana", "2019-01-01", "2021-01-01", "text")]
    current = services.graph.neighbourhood(kg["id"], "acme", status="current", relations=["ceo_of"])
    assert [(f.source_key, f.valid_until) for f in current.facts] == [("erin", None)]
    # everything not in a single-valued chain is current
    assert all(f.status == "current" for f in services.graph.neighbourhood(kg["id"], "initech").facts)


def test_find_entities_by_partial_name(services, kg):
    cid = [kg["id"]]
    assert [e.key for e in services.graph.find_entities("erl", cid)] == ["berlin"]
    assert [e.key for e in services.graph.find_entities("ACM", cid)] == ["acme"]
    assert [e.key for e in services.graph.find_entities("The Acme", cid)] == ["acme"]
    assert services.graph.find_entities("zzzz", cid) == []
    (acme,) = services.graph.find_entities("acme", cid)
    assert (acme.collection_id, acme.name, acme.degree) == (kg["id"], "Acme", 4)
    everything = services.graph.find_entities("", cid, limit=50)
    assert len(everything) == 9
    assert everything[0].key == "acme"  # highest degree first
    assert [e.degree for e in everything] == sorted((e.degree for e in everything), reverse=True)
    assert len(services.graph.find_entities("", cid, limit=2)) == 2
    assert services.graph.find_entities("acme", [10**9]) == []


def test_entities_for_chunks_from_semantic_search(services, kg):
    hits = services.search.search("Which company acquired Initech and hired Peter?", collections=[kg["name"]],
                                  mode="semantic", threshold=0.0, limit=3).hits
    assert hits and hits[0].document_id == kg["docs"]["deals"]
    top = {hits[0].chunk_id: hits[0].score}
    entities = services.graph.entities_for_chunks(top, [kg["id"]])
    assert {e.key for e in entities} == {"globex", "initech", "peter"}
    assert entities[0].key == "initech"  # in two facts of the chunk
    assert all(e.collection_id == kg["id"] for e in entities)

    all_scores = {h.chunk_id: h.score for h in hits}
    (chain_chunk,) = [c.id for c in services.documents.get(kg["docs"]["chain"]).chunks]
    weighted = {hits[0].chunk_id: 1.0, chain_chunk: 0.01}
    ranked = [e.key for e in services.graph.entities_for_chunks(weighted, [kg["id"]])]
    assert ranked[0] == "initech" and set(ranked[:3]) == {"globex", "initech", "peter"}
    assert set(ranked[3:]) == {"alice", "acme", "berlin", "germany"}  # lower-scored chunk ranks after
    flipped = [e.key for e in services.graph.entities_for_chunks({hits[0].chunk_id: 0.01, chain_chunk: 1.0},
                                                                 [kg["id"]])]
    assert set(flipped[:4]) == {"alice", "acme", "berlin", "germany"}
    assert len(services.graph.entities_for_chunks(all_scores, [kg["id"]], limit=2)) == 2
    assert services.graph.entities_for_chunks({}, [kg["id"]]) == []
    assert services.graph.entities_for_chunks(top, [10**9]) == []  # other collections see nothing


def test_relation_types_and_counts(services, kg):
    types = services.graph.relation_types([kg["id"]])
    assert types[0] == ("ceo_of", 2)
    as_dict = dict(types)
    assert {k: as_dict.get(k) for k in ("worked_for", "capital_of", "acquired", "employs")} == {
        "worked_for": 1, "capital_of": 1, "acquired": 1, "employs": 1}
    assert len(types) == 6 and sum(n for _, n in types) == 7
    assert services.graph.relation_types([kg["id"]], limit=1) == [("ceo_of", 2)]
    assert services.graph.counts([kg["id"]]) == {"entities": 9, "facts": 7}
    assert services.graph.counts([10**9]) == {"entities": 0, "facts": 0}
    assert services.graph.relation_types([10**9]) == []



@pytest.mark.parametrize("key", ["alice", "acme"])
def test_path_from_an_entity_to_itself_is_empty(services, kg, key):
    assert services.graph.paths(kg["id"], key, key) == []
    assert services.graph.paths(kg["id"], key, key, max_hops=1) == []


def test_facts_of_entity_finds_it_on_either_side_in_time_order(services, kg):
    facts = services.graph.facts_of_entity("acme", [kg["id"]])
    located = _located(facts).relation
    assert _triples(facts) == {("alice", "worked_for", "acme"), ("acme", located, "berlin"),
                               ("dana", "ceo_of", "acme"), ("erin", "ceo_of", "acme")}
    assert len({f.id for f in facts}) == len(facts) == 4
    assert [f.when for f in facts] == sorted(f.when for f in facts)  # when it held, else when it was stated
    # a window inside Dana's term (2019 to 2021) leaves out Erin and the facts stated in 2022
    window = services.graph.facts_of_entity("acme", [kg["id"]], valid_from="2019-06-01", valid_until="2020-01-01")
    assert _triples(window) == {("dana", "ceo_of", "acme")}
    assert services.graph.facts_of_entity("acme", [kg["id"] + 10_000]) == []
    assert services.graph.facts_of_entity("nobody", [kg["id"]]) == []
