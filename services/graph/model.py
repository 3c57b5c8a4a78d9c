"""Typed results of graph queries: facts, entities and subgraphs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.graph.temporal import SINGLE_VALUED, shown_date


@dataclass(frozen=True)
class Entity:
    collection_id: int
    key: str
    name: str
    type: str
    degree: int = 0
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fact:
    id: str
    collection_id: int
    source_key: str
    source: str
    source_type: str
    relation: str
    target_key: str
    target: str
    target_type: str
    document_id: int | None
    chunk_id: int | None
    sentence: str
    valid_from: str | None
    valid_until: str | None
    status: str
    date_source: str | None = None
    score: float | None = None
    exclusive: str | None = None  # the side that holds one value at a time, when the extractor said so
    raw: str = ""  # the phrase the text used ("was bordered by"); ``relation`` is its canonical label
    stated_on: str | None = None  # the document's own date: when the fact was stated, not when it held
    # how much of each date the text gave: year, month or day (None on facts stored before it was kept)
    valid_from_precision: str | None = None
    valid_until_precision: str | None = None
    stated_on_precision: str | None = None

    @property
    def single_valued(self) -> bool:
        """One value at a time (a CEO, a capital): a later fact naming another ends this one. Other facts
        (statements) have no known end."""
        return self.relation in SINGLE_VALUED or bool(self.exclusive)

    @classmethod
    def from_row(cls, row: dict[str, Any], score: float | None = None) -> Fact:
        return cls(
            id=str(row["id"]), collection_id=int(row["collection_id"]), source_key=row["source_key"],
            source=row["source"], source_type=row.get("source_type") or "", relation=row["relation"],
            target_key=row["target_key"], target=row["target"], target_type=row.get("target_type") or "",
            document_id=row.get("document_id"), chunk_id=row.get("chunk_id"), sentence=row.get("sentence") or "",
            valid_from=row.get("valid_from"), valid_until=row.get("valid_until"),
            status=row.get("status") or "current", date_source=row.get("date_source"), score=score,
            exclusive=row.get("exclusive") or None, raw=row.get("raw") or "", stated_on=row.get("stated_on"),
            valid_from_precision=row.get("valid_from_precision"), valid_until_precision=row.get("valid_until_precision"),
            stated_on_precision=row.get("stated_on_precision"),
        )

    @property
    def when(self) -> str | None:
        """The fact's best date: when it held, else when its document stated it."""
        return self.valid_from or self.stated_on

    @property
    def when_precision(self) -> str | None:
        return self.valid_from_precision if self.valid_from else self.stated_on_precision

    def shown(self, which: str) -> str | None:
        """``valid_from``, ``valid_until``, ``stated_on`` or ``when`` as the text gave it ("1998", "1998-03",
        "1998-01-01"; services.graph.temporal.shown_date)."""
        if which == "when":
            return shown_date(self.when, self.when_precision)
        return shown_date(getattr(self, which), getattr(self, f"{which}_precision"))


@dataclass
class Subgraph:
    """Entities and the facts between them; nodes are keyed by entity key."""

    nodes: dict[str, Entity] = field(default_factory=dict)
    facts: list[Fact] = field(default_factory=list)
    _fact_ids: set[str] = field(default_factory=set, repr=False, compare=False)

    def add(self, fact: Fact) -> None:
        if not self._fact_ids:  # facts given to the constructor
            self._fact_ids.update(f.id for f in self.facts)
        if fact.id in self._fact_ids:  # a set: a 2,000-fact neighbourhood was 2M comparisons
            return
        self._fact_ids.add(fact.id)
        self.facts.append(fact)
        for key, name, kind in ((fact.source_key, fact.source, fact.source_type),
                                (fact.target_key, fact.target, fact.target_type)):
            self.nodes.setdefault(key, Entity(fact.collection_id, key, name, kind))


@dataclass(frozen=True)
class GraphIndexResult:
    document_id: int
    status: str  # done | failed | disabled | cancelled
    entities: int = 0
    facts: int = 0
    error: str | None = None
    extract_seconds: float = 0.0  # where the time went: extraction, then the graph writes
    write_seconds: float = 0.0
