"""A collection's fact graph (or the scene on screen) as GraphML, neo4j-admin CSV or JSON; JSON read back in.

Every entity is written with its key, name, type and aliases; every fact with its id, relation, raw phrase,
dates, status, document and chunk ids, sentence, and who added it (an analyst's fact). GraphML (written with
the standard library's ``xml.etree``) opens in Gephi and yEd: attributes are declared ``<key>``s, edges are
directed, ``label`` is the name (yEd maps it to the node label with Edit > Properties Mapper). CSV follows the
header format of ``neo4j-admin database import`` (``nodes.csv``: ``key:ID``, ``aliases:string[]`` split on
``;``, ``:LABEL``; ``relationships.csv``: ``:START_ID``, ``:END_ID``, ``:TYPE``). JSON is this module's own
format, and :func:`import_json` loads it into an empty collection.
"""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
import zipfile
from typing import Any

from services.errors import ValidationFailed
from services.graph.model import Subgraph
from services.graph.queries import EXPORT_ENTITIES, EXPORT_FACTS  # the backup's reads, in pages
from services.graph.rewrite import ENTITY_FIELDS, FACT_FIELDS, Snapshot, Store, rewrite

FORMATS = ("graphml", "csv", "json")
JSON_FORMAT = "rag-memory-graph"
PAGE = 5_000
NODE_ATTRS = ("name", "type", "aliases")
EDGE_ATTRS = ("relation", "raw", "valid_from", "valid_until", "stated_on", "status", "document_id", "chunk_id",
              "sentence", "added_by", "note", "valid_from_precision", "valid_until_precision", "stated_on_precision")


def collection_graph(store: Store, collection_id: int) -> Snapshot:
    """Every entity and fact of a collection, read in pages."""
    snap = Snapshot()
    for query, into, key in ((EXPORT_ENTITIES, snap.entities, "key"), (EXPORT_FACTS, snap.facts, "id")):
        skip = 0
        while True:
            rows = store.query(query, {"collection_id": collection_id, "skip": skip, "limit": PAGE})
            for row in rows:
                into[str(row[key])] = dict(row)
            if len(rows) < PAGE:
                break
            skip += PAGE
    for ent in snap.entities.values():
        ent["aliases"], ent["alias_keys"] = list(ent.get("aliases") or []), list(ent.get("alias_keys") or [])
        ent["type"], ent["stated"] = ent.get("type") or "", bool(ent.get("stated"))
    return snap


def scene_graph(scene: Subgraph) -> Snapshot:
    """The entities and facts of a subgraph on screen, in the export's shape."""
    snap = Snapshot()
    for ent in scene.nodes.values():
        snap.entities[ent.key] = {"key": ent.key, "name": ent.name, "type": ent.type, "aliases": list(ent.aliases)}
    for f in scene.facts:
        snap.facts[f.id] = {"id": f.id, "source": f.source_key, "target": f.target_key, "relation": f.relation,
                            "raw": f.raw, "document_id": f.document_id, "chunk_id": f.chunk_id, "sentence": f.sentence,
                            "valid_from": f.valid_from, "valid_until": f.valid_until, "stated_on": f.stated_on,
                            "status": f.status, "valid_from_precision": f.valid_from_precision,
                            "valid_until_precision": f.valid_until_precision,
                            "stated_on_precision": f.stated_on_precision}
    return snap


def to_graphml(snap: Snapshot) -> bytes:
    root = ET.Element("graphml", {"xmlns": "http://graphml.graphdrawing.org/xmlns"})
    attrs = [("node", "label"), *(("node", a) for a in NODE_ATTRS), *(("edge", a) for a in ("label", *EDGE_ATTRS))]
    for scope, name in attrs:
        ET.SubElement(root, "key", {"id": f"{scope[0]}_{name}", "for": scope, "attr.name": name,
                                    "attr.type": "string"})
    graph = ET.SubElement(root, "graph", {"id": "G", "edgedefault": "directed"})

    def data(parent: ET.Element, key: str, value: Any) -> None:
        if value is not None and value != "":
            ET.SubElement(parent, "data", {"key": key}).text = str(value)

    for ent in snap.entities.values():
        node = ET.SubElement(graph, "node", {"id": ent["key"]})
        data(node, "n_label", ent["name"])
        for name in NODE_ATTRS:
            data(node, f"n_{name}", "; ".join(ent.get(name) or []) if name == "aliases" else ent.get(name))
    for fact in snap.facts.values():
        edge = ET.SubElement(graph, "edge", {"id": fact["id"], "source": fact["source"], "target": fact["target"]})
        data(edge, "e_label", fact.get("raw") or fact["relation"])
        for name in EDGE_ATTRS:
            data(edge, f"e_{name}", fact.get(name))
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True))


