"""A synthetic temporal knowledge graph shaped like an extracted one, written through the service's own statements.

Entities are people, organisations and places with generated names. Fact endpoints are drawn
with Zipf-like weights, so a few hub entities carry thousands of facts and most carry a handful,
as in graphs extracted from real text. About a fifth of the facts are single-valued relations
(``ceo_of``, ``located_in``, …) laid out as succession chains; the service's own validity
resolution then marks the older ones superseded with a ``valid_until``. Everything is seeded.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

FIRST = ["Ada", "Ben", "Carla", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kwame", "Lena",
         "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tara", "Ugo", "Vera", "Wei", "Yusuf", "Zoe"]
LAST = ["Adams", "Bauer", "Chen", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad", "Ivanova", "Jensen", "Kim",
        "Lopez", "Moreau", "Novak", "Okafor", "Petrova", "Rossi", "Silva", "Tanaka", "Umarov", "Varga", "Weber"]
ORG_WORDS = ["Acme", "Borealis", "Cobalt", "Delta", "Evergreen", "Falcon", "Granite", "Helix", "Ion", "Juniper",
             "Keystone", "Lumen", "Meridian", "Nimbus", "Orion", "Pinnacle", "Quartz", "Redwood", "Summit", "Tidal"]
ORG_KINDS = ["Corp", "Labs", "Holdings", "Bank", "Foundation", "Institute", "Group", "Partners", "Energy", "Media"]
PLACES = ["Springfield", "Riverton", "Lakeside", "Fairview", "Oakridge", "Greenville", "Hillcrest", "Bayport",
          "Northgate", "Westfield", "Eastwood", "Southport", "Kingston", "Milton", "Ashford", "Brookfield"]
MULTI = ["met_with", "signed", "visited", "founded", "acquired", "supports", "criticised", "member_of",
         "partner_of", "invested_in", "announced", "works_for", "sued", "advised", "funded"]
# single-valued relation -> (key side, subject kind, object kind)
CHAINS = {"ceo_of": ("object", "person", "org"), "president_of": ("object", "person", "org"),
          "located_in": ("subject", "org", "place"), "headquartered_in": ("subject", "org", "place"),
          "lives_in": ("subject", "person", "place")}
START = dt.date(1950, 1, 1)
DAYS = (dt.date(2024, 12, 31) - START).days


def entities(n: int, rng: random.Random) -> list[dict[str, Any]]:
    """``n`` distinct entities (about 55% people, 35% organisations, 10% places), in popularity order."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    while len(out) < n:
        roll = rng.random()
        if roll < 0.55:
            name, kind = f"{rng.choice(FIRST)} {rng.choice('ABCDEFGHJKLMNPRSTVW')}. {rng.choice(LAST)}", "PERSON"
        elif roll < 0.9:
            name, kind = f"{rng.choice(ORG_WORDS)} {rng.choice(ORG_WORDS)} {rng.choice(ORG_KINDS)}", "ORG"
        else:
            name, kind = f"{rng.choice(PLACES)} {rng.randint(1, 400)}", "GPE"
        key, base, n_same = name.lower().replace(".", ""), name, 1
        while key in seen:  # the name space is finite: number repeats, as "Ada B. Chen 2"
            n_same += 1
            name = f"{base} {n_same}"
            key = name.lower().replace(".", "")
        seen.add(key)
        out.append({"key": key, "name": name, "type": kind})
    return out


class _Picker:
    """Draws entities with Zipf-like weights (rank r has weight 1 / r**alpha), optionally of one type."""

    def __init__(self, ents: list[dict[str, Any]], alpha: float, rng: random.Random) -> None:
        self.rng = rng
        self.by_type: dict[str | None, tuple[list[dict[str, Any]], list[float]]] = {}
        weights = [1 / (rank + 1) ** alpha for rank in range(len(ents))]
        self.by_type[None] = (ents, _cumulative(weights))
        for kind in ("PERSON", "ORG", "GPE"):
            pairs = [(e, w) for e, w in zip(ents, weights) if e["type"] == kind]
            self.by_type[kind] = ([e for e, _ in pairs], _cumulative([w for _, w in pairs]))

    def pick(self, kind: str | None = None) -> dict[str, Any]:
        ents, cum = self.by_type[kind]
        return self.rng.choices(ents, cum_weights=cum, k=1)[0]


def _cumulative(weights: list[float]) -> list[float]:
    out, total = [], 0.0
    for w in weights:
        total += w
        out.append(total)
    return out


def _date(rng: random.Random, low: int = 0, high: int = DAYS) -> str:
    return (START + dt.timedelta(days=rng.randint(low, high))).isoformat()


def build(n_facts: int, n_entities: int, collection_id: int, *, alpha: float = 0.8, chain_share: float = 0.2,
          seed: int = 20) -> tuple[list[dict[str, Any]], list[dict[str, Any]], set[tuple[Any, ...]]]:
    """(entity rows, fact rows, single-valued slots to resolve) in the shapes MERGE_ENTITIES/CREATE_FACTS take."""
    rng = random.Random(seed)
    ents = entities(n_entities, rng)
    picker = _Picker(ents, alpha, rng)
    kinds = {"person": "PERSON", "org": "ORG", "place": "GPE"}
    facts: list[dict[str, Any]] = []
    slots: set[tuple[Any, ...]] = set()

    def add(src: dict[str, Any], rel: str, dst: dict[str, Any], when: str) -> None:
        n = len(facts)
        doc = n // 50 + 1  # ~50 facts per document, as a long extracted document gives
        facts.append({
            "id": f"{doc}:{n % 50}", "collection_id": collection_id, "source": src["key"], "target": dst["key"],
            "relation": rel, "document_id": doc, "chunk_id": doc * 100 + (n % 50) // 5,
            "sentence": f"On {when}, {src['name']} {rel.replace('_', ' ')} {dst['name']}.",
            "valid_from": when, "date_source": "sentence", "exclusive": None,
        })

    while len(facts) < n_facts * chain_share:  # succession chains: one slot, several holders over time
        rel = rng.choice(list(CHAINS))
        side, subj_kind, obj_kind = CHAINS[rel]
        anchor = picker.pick(kinds[obj_kind] if side == "object" else kinds[subj_kind])
        start = rng.randint(0, DAYS - 4000)
        for step in range(rng.randint(2, 6)):
            other = picker.pick(kinds[subj_kind] if side == "object" else kinds[obj_kind])
            when = _date(rng, start + step * 1200, start + step * 1200 + 900)
            src, dst = (other, anchor) if side == "object" else (anchor, other)
            if src["key"] != dst["key"]:
                add(src, rel, dst, when)
                slots.add((rel, src["key"], dst["key"], collection_id, None))
    while len(facts) < n_facts:
        src, dst = picker.pick(), picker.pick()
        if src["key"] != dst["key"]:
            add(src, rng.choice(MULTI), dst, _date(rng))
    used = {k for f in facts for k in (f["source"], f["target"])}
    rows = [{"collection_id": collection_id, **e} for e in ents if e["key"] in used]
    return rows, facts, slots


def degrees(facts: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in facts:
        for key in (f["source"], f["target"]):
            out[key] = out.get(key, 0) + 1
    return out
