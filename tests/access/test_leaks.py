"""A viewer of collection A never gets anything of collection B: search, Ask and its diagnostics, the graph,
timelines, exports, documents by id; also right after the same process served a user of B (no cache leaks).
Conversations and memory facts are their user's own, and Ask injects no one else's."""

from __future__ import annotations

import json
import zipfile
from dataclasses import asdict

import pytest

from services.authz.principal import Principal
from services.errors import Forbidden, NotFound
from tests.access.conftest import B_SECRETS


def dump(obj) -> str:
    return json.dumps(asdict(obj) if hasattr(obj, "__dataclass_fields__") else obj, default=str)


def assert_nothing_of_b(text: str, world) -> None:
    for word in B_SECRETS:
        assert word not in text, f"{word!r} of collection B leaked"
    assert world.b not in text


def bob_reads_b(services, world) -> None:
    """Bob, a viewer of B, uses B through the same process (warms every cache with B's data)."""
    bob = services.scope(services.access.principal_for_user(world.user("bob")))
    assert bob.search("telescopes Quibblecorp").hits[0].document_id == world.b_doc
    result = bob.ask("Who is the CEO of Quibblecorp?")
    assert "Solberg" in dump(result.context)
    assert bob.relationships("Ingrid Solberg")["facts"]
    assert bob.document(world.b_doc).summary.title == "Telescopes"


@pytest.fixture
def alice(services, world):
    bob_reads_b(services, world)
    return services.scope(services.access.principal_for_user(world.user("viewer")))


def test_search_and_ask_stay_in_a(services, world, alice) -> None:
    hits = alice.search("Who builds telescopes in Tromsø? Quibblecorp, Ingrid Solberg").hits
    assert all(h.document_id == world.a_doc for h in hits)
    assert_nothing_of_b(dump([asdict(h) for h in hits]), world)
    result = alice.ask("Who is the chief executive of the telescope company?")
    assert_nothing_of_b(dump(result.context) + dump(result.facts) + dump(result.diagnostics) + result.answer.text,
                        world)
    assert {c.document_id for c in result.context} <= {world.a_doc}
    with pytest.raises(Forbidden):
        alice.ask("Who is the CEO?", collections=[world.b])
    with pytest.raises(Forbidden):
        alice.search("telescopes", collections=[world.a, world.b])


def test_graph_timeline_documents_and_exports_stay_in_a(services, world, alice, tmp_path) -> None:
    with pytest.raises((NotFound, Forbidden)):
        alice.relationships("Ingrid Solberg")
    with pytest.raises((NotFound, Forbidden)):
        alice.temporal("Quibblecorp", None, None)
    for call in (lambda: alice.neighbourhood(world.b, "Ingrid Solberg"), lambda: alice.document(world.b_doc),
                 lambda: alice.timeline(world.b, "ingrid solberg"), lambda: alice.graph_export(world.b, "json"),
                 lambda: alice.export(world.b, tmp_path / "b.zip"), lambda: alice.documents(world.b)):
        with pytest.raises(Forbidden):
            call()
    assert_nothing_of_b(dump(alice.graph_export(world.a, "json")), world)
    path = alice.export(world.a, tmp_path / "a.zip").path
    with zipfile.ZipFile(path) as zf:
        assert_nothing_of_b("".join(zf.read(n).decode("utf-8", "replace") for n in zf.namelist()), world)
    assert_nothing_of_b(dump([c.name for c in alice.collections()]), world)


def test_a_missing_collection_and_a_forbidden_one_are_refused_alike(services, world, alice) -> None:
    with pytest.raises(Forbidden) as theirs:
        alice.search("x", collections=[world.b])
    with pytest.raises(Forbidden) as none:
        alice.search("x", collections=[world.b + "-missing"])
    assert str(theirs.value).replace(world.b, "?") == str(none.value).replace(world.b + "-missing", "?")


