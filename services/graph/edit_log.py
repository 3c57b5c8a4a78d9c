"""The edit log in PostgreSQL (``graph_edits``, migration 012): who changed a collection's graph, when and how.

Edits of one collection are serialised by a transaction-level advisory lock, taken by each edit, each undo and
each replay after a document's facts are written, so two sessions editing the same entities take turns and
neither works from a copy the other has changed.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

LOCK_SPACE = 31  # the first key of pg_advisory_xact_lock(int, int): graph edits; the second is the collection id


@dataclass(frozen=True)
class GraphEdit:
    id: int
    collection_id: int
    kind: str
    summary: str
    author: str
    status: str  # applied | undone | failed
    created_at: dt.datetime
    params: dict[str, Any]
    error: str | None = None
    undone_at: dt.datetime | None = None
    undone_by: str | None = None
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None

    @property
    def changed(self) -> dict[str, int]:
        """How many entities and facts the edit wrote or removed."""
        b, a = self.before or {}, self.after or {}
        return {"entities_before": len(b.get("entities", [])), "entities_after": len(a.get("entities", [])),
                "facts_before": len(b.get("facts", [])), "facts_after": len(a.get("facts", []))}


    def brief(self) -> dict[str, Any]:
        """The edit without its snapshots: what the CLI's --json and MCP return."""
        return {"id": self.id, "collection_id": self.collection_id, "kind": self.kind, "summary": self.summary,
                "author": self.author, "status": self.status, "created_at": self.created_at.isoformat(),
                "params": self.params, "changed": self.changed, "error": self.error,
                "undone_at": self.undone_at.isoformat() if self.undone_at else None, "undone_by": self.undone_by}


_COLUMNS = ("id, collection_id, kind, summary, author, status, created_at, params, error, undone_at, undone_by")


def lock(conn: Connection, collection_id: int) -> None:
    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:space, :cid)"), {"space": LOCK_SPACE, "cid": int(collection_id)})


def record(conn: Connection, *, collection_id: int, kind: str, params: dict[str, Any], summary: str, author: str,
           before: dict[str, Any], after: dict[str, Any]) -> int:
    return int(conn.execute(sa.text(
        "INSERT INTO graph_edits (collection_id, kind, params, summary, author, before, after) "
        "VALUES (:c, :k, CAST(:p AS jsonb), :s, :a, CAST(:b AS jsonb), CAST(:f AS jsonb)) RETURNING id"),
        {"c": collection_id, "k": kind, "p": json.dumps(params), "s": summary, "a": author,
         "b": json.dumps(before), "f": json.dumps(after)}).scalar_one())


def mark_failed(conn: Connection, edit_id: int, error: str) -> None:
    conn.execute(sa.text("UPDATE graph_edits SET status = 'failed', error = :e WHERE id = :id"),
                 {"e": error[:2000], "id": edit_id})


def mark_undone(conn: Connection, edit_id: int, author: str) -> None:
    conn.execute(sa.text("UPDATE graph_edits SET status = 'undone', undone_at = now(), undone_by = :a WHERE id = :id"),
                 {"a": author, "id": edit_id})


def last_applied(conn: Connection, collection_id: int) -> GraphEdit | None:
    row = conn.execute(sa.text(
        f"SELECT {_COLUMNS}, before, after FROM graph_edits WHERE collection_id = :c AND status = 'applied' "
        "ORDER BY id DESC LIMIT 1"), {"c": collection_id}).mappings().first()
    return GraphEdit(**row) if row else None


def applied(conn: Connection, collection_id: int) -> list[GraphEdit]:
    """The edits a replay applies, oldest first."""
    rows = conn.execute(sa.text(f"SELECT {_COLUMNS} FROM graph_edits WHERE collection_id = :c AND status = 'applied' "
                                "ORDER BY id"), {"c": collection_id}).mappings().all()
    return [GraphEdit(**r) for r in rows]


def history(conn: Connection, collection_id: int, limit: int = 100) -> list[GraphEdit]:
    rows = conn.execute(sa.text(f"SELECT {_COLUMNS}, before, after FROM graph_edits WHERE collection_id = :c "
                                "ORDER BY id DESC LIMIT :n"), {"c": collection_id, "n": limit}).mappings().all()
    return [GraphEdit(**r) for r in rows]


def has_edits(conn: Connection, collection_id: int) -> bool:
    return bool(conn.execute(sa.text("SELECT EXISTS (SELECT 1 FROM graph_edits WHERE collection_id = :c "
                                     "AND status = 'applied')"), {"c": collection_id}).scalar())
