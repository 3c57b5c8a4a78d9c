"""Replaying the analyst's edits after a document's facts are written again (re-ingest, rebuild), and the one
write every edit, undo and replay goes through."""

from __future__ import annotations

from typing import TYPE_CHECKING

from services.graph import edit_log, edit_ops
from services.graph.rewrite import Snapshot, read, rewrite

if TYPE_CHECKING:
    from services.graph.service import GraphService


def write(graph: GraphService, cid: int, old: Snapshot, new: Snapshot) -> None:
    """Rewrite ``old`` into ``new`` and recompute the validity of every single-valued slot they touch."""
    rewrite(graph.store, cid, old, new)
    slots = {(f["relation"], f["source"], f["target"], cid, f.get("exclusive"))
             for f in (*old.facts.values(), *new.facts.values())}
    graph.refresh_slots({s for s in slots if s[1] in new.entities or s[2] in new.entities})


def replay(graph: GraphService, collection_id: int) -> int:
    """Apply the collection's edits again (after a document's facts were written); returns how many changed the
    graph. Raises when the graph store fails (the caller marks the document failed: a rebuild repairs it)."""
    changed = 0
    with graph.engine.begin() as conn:
        if not edit_log.has_edits(conn, collection_id):
            return 0
        edit_log.lock(conn, collection_id)
        for edit in edit_log.applied(conn, collection_id):
            keys, ids, with_facts = edit_ops.touched(edit.kind, edit.params)
            before = read(graph.store, collection_id, keys, fact_ids=ids, with_facts=with_facts)
            after = edit_ops.apply(edit.kind, before, edit.params)
            after.drop_orphans(before)
            if not after.same_as(before):
                write(graph, collection_id, before, after)
                changed += 1
    return changed
