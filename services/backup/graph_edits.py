"""The analyst's graph edits and suggestion answers in a backup: rows of ``graph_edits`` and
``graph_suggestion_decisions``, written back with the restored collection, document, chunk and fact ids.

An edit names documents (a split by document), facts (by id, ``{document_id}:{n}``, with their document and
chunk) and holds snapshots of facts; each of these is remapped the way the restored facts are, so a restored
edit still replays and still undoes.
"""

from __future__ import annotations

import json
import re
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

_FACT_ID = re.compile(r"^(\d+):(.+)$")
EDIT_COLUMNS = ("collection_id, kind, params, summary, author, before, after, status, error, created_at, undone_at, "
                "undone_by")
EXPORT_EDITS = (f"SELECT id, {EDIT_COLUMNS} FROM graph_edits WHERE collection_id = ANY(:cids) ORDER BY id")
EXPORT_DECISIONS = ("SELECT collection_id, key_a, key_b, decision, evidence, author, decided_at "
                    "FROM graph_suggestion_decisions WHERE collection_id = ANY(:cids) ORDER BY collection_id, key_a, key_b")


def _fact(fact: dict[str, Any], documents: dict[int, int], chunks: dict[int, int]) -> dict[str, Any]:
    out = dict(fact)
    old_doc = fact.get("document_id")
    if old_doc is not None and old_doc in documents:
        out["document_id"] = documents[old_doc]
        match = _FACT_ID.match(str(fact.get("id") or ""))
        if match and int(match[1]) == old_doc:
            out["id"] = f"{documents[old_doc]}:{match[2]}"
    if fact.get("chunk_id") is not None:
        out["chunk_id"] = chunks.get(fact["chunk_id"])
    return out


def _snapshot(snap: dict[str, Any], documents: dict[int, int], chunks: dict[int, int]) -> dict[str, Any]:
    return {**snap, "facts": [_fact(f, documents, chunks) for f in snap.get("facts") or []]}


def remap(kind: str, params: dict[str, Any], documents: dict[int, int], chunks: dict[int, int]) -> dict[str, Any]:
    out = dict(params)
    if kind == "split":
        out["documents"] = [documents.get(d, d) for d in params.get("documents") or []]
        out["facts"] = [_fact(f, documents, chunks) for f in params.get("facts") or []]
    if kind in ("delete_fact", "add_fact"):
        out["fact"] = _fact(params["fact"], documents, chunks)
    return out


def restore_rows(conn: Connection, edits: Any, decisions: Any, collections: dict[int, int],
                 documents: dict[int, int], chunks: dict[int, int]) -> tuple[int, int]:
    """Insert the archive's edits (in their order) and decisions; returns how many of each."""
    n_edits = n_decisions = 0
    for row in edits:
        n_edits += 1
        conn.execute(sa.text(
            f"INSERT INTO graph_edits ({EDIT_COLUMNS}) VALUES (:c, :kind, CAST(:params AS jsonb), :summary, :author, "
            "CAST(:before AS jsonb), CAST(:after AS jsonb), :status, :error, :created_at, :undone_at, :undone_by)"),
            {**row, "c": collections[row["collection_id"]],
             "params": json.dumps(remap(row["kind"], row["params"], documents, chunks)),
             "before": json.dumps(_snapshot(row["before"], documents, chunks)),
             "after": json.dumps(_snapshot(row["after"], documents, chunks))})
    for row in decisions:
        n_decisions += 1
        conn.execute(sa.text(
            "INSERT INTO graph_suggestion_decisions (collection_id, key_a, key_b, decision, evidence, author, "
            "decided_at) VALUES (:c, :key_a, :key_b, :decision, :evidence, :author, :decided_at)"),
            {**row, "c": collections[row["collection_id"]]})
    return n_edits, n_decisions
