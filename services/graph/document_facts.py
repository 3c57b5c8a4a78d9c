"""A document's extracted nodes as the rows the graph store takes: entities resolved, facts keyed and dated.

The extractor works segment by segment; here the segments' entities are resolved together
(:func:`services.graph.resolution.resolve_document`) and matched to the collection's
(:func:`services.graph.resolution.match_existing`, given the rows the store holds under the same names).
Each fact keeps its raw phrase and the validity its clause states; the document's own date (``date`` or
``year`` metadata) is ``stated_on``, apart from validity. Each date keeps its precision (year, month or day).
The ingestion time is never a date of a fact.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY
from llama_index.core.schema import BaseNode

from services.graph.entities import entity_key
from services.graph.extraction import TOPIC_KEY
from services.graph.mentions import MENTIONS_KEY
from services.graph.name_words import given_names
from services.graph.resolution import DocEntity, match_existing, resolve_document
from services.graph.spans import ENTITY, strip_titles, typed_name
from services.graph.temporal import dated_document


@dataclass
class DocumentRows:
    entities: list[dict[str, Any]]
    facts: list[dict[str, Any]]
    walk_keys: dict[str, str]  # collection key -> the name key the walk graph uses


def _found(nodes: Sequence[BaseNode]) -> list[tuple[Any, ...]]:
    """Every entity of the document's facts, and the persons it names in full in no fact: those only for a short
    form to resolve to ("credited to Hank Williams and his wife Audrey Williams, although Audrey maintained …");
    an entity no fact uses is not written."""
    out: list[tuple[Any, ...]] = []
    for node in nodes:
        for ent in node.metadata.get(KG_NODES_KEY, []):
            p = ent.properties
            out.append((p["key"], ent.name, ent.label or ENTITY, bool(p.get("stated")), list(p.get("aliases") or []),
                        int(p.get("mentions") or 1), bool(p.get("topic")), p.get("confirmed"), bool(p.get("term"))))
    seen = {f[0] for f in out}
    for topic in {n.metadata.get(TOPIC_KEY) or "" for n in nodes}:  # "the Presidency of Shimon Peres": a person
        held = re.search(r"\bof ((?:[A-Z][\w'-]+ )+[A-Z][\w'-]+)$", topic)  # the topic names ("Peres")
        name = held.group(1) if held else ""
        key = entity_key(name)
        if key and (key.split()[0] in given_names() or key.split()[-1] in seen) and key not in seen:
            seen.add(key)
            out.append((key, name, "PERSON", False, [], 1, False, None, False, True))
    for node in nodes:
        for m in node.metadata.get(MENTIONS_KEY, []):
            # (a name the tagger called a person whose words say otherwise is none: "Chandris Fantasy Cruises")
            name = re.sub(r"^(?:(?!(?:the|a|an|de|da|di|del|della|du|la|le|van|von|der|den|ter|al|el|bin|ibn|ap)\b)"
                          r"[a-z]+ )+", "", m.name)  # "forces an older Bruce Wayne": the tagger's word of his age (not
            # "de Gaulle"; nor "the": "the Brady Bunch" is no one's name)
            key = entity_key(strip_titles(name)) if _a_persons(name, m.type) else ""
            if key and len(key.split()) > 1 and key not in seen:
                seen.add(key)
                out.append((key, name, m.type, False, [], 1, False, None, False, True))
    return out


def _a_persons(name: str, tag: str) -> bool:
    """A mention that may be a person's full name: tagged one, or a given name and one more word the tagger
    called an organisation ("a group led by Carroll Rosenbloom … Rosenbloom was granted an NFL team"), which keeps
    the tagger's type (it may be a firm: "Morgan Stanley")."""
    if tag == "ORG":
        words = name.split()
        return len(words) == 2 and words[0].lower() in given_names() and typed_name(name, "PERSON") == "PERSON"
    return tag == "PERSON" and typed_name(name, tag) == "PERSON"


