"""Two collections on the real stores, users with each role, removed afterwards (users turn logins on)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import sqlalchemy as sa

from services.authz.principal import Principal
from services.ingest.requests import text_request

A_TEXT = "Maria Santos is the CEO of Lisbonia Bakery. Lisbonia Bakery bakes sourdough bread in Lisbon."
B_TEXT = "Ingrid Solberg is the CEO of Quibblecorp. Quibblecorp builds telescopes in Tromsø."
B_SECRETS = ("Solberg", "Quibblecorp", "Tromsø")  # words of B that nothing of A contains


@dataclass
class World:
    a: str
    b: str
    a_doc: int
    b_doc: int
    suffix: str

    def user(self, role: str) -> str:
        return f"{role}-{self.suffix}"


def remove_test_users(services, suffix: str) -> None:
    with services.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM app_users WHERE name LIKE :p"), {"p": f"%-{suffix}"})


@pytest.fixture(scope="module")
def world(services) -> Iterator[World]:
    suffix = uuid.uuid4().hex[:8]
    a, b = f"acc-a-{suffix}", f"acc-b-{suffix}"
    op = services.scope(Principal.operator())
    op.create_collection(name=a, description="Collection A.")
    op.create_collection(name=b, description="Collection B.")
    try:
        a_doc = services.ingestion.run(text_request(a, title="Bakery", text=A_TEXT)).items[0]["document_id"]
        b_doc = services.ingestion.run(text_request(b, title="Telescopes", text=B_TEXT)).items[0]["document_id"]
        access = services.access
        for role in ("none", "viewer", "editor", "owner", "admin", "bob"):
            access.add_user(f"{role}-{suffix}", "password-" + role, admin=role == "admin", by=Principal.operator())
        for role in ("viewer", "editor", "owner"):
            access.grant(f"{role}-{suffix}", a, role, by=Principal.operator())
        access.grant(f"bob-{suffix}", b, "viewer", by=Principal.operator())
        yield World(a, b, a_doc, b_doc, suffix)
    finally:
        remove_test_users(services, suffix)
        for name in (a, b):
            try:
                services.deletion.delete_collection(name)
            except Exception:
                pass
