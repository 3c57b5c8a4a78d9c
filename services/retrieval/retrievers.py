"""The retrievers as LlamaIndex retrievers: each returns ``NodeWithScore`` for a question.

- :class:`SemanticRetriever`: cosine similarity on pgvector (HNSW), through :class:`SearchService`.
- :class:`KeywordRetriever`: Okapi BM25 inside PostgreSQL, through :class:`SearchService`.
- :class:`GraphWalkRetriever`: personalized PageRank over the entity–chunk graph, seeded by the question's
  entities and the semantic retriever's hits.

A node's id is its chunk id; its metadata carries the document id and title, the chunk's index and
metadata, and the retriever it came from. Ask's fused retriever (:mod:`services.retrieval.retriever`)
combines them; any LlamaIndex query engine can use them too.
"""

from __future__ import annotations

from typing import Any

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from services.collections import CollectionService
from services.retrieval.graph_walk import GraphWalk, WalkResult
from services.retrieval.search import SearchHit, SearchMode, SearchService
from services.stores import chunk_store
from services.stores.keyword_ranking import BM25Memo


def hit_node(hit: SearchHit, retriever: str) -> NodeWithScore:
    """A search hit as a LlamaIndex node with its score."""
    node = TextNode(id_=str(hit.chunk_id), text=hit.text, metadata={
        "chunk_id": hit.chunk_id, "document_id": hit.document_id, "title": hit.title, "chunk_index": hit.chunk_index,
        "heading_path": list(hit.heading_path), "chunk_metadata": dict(hit.chunk_metadata), "retriever": retriever,
        "semantic_score": hit.semantic_score,
    }, excluded_embed_metadata_keys=["chunk_id", "document_id", "chunk_metadata", "retriever", "semantic_score"],
        excluded_llm_metadata_keys=["chunk_id", "document_id", "chunk_metadata", "retriever", "semantic_score"])
    return NodeWithScore(node=node, score=hit.score)


def chunk_id(node: NodeWithScore) -> int:
    return int(node.node.metadata.get("chunk_id") or node.node.node_id)


class _SearchRetriever(BaseRetriever):
    mode: SearchMode = "semantic"

    def __init__(self, search: SearchService, *, collections: list[str] | None = None, limit: int = 20,
                 threshold: float = -1.0, filters: dict[str, Any] | None = None,
                 feedback: list[int] | None = None, memo: BM25Memo | None = None) -> None:
        super().__init__()
        self.feedback = feedback
        self.memo = memo
        self.search = search
        self.collections = collections
        self.limit = limit
        self.threshold = threshold
        self.filters = filters

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        response = self.search.search(query_bundle.query_str, collections=self.collections, mode=self.mode,
                                      threshold=self.threshold, limit=self.limit, filters=self.filters,
                                      feedback=self.feedback, highlight=False, memo=self.memo)
        return [hit_node(h, self.mode) for h in response.hits]


class SemanticRetriever(_SearchRetriever):
    """The chunks nearest the question's embedding (cosine), at or above ``threshold``."""

    mode: SearchMode = "semantic"


class KeywordRetriever(_SearchRetriever):
    """The chunks that rank highest by BM25 for the question's words (websearch syntax allowed); given
    ``feedback`` chunk ids, for the question expanded by their most telling words (pseudo-relevance feedback).
    Two of them given one ``memo`` (the plain pass first) share the BM25 work (see ``BM25Memo``)."""

    mode: SearchMode = "keyword"


class GraphWalkRetriever(BaseRetriever):
    """Chunks ranked by a walk from the question's entities and its semantic hits (see graph_walk.py)."""

    def __init__(self, walk: GraphWalk, semantic: SemanticRetriever, collections: CollectionService, *,
                 scope: list[str] | None = None, limit: int = 20) -> None:
        super().__init__()
        self.walk = walk
        self.semantic = semantic
        self.collections = collections
        self.scope = scope
        self.limit = limit
        self.last: WalkResult | None = None  # the last walk's seeds and size, for diagnostics

    def walk_from(self, question: str, dense: list[NodeWithScore], extra_keys: list[str] | None = None,
                  feedback: list[int] | None = None) -> WalkResult:
        """Walk from ``question`` with ``dense`` (semantic nodes) as passage seeds and the named entities of
        the ``feedback`` chunks as entity seeds."""
        cids = [c.id for c in (self.collections.list() if not self.scope
                               else [self.collections.get(n) for n in self.scope])]
        seeds = {chunk_id(n): float(n.node.metadata.get("semantic_score") or n.score or 0.0) for n in dense}
        self.last = self.walk.walk(question, cids, dense=seeds, extra_keys=extra_keys, feedback=feedback)
        return self.last

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        result = self.walk_from(query_bundle.query_str, self.semantic.retrieve(query_bundle))
        top = sorted(result.scores, key=lambda c: -result.scores[c])[: self.limit]
        return load_nodes(self.semantic.search, top, result.scores, "graph")


def load_nodes(search: SearchService, ids: list[int], scores: dict[int, float], retriever: str) -> list[NodeWithScore]:
    """Chunks by id (in that order) as nodes with the given scores; a chunk deleted meanwhile is left out."""
    with search.engine.connect() as conn:
        rows = chunk_store.load_context(conn, ids)
    out = []
    for cid in ids:
        r = rows.get(cid)
        if r is None:
            continue
        node = TextNode(id_=str(cid), text=r.text, metadata={
            "chunk_id": cid, "document_id": r.document_id, "title": r.title, "chunk_index": r.chunk_index,
            "heading_path": [], "chunk_metadata": dict(r.metadata or {}), "retriever": retriever})
        out.append(NodeWithScore(node=node, score=scores[cid]))
    return out
