"""Two collections and two users for the access tests: Ann edits A, Ben views B (users turn logins on, so
they are always removed afterwards)."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa

from services.authz.principal import Principal
from services.ingest.requests import text_request


def make_two_teams(services: Any, prefix: str, docs: tuple[tuple[str, str], tuple[str, str]],
                   passwords: tuple[str | None, str | None] = (None, None)) -> dict[str, Any]:
    """Collections ``{prefix}-a-…`` and ``{prefix}-b-…`` with one document each (``docs``: (title, text) of A,
    then of B); user ann-… is editor of A, ben-… viewer of B."""
    suffix = uuid.uuid4().hex[:6]
    op = Principal.operator()
    team: dict[str, Any] = {"suffix": suffix, "a": f"{prefix}-a-{suffix}", "b": f"{prefix}-b-{suffix}",
                            "ann": f"ann-{suffix}", "ben": f"ben-{suffix}"}
    for key, (title, text) in zip(("a", "b"), docs):
        services.collections.create(name=team[key], description=f"Collection {team[key]}.")
        team[f"{key}_doc"] = services.ingestion.run(text_request(team[key], title=title, text=text)).items[0]["document_id"]
    for key, password in zip(("ann", "ben"), passwords):
        services.access.add_user(team[key], password, by=op)
    services.access.grant(team["ann"], team["a"], "editor", by=op)
    services.access.grant(team["ben"], team["b"], "viewer", by=op)
    return team


def remove_two_teams(services: Any, team: dict[str, Any]) -> None:
    with services.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM app_users WHERE name LIKE :p"), {"p": f"%-{team['suffix']}"})
    for key in ("a", "b"):
        try:
            services.deletion.delete_collection(team[key])
        except Exception:
            pass
