"""What each analyst edit does to a snapshot of the graph: pure functions, used for the edit itself and for its
replay after a document's facts are written again (so every one of them is idempotent: applied to a graph that
already shows it, it changes nothing).

An edit's ``params`` hold everything a replay needs without the person who made it: the entity rows it creates
or folds, the names that become aliases, and a fact's signature (its document, relation, phrase, sentence and
ends) besides its id, since a fact deleted and written again by a re-ingest is the same fact.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.graph.entities import entity_key
from services.graph.rewrite import Snapshot

KINDS = ("merge", "rename", "retype", "split", "delete_entity", "delete_fact", "add_fact")
SIGNATURE = ("document_id", "relation", "raw", "sentence", "source", "target")


def touched(kind: str, params: dict[str, Any]) -> tuple[set[str], set[str], bool]:
    """The entity keys and fact ids an edit reads, and whether it needs every fact of those entities."""
    if kind == "merge":
        return {params["into"]["key"], *params["others"]}, set(), True
    if kind in ("rename", "retype"):
        return {params["key"]}, set(), False
    if kind == "split":
        return {params["key"], params["new"]["key"]}, set(), True
    if kind == "delete_entity":
        return {params["key"]}, set(), True
    if kind == "delete_fact":
        sig = params["fact"]
        return {sig["source"], sig["target"]}, {sig["id"]}, True
    if kind == "add_fact":
        return {params["subject"]["key"], params["object"]["key"]}, {params["fact"]["id"]}, False
    raise ValueError(kind)


def apply(kind: str, before: Snapshot, params: dict[str, Any]) -> Snapshot:
    """The snapshot as the edit leaves it (``before`` is not changed)."""
    return _OPS[kind](before.copy(), params)


def set_aliases(entity: dict[str, Any], aliases: list[str]) -> None:
    """Aliases without the name itself or repeats; their keys, without the entity's own name key."""
    name = entity["name"].casefold()
    kept = list(dict.fromkeys(a for a in aliases if a and a.casefold() != name))
    entity["aliases"] = kept
    own = entity["key"].split("#")[0]
    entity["alias_keys"] = sorted({k for k in (entity_key(a) for a in kept) if k} - {own})


def _merge(snap: Snapshot, p: dict[str, Any]) -> Snapshot:
    into_key = p["into"]["key"]
    present = [k for k in p["others"] if k in snap.entities and k != into_key]
    if not present and into_key not in snap.entities:
        return snap  # nothing of the edit is in the graph now (its documents are gone)
    target = snap.entities.get(into_key) or {**p["into"]}
    snap.entities[into_key] = target
    aliases = list(target.get("aliases") or []) + list(p.get("names") or [])
    for key in present:
        gone = snap.entities.pop(key)
        aliases += [gone["name"], *(gone.get("aliases") or [])]
    set_aliases(target, aliases)
    for fact in snap.facts.values():
        for side in ("source", "target"):
            if fact[side] in present:
                fact[side] = into_key
    return snap


def _rename(snap: Snapshot, p: dict[str, Any]) -> Snapshot:
    ent = snap.entities.get(p["key"])
    if ent is None or (ent["name"] == p["name"] and p["old"] in ent["aliases"]):
        return snap
    old = ent["name"]
    ent["name"] = p["name"]
    ent["name_key"] = entity_key(p["name"]) or ent.get("name_key")
    set_aliases(ent, [*ent["aliases"], old, p["old"]])
    return snap


def _retype(snap: Snapshot, p: dict[str, Any]) -> Snapshot:
    ent = snap.entities.get(p["key"])
    if ent is not None:
        ent["type"], ent["stated"] = p["type"], True
    return snap


def _split(snap: Snapshot, p: dict[str, Any]) -> Snapshot:
    key, new_key = p["key"], p["new"]["key"]
    documents = set(p.get("documents") or [])
    signatures = [f for f in p.get("facts") or []]

    def chosen(fact: dict[str, Any]) -> bool:
        if key not in (fact["source"], fact["target"]):
            return False
        return fact["document_id"] in documents or any(_same_fact(fact, sig) for sig in signatures)

    moving = [f for f in snap.facts.values() if chosen(f)]
    if not moving:
        return snap
    snap.entities.setdefault(new_key, {**p["new"]})
    for fact in moving:
        for side in ("source", "target"):
            if fact[side] == key:
                fact[side] = new_key
    return snap


def _delete_entity(snap: Snapshot, p: dict[str, Any]) -> Snapshot:
    if p["key"] not in snap.entities:
        return snap
    del snap.entities[p["key"]]
    for fid in [i for i, f in snap.facts.items() if p["key"] in (f["source"], f["target"])]:
        del snap.facts[fid]
    return snap


def _delete_fact(snap: Snapshot, p: dict[str, Any]) -> Snapshot:
    for fid in [i for i, f in snap.facts.items() if _same_fact(f, p["fact"])]:
        del snap.facts[fid]
    return snap


def _add_fact(snap: Snapshot, p: dict[str, Any]) -> Snapshot:
    fact = p["fact"]
    if fact["id"] in snap.facts:
        return snap
    for side in ("subject", "object"):
        snap.entities.setdefault(p[side]["key"], {**p[side]})
    snap.facts[fact["id"]] = {**fact}
    return snap


def _same_fact(fact: dict[str, Any], sig: dict[str, Any]) -> bool:
    """The same fact: its id, or (written again by a re-ingest) its document, relation, phrase, sentence and ends."""
    return fact["id"] == sig["id"] or (sig.get("document_id") is not None
                                       and all(fact.get(f) == sig.get(f) for f in SIGNATURE))


def signature(fact: dict[str, Any]) -> dict[str, Any]:
    return {"id": fact["id"], **{f: fact.get(f) for f in SIGNATURE}}


_OPS: dict[str, Callable[[Snapshot, dict[str, Any]], Snapshot]] = {
    "merge": _merge, "rename": _rename, "retype": _retype, "split": _split, "delete_entity": _delete_entity,
    "delete_fact": _delete_fact, "add_fact": _add_fact,
}
