"""The review queue of likely duplicates (services/graph/suggestions.py) and the analyst's answers to it,
kept in ``graph_suggestion_decisions`` (migration 012). Accepting a suggestion is a merge, recorded like any
other edit; rejecting or 'never' is recorded with who answered and when."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from services.errors import NotFound, ValidationFailed
from services.graph.export import collection_graph
from services.graph.suggestions import Suggestion, find, pair

if TYPE_CHECKING:
    from services.graph.curation import CurationService

DECISIONS = ("accept", "reject", "never")


def suggestions(curation: CurationService, collection: str, *, include_decided: bool = False,
                limit: int = 50, by_meaning: bool = True) -> list[Suggestion]:
    coll = curation.collections.get(collection)
    snap = collection_graph(curation.graph.store, coll.id)
    degrees: dict[str, int] = {}
    for fact in snap.facts.values():
        for side in ("source", "target"):
            degrees[fact[side]] = degrees.get(fact[side], 0) + 1
    embed = curation.embedder.embed_texts if curation.embedder is not None and by_meaning else None
    found = find(list(snap.entities.values()), degrees, embed)
    with curation.engine.connect() as conn:
        answered = {(r.key_a, r.key_b): (r.decision, r.evidence) for r in conn.execute(sa.text(
            "SELECT key_a, key_b, decision, evidence FROM graph_suggestion_decisions WHERE collection_id = :c"),
            {"c": coll.id})}
    out = []
    for s in found:
        decision, evidence = answered.get(s.pair, (None, None))
        if decision == "rejected" and evidence != s.evidence_text:
            decision = None  # the evidence changed since it was rejected: ask again
        s.decision = decision
        if include_decided or decision is None:
            out.append(s)
    return out[:max(1, min(int(limit), 1000))]


def decide(curation: CurationService, collection: str, key_a: str, key_b: str, decision: str, *,
           author: str) -> dict[str, Any]:
    """Answer a suggestion: ``accept`` merges the pair (into the entity with more facts), ``reject`` hides it until
    its evidence changes, ``never`` hides it for good."""
    if decision not in DECISIONS:
        raise ValidationFailed(f"Answer a suggestion with one of {', '.join(DECISIONS)}, not {decision!r}.")
    coll = curation.collections.get(collection)
    current = {s.pair: s for s in suggestions(curation, collection, include_decided=True, limit=1000)}
    found = current.get(pair(key_a, key_b))
    if found is None:
        raise NotFound(f"No suggestion pairs {key_a!r} and {key_b!r} now (merged, deleted or never suggested).")
    if decision == "accept":
        edit = curation.merge_keys(coll.id, [found.key_a, found.key_b], author=author)
        return {"decision": "accept", "edit": edit, "suggestion": found}
    a, b = found.pair
    with curation.engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO graph_suggestion_decisions (collection_id, key_a, key_b, decision, evidence, author) "
            "VALUES (:c, :a, :b, :d, :e, :who) ON CONFLICT (collection_id, key_a, key_b) DO UPDATE SET "
            "decision = EXCLUDED.decision, evidence = EXCLUDED.evidence, author = EXCLUDED.author, decided_at = now()"),
            {"c": coll.id, "a": a, "b": b, "d": "rejected" if decision == "reject" else "never",
             "e": found.evidence_text, "who": author})
    found.decision = "rejected" if decision == "reject" else "never"
    return {"decision": decision, "edit": None, "suggestion": found}
