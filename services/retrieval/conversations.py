"""Conversations persisted in PostgreSQL: list, open, rename, delete, and their turns."""

from __future__ import annotations

import builtins
import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from services.errors import NotFound, ValidationFailed


@dataclass(frozen=True)
class Turn:
    id: int
    role: str
    content: str
    retrieved: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    created_at: dt.datetime | None = None


@dataclass(frozen=True)
class Conversation:
    id: int
    title: str
    collections: builtins.list[str]
    created_at: dt.datetime
    updated_at: dt.datetime
    turn_count: int = 0


_OWNED = "c.owner IS NOT DISTINCT FROM CAST(:o AS text)"


class ConversationService:
    """One person's conversations: ``owner`` None is the shared ones (no users, or the operator); a user's
    service (:meth:`of`) sees and changes only that user's, and another's id is "not found"."""

    def __init__(self, *, engine: Engine, owner: str | None = None) -> None:
        self.engine = engine
        self.owner = owner

    def of(self, owner: str | None) -> ConversationService:
        return ConversationService(engine=self.engine, owner=owner)

    def create(self, *, title: str = "New conversation", collections: builtins.list[str] | None = None) -> Conversation:
        with self.engine.begin() as conn:
            cid = conn.execute(
                sa.text("INSERT INTO conversations (title, collections, owner) VALUES (:t, :c, :o) RETURNING id"),
                {"t": _title(title), "c": list(collections or []), "o": self.owner},
            ).scalar_one()
        return self.get(cid)

    def get(self, conversation_id: int) -> Conversation:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.text("SELECT c.*, (SELECT count(*) FROM turns t WHERE t.conversation_id = c.id) AS n "
                        f"FROM conversations c WHERE c.id = :id AND {_OWNED}"), {"id": conversation_id, "o": self.owner},
            ).first()
        if row is None:
            raise NotFound(f"No conversation {conversation_id}.")
        return Conversation(row.id, row.title, list(row.collections), row.created_at, row.updated_at, int(row.n))

    def list(self, limit: int = 50) -> builtins.list[Conversation]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT c.*, (SELECT count(*) FROM turns t WHERE t.conversation_id = c.id) AS n "
                        f"FROM conversations c WHERE {_OWNED} ORDER BY c.updated_at DESC LIMIT :n"),
                {"n": max(1, min(limit, 500)), "o": self.owner},
            )
            return [Conversation(r.id, r.title, list(r.collections), r.created_at, r.updated_at, int(r.n)) for r in rows]

    def rename(self, conversation_id: int, title: str) -> Conversation:
        with self.engine.begin() as conn:
            done = conn.execute(sa.text("UPDATE conversations c SET title = :t, updated_at = now() "
                                        f"WHERE c.id = :id AND {_OWNED} RETURNING id"),
                                {"t": _title(title), "id": conversation_id, "o": self.owner}).first()
        if done is None:
            raise NotFound(f"No conversation {conversation_id}.")
        return self.get(conversation_id)

    def set_collections(self, conversation_id: int, collections: builtins.list[str]) -> None:
        with self.engine.begin() as conn:
            conn.execute(sa.text(f"UPDATE conversations c SET collections = :c WHERE c.id = :id AND {_OWNED}"),
                         {"c": list(collections), "id": conversation_id, "o": self.owner})

    def delete(self, conversation_id: int) -> None:
        with self.engine.begin() as conn:
            gone = conn.execute(sa.text(f"DELETE FROM conversations c WHERE c.id = :id AND {_OWNED} RETURNING id"),
                                {"id": conversation_id, "o": self.owner}).first()
        if gone is None:
            raise NotFound(f"No conversation {conversation_id}.")

    def add_turn(self, conversation_id: int, role: str, content: str, *, retrieved: dict[str, Any] | None = None,
                 details: dict[str, Any] | None = None) -> Turn:
        with self.engine.begin() as conn:
            self._require_own(conn, conversation_id)
            row = conn.execute(
                sa.text("INSERT INTO turns (conversation_id, role, content, retrieved, details) "
                        "VALUES (:c, :r, :t, CAST(:ret AS jsonb), CAST(:d AS jsonb)) RETURNING id, created_at"),
                {"c": conversation_id, "r": role, "t": content, "ret": json.dumps(retrieved or {}, default=str),
                 "d": json.dumps(details or {}, default=str)},
            ).one()
            conn.execute(sa.text("UPDATE conversations SET updated_at = now() WHERE id = :id"), {"id": conversation_id})
        return Turn(row.id, role, content, retrieved or {}, details or {}, row.created_at)

    def turns(self, conversation_id: int, *, last: int | None = None) -> builtins.list[Turn]:
        sql = "SELECT * FROM turns WHERE conversation_id = :c ORDER BY id"
        with self.engine.connect() as conn:
            if not self._owns(conn, conversation_id):  # another's or none: no turns, as for a deleted one
                return []
            rows = [Turn(r.id, r.role, r.content, r.retrieved, r.details, r.created_at)
                    for r in conn.execute(sa.text(sql), {"c": conversation_id})]
        return rows[-last:] if last else rows

    def _owns(self, conn: Connection, conversation_id: int) -> bool:
        return conn.execute(sa.text(f"SELECT 1 FROM conversations c WHERE c.id = :id AND {_OWNED}"),
                            {"id": conversation_id, "o": self.owner}).first() is not None

    def _require_own(self, conn: Connection, conversation_id: int) -> None:
        if not self._owns(conn, conversation_id):
            raise NotFound(f"No conversation {conversation_id}.")


def _title(title: str) -> str:
    title = " ".join((title or "").split())
    if not title:
        raise ValidationFailed("A conversation needs a title.")
    return title[:200]
