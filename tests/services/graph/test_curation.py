"""The analyst's graph edits on the real stores: each kind, history and exact undo, and every kind kept when its
document is ingested again or rebuilt (services/graph/curation.py)."""

from __future__ import annotations

from typing import Any

import pytest

from services.errors import AmbiguousName, NotFound, ValidationFailed
from services.graph.rewrite import read
from tests.utils.graph import ingest

TEXTS = {
    "one": "Alice Smith founded Acme Corporation in 1990. Alice Smith lives in Paris. "
           "Bob Jones married Alice Smith in 1995.",
    "two": "Acme Corp acquired Beta Industries in 2005. Carol White is the CEO of Beta Industries.",
    "three": "A. Smith visited Berlin in 2001. Bob Jones visited London in 2003.",
}
WHO = "tester"


@pytest.fixture
def corpus(services, dated) -> dict[str, Any]:
    ids = {t: ingest(services, dated.name, t, x)["document_id"] for t, x in TEXTS.items()}
    return {"coll": dated, "ids": ids}


def state(services, cid) -> tuple[dict[str, Any], dict[str, Any]]:
    """Every entity (name, type, aliases) and fact (ends, relation, status) of the collection."""
    ents = {r["key"]: (r["name"], r["type"], sorted(r["aliases"] or [])) for r in services.graph_store.query(
        "MATCH (e:Entity {collection_id: $c}) RETURN e.key AS key, e.name AS name, e.type AS type, "
        "e.aliases AS aliases", {"c": cid})}
    facts = {r["id"]: (r["a"], r["rel"], r["b"], r["status"], r["by"]) for r in services.graph_store.query(
        "MATCH (a:Entity)-[r:FACT {collection_id: $c}]->(b:Entity) RETURN r.id AS id, a.key AS a, "
        "r.relation AS rel, b.key AS b, r.status AS status, r.added_by AS by", {"c": cid})}
    return ents, facts


def reingest(services, corpus, title: str) -> None:
    ingest(services, corpus["coll"].name, title, TEXTS[title] + " ", mode="reingest")


def rebuild(services, corpus, title: str) -> None:
    (result,) = services.graph.rebuild([corpus["ids"][title]])
    assert result.status == "done", result


def test_merge_keeps_every_fact_undo_gives_back_the_graph_and_reingest_keeps_it(services, corpus):
    coll, cid = corpus["coll"], corpus["coll"].id
    original = state(services, cid)
    counts = services.graph.counts([cid])
    edit = services.curation.merge(coll.name, ["Acme Corporation", "Acme Corp"], author=WHO)
    assert (edit.kind, edit.author, edit.status) == ("merge", WHO, "applied")
    ents, facts = state(services, cid)
    assert "acme corp" not in ents and "Acme Corp" in ents["acme corporation"][2]
    assert {f[1] for f in facts.values() if "acme corporation" in (f[0], f[2])} == {"founded", "acquired"}
    assert services.graph.counts([cid]) == {"entities": counts["entities"] - 1, "facts": counts["facts"]}
    for again in (lambda: reingest(services, corpus, "two"), lambda: rebuild(services, corpus, "one")):
        again()
        ents, facts = state(services, cid)
        assert "acme corp" not in ents
        assert {f[1] for f in facts.values() if "acme corporation" in (f[0], f[2])} == {"founded", "acquired"}
    undone = services.curation.undo(coll.name, author=WHO)
    assert (undone.id, undone.status, undone.undone_by) == (edit.id, "undone", WHO)
    assert state(services, cid) == original
    with pytest.raises(NotFound):
        services.curation.undo(coll.name, author=WHO)


def test_rename_and_retype_stay_after_the_entity_is_written_again(services, corpus):
    coll, cid = corpus["coll"], corpus["coll"].id
    services.curation.rename(coll.name, "Paris", "Paris, France", author=WHO)
    services.curation.retype(coll.name, "Acme Corporation", "product", author=WHO)
    with pytest.raises(ValidationFailed):
        services.curation.retype(coll.name, "Acme Corporation", "PRODUCT", author=WHO)
    reingest(services, corpus, "one")  # Paris and Acme Corporation lose their only document's facts, then come back
    ents, _ = state(services, cid)
    assert ents["paris"][:2] == ("Paris, France", "GPE") and "Paris" in ents["paris"][2]
    assert ents["acme corporation"][1] == "PRODUCT"
    assert services.curation.entity(cid, "Paris").key == "paris"  # the old name still finds it
    assert [e.kind for e in services.curation.history(coll.name)] == ["retype", "rename"]


