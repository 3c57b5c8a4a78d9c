"""The review queue of likely duplicates: evidence from stated aliases, containment and name embeddings; accept
merges (and is undoable), reject hides until the evidence changes, never hides for good."""

from __future__ import annotations

import numpy as np

from services.graph.suggestions import find
from tests.services.graph.test_curation import TEXTS, WHO, state
from tests.utils.graph import ingest


def test_queue_lists_containment_and_answers_stick(services, dated):
    for title, text in TEXTS.items():
        ingest(services, dated.name, title, text)
    queue = services.curation.suggestions(dated.name)
    pairs = {s.pair: s for s in queue}
    smith = pairs[("alice smith", "smith")]
    assert smith.key_a == "alice smith" and "contained" in smith.evidence_text
    acme = pairs[("acme corp", "acme corporation")]
    assert any("contained" in e or "cosine" in e for e in acme.evidence)
    assert ("berlin", "london") not in pairs and ("alice smith", "bob jones") not in pairs
    services.curation.decide(dated.name, "smith", "alice smith", "never", author=WHO)
    services.curation.decide(dated.name, "acme corp", "acme corporation", "reject", author=WHO)
    assert not {("alice smith", "smith"), ("acme corp", "acme corporation")} & {s.pair for s in
                                                                              services.curation.suggestions(dated.name)}
    decided = {s.pair: s.decision for s in services.curation.suggestions(dated.name, include_decided=True)}
    assert decided[("alice smith", "smith")] == "never" and decided[("acme corp", "acme corporation")] == "rejected"


def test_accepting_a_suggestion_merges_and_undo_splits_it_again(services, dated):
    for title, text in TEXTS.items():
        ingest(services, dated.name, title, text)
    before = state(services, dated.id)
    result = services.curation.decide(dated.name, "alice smith", "smith", "accept", author=WHO)
    assert result["edit"].kind == "merge"
    ents, facts = state(services, dated.id)
    assert "smith" not in ents and any(f[0] == "alice smith" and f[2] == "berlin" for f in facts.values())
    assert ("alice smith", "smith") not in {s.pair for s in services.curation.suggestions(dated.name)}
    services.curation.undo(dated.name, author=WHO)
    assert state(services, dated.id) == before


def test_aliases_and_embeddings_give_evidence():
    ents = [{"key": "united nations", "name": "United Nations", "type": "ORG", "aliases": ["UN body"]},
            {"key": "un body", "name": "UN body", "type": "ORG", "aliases": []},
            {"key": "big apple", "name": "Big Apple", "type": "GPE", "aliases": []},
            {"key": "new york", "name": "New York", "type": "GPE", "aliases": []},
            {"key": "cat", "name": "Cat", "type": "PERSON", "aliases": []}]
    vectors = {"Big Apple": [1.0, 0.1, 0.0], "New York": [0.95, 0.2, 0.0], "Cat": [0.0, 0.0, 1.0],
               "United Nations": [0.0, 1.0, 0.0], "UN body": [0.1, 0.0, 0.9]}
    found = {s.pair: s for s in find(ents, {"united nations": 3}, lambda names: np.array([vectors[n] for n in names]))}
    assert set(found) == {("un body", "united nations"), ("big apple", "new york")}
    assert "stated alias" in found[("un body", "united nations")].evidence_text
    assert found[("un body", "united nations")].key_a == "united nations"  # more facts: the one kept
    assert "cosine 0.99" in found[("big apple", "new york")].evidence_text
