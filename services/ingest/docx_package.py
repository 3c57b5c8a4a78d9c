"""The zip package of a .docx: its parts found through their relationships, each read on its own.

A damaged part other than the main document (a bad checksum, broken XML) is
skipped with a warning; only an unreadable main document refuses the file.
Each part is read through :class:`_Capped`, which stops at the reader's memory
budget whatever sizes the zip directory claims, so a lying zip bomb is caught.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO

from lxml import etree

from services.errors import UnsupportedInput

ZIP_MAX_UNCOMPRESSED = 200 * 1024 * 1024
ZIP_MAX_RATIO = 200
MAX_PART_BYTES = 128 * 1024 * 1024  # the memory budget of one XML part (document.xml streams through it)
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
OFFICE_DOCUMENT = "/officeDocument"
MAIN_DEFAULT = "word/document.xml"


class PartUnreadable(Exception):
    """A part could not be read; ``reason`` says why in words; ``damaged`` is False for a part over the budget."""

    def __init__(self, reason: str, *, damaged: bool = True) -> None:
        super().__init__(reason)
        self.reason = reason
        self.damaged = damaged


@dataclass
class Relationship:
    id: str
    kind: str  # the last segment of the type, e.g. header, footnotes, image
    target: str  # the part's name in the zip


@dataclass
class DocxPackage:
    """An opened .docx: the zip, its main part, that part's relationships, and warnings about skipped parts."""

    name: str
    zip: zipfile.ZipFile
    main: str
    relationships: list[Relationship] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def related(self, kind: str) -> list[str]:
        return [r.target for r in self.relationships if r.kind == kind]

    def target(self, rel_id: str) -> str | None:
        return next((r.target for r in self.relationships if r.id == rel_id), None)

    @contextmanager
    def stream(self, part: str) -> Iterator[_Capped]:
        """The part's bytes as a stream capped at the memory budget; raises :class:`PartUnreadable`."""
        try:
            with self.zip.open(part) as raw:
                yield _Capped(raw, part)
        except PartUnreadable:
            raise
        except KeyError:
            raise PartUnreadable(f"{part} is missing") from None
        except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
            raise PartUnreadable(_zip_problem(part, exc)) from None
        except (RuntimeError, NotImplementedError) as exc:  # an encrypted entry, an unknown compression method
            raise PartUnreadable(f"{part} is stored in a way this reader cannot open ({exc})") from None

    def read(self, part: str) -> bytes:
        with self.stream(part) as fh:
            return fh.read()

    def optional_xml(self, part: str) -> etree._Element | None:
        """A secondary part parsed, or None (with a warning) when it is missing, damaged or not XML."""
        if part not in self.zip.NameToInfo:
            return None
        try:
            data = self.read(part)
            return etree.fromstring(data, parser=safe_parser()) if b"<!DOCTYPE" not in data[:4096] else None
        except PartUnreadable as exc:
            self.warnings.append(f"{exc.reason}; it was skipped")
        except etree.XMLSyntaxError as exc:
            self.warnings.append(f"{part} is not well-formed XML ({exc.msg}); it was skipped")
        return None


class _Capped(io.RawIOBase):
    """A read-only stream that raises :class:`PartUnreadable` past :data:`MAX_PART_BYTES`."""

    def __init__(self, raw: IO[bytes], part: str) -> None:
        self._raw, self._part, self._seen = raw, part, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        want = MAX_PART_BYTES + 1 - self._seen if size is None or size < 0 else min(size, MAX_PART_BYTES + 1)
        try:
            data = self._raw.read(want)
        except (zipfile.BadZipFile, zlib.error, EOFError) as exc:  # raised mid-stream, e.g. by the final checksum
            raise PartUnreadable(_zip_problem(self._part, exc)) from None
        self._seen += len(data)
        if self._seen > MAX_PART_BYTES:
            raise PartUnreadable(f"{self._part} expands past {MAX_PART_BYTES // 1_048_576} MB, the reader's memory "
                                 "budget for one part", damaged=False)
        return data

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def safe_parser() -> etree.XMLParser:
    """No entities resolved, no network, no DTD: an XML bomb cannot expand."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def _zip_problem(part: str, exc: BaseException) -> str:
    text = str(exc)
    if "CRC" in text:
        return f"{part} is damaged (its checksum does not match its contents)"
    if isinstance(exc, zlib.error):
        return f"{part} is damaged (its compressed data cannot be unpacked)"
    if isinstance(exc, EOFError):
        return f"{part} is cut short (the file is truncated)"
    return f"{part} is damaged (its zip entry is broken)"


def refuse(name: str, reason: str) -> UnsupportedInput:
    return UnsupportedInput(reason, file=name)


def _ole_reason(data: bytes) -> str:
    """An OLE compound file is an encrypted .docx (EncryptedPackage stream) or an old binary .doc."""
    if "EncryptedPackage".encode("utf-16-le") in data:
        return "the .docx is encrypted with a password; remove it and try again."
    if "WordDocument".encode("utf-16-le") in data:
        return "this is an old Word 97-2003 .doc file, not a .docx; save it as .docx and try again."
    return "this is an OLE file (an older Office format), not a .docx; open it in Word and save it as .docx."


def open_package(data: bytes, name: str) -> DocxPackage:
    """Open the zip and find the main document; raises :class:`UnsupportedInput` when there is none to read."""
    if not data:
        raise refuse(name, "the file is empty.")
    if data[:8] == OLE_MAGIC:
        raise refuse(name, _ole_reason(data))
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError, EOFError):
        raise refuse(name, "not a valid .docx (the file is corrupt, truncated or not a Word file).") from None
    total = sum(i.file_size for i in infos)
    if total > ZIP_MAX_UNCOMPRESSED or total > ZIP_MAX_RATIO * max(len(data), 1) + 10_000_000:
        raise refuse(name, f"refused, it would expand to {total // (1024 * 1024)} MB "
                           "(a zip bomb or an absurdly large file).")
    package = DocxPackage(name, zf, MAIN_DEFAULT)
    package.main = _main_part(package)
    if package.main not in zf.NameToInfo:
        raise refuse(name, "not a Word document (no word/document.xml inside).")
    package.relationships = _relationships(package, package.main)
    return package


def _main_part(package: DocxPackage) -> str:
    """The main document named by the package's relationships (word/document.xml nearly always)."""
    root = package.optional_xml("_rels/.rels")
    if root is not None:
        for rel in root.iterfind(f"{{{RELS}}}Relationship"):
            if (rel.get("Type") or "").endswith(OFFICE_DOCUMENT) and rel.get("TargetMode") != "External":
                target = posixpath.normpath((rel.get("Target") or "").lstrip("/"))
                if target in package.zip.NameToInfo:
                    return target
    return MAIN_DEFAULT


def _relationships(package: DocxPackage, part: str) -> list[Relationship]:
    folder, base = posixpath.split(part)
    root = package.optional_xml(posixpath.join(folder, "_rels", base + ".rels"))
    if root is None:
        return []
    found = []
    for rel in root.iterfind(f"{{{RELS}}}Relationship"):
        target = rel.get("Target") or ""
        if rel.get("TargetMode") == "External" or not target:
            continue
        path = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
        found.append(Relationship(rel.get("Id") or "", (rel.get("Type") or "").rsplit("/", 1)[-1],
                                  posixpath.normpath(path)))
    return found