def test_split_by_document_and_by_fact_stays_split(services, corpus):
    coll, cid = corpus["coll"], corpus["coll"].id
    doc3 = corpus["ids"]["three"]
    services.curation.split(coll.name, "Bob Jones", "Bob Jones (explorer)", documents=[doc3], author=WHO)
    _, facts = state(services, cid)
    moved = [f for f in facts.values() if f[1] == "visited" and f[2] == "london"]
    assert [f[0] for f in moved] == ["bob jones explorer"]
    married = services.graph.facts_of_entity("bob jones", [cid])
    assert [f.relation for f in married] == ["married"]
    rebuild(services, corpus, "three")
    _, facts = state(services, cid)
    assert [f[0] for f in facts.values() if f[2] == "london"] == ["bob jones explorer"]
    fact = next(f for f in services.graph.facts_of_entity("alice smith", [cid]) if f.relation == "lives_in")
    services.curation.split(coll.name, "Alice Smith", "Alice Smith (Paris)", fact_ids=[fact.id], author=WHO)
    reingest(services, corpus, "one")
    _, facts = state(services, cid)
    assert [f[0] for f in facts.values() if f[1] == "lives_in"] == ["alice smith paris"]
    with pytest.raises(ValidationFailed):
        services.curation.split(coll.name, "Alice Smith", "X", author=WHO)
    with pytest.raises(NotFound):
        services.curation.split(coll.name, "Alice Smith", "X", documents=[doc3], author=WHO)


def test_deleted_entity_and_fact_stay_deleted(services, corpus):
    coll, cid = corpus["coll"], corpus["coll"].id
    services.curation.delete_entity(coll.name, "Carol White", author=WHO)
    lives = next(f for f in services.graph.facts_of_entity("paris", [cid]))
    services.curation.delete_fact(coll.name, lives.id, author=WHO)
    ents, facts = state(services, cid)
    assert "carol white" not in ents and lives.id not in facts and "paris" not in ents  # Paris had no other fact
    reingest(services, corpus, "two")
    rebuild(services, corpus, "one")
    ents, facts = state(services, cid)
    assert "carol white" not in ents and "paris" not in ents
    assert not [f for f in facts.values() if f[1] in ("ceo_of", "lives_in")]
    assert "beta industries" in ents  # the rest of the documents' facts are back
    services.curation.undo(coll.name, author=WHO)  # the fact comes back, Carol stays deleted
    ents, facts = state(services, cid)
    assert "paris" in ents and "carol white" not in ents
    with pytest.raises(NotFound):
        services.curation.delete_fact(coll.name, "no-such-fact", author=WHO)


def test_added_fact_is_marked_and_survives_a_rebuild(services, corpus):
    coll, cid = corpus["coll"], corpus["coll"].id
    edit = services.curation.add_fact(coll.name, "Alice Smith", "born in", "Lyon", valid_from="1960",
                                      note="From her biography.", object_type="GPE", author=WHO)
    fact_id = edit.params["fact"]["id"]
    (fact,) = services.graph.facts_by_ids([fact_id])
    assert (fact.source_key, fact.relation, fact.target, fact.valid_from) == ("alice smith", "born_in", "Lyon",
                                                                            "1960-01-01")
    assert state(services, cid)[1][fact_id][4] == WHO
    rebuild(services, corpus, "one")
    reingest(services, corpus, "one")
    assert fact_id in state(services, cid)[1]
    services.curation.undo(coll.name, author=WHO)
    ents, facts = state(services, cid)
    assert fact_id not in facts and "lyon" not in ents
    with pytest.raises(ValidationFailed):
        services.curation.add_fact(coll.name, "Alice Smith", "knows", "Alice Smith", author=WHO)


def test_names_must_be_exact_and_ambiguous_names_list_their_keys(services, corpus):
    coll, cid = corpus["coll"], corpus["coll"].id
    with pytest.raises(NotFound, match="Close: Alice Smith"):
        services.curation.delete_entity(coll.name, "Alice Smit", author=WHO)
    services.curation.split(coll.name, "Bob Jones", "Bob Jones", documents=[corpus["ids"]["three"]], author=WHO)
    with pytest.raises(AmbiguousName) as err:
        services.curation.rename(coll.name, "Bob Jones", "Robert Jones", author=WHO)
    assert "bob jones" in err.value.candidates and len(err.value.candidates) == 2
    key = next(k for k in err.value.candidates if "#" in k)
    services.curation.rename(coll.name, key, "Robert Jones", author=WHO)  # the key picks one
    assert services.curation.entity(cid, "Robert Jones").key == key


def test_undo_is_exact_one_edit_at_a_time(services, corpus):
    coll, cid = corpus["coll"], corpus["coll"].id
    snapshots = [state(services, cid)]
    services.curation.merge(coll.name, ["Alice Smith", "Smith"], author=WHO)
    snapshots.append(state(services, cid))
    services.curation.rename(coll.name, "Alice Smith", "Alice Smith-Jones", author=WHO)
    snapshots.append(state(services, cid))
    services.curation.delete_entity(coll.name, "Beta Industries", author=WHO)
    assert [e.status for e in services.curation.history(coll.name)] == ["applied"] * 3
    for expected in reversed(snapshots):
        services.curation.undo(coll.name, author=WHO)
        assert state(services, cid) == expected
    assert [e.status for e in services.curation.history(coll.name)] == ["undone"] * 3
    snap = read(services.graph_store, cid, {"alice smith"})
    assert {f["target"] for f in snap.facts.values()} >= {"acme corporation", "paris"}
