"""What an ingest request reads: pasted text, uploaded files, or a server-side directory.

Each becomes a list of :class:`SourceItem` whose ``load`` is called lazily by the
ingester, so one unreadable file is reported and skipped without stopping the rest.
"""

from __future__ import annotations

import csv
import fnmatch
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from services.errors import ValidationFailed
from services.ingest.parsing import SUPPORTED_SUFFIXES, ParsedText, parse_bytes, read_file

METADATA_SIDECAR = "metadata.csv"
MAX_TITLE = 500
MAX_DIRECTORY_FILES = 50_000


@dataclass
class SourceItem:
    title: str
    source: str
    source_type: str
    load: Callable[[], ParsedText]
    metadata: dict[str, Any] = field(default_factory=dict)
    skip_reason: str | None = None  # known up front (unsupported type, outside root...)


def _with_password(load: Callable[..., ParsedText], password: str | None) -> Callable[[], ParsedText]:
    """``load`` given the password when it runs. A closure, not a partial: an item's repr (a log line, a
    traceback) shows the loader's name, never the password."""
    if not password:
        return load

    def load_with_password() -> ParsedText:
        return load(password=password)

    return load_with_password


def metadata_object(metadata: Any) -> dict[str, Any]:
    """A copy of request-wide metadata, which must be a JSON object (checked in full per item)."""
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise ValidationFailed("Metadata must be a JSON object, like {\"year\": 1990}.")
    return dict(metadata)


def clean_title(title: str) -> str:
    title = " ".join((title or "").split())
    if not title:
        raise ValidationFailed("A document needs a title.")
    if len(title) > MAX_TITLE:
        raise ValidationFailed(f"A title is at most {MAX_TITLE} characters.")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in title):
        raise ValidationFailed("A title cannot contain control characters (such as NUL).")
    return title


def text_source(title: str, text: str, metadata: dict[str, Any] | None = None) -> SourceItem:
    title = clean_title(title)
    if not (text or "").strip():
        raise ValidationFailed("The text is empty.")
    return SourceItem(title, "text", "text", partial(ParsedText, text=text), metadata_object(metadata))


def upload_sources(files: list[tuple[str, bytes]], metadata: dict[str, Any] | None, *, max_bytes: int,
                   password: str | None = None) -> list[SourceItem]:
    """Uploaded files; ``password`` opens an encrypted PDF among them (held by the loader only, never stored)."""
    metadata = metadata_object(metadata)
    items = []
    for name, data in files:
        base = Path(name).name
        items.append(
            SourceItem(
                clean_title(base), f"upload:{base}", "file",
                _with_password(partial(parse_bytes, data, base, max_bytes=max_bytes), password), dict(metadata),
            )
        )
    return items


def path_sources(paths: list[str], metadata: dict[str, Any] | None, *, allowed_roots: list[Path],
                 max_bytes: int, password: str | None = None) -> list[SourceItem]:
    """Named files on this machine (the CLI, MCP), confined to ``allowed_roots`` like directory ingest.

    Each file is read only when the ingester reaches it, after its size on disk
    is checked against ``max_bytes``, so a list of huge files costs no memory.
    """
    metadata = metadata_object(metadata)
    items = []
    for raw in paths:
        path = Path(raw).expanduser().resolve()  # a symlink is judged by where it points
        if not path.is_file():
            raise ValidationFailed(f"{path} is not a file on this machine.")
        resolve_directory(str(path.parent), allowed_roots)
        item = SourceItem(clean_title(path.name), str(path), "file",
                          _with_password(partial(read_file, path, max_bytes=max_bytes), password), dict(metadata))
        if path.suffix.lower() not in SUPPORTED_SUFFIXES:
            item.skip_reason = f"unsupported file type {path.suffix or '(none)'}."
        items.append(item)
    return items


