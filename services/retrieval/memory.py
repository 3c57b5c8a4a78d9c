"""Short facts the user asks the workbench to remember, embedded for similarity.

At question time, facts above a high similarity threshold (0.8 by default, at
most 2) are injected as conversation history, not as system-prompt text.
"""

from __future__ import annotations

import builtins
import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from services.errors import NotFound, ValidationFailed
from services.stores.chunk_store import vector_literal
from services.stores.embeddings import TextEmbedder

MAX_FACT_CHARS = 500


@dataclass(frozen=True)
class MemoryFact:
    id: int
    text: str
    created_at: dt.datetime
    similarity: float | None = None



class MemoryService:
    """One person's memory facts: ``owner`` None is the shared memory (no users, or the operator); a user's
    service (:meth:`of`) reads and changes only the facts that user made."""

    def __init__(self, *, engine: Engine, embedder: TextEmbedder, owner: str | None = None) -> None:
        self.engine = engine
        self.embedder = embedder
        self.owner = owner

    def of(self, owner: str | None) -> MemoryService:
        return MemoryService(engine=self.engine, embedder=self.embedder, owner=owner)

    def remember(self, text: str) -> MemoryFact:
        text = _clean(text)
        with self.engine.begin() as conn:
            row = conn.execute(
                sa.text("INSERT INTO memory_facts (text, embedding, embedding_model, owner) "
                        "VALUES (:t, CAST(:e AS vector), :m, :o) RETURNING id, created_at"),
                {"t": text, "e": vector_literal(self.embedder.embed_texts([text])[0]), "m": self.embedder.name,
                 "o": self.owner},
            ).one()
        return MemoryFact(row.id, text, row.created_at)

    def update(self, fact_id: int, text: str) -> MemoryFact:
        text = _clean(text)
        with self.engine.begin() as conn:
            row = conn.execute(
                sa.text("UPDATE memory_facts SET text = :t, embedding = CAST(:e AS vector), embedding_model = :m, "
                        "updated_at = now() WHERE id = :id AND owner IS NOT DISTINCT FROM CAST(:o AS text) RETURNING id, created_at"),
                {"t": text, "e": vector_literal(self.embedder.embed_texts([text])[0]), "m": self.embedder.name, "id": fact_id,
                 "o": self.owner},
            ).first()
        if row is None:
            raise NotFound(f"No memory fact {fact_id}.")
        return MemoryFact(row.id, text, row.created_at)

    def forget(self, fact_id: int) -> None:
        with self.engine.begin() as conn:
            if conn.execute(sa.text("DELETE FROM memory_facts WHERE id = :id AND owner IS NOT DISTINCT FROM CAST(:o AS text) RETURNING id"),
                            {"id": fact_id, "o": self.owner}).first() is None:
                raise NotFound(f"No memory fact {fact_id}.")

    def list(self) -> builtins.list[MemoryFact]:
        with self.engine.connect() as conn:
            return [MemoryFact(r.id, r.text, r.created_at)
                    for r in conn.execute(sa.text("SELECT id, text, created_at FROM memory_facts "
                                                 "WHERE owner IS NOT DISTINCT FROM CAST(:o AS text) ORDER BY id"), {"o": self.owner})]

    def recall(self, query: str, *, threshold: float = -1.0, limit: int = 20) -> builtins.list[MemoryFact]:
        """Facts ranked by cosine similarity to ``query`` (only those made with the configured model)."""
        if not (query or "").strip():
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT id, text, created_at, 1 - (embedding <=> CAST(:q AS vector)) AS sim FROM memory_facts "
                        "WHERE embedding_model = :m AND owner IS NOT DISTINCT FROM CAST(:o AS text) "
                        "ORDER BY embedding <=> CAST(:q AS vector) LIMIT :n"),
                {"q": vector_literal(self.embedder.embed_query(query)), "m": self.embedder.name, "n": max(1, min(limit, 200)),
                 "o": self.owner},
            ).all()
        return [MemoryFact(r.id, r.text, r.created_at, float(r.sim)) for r in rows if r.sim >= threshold]


def _clean(text: str) -> str:
    text = " ".join((text or "").split())
    if not text:
        raise ValidationFailed("A memory fact cannot be empty.")
    if len(text) > MAX_FACT_CHARS:
        raise ValidationFailed(f"A memory fact is at most {MAX_FACT_CHARS} characters.")
    return text
