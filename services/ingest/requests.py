"""Build :class:`IngestRequest` objects for the three ways in: text, uploaded files, a directory."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Any

from services.documents import content_hash
from services.errors import ValidationFailed
from services.ingest.pipeline import IngestRequest
from services.ingest.sources import directory_sources, path_sources, resolve_directory, text_source, upload_sources
from services.ingest.stages import Mode
from services.settings import Settings


def text_request(collection: str, *, title: str, text: str, metadata: dict[str, Any] | None = None,
                 mode: Mode = "ingest") -> IngestRequest:
    item = text_source(title, text, metadata)
    return IngestRequest(collection, "text", mode, [item], {"title": item.title, "hash": content_hash(text)})


def files_request(collection: str, files: list[tuple[str, bytes]], *, settings: Settings,
                  metadata: dict[str, Any] | None = None, mode: Mode = "ingest",
                  password: str | None = None) -> IngestRequest:
    """Uploaded files; ``password`` opens encrypted PDFs (it is not part of the job's key or record)."""
    items = upload_sources(files, metadata, max_bytes=settings.max_file_bytes, password=password)
    digest = hashlib.sha256(b"".join(hashlib.sha256(d).digest() for _, d in files)).hexdigest()
    return IngestRequest(collection, "files", mode, items, {"names": sorted(n for n, _ in files), "hashes": digest})


def paths_request(collection: str, paths: list[str], *, settings: Settings,
                  metadata: dict[str, Any] | None = None, mode: Mode = "ingest",
                  password: str | None = None) -> IngestRequest:
    """Files named by path on this machine (CLI, MCP); read one at a time, size-checked first.
    ``password`` opens encrypted PDFs; it is not part of the job's key or record."""
    items = path_sources(paths, metadata, allowed_roots=settings.allowed_roots, max_bytes=settings.max_file_bytes,
                         password=password)
    stamps = []  # the job key: the same files, unchanged on disk, are the same request
    for item in items:
        stat = Path(item.source).stat()
        stamps.append(f"{item.source}:{stat.st_size}:{stat.st_mtime_ns}")
    digest = hashlib.sha256("\n".join(sorted(stamps)).encode()).hexdigest()
    return IngestRequest(collection, "files", mode, items, {"names": sorted(i.title for i in items), "hashes": digest})


def directory_request(collection: str, path: str, *, settings: Settings, include: list[str] | None = None,
                      exclude: list[str] | None = None, recursive: bool = True,
                      metadata: dict[str, Any] | None = None, mode: Mode = "ingest",
                      use_sidecar: bool = True, title_template: str | None = None) -> IngestRequest:
    """A directory's files; each titled by metadata.csv's ``title`` column, else ``title_template`` filled from
    its metadata ("{president}, {year}"), else its path under the directory."""
    root = resolve_directory(path, settings.allowed_roots)
    include, exclude = list(include or []), list(exclude or [])
    items = directory_sources(root, include=include, exclude=exclude, recursive=recursive, metadata=metadata,
                              max_bytes=settings.max_file_bytes, use_sidecar=use_sidecar,
                              title_template=title_template)
    return IngestRequest(collection, "directory", mode, items,
                         {"path": str(root), "include": include, "exclude": exclude, "recursive": recursive,
                          **({"title_template": title_template} if title_template else {})})


def describe_directory(path: str, *, settings: Settings, include: list[str] | None = None,
                       exclude: list[str] | None = None, recursive: bool = True,
                       title_template: str | None = None) -> dict[str, Any]:
    """A preview for the UI: how many files match, how many are supported, and a sample of their titles."""
    root = resolve_directory(path, settings.allowed_roots)
    items = directory_sources(root, include=include or [], exclude=exclude or [], recursive=recursive,
                              metadata=None, max_bytes=settings.max_file_bytes, title_template=title_template)
    return {
        "root": str(root),
        "matched": len(items),
        "supported": sum(1 for i in items if not i.skip_reason),
        "sample": [i.title for i in items[:10]],
        "has_sidecar": (Path(root) / "metadata.csv").is_file(),
    }


def retry_request(request: IngestRequest, job_items: list[dict[str, Any]], *,
                  metadata: dict[str, Any] | None = None) -> IngestRequest:
    """The items of ``request`` that failed in the job that ran it (``job_items``, in the request's order),
    as a new request; ``metadata`` (e.g. a field the schema required) is laid over each item's own."""
    failed = [item for item, entry in zip(request.items, job_items) if entry.get("status") == "failed"]
    if not failed:
        raise ValidationFailed("No file of that job failed: there is nothing to retry.")
    if metadata:
        failed = [dataclasses.replace(item, metadata={**item.metadata, **metadata}) for item in failed]
    return IngestRequest(request.collection, request.kind, request.mode, failed,
                         {**request.key_parts, "retry": sorted(i.title for i in failed), "metadata": metadata or {}})
