"""The one result type of retrieval: a chunk as a ranking placed it, loaded with its document's title.

Search returns them as its hits, Ask as the context of its answer, and the LlamaIndex adapter turns them into
``NodeWithScore`` (services/retrieval/llamaindex_adapter.py). ``score`` is the score of the order they come in
(a mode's own score, a fusion's, or the LLM reranker's relevance); ``list_ranks`` the rank each list that
placed the chunk gave it (Search's hybrid: "question" and "widened"; Ask: "semantic", "keyword", "feedback",
"graph"). ``segments`` are the text cut at the words a highlighted search marked (empty for Ask).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RankedChunk:
    chunk_id: int
    document_id: int
    title: str
    source: str = ""
    chunk_index: int = 0
    char_start: int = 0
    char_end: int = 0
    heading_path: list[str] = field(default_factory=list)
    text: str = ""
    score: float = 0.0
    semantic_score: float | None = None
    keyword_score: float | None = None
    metadata: dict[str, Any] = field(default_factory=dict)  # the document's
    chunk_metadata: dict[str, Any] = field(default_factory=dict)  # e.g. associated_diagram_id, pages
    segments: list[tuple[str, bool]] = field(default_factory=list)  # (text, is_match) for highlighting
    list_ranks: dict[str, int] = field(default_factory=dict)


def ranked_chunks(rows: dict[int, Any], scores: list[tuple[int, float]], *, semantic: dict[int, float],
                  keyword: dict[int, float], lists: dict[str, list[int]],
                  mark: Callable[[str], list[tuple[str, bool]]] | None = None) -> list[RankedChunk]:
    """Loaded chunk rows (:func:`services.stores.chunk_store.load_hits`) as ranked chunks, in the order of
    ``scores`` ((id, score), best first); a chunk deleted between ranking and loading is left out.
    ``lists``: each list's ids, best first, for the chunks' ``list_ranks``; ``mark``: a row's ``marked`` text
    as the chunk's segments."""
    positions = {name: {cid: rank for rank, cid in enumerate(ids, start=1)} for name, ids in lists.items()}
    out = []
    for chunk_id, score in scores:
        r = rows.get(chunk_id)
        if r is None:
            continue
        out.append(RankedChunk(
            chunk_id=r.id, document_id=r.document_id, title=r.title, source=r.source, chunk_index=r.chunk_index,
            char_start=r.char_start, char_end=r.char_end, heading_path=list(r.heading_path), text=r.text,
            score=score, semantic_score=semantic.get(chunk_id), keyword_score=keyword.get(chunk_id),
            metadata=r.metadata, chunk_metadata=r.chunk_metadata or {},
            segments=mark(r.marked) if mark is not None else [],
            list_ranks={name: at[chunk_id] for name, at in positions.items() if chunk_id in at}))
    return out