def _within(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


def resolve_directory(path: str, allowed_roots: list[Path]) -> Path:
    """Resolve a user-given directory, confined to ``allowed_roots`` when any are set."""
    if not (path or "").strip():
        raise ValidationFailed("Give a directory path.")
    resolved = Path(path).expanduser().resolve()
    if allowed_roots and not any(_within(resolved, Path(r).expanduser().resolve()) for r in allowed_roots):
        roots = ", ".join(str(r) for r in allowed_roots)
        raise ValidationFailed(f"{resolved} is outside the allowed directories ({roots}).")
    if not resolved.is_dir():
        raise ValidationFailed(f"{resolved} is not a directory on the server.")
    return resolved


def _read_sidecar(root: Path) -> dict[str, dict[str, str]]:
    """Per-file metadata from ``metadata.csv`` (a ``file`` column plus one column per field)."""
    sidecar = root / METADATA_SIDECAR
    if not sidecar.is_file():
        return {}
    if not _within(sidecar.resolve(), root):
        raise ValidationFailed(f"{sidecar} is a link that points outside {root}; it is not read. "
                               "Replace it with a file, or ingest without the sidecar.")
    try:
        with sidecar.open(newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            if not reader.fieldnames or "file" not in reader.fieldnames:
                return {}
            return {row["file"]: {k: v for k, v in row.items() if k != "file" and k} for row in reader if row.get("file")}
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ValidationFailed(f"{sidecar} could not be read: {exc}") from None


def titled(name: str, metadata: dict[str, Any], template: str | None) -> tuple[str, dict[str, Any]]:
    """A file's document title and its metadata: the sidecar's ``title`` column when it has one (taken out of
    the metadata), else ``template`` filled from the metadata ("{president}, {year}" → "James K. Polk,
    1846"), else the file's name. A template field the file has no value for is refused, naming both."""
    metadata = dict(metadata)
    title = str(metadata.pop("title", "") or "").strip()
    if title:
        return title, metadata
    if not (template or "").strip():
        return name, metadata
    try:
        filled = str(template).format_map({k: "" if v is None else v for k, v in metadata.items()})
    except KeyError as exc:
        raise ValidationFailed(f"The title template names {{{exc.args[0]}}}, which {name} has no value for "
                               "(in its metadata or metadata.csv). Add the field, or change the template.") from None
    except (ValueError, IndexError) as exc:
        raise ValidationFailed(f"The title template {template!r} could not be read: {exc}. "
                               "Write fields in braces, e.g. {president}, {year}.") from None
    filled = " ".join(filled.split())
    if not filled.strip(" ,;:-–"):
        raise ValidationFailed(f"The title template gives {name} an empty title; its fields are empty there.")
    return filled, metadata


def directory_sources(
    root: Path, *, include: list[str], exclude: list[str], recursive: bool,
    metadata: dict[str, Any] | None, max_bytes: int, use_sidecar: bool = True, title_template: str | None = None,
) -> list[SourceItem]:
    """List the files to ingest under ``root``. Symlinks that leave ``root`` are refused."""
    metadata = metadata_object(metadata)
    include = [p.strip() for p in include if p.strip()] or ["*"]
    exclude = [p.strip() for p in exclude if p.strip()]
    sidecar = _read_sidecar(root) if use_sidecar else {}
    items: list[SourceItem] = []
    walker = os.walk(root, followlinks=False) if recursive else [(str(root), [], os.listdir(root))]
    for dirpath, dirnames, filenames in walker:
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if name.startswith(".") or (use_sidecar and rel == METADATA_SIDECAR and sidecar):
                continue
            if not any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(name, p) for p in include):
                continue
            if any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(name, p) for p in exclude):
                continue
            if not path.is_file():
                continue
            title, item_meta = titled(rel, {**metadata, **sidecar.get(rel, sidecar.get(name, {}))}, title_template)
            item = SourceItem(
                title, str(path), "file", partial(read_file, path, max_bytes=max_bytes), item_meta
            )
            if not _within(path.resolve(), root):
                item.skip_reason = f"a link that points outside {root}; not followed."
            elif path.suffix.lower() not in SUPPORTED_SUFFIXES:
                item.skip_reason = f"unsupported file type {path.suffix or '(none)'}."
            items.append(item)
            if len(items) > MAX_DIRECTORY_FILES:
                raise ValidationFailed(
                    f"{root} has more than {MAX_DIRECTORY_FILES} matching files; narrow it with include/exclude patterns."
                )
    return items
