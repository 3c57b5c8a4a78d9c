"""Likely duplicate entities of a collection, each with its evidence, for the analyst to accept (merge), reject
or mark 'never'.

Three kinds of evidence, in the order they weigh:

* a stated alias: one entity's aliases hold the other's name;
* name containment with a compatible type: the shorter name is a whole-word run inside the longer ("Smith" in
  "Alice Smith", "Acme Corp" at the start of "Acme Corporation"), both of a compatible kind;
* name-embedding similarity: the local model's vectors of the two names at cosine ≥ 0.8 (the threshold
  HippoRAG 2 links synonyms at), for collections up to :data:`MAX_EMBEDDED` entities.

'rejected' hides a pair while its evidence is what it was; 'never' hides it for good.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from services.graph.entities import entity_key
from services.graph.spans import ENTITY, compatible, kind

COSINE = 0.8
MAX_EMBEDDED = 3_000


@dataclass
class Suggestion:
    key_a: str  # the entity to keep (more facts), the other is folded into it on accept
    key_b: str
    name_a: str
    name_b: str
    type_a: str
    type_b: str
    facts_a: int
    facts_b: int
    evidence: list[str] = field(default_factory=list)
    score: float = 0.0
    decision: str | None = None  # rejected | never, when the analyst has answered

    @property
    def pair(self) -> tuple[str, str]:
        return pair(self.key_a, self.key_b)

    @property
    def evidence_text(self) -> str:
        return "; ".join(self.evidence)


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def _types_fit(a: dict[str, Any], b: dict[str, Any]) -> bool:
    ta, tb = a.get("type") or ENTITY, b.get("type") or ENTITY
    return compatible(ta, tb) or ENTITY in (ta, tb)


def _contained(short: str, long: str) -> bool:
    return short != long and bool(re.search(r"(?<!\w)" + re.escape(short), long))


def find(entities: list[dict[str, Any]], degrees: dict[str, int],
         embed: Callable[[list[str]], np.ndarray] | None) -> list[Suggestion]:
    """Candidate pairs among ``entities`` (rows with key, name, type, aliases), best first."""
    found: dict[tuple[str, str], Suggestion] = {}
    by_key = {e["key"]: e for e in entities}

    def add(a: dict[str, Any], b: dict[str, Any], evidence: str, weight: float) -> None:
        if degrees.get(b["key"], 0) > degrees.get(a["key"], 0):
            a, b = b, a
        key = pair(a["key"], b["key"])
        s = found.setdefault(key, Suggestion(a["key"], b["key"], a["name"], b["name"], a.get("type") or "",
                                             b.get("type") or "", degrees.get(a["key"], 0), degrees.get(b["key"], 0)))
        if evidence not in s.evidence:
            s.evidence.append(evidence)
            s.score = round(min(1.0, s.score + weight), 3)

    names = {e["key"]: entity_key(e["name"]) or e["key"] for e in entities}
    by_name: dict[str, list[dict[str, Any]]] = {}
    for e in entities:
        by_name.setdefault(names[e["key"]], []).append(e)
    for e in entities:  # stated aliases
        for alias in e.get("aliases") or []:
            for other in by_name.get(entity_key(alias), []):
                if other["key"] != e["key"]:
                    add(e, other, f"{other['name']!r} is a stated alias of {e['name']!r}", 1.0)
    words: dict[str, list[str]] = {}
    for key, name in names.items():
        for w in set(name.split()):
            words.setdefault(w, []).append(key)
    for key, name in names.items():  # containment, through a shared word
        for other_key in {k for w in name.split() for k in words.get(w, []) if k != key}:
            longer = names[other_key]
            a, b = by_key[key], by_key[other_key]
            if len(name) < len(longer) and _contained(name, longer) and _types_fit(a, b) and kind(a.get("type") or ENTITY) != "place":
                shown = kind(a.get("type") or ENTITY)
                add(b, a, f"name {a['name']!r} is contained in {b['name']!r} (both {shown})", 0.6)
    if embed is not None and 1 < len(entities) <= MAX_EMBEDDED:
        keys = list(names)
        vectors = np.asarray(embed([by_key[k]["name"] for k in keys]), dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
        sims = vectors @ vectors.T
        rows, cols = np.nonzero(np.triu(sims, k=1) >= COSINE)
        for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
            a, b = by_key[keys[i]], by_key[keys[j]]
            if _types_fit(a, b):
                add(a, b, f"names embed at cosine {float(sims[i, j]):.2f}", float(sims[i, j]) * 0.5)
    return sorted(found.values(), key=lambda s: (-s.score, -(s.facts_a + s.facts_b), s.key_a, s.key_b))
