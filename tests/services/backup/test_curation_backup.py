"""Backup and restore carry the analyst's edits: the edited graph, the edit log (still undoable, still replayed
when a restored document is ingested again) and the answers to suggestions."""

from __future__ import annotations

import pytest

from services.errors import NotFound
from tests.services.graph.test_curation import TEXTS, WHO, state
from tests.utils.graph import ingest


def test_backup_and_restore_carry_the_edits(services, dated, tmp_path):
    for title, text in TEXTS.items():
        ingest(services, dated.name, title, text)
    lives = next(f for f in services.graph.facts_of_entity("paris", [dated.id]))
    services.curation.merge(dated.name, ["Acme Corporation", "Acme Corp"], author=WHO)
    services.curation.delete_fact(dated.name, lives.id, author=WHO)
    services.curation.add_fact(dated.name, "Carol White", "born in", "Lyon", note="by hand", author=WHO)
    services.curation.decide(dated.name, "alice smith", "smith", "never", author=WHO)
    ents, facts = state(services, dated.id)
    result = services.backup.export(dated.name, tmp_path / "edits.zip")
    restored = services.backup.restore(result.path, into_name=dated.name + "-restored")
    coll = services.collections.get(dated.name + "-restored")
    try:
        assert restored.counts["graph_edits"] == 3 and restored.counts["graph_suggestion_decisions"] == 1
        r_ents, r_facts = state(services, coll.id)
        assert r_ents == ents
        assert sorted(f for f in r_facts.values()) == sorted(facts.values())
        history = services.curation.history(coll.name)
        assert [(e.kind, e.author) for e in history] == [("add_fact", WHO), ("delete_fact", WHO), ("merge", WHO)]
        assert services.curation.suggestions(coll.name, include_decided=True)[0].decision == "never"
        doc_one = next(d for d in services.documents.list(collection_id=coll.id) if d.title == "one")
        (result,) = services.graph.rebuild([doc_one.id])  # the deleted fact stays deleted in the restored copy
        assert result.status == "done"
        assert "paris" not in state(services, coll.id)[0]
        services.curation.undo(coll.name, author=WHO)  # the added fact goes
        assert "lyon" not in state(services, coll.id)[0]
    finally:
        try:
            services.deletion.delete_collection(coll.name)
        except NotFound:
            pytest.skip("already gone")
