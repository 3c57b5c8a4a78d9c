"""Backup and restore of collections: one zip archive of JSON Lines, read and written as a stream.

The archive holds ``manifest.json`` (format version, app version, embedding
model, the non-secret settings that shape results, row counts) and one JSON
Lines member per table: the collection rows, their documents, chunks *with their
embeddings* (so a restore needs no re-embedding and scores are identical),
diagrams, crawls, and the collections' graph (entities, facts, diagram nodes and
edges). Ids are the exporting store's; a restore gives everything new ids and
remaps every reference. Zip keeps a CRC per member, so damage is detected
before anything is written. Export: :mod:`services.backup.export`; restore:
:mod:`services.backup.restore`; the service over both: :mod:`services.backup.service`.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from services.errors import ValidationFailed

FORMAT = "rag-memory-workbench-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
# Restore reads the members in this order: rows that others refer to come first.
MEMBERS = ("collections", "documents", "collection_documents", "chunks", "diagrams", "crawls", "crawl_pages",
           "graph_edits", "graph_suggestion_decisions", "entities", "facts", "diagram_nodes", "diagram_edges")
# Members that archives written before the graph edit log (migration 012) do not have.
OPTIONAL_MEMBERS = {"graph_edits", "graph_suggestion_decisions"}
# Settings that shape what a collection holds and how it is searched. An allow-list, so a
# secret (API key, password, a URL with credentials) can never reach an archive.
REPRODUCTION_SETTINGS = ("embedding_provider", "embedding_model", "chunk_size", "chunk_overlap", "hnsw_ef_search",
                         "search_threshold", "search_limit", "rrf_k", "semantic_weight", "keyword_weight",
                         "ask_fusion", "graph_weight", "ask_rrf_k", "graph_enabled", "extraction_mode", "spacy_model")
DAMAGE = (zipfile.BadZipFile, zlib.error, EOFError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError,
          ValueError, OSError)


@dataclass(frozen=True)
class BackupResult:
    path: str
    collections: list[str]
    counts: dict[str, int]
    size_bytes: int


@dataclass(frozen=True)
class RestoreResult:
    collections: list[dict[str, str]]  # {"from": name in the archive, "name": name restored as}
    counts: dict[str, int]
    graph_restored: bool
    notes: list[str] = field(default_factory=list)


def member_name(table: str) -> str:
    return f"{table}.jsonl"


def _default(value: Any) -> Any:
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    raise TypeError(f"cannot store {type(value).__name__} in a backup")


def dump_line(row: dict[str, Any]) -> bytes:
    return (json.dumps(row, ensure_ascii=False, default=_default, separators=(",", ":")) + "\n").encode("utf-8")


def write_member(archive: zipfile.ZipFile, table: str, rows: Iterator[dict[str, Any]]) -> int:
    """Stream rows into one JSON Lines member; return how many were written."""
    count = 0
    with archive.open(member_name(table), "w", force_zip64=True) as out:
        for row in rows:
            out.write(dump_line(row))
            count += 1
    return count


def read_member(archive: zipfile.ZipFile, table: str) -> Iterator[dict[str, Any]]:
    """Stream one member's rows (a missing member is an error: the manifest promised it)."""
    with archive.open(member_name(table)) as raw:
        for line in io.TextIOWrapper(raw, encoding="utf-8"):
            if line.strip():
                yield json.loads(line)


def open_archive(path: str | Path) -> tuple[zipfile.ZipFile, dict[str, Any]]:
    """Open an archive, check every member's CRC and the manifest; the caller closes the zip.

    Raises :class:`ValidationFailed` for a missing, truncated, corrupt or foreign file.
    """
    path = Path(path).expanduser()
    if not path.is_file():
        raise ValidationFailed(f"No backup archive at {path}.")
    try:
        archive = zipfile.ZipFile(path)
    except DAMAGE as exc:
        raise ValidationFailed(f"{path} is not a readable backup archive (truncated or corrupt: {exc}).") from None
    try:
        bad = archive.testzip()
        if bad is not None:
            raise ValidationFailed(f"{path} is damaged: member {bad} fails its checksum.")
        manifest = json.loads(archive.read(MANIFEST))
        check_manifest(manifest, path)
    except ValidationFailed:
        archive.close()
        raise
    except DAMAGE as exc:
        archive.close()
        raise ValidationFailed(f"{path} is damaged or not a backup archive ({exc.__class__.__name__}: {exc}).") from None
    return archive, manifest


def check_manifest(manifest: Any, path: Path) -> None:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ValidationFailed(f"{path} is not a RAG Memory Workbench backup.")
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise ValidationFailed(
            f"{path} has backup format version {version!r}; this version of the app reads version {FORMAT_VERSION}."
        )
    if not manifest.get("collections"):
        raise ValidationFailed(f"{path} holds no collections.")
    counts = set(manifest.get("counts", {}))
    if not set(MEMBERS) - OPTIONAL_MEMBERS <= counts <= set(MEMBERS):
        raise ValidationFailed(f"{path} lacks the row counts of its members.")
