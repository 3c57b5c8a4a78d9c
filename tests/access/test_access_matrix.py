"""Every operation of the access scope × every role (none, viewer, editor, owner, admin) on the real stores.

An allowed operation runs; a refused one raises Forbidden and changes nothing (a snapshot of every table the
operations write is compared before and after).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa

from services.authz.principal import RANK, Principal
from services.errors import Forbidden
from services.ingest.requests import text_request

ROLES = ("none", "viewer", "editor", "owner", "admin")
SNAPSHOT = {
    "collections": "SELECT id, name, description FROM collections ORDER BY id",
    "documents": "SELECT id, title, metadata::text, version FROM documents ORDER BY id",
    "members": "SELECT collection_id, document_id FROM collection_documents ORDER BY 1, 2",
    "users": "SELECT name, is_admin FROM app_users ORDER BY name",
    "grants": "SELECT user_id, collection_id, role FROM collection_grants ORDER BY 1, 2",
    "anonymous": "SELECT collection_id FROM anonymous_collections ORDER BY 1",
    "tokens": "SELECT id, revoked_at FROM access_tokens ORDER BY id",
    "conversations": "SELECT count(*) FROM conversations",
    "turns": "SELECT count(*) FROM turns",
    "memory": "SELECT count(*) FROM memory_facts",
    "graph_edits": "SELECT count(*) FROM graph_edits",
    "audit": "SELECT count(*) FROM audit_log",
    "jobs": "SELECT count(*) FROM jobs",
}


def snapshot(services) -> dict[str, list[Any]]:
    with services.engine.connect() as conn:
        return {k: [tuple(r) for r in conn.execute(sa.text(q))] for k, q in SNAPSHOT.items()}


@dataclass
class Case:
    """``need``: viewer / editor / owner (in the collection) or admin. ``prep`` makes what the operation acts on
    (run by the operator, before the snapshot); ``run`` is the operation as the role's user."""

    need: str
    run: Callable[..., Any]
    prep: Callable[..., Any] | None = None


def fresh_collection(services, world, role: str, tmp_path) -> str:
    """A throwaway collection in which the role's user holds that role (owner/editor/viewer)."""
    name = f"acc-fresh-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Throwaway.")
    if role in ("viewer", "editor", "owner"):
        services.access.grant(world.user(role), name, role, by=Principal.operator())
    return name


def fresh_document(services, world, role: str, tmp_path) -> int:
    text = f"A throwaway note {uuid.uuid4().hex} about harbour cranes."
    return services.ingestion.run(text_request(world.a, title=f"Note {uuid.uuid4().hex[:6]}", text=text)).items[0]["document_id"]


def archive(services, world, role: str, tmp_path) -> str:
    return services.backup.export(world.a, tmp_path / "a.zip").path


