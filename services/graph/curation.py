"""The analyst's edits of a collection's fact graph: merge, rename, retype, split, delete, add; history and undo.

Each edit is worked out on a snapshot of what it touches (services/graph/edit_ops.py), recorded in
``graph_edits`` with that snapshot before and after, and written to the graph in one rewrite
(services/graph/rewrite.py), all while the collection's edit lock is held in the recording transaction. If
the graph write fails, what it wrote is taken back, the edit is kept as ``failed`` with the error, and
:class:`StoreUnavailable` is raised: nothing is half-applied. :meth:`CurationService.replay` applies the
collection's edits again after a document's facts are written (re-ingest, rebuild), so a merge stays merged.
Undo takes back the newest applied edit, one at a time, by writing its ``before`` snapshot back.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from services.errors import AmbiguousName, NotFound, StoreUnavailable, ValidationFailed
from services.graph import edit_log, edit_ops
from services.graph.edit_log import GraphEdit
from services.graph.edit_replay import replay, write
from services.graph.entities import display_name, entity_key
from services.graph.model import Entity
from services.graph.rewrite import Snapshot, read, rewrite

if TYPE_CHECKING:  # collections sit above the graph: the container passes one in
    from services.collections import CollectionService
    from services.graph.service import GraphService

log = logging.getLogger(__name__)
MAX_NAME = 300


@dataclass
class CurationService:
    graph: GraphService
    collections: CollectionService
    embedder: Any = None  # names' vectors for the duplicate suggestions; without it, aliases and containment only

    @property
    def engine(self) -> Any:
        return self.graph.engine

    # -- finding what an edit names -------------------------------------------------------------
    def entity(self, collection_id: int, name: str) -> Entity:
        """The one entity whose key, name or alias is exactly ``name`` (a key such as ``barcelona#org`` too).

        No partial matches: an edit must not fall on the wrong entity. None raises :class:`NotFound` naming the
        closest entities; several raise :class:`AmbiguousName` listing their keys."""
        text = (name or "").strip()
        if not text:
            raise ValidationFailed("Give an entity name.")
        given = self.graph.entities_by_keys([text.lower()], [collection_id]) if "#" in text else []
        if given:  # a homonym's key, as an ambiguity message lists it
            return given[0]
        key = entity_key(text)
        found = self.graph.find_entities(text, [collection_id], limit=50)
        exact = [e for e in found if e.key.split("#")[0] == key or e.name.casefold() == text.casefold()
                 or key in (entity_key(a) for a in e.aliases)]
        if len(exact) > 1:
            listed = ", ".join(f"{e.name} ({e.type or 'untyped'}, key {e.key}, {e.degree} facts)" for e in exact[:10])
            raise AmbiguousName(f"{name!r} names {len(exact)} entities: {listed}. Give the key of the one you mean.",
                                [e.key for e in exact])
        if exact:
            return exact[0]
        near = ", ".join(f"{e.name} (key {e.key})" for e in found[:5])
        raise NotFound(f"No entity named {name!r} in this collection." + (f" Close: {near}." if near else ""))

    def _cid(self, collection: str) -> int:
        return self.collections.get(collection).id

    # -- the edits ------------------------------------------------------------------------------
    def merge(self, collection: str, names: list[str], *, author: str) -> GraphEdit:
        """Fold the second and later entities into the first: every fact kept, their names become its aliases."""
        cid = self._cid(collection)
        return self.merge_keys(cid, [self.entity(cid, n).key for n in names], author=author)

    def merge_keys(self, cid: int, given: list[str], *, author: str) -> GraphEdit:
        keys = list(dict.fromkeys(given))
        if len(keys) < 2:
            raise ValidationFailed("Give at least two different entities to merge.")
        ents = self.graph.entities_by_keys(keys, [cid])
        if len(ents) != len(keys):
            raise NotFound(f"No entity with key {', '.join(sorted(set(keys) - {e.key for e in ents}))} now.")
        into = read(self.graph.store, cid, {keys[0]}, with_facts=False).entities[keys[0]]
        others = [e for e in ents if e.key != keys[0]]
        params = {"into": into, "others": keys[1:], "names": [n for e in others for n in (e.name, *e.aliases)]}
        summary = f"merged {', '.join(repr(e.name) for e in others)} into {into['name']!r}"
        return self._edit(cid, "merge", params, summary, author)

    def rename(self, collection: str, name: str, new_name: str, *, author: str) -> GraphEdit:
        cid = self._cid(collection)
        ent, new = self.entity(cid, name), _name(new_name)
        if new == ent.name:
            raise ValidationFailed(f"{ent.name!r} already has that name.")
        return self._edit(cid, "rename", {"key": ent.key, "name": new, "old": ent.name},
                          f"renamed {ent.name!r} to {new!r}", author)

    def retype(self, collection: str, name: str, new_type: str, *, author: str) -> GraphEdit:
        cid = self._cid(collection)
        ent, kind = self.entity(cid, name), _name(new_type, what="type").upper()
        if kind == ent.type:
            raise ValidationFailed(f"{ent.name!r} is already of type {kind}.")
        return self._edit(cid, "retype", {"key": ent.key, "type": kind, "old": ent.type},
                          f"type of {ent.name!r} {ent.type or 'untyped'} -> {kind}", author)

    def split(self, collection: str, name: str, new_name: str, *, new_type: str | None = None,
              documents: list[int] | None = None, fact_ids: list[str] | None = None, author: str) -> GraphEdit:
        """Move the entity's facts of some documents, or some chosen facts, to another entity (new or not)."""
        if not documents and not fact_ids:
            raise ValidationFailed("Say which facts go to the new entity: give documents or fact ids.")
        cid = self._cid(collection)
        ent, new = self.entity(cid, name), _name(new_name)
        snap = read(self.graph.store, cid, {ent.key})
        facts = [f for f in snap.facts.values() if ent.key in (f["source"], f["target"])]
        unknown = sorted(set(fact_ids or []) - {f["id"] for f in facts})
        if unknown:
            raise NotFound(f"{ent.name!r} has no fact with id {', '.join(unknown)}.")
        missing = sorted(set(documents or []) - {f["document_id"] for f in facts})
        if missing:
            raise NotFound(f"No fact of {ent.name!r} comes from document {', '.join(map(str, missing))}.")
        new_key = entity_key(new) or new.lower()
        if new_key == ent.key.split("#")[0]:
            new_key = f"{new_key}#split{uuid.uuid4().hex[:6]}"
        kind = (new_type or ent.type or "").upper()
        row = {"key": new_key, "name": new, "type": kind, "name_key": entity_key(new), "stated": bool(new_type),
               "aliases": [], "alias_keys": []}
        chosen = [edit_ops.signature(f) for f in facts if f["id"] in set(fact_ids or [])]
        params = {"key": ent.key, "new": row, "documents": sorted(documents or []), "facts": chosen}
        what = f"documents {', '.join(map(str, sorted(documents)))}" if documents else f"{len(chosen)} facts"
        return self._edit(cid, "split", params, f"split {what} of {ent.name!r} off to {new!r}", author)

    def delete_entity(self, collection: str, name: str, *, author: str) -> GraphEdit:
        cid = self._cid(collection)
        ent = self.entity(cid, name)
        return self._edit(cid, "delete_entity", {"key": ent.key, "name": ent.name},
                          f"deleted {ent.name!r} and its {ent.degree} facts", author)

    def delete_fact(self, collection: str, fact_id: str, *, author: str) -> GraphEdit:
        cid = self._cid(collection)
        snap = read(self.graph.store, cid, set(), fact_ids={str(fact_id)}, with_facts=False)
        fact = snap.facts.get(str(fact_id))
        if fact is None:
            raise NotFound(f"No fact with id {fact_id!r} in collection {collection!r}.")
        names = {k: e["name"] for k, e in snap.entities.items()}
        summary = f"deleted fact {fact_id}: {names.get(fact['source'])} -{fact['relation']}-> {names.get(fact['target'])}"
        return self._edit(cid, "delete_fact", {"fact": edit_ops.signature(fact)}, summary, author)

    def add_fact(self, collection: str, subject: str, relation: str, obj: str, *, author: str,
                 valid_from: str | None = None, valid_until: str | None = None, note: str | None = None,
                 subject_type: str | None = None, object_type: str | None = None) -> GraphEdit:
        """A fact the analyst states: its entities are found by name, or created; it is marked ``added_by``."""
        from services.graph.lookup import date_precision, iso_date
        from services.graph.vocabulary import RELATED_TO, canonical

        cid = self._cid(collection)
        phrase = _name(relation, what="relation")
        label = canonical(phrase)
        start, end = iso_date(valid_from), iso_date(valid_until, end=True)
        if start and end and start > end:
            raise ValidationFailed(f"The fact starts ({start}) after it ends ({end}).")
        ends = [self._entity_or_new(cid, n, t) for n, t in ((subject, subject_type), (obj, object_type))]
        if ends[0]["key"] == ends[1]["key"]:
            raise ValidationFailed("A fact joins two different entities.")
        fact = {"id": f"added:{uuid.uuid4().hex[:12]}", "source": ends[0]["key"], "target": ends[1]["key"],
                "relation": label, "raw": phrase if label == RELATED_TO or phrase != label else label.replace("_", " "),
                "document_id": None, "chunk_id": None, "sentence": (note or "").strip()[:2000], "valid_from": start,
                "valid_until": end, "stated_on": None, "text_until": end,
                "status": "current" if end is None else "superseded", "date_source": "analyst" if start or end else None,
                "exclusive": None, "added_by": author, "note": (note or "").strip()[:2000] or None,
                "added_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                "valid_from_precision": date_precision(valid_from) if start else None,
                "valid_until_precision": date_precision(valid_until) if end else None, "stated_on_precision": None}
        summary = f"added fact {ends[0]['name']} -{label}-> {ends[1]['name']}"
        return self._edit(cid, "add_fact", {"fact": fact, "subject": ends[0], "object": ends[1]}, summary, author)

    def _entity_or_new(self, cid: int, name: str, kind: str | None) -> dict[str, Any]:
        try:
            ent = self.entity(cid, name)
            return read(self.graph.store, cid, {ent.key}, with_facts=False).entities[ent.key]
        except NotFound:
            shown = display_name(_name(name))
            key = entity_key(shown)
            if not key:
                raise ValidationFailed(f"{name!r} is no entity name.") from None
            return {"key": key, "name": shown, "type": (kind or "").upper(), "name_key": key, "stated": bool(kind),
                    "aliases": [], "alias_keys": []}

    # -- recording, undo, replay ----------------------------------------------------------------
    def _edit(self, cid: int, kind: str, params: dict[str, Any], summary: str, author: str) -> GraphEdit:
        author = _name(author or "analyst", what="author")
        with self.engine.begin() as conn:
            edit_log.lock(conn, cid)  # a concurrent edit of the collection finishes first; read after it
            keys, ids, with_facts = edit_ops.touched(kind, params)
            before = read(self.graph.store, cid, keys, fact_ids=ids, with_facts=with_facts)
            after = edit_ops.apply(kind, before, params)
            after.drop_orphans(before)
            if after.same_as(before):
                raise ValidationFailed("That edit changes nothing: the graph already shows it "
                                       "(another session may have made it just now).")
            failed: Exception | None = None
            edit_id = edit_log.record(conn, collection_id=cid, kind=kind, params=params, summary=summary,
                                      author=author, before=before.to_json(), after=after.to_json())
            try:
                self._write(cid, before, after)
            except Exception as exc:
                self._repair(cid, before, after)
                edit_log.mark_failed(conn, edit_id, f"{exc.__class__.__name__}: {exc}")
                failed = exc
        if failed is not None:
            raise StoreUnavailable(f"The graph store failed during the edit, which was taken back and recorded "
                                   f"as failed (edit {edit_id}): {failed}") from failed
        return self._one(cid, edit_id)

    def _write(self, cid: int, old: Snapshot, new: Snapshot) -> None:
        write(self.graph, cid, old, new)

    def _repair(self, cid: int, before: Snapshot, after: Snapshot) -> None:
        both = Snapshot({**before.entities, **after.entities}, {**before.facts, **after.facts})
        try:
            rewrite(self.graph.store, cid, both, before)
        except Exception:
            log.exception("could not take back a failed graph edit of collection %s; a rebuild repairs it", cid)

    def undo(self, collection: str, *, author: str) -> GraphEdit:
        """Take back the newest applied edit of the collection (one at a time)."""
        cid = self._cid(collection)
        with self.engine.begin() as conn:
            edit_log.lock(conn, cid)
            last = edit_log.last_applied(conn, cid)
            if last is None:
                raise NotFound(f"Collection {collection!r} has no edit to undo.")
            before, after = Snapshot.from_json(last.before or {}), Snapshot.from_json(last.after or {})
            self._write(cid, after, before)
            edit_log.mark_undone(conn, last.id, _name(author or "analyst", what="author"))
        return self._one(cid, last.id)

    def history(self, collection: str, limit: int = 100) -> list[GraphEdit]:
        with self.engine.connect() as conn:
            return edit_log.history(conn, self._cid(collection), max(1, min(int(limit), 1000)))

    def _one(self, cid: int, edit_id: int) -> GraphEdit:
        with self.engine.connect() as conn:
            return next(e for e in edit_log.history(conn, cid, 1000) if e.id == edit_id)

    def replay(self, collection_id: int) -> int:
        return replay(self.graph, collection_id)

    # -- the review queue (services/graph/review.py) ---------------------------------------------
    def suggestions(self, collection: str, *, include_decided: bool = False, limit: int = 50,
                    by_meaning: bool = True) -> list[Any]:
        """``by_meaning`` adds the name-embedding evidence (loads the embedding model)."""
        from services.graph import review

        return review.suggestions(self, collection, include_decided=include_decided, limit=limit,
                                  by_meaning=by_meaning)

    def decide(self, collection: str, key_a: str, key_b: str, decision: str, *, author: str) -> dict[str, Any]:
        from services.graph import review

        return review.decide(self, collection, key_a, key_b, decision, author=author)

    # -- export and import (services/graph/export.py) -------------------------------------------
    def export(self, collection: str, fmt: str) -> dict[str, bytes]:
        """The collection's whole graph as files by name (one for graphml and json, nodes and relationships csv)."""
        from services.graph import export

        coll = self.collections.get(collection)
        return export.render(export.collection_graph(self.graph.store, coll.id), fmt, coll.name)

    def import_json(self, collection: str, content: bytes | str) -> dict[str, int]:
        """Load a JSON export into a collection whose graph is empty; returns the entities and facts written."""
        from services.graph import export

        cid, snap = self._cid(collection), export.parse_json(content)
        with self.engine.begin() as conn:
            edit_log.lock(conn, cid)
            return export.import_snapshot(self.graph.store, cid, snap)


def _name(value: str, *, what: str = "name") -> str:
    text = " ".join(str(value or "").split())
    if not text:
        raise ValidationFailed(f"Give a {what}.")
    if len(text) > MAX_NAME:
        raise ValidationFailed(f"The {what} is longer than {MAX_NAME} characters.")
    return text
