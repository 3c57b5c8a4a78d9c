"""GraphLookup.entities_matching: the Graph and Timeline pages' entity search, by name, by meaning (the entities
of the facts drawn from the chunks nearest the text), or by name and else by meaning (real stores and model)."""

from __future__ import annotations

import pytest

from services.errors import NotFound, ValidationFailed
from tests.utils.graph import ingest

TEXT = "Alice is the CEO of Acme. Acme is located in Berlin."


@pytest.fixture
def acme(services, dated):
    ingest(services, dated.name, "acme", TEXT, {"date": "2020-01-01"})
    return dated


def test_by_name_finds_names_and_nothing_else(services, acme):
    found = services.lookup.entities_matching("acme", acme.name)
    assert [e.key for e in found][:1] == ["acme"]
    assert services.lookup.entities_matching("chief executive officer", acme.name) == []  # no such name


def test_by_meaning_finds_the_entities_of_the_nearest_chunks(services, acme):
    found = {e.key for e in services.lookup.entities_matching("who runs the company", acme.name, by="meaning")}
    assert {"alice", "acme"} <= found


def test_name_else_meaning_falls_back_only_when_no_name_matches(services, acme):
    by_name = services.lookup.entities_matching("berlin", acme.name, by="name, else meaning")
    assert [e.key for e in by_name] == [e.key for e in services.lookup.entities_matching("berlin", acme.name)]
    fallback = services.lookup.entities_matching("who runs the company", acme.name, by="name, else meaning")
    assert {"alice", "acme"} <= {e.key for e in fallback}


def test_limits_blank_text_and_bad_input(services, acme):
    assert len(services.lookup.entities_matching("e", acme.name, limit=1)) == 1
    assert services.lookup.entities_matching("   ", acme.name, by="meaning") == []
    with pytest.raises(ValidationFailed, match="by name, meaning"):
        services.lookup.entities_matching("acme", acme.name, by="sound")
    with pytest.raises(NotFound):
        services.lookup.entities_matching("acme", "no-such-collection-here")
