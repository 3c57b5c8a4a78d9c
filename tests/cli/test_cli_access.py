"""``rag users``, ``rag access``, ``rag tokens`` and ``rag audit`` on the real stores."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa

from services.errors import Forbidden
from tests.cli.conftest import assert_error, ok_json


@pytest.fixture
def names(cli_services, collection):
    suffix = uuid.uuid4().hex[:6]
    yield f"ann-{suffix}", f"ben-{suffix}", collection
    with cli_services.engine.begin() as conn:  # no user left behind: users turn the app's login on
        conn.execute(sa.text("DELETE FROM app_users WHERE name LIKE :p"), {"p": f"%-{suffix}"})


def test_users_roles_tokens_and_audit(rag, cli_services, names) -> None:
    ann, ben, coll = names
    assert rag("users", "add", ann, "--password-stdin", input="a long password\n").exit_code == 0
    assert rag("users", "add", ben, "--admin", "--password-stdin", input="another long one\n").exit_code == 0
    assert_error(rag("users", "add", ann, "--password-stdin", input="a long password\n"), 4, "already exists")
    assert_error(rag("users", "add", f"x{ann}", "--password-stdin", input="short\n"), 2, "password")
    listed = {u["name"]: u for u in ok_json(rag("users", "list", "--json"))}
    assert listed[ann]["admin"] is False and listed[ben]["admin"] is True
    assert cli_services.access.authenticate(ann, "a long password") is not None
    assert cli_services.access.authenticate(ann, "a wrong password") is None

    assert rag("access", "grant", ann, coll, "viewer").exit_code == 0
    assert {"user": ann, "collection": coll, "role": "viewer"} in ok_json(rag("access", "list", "--json"))
    assert rag("access", "grant", ann, coll, "boss").exit_code == 2
    assert_error(rag("access", "grant", ann, coll + "-missing", "viewer"), 3, "No collection")

    made = ok_json(rag("tokens", "create", ann, "--label", "agent", "--json"))
    assert made["token"].startswith("rmw_")
    assert cli_services.access.principal_for_token(made["token"]).name == ann
    stored = cli_services.engine.connect().execute(sa.text("SELECT token_hash FROM access_tokens WHERE id = :i"),
                                                   {"i": made["id"]}).scalar_one()
    assert made["token"] not in stored  # only the hash is kept
    assert [t["id"] for t in ok_json(rag("tokens", "list", "--user", ann, "--json"))] == [made["id"]]
    assert rag("tokens", "revoke", made["id"]).exit_code == 0
    with pytest.raises(Forbidden):
        cli_services.access.principal_for_token(made["token"])

    assert rag("access", "revoke", ann, coll).exit_code == 0
    actions = [(r["action"], r["target"]) for r in ok_json(rag("audit", "--json", "--limit", "50"))]
    for expected in [("user.add", ann), ("access.grant", coll), ("token.create", ann), ("token.revoke", ann),
                     ("access.revoke", coll)]:
        assert expected in actions
    assert rag("users", "remove", ann).exit_code == 0
    assert_error(rag("users", "remove", ann), 3, "No user")
    assert ann not in {u["name"] for u in ok_json(rag("users", "list", "--json"))}


def test_cli_writes_are_audited_as_the_operator(rag, cli_services, collection, tmp_path) -> None:
    doc = tmp_path / "note.txt"
    doc.write_text("Harbour cranes lift containers all night.", encoding="utf-8")
    assert rag("ingest", "file", collection, str(doc)).exit_code == 0
    assert rag("backup", collection, "-o", tmp_path / "b.zip").exit_code == 0
    rows = ok_json(rag("audit", "--json", "--user", "operator", "--limit", "20"))
    assert ("document.ingest", collection) in [(r["action"], r["target"]) for r in rows]
    assert ("backup", collection) in [(r["action"], r["target"]) for r in rows]