def document_rows(*, document_id: int, collection_id: int, metadata: dict[str, Any], nodes: Sequence[BaseNode],
                  chunks: list[tuple[int, int]], existing: Callable[[list[str]], list[dict[str, Any]]]) -> DocumentRows:
    """Entity and fact rows for one document; ``existing(keys)`` reads the collection's entities with those name
    or alias keys."""
    entities, local = resolve_document(_found(nodes))
    wanted = sorted({k for e in entities.values() for k in (e.key, *e.alias_keys)})
    rows = existing(wanted) if wanted else []
    final = match_existing(entities, rows)
    by_key = {r["key"]: r for r in rows}
    stated_on, stated_precision = dated_document(metadata) or (None, None)
    starts, chunk_ids = [s for _, s in chunks], [i for i, _ in chunks]
    facts: dict[tuple[str, str, str, int], dict[str, Any]] = {}
    for node in nodes:
        id_to_key = {e.id: e.properties["key"] for e in node.metadata.get(KG_NODES_KEY, [])}
        for rel in node.metadata.get(KG_RELATIONS_KEY, []):
            src = final[local[id_to_key[rel.source_id]]]
            dst = final[local[id_to_key[rel.target_id]]]
            if src == dst or any(entities[local[id_to_key[i]]].ambiguous for i in (rel.source_id, rel.target_id)):
                continue  # a surname two people of the text bear says neither
            props = rel.properties
            slot = (src, rel.label, dst, props["char_start"])
            if slot in facts:
                continue
            at = bisect.bisect_right(starts, props["char_start"]) - 1
            valid_from, valid_until = props.get("valid_from"), props.get("valid_until")
            facts[slot] = {
                "id": f"{document_id}:{len(facts)}", "collection_id": collection_id, "source": src, "target": dst,
                "relation": rel.label,  # both extractors give vocabulary labels (the LLM's through canonical())
                "raw": props.get("raw") or rel.label.replace("_", " "), "document_id": document_id,
                "chunk_id": chunk_ids[at] if at >= 0 and chunk_ids else None, "sentence": props["sentence"],
                "valid_from": valid_from, "valid_until": valid_until, "stated_on": stated_on,
                "valid_from_precision": props.get("valid_from_precision") if valid_from else None,
                "valid_until_precision": props.get("valid_until_precision") if valid_until else None,
                "stated_on_precision": stated_precision,
                "date_source": "text" if (valid_from or valid_until) else None, "exclusive": props.get("exclusive"),
            }
    used = {k for f in facts.values() for k in (f["source"], f["target"])}
    out = [_entity_row(collection_id, e, final[e.key], by_key.get(final[e.key]))
           for e in entities.values() if final[e.key] in used]
    walk = {final[e.key]: entity_key(e.name) for e in entities.values()}
    return DocumentRows(out, list(facts.values()), walk)


def _entity_row(collection_id: int, ent: DocEntity, key: str, old: dict[str, Any] | None) -> dict[str, Any]:
    aliases = list(dict.fromkeys([*(old.get("aliases") or [] if old else []), *ent.aliases]))
    if old and old.get("name") and old["name"].lower() != ent.name.lower() and ent.name not in aliases:
        aliases.append(ent.name)  # a document calls the entity by another of its names
    name = old["name"] if old and old.get("name") else ent.name
    aliases = [a for a in aliases if a.lower() != name.lower()]
    keep_old_type = old is not None and (old.get("stated") or (not ent.stated and (old.get("type") or ENTITY) != ENTITY))
    return {"collection_id": collection_id, "key": key, "name": name,
            "type": old["type"] if keep_old_type and old else ent.type,
            "name_key": (old or {}).get("name_key") or ent.key, "stated": bool(ent.stated or (old or {}).get("stated")),
            "aliases": aliases,
            "alias_keys": sorted({k for k in (entity_key(a) for a in aliases) if k} - {key.split("#")[0]})}
