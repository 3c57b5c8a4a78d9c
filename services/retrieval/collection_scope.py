"""The collections one search or question reads, resolved once at its start.

Every list of a request reads the same resolved scope: the semantic list the collections built with the
configured embedding model (``embedded``), the keyword lists, the graph walk and the keyword evidence all
the ``chosen`` ones. Named collections that were built with another model are refused
(:class:`~services.errors.EmbeddingMismatch`) when the request needs vectors; when none is named, they are
left out of the semantic list with a note.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from services.collections import Collection, CollectionService
from services.stores.chunk_store import ChunkScope
from services.stores.embeddings import TextEmbedder


@dataclass(frozen=True)
class CollectionScope:
    chosen: list[Collection]
    embedded: list[Collection]  # of those, the ones the semantic list reads (none when the request embeds nothing)
    filters: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ids(self) -> list[int]:
        return [c.id for c in self.chosen]

    def chunks(self) -> ChunkScope:
        """The chunks the keyword lists rank."""
        return ChunkScope(self.ids, self.filters)

    def embedded_chunks(self) -> ChunkScope:
        """The chunks the semantic list ranks."""
        return ChunkScope([c.id for c in self.embedded], self.filters)

    def embedded_only(self) -> CollectionScope:
        """This scope narrowed to the collections the model can search (Search's semantic and hybrid modes
        leave the others out of every list)."""
        return replace(self, chosen=list(self.embedded))


def resolve_scope(collections: CollectionService, embedder: TextEmbedder, names: list[str] | None, *,
                  vectors: bool, filters: dict[str, Any] | None = None) -> CollectionScope:
    """The named collections (each must exist), or every collection; ``vectors``: the request embeds its query,
    so a named collection built with another model is an error."""
    chosen = [collections.get(n) for n in names] if names else collections.list()
    if not vectors:
        return CollectionScope(chosen, [], filters)
    embedded, notes = [], []
    for coll in chosen:
        if names:
            collections.check_model(coll)  # explicit scope: a mismatch is an error
        if coll.embedding_model == embedder.name and coll.embedding_dim == embedder.dim:
            embedded.append(coll)
        else:
            notes.append(f"Skipped {coll.name!r}: built with {coll.embedding_model}, not the configured model.")
    return CollectionScope(chosen, embedded, filters, notes)