def test_conversations_and_memory_are_private(services, world) -> None:
    alice = services.scope(services.access.principal_for_user(world.user("viewer")))
    bob = services.scope(services.access.principal_for_user(world.user("bob")))
    fact = alice.memory().remember("My favourite pastry is pastel de nata")
    result = alice.ask("Who is the CEO of Lisbonia Bakery?")
    assert result.conversation_id in {c.id for c in alice.conversations().list()}
    assert result.conversation_id not in {c.id for c in bob.conversations().list()}
    assert fact.id not in {f.id for f in bob.memory().list()}
    assert not bob.memory().recall("favourite pastry")
    with pytest.raises(NotFound):
        bob.memory().forget(fact.id)
    with pytest.raises(NotFound):
        bob.conversations().get(result.conversation_id)
    with pytest.raises(NotFound):  # Bob cannot continue (or read the turns of) Alice's conversation
        bob.ask("And who bakes?", conversation_id=result.conversation_id)
    assert bob.conversations().turns(result.conversation_id) == []
    recalled = alice.memory().recall("favourite pastry")
    assert [f.id for f in recalled][:1] == [fact.id]
    assert fact.id not in {f.id for f in services.scope(Principal.operator()).memory().list()}


def test_ask_injects_only_the_askers_memory(services, world) -> None:
    """Ask's memory lookups go through the asker's own MemoryService (the LLM path injects what recall finds)."""
    alice = services.scope(services.access.principal_for_user(world.user("viewer")))
    bob = services.scope(services.access.principal_for_user(world.user("bob")))
    alice.memory().remember("I prefer answers that mention rye bread")
    asked = services.ask.of(conversations=bob.conversations(), memory=bob.memory())
    question = "Do I prefer answers that mention rye bread?"  # close to the fact: recalled for its owner
    turns, _why = asked._memory_turns(question)
    assert "rye" not in json.dumps(turns)
    mine = services.ask.of(conversations=alice.conversations(), memory=alice.memory())
    assert "rye" in json.dumps(mine._memory_turns(question)[0])
    listed = bob.ask("What do you remember about me?")
    assert "rye" not in listed.answer.text


def test_anonymous_visitors_read_only_open_collections(services, world) -> None:
    visitor = services.scope(Principal.anonymous("browser-1"))
    assert world.a not in {c.name for c in visitor.collections()}
    services.access.set_anonymous(world.a, True, by=Principal.operator())
    try:
        assert world.a in {c.name for c in visitor.collections()}
        assert world.b not in {c.name for c in visitor.collections()}
        assert visitor.search("sourdough").hits
        with pytest.raises(Forbidden):
            visitor.update_metadata(world.a_doc, {"x": 1})
        visitor.ask("Who is the CEO of Lisbonia Bakery?")
        other = services.scope(Principal.anonymous("browser-2"))
        assert not other.conversations().list()  # each visitor's conversations are their browser session's
    finally:
        services.access.set_anonymous(world.a, False, by=Principal.operator())


def test_a_flowchart_by_id_stays_in_its_collection(services, world, alice, shared_data) -> None:
    import sqlalchemy as sa

    from services.ingest.requests import files_request

    data = (shared_data / "flowchart-docx" / "expense-reimbursement-policy.docx").read_bytes()
    result = services.ingestion.run(files_request(world.b, [("expense-policy.docx", data)], settings=services.settings))
    doc_id = result.items[0]["document_id"]
    with services.engine.connect() as conn:
        (diagram_id,) = conn.execute(sa.text("SELECT diagram_id FROM diagrams WHERE document_id = :d LIMIT 1"),
                                     {"d": doc_id}).one()
    bob = services.scope(services.access.principal_for_user(world.user("bob")))
    assert bob.diagram(diagram_id).document_id == doc_id  # a viewer of B reads it
    with pytest.raises(Forbidden):
        alice.diagram(diagram_id)
    with pytest.raises(Forbidden):
        alice.diagram("no-such-diagram")  # refused alike: no hint that an id exists
    from services.authz.view import ScopedServices

    with pytest.raises(Forbidden):  # what the Graph page's ?diagram= link calls (it reached the raw service)
        ScopedServices(services, alice).diagrams.get(diagram_id)
    assert services.scope(Principal.operator()).diagram(diagram_id).document_id == doc_id