CASES: dict[str, Case] = {
    "search": Case("viewer", lambda s, w, x, p: s.search("sourdough bread", collections=[w.a])),
    "search (all readable)": Case("viewer", lambda s, w, x, p: s.search("sourdough bread")),
    "ask": Case("viewer", lambda s, w, x, p: s.ask("Who is the CEO of Lisbonia Bakery?", collections=[w.a])),
    "documents": Case("viewer", lambda s, w, x, p: s.documents(w.a)),
    "document by id": Case("viewer", lambda s, w, x, p: s.document(w.a_doc)),
    "relationships": Case("viewer", lambda s, w, x, p: s.relationships("Maria Santos", [w.a])),
    "temporal": Case("viewer", lambda s, w, x, p: s.temporal("Maria Santos", None, None, [w.a])),
    "neighbourhood": Case("viewer", lambda s, w, x, p: s.neighbourhood(w.a, "Maria Santos")),
    "paths": Case("viewer", lambda s, w, x, p: s.paths(w.a, "Maria Santos", "Lisbonia Bakery")),
    "entity search": Case("viewer", lambda s, w, x, p: s.entities_matching("Maria Santos", w.a,
                                                                         by="name, else meaning")),
    "timeline": Case("viewer", lambda s, w, x, p: s.timeline(w.a, "maria santos")),
    "graph export": Case("viewer", lambda s, w, x, p: s.graph_export(w.a, "json")),
    "edit history": Case("viewer", lambda s, w, x, p: s.edit_history(w.a)),
    "backup one": Case("viewer", lambda s, w, x, p: s.export(w.a, x / "one.zip")),
    "ingest": Case("editor", lambda s, w, x, p: s.ingest(text_request(
        w.a, title=f"Added {uuid.uuid4().hex[:6]}", text=f"Cranes {uuid.uuid4().hex} lift containers."), wait=True)),
    "edit metadata": Case("editor", lambda s, w, x, p: s.update_metadata(w.a_doc, {"note": uuid.uuid4().hex})),
    "edit description": Case("editor", lambda s, w, x, p: s.update_description(w.a, f"A {uuid.uuid4().hex}")),
    "delete document": Case("editor", lambda s, w, x, p: s.delete_document(p), fresh_document),
    "graph edit": Case("editor", lambda s, w, x, p: s.graph_edit("add_fact", w.a, "Maria Santos", "lives in",
                                                                  f"Porto {uuid.uuid4().hex[:4]}")),
    "delete collection": Case("owner", lambda s, w, x, p: s.delete_collection(p), fresh_collection),
    "grant": Case("owner", lambda s, w, x, p: s.grant(w.user("bob"), p, "viewer"), fresh_collection),
    "revoke": Case("owner", lambda s, w, x, p: s.revoke(w.user("bob"), p), fresh_collection),
    "anonymous visitors": Case("owner", lambda s, w, x, p: s.access.set_anonymous(p, True, by=s.who),
                               fresh_collection),
    "add user": Case("admin", lambda s, w, x, p: s.access.add_user(f"new-{uuid.uuid4().hex[:6]}-{w.suffix}",
                                                                     "long enough", by=s.who)),
    "list users": Case("admin", lambda s, w, x, p: s.access.users(by=s.who)),
    "token for another": Case("admin", lambda s, w, x, p: s.access.create_token(w.user("bob"), by=s.who)),
    "audit log": Case("admin", lambda s, w, x, p: s.access.audit(by=s.who)),
    "backup all": Case("admin", lambda s, w, x, p: s.export(None, x / "all.zip", all_collections=True)),
    "restore": Case("admin", lambda s, w, x, p: s.restore(p, into_name=f"acc-restored-{uuid.uuid4().hex[:6]}"),
                    archive),
}


def allowed(role: str, need: str) -> bool:
    if role == "admin":
        return True
    if role == "none" or need == "admin":
        return False
    return RANK[role] >= RANK[need]


@pytest.fixture
def cleanup(services):
    """Delete the throwaway collections a case made (fresh, restored)."""
    yield
    for coll in services.collections.list():
        if coll.name.startswith(("acc-fresh-", "acc-restored-")):
            services.deletion.delete_collection(coll.name)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("operation", list(CASES))
def test_matrix(services, world, role, operation, tmp_path, cleanup) -> None:
    case = CASES[operation]
    prepared = case.prep(services, world, role, tmp_path) if case.prep else None
    scope = services.scope(services.access.principal_for_user(world.user(role)))
    if allowed(role, case.need):
        case.run(scope, world, tmp_path, prepared)
        return
    before = snapshot(services)
    with pytest.raises(Forbidden):
        case.run(scope, world, tmp_path, prepared)
    assert snapshot(services) == before, f"{operation} refused for {role} but changed something"


def test_lists_show_only_readable_collections(services, world) -> None:
    for role in ROLES:
        names = {c.name for c in services.scope(services.access.principal_for_user(world.user(role))).collections()}
        assert (world.a in names) == (role != "none"), role
        assert (world.b in names) == (role == "admin"), role


def test_create_collection_makes_the_creator_its_owner(services, world) -> None:
    scope = services.scope(services.access.principal_for_user(world.user("none")))
    name = f"acc-fresh-{uuid.uuid4().hex[:8]}"
    try:
        scope.create_collection(name=name, description="Mine.")
        assert scope.my_role(name) == "owner"
        with pytest.raises(Forbidden):
            services.scope(Principal.anonymous("s1")).create_collection(name=name + "x", description="No.")
    finally:
        services.deletion.delete_collection(name)
