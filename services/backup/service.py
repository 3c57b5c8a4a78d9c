"""The backup service: export collections to one archive, and restore an archive (format: :mod:`services.backup.format`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from services.backup.export import export_archive
from services.backup.format import BackupResult, RestoreResult
from services.backup.restore import restore_archive

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from services.collections import CollectionService
    from services.graph.service import GraphService
    from services.settings import Settings
    from services.stores.embeddings import TextEmbedder


class BackupService:
    """Export collections to an archive, and restore an archive into the configured stores."""

    def __init__(self, *, settings: Settings, engine: Engine, embedder: TextEmbedder, collections: CollectionService,
                 graph: GraphService | None) -> None:
        self.settings = settings
        self.engine = engine
        self.embedder = embedder
        self.collections = collections
        self.graph = graph  # services.graph.service.GraphService, or None when the graph is off

    def export(self, collection: str | None, out: str | Path | None = None, *,
               all_collections: bool = False) -> BackupResult:
        """Write one collection (or, with ``all_collections``, every one) to a zip archive.

        ``out`` defaults to ``<name>-<UTC timestamp>.ragbackup.zip`` in the working directory.
        """
        return export_archive(self, collection, out, all_collections=all_collections)

    def restore(self, archive: str | Path, *, into_name: str | None = None) -> RestoreResult:
        """Restore every collection in the archive (one only, when renamed with ``into_name``).

        Refused with AlreadyExists when a collection of that name exists, with
        EmbeddingMismatch when the configured model differs from the archive's, and
        with ValidationFailed for a damaged archive; in each case nothing is written.
        """
        return restore_archive(self, archive, into_name=into_name)