def to_csv(snap: Snapshot) -> dict[str, bytes]:
    """``nodes.csv`` and ``relationships.csv`` in neo4j-admin's import header format."""
    nodes, rels = io.StringIO(), io.StringIO()
    out = csv.writer(nodes)
    out.writerow(["key:ID", "name", "type", "aliases:string[]", ":LABEL"])
    for e in snap.entities.values():
        out.writerow([e["key"], e["name"], e.get("type") or "", ";".join(e.get("aliases") or []), "Entity"])
    out = csv.writer(rels)
    out.writerow([":START_ID", ":END_ID", ":TYPE", "id", *(f"{a}:long" if a.endswith("_id") else a for a in EDGE_ATTRS)])
    for f in snap.facts.values():
        out.writerow([f["source"], f["target"], "FACT", f["id"], *("" if f.get(a) is None else f[a] for a in EDGE_ATTRS)])
    return {"nodes.csv": nodes.getvalue().encode(), "relationships.csv": rels.getvalue().encode()}


def to_json(snap: Snapshot, collection: str) -> bytes:
    data = {"format": JSON_FORMAT, "version": 1, "collection": collection,
            "entities": list(snap.entities.values()), "facts": list(snap.facts.values())}
    return json.dumps(data, ensure_ascii=False, indent=1, default=str).encode()


def zipped(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in files.items():
            z.writestr(name, content)
    return buf.getvalue()


def render(snap: Snapshot, fmt: str, collection: str) -> dict[str, bytes]:
    """The export's files by name: one for graphml and json, two for csv."""
    stem = collection.replace("/", "_")
    if fmt == "graphml":
        return {f"{stem}.graphml": to_graphml(snap)}
    if fmt == "json":
        return {f"{stem}.graph.json": to_json(snap, collection)}
    if fmt == "csv":
        return to_csv(snap)
    raise ValidationFailed(f"Unknown export format {fmt!r}: use one of {', '.join(FORMATS)}.")


def parse_json(content: bytes | str) -> Snapshot:
    try:
        data = json.loads(content)
    except ValueError as exc:
        raise ValidationFailed(f"Not a graph export (invalid JSON: {exc}).") from None
    if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
        raise ValidationFailed(f"Not a graph export of this workbench (format is not {JSON_FORMAT!r}).")
    snap = Snapshot()
    for ent in data.get("entities") or []:
        if not isinstance(ent, dict) or not ent.get("key") or not ent.get("name"):
            raise ValidationFailed(f"An entity of the export has no key or name: {str(ent)[:200]}")
        snap.entities[str(ent["key"])] = {f: ent.get(f) for f in ENTITY_FIELDS}
        snap.entities[str(ent["key"])].update(aliases=list(ent.get("aliases") or []),
                                              alias_keys=list(ent.get("alias_keys") or []),
                                              stated=bool(ent.get("stated")), type=ent.get("type") or "")
    for fact in data.get("facts") or []:
        if not isinstance(fact, dict) or not all(fact.get(k) for k in ("id", "source", "target", "relation")):
            raise ValidationFailed(f"A fact of the export lacks its id, ends or relation: {str(fact)[:200]}")
        if fact["source"] not in snap.entities or fact["target"] not in snap.entities:
            raise ValidationFailed(f"Fact {fact['id']} names an entity the export does not hold.")
        snap.facts[str(fact["id"])] = {f: fact.get(f) for f in FACT_FIELDS}
    return snap


def import_snapshot(store: Store, collection_id: int, snap: Snapshot) -> dict[str, int]:
    """Write an exported graph into a collection whose graph is empty."""
    rows = store.query("MATCH (e:Entity {collection_id: $c}) RETURN count(e) AS n", {"c": collection_id})
    if rows and int(rows[0]["n"]):
        raise ValidationFailed("The collection already has a graph: import into a collection without one.")
    for fact in snap.facts.values():
        fact["status"] = fact.get("status") or "current"
    rewrite(store, collection_id, Snapshot(), snap)
    return {"entities": len(snap.entities), "facts": len(snap.facts)}
