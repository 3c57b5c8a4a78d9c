"""The workbench through LlamaIndex's own interfaces: every LlamaIndex class the project defines, in one place.

The app's own paths (Search, Ask, the CLI, MCP) never need these: they call the retrieval core
(services/retrieval/core.py) and get :class:`RankedChunk`; here those become ``NodeWithScore``.

- :class:`ChunkVectorStore` (``BasePydanticVectorStore``) and :class:`WorkbenchEmbedding` (``BaseEmbedding``):
  ``VectorStoreIndex.from_vector_store(ChunkVectorStore(...), embed_model=WorkbenchEmbedding(...))`` gives a
  LlamaIndex index over a workbench collection: its retrievers and query engines read the chunks the app, the
  CLI and MCP read, with semantic (``default``), BM25 (``text_search``/``sparse``) and ``hybrid`` queries and
  ``MetadataFilters``. ``add`` writes each source document (``ref_doc_id``) with all its nodes in one
  transaction, through the same ``write_document`` the ingester uses, so dedup constraints and the BM25
  statistics hold; ``delete`` removes a document everywhere, graph facts included. Its ``query`` runs the
  store-level rankings the core runs (``chunk_store.semantic``, ``keyword_ranking.keyword``) on the embedding
  LlamaIndex hands it, and its ``hybrid`` is LlamaIndex's: reciprocal ranks weighted by ``alpha``.
- Retrievers (``BaseRetriever``): :class:`SemanticRetriever` and :class:`KeywordRetriever` (Search's modes),
  :class:`GraphWalkRetriever` (the graph walk's list as Ask computes it) and :class:`AskRetriever` (Ask's fused,
  reranked context). A node's id is its chunk id; its metadata carries the document id and title, the chunk's
  index and metadata, and the retriever it came from.
- Node postprocessors (``BaseNodePostprocessor``): :class:`LLMReranker` and :class:`MMRPostprocessor`, the
  rerankers Ask runs on its fused candidates.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np
from llama_index.core.bridge.pydantic import PrivateAttr
from llama_index.core.embeddings import BaseEmbedding
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import BaseNode, NodeWithScore, QueryBundle, TextNode
from llama_index.core.vector_stores.types import (
    BasePydanticVectorStore,
    FilterCondition,
    FilterOperator,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryMode,
    VectorStoreQueryResult,
)

from services.collections import CollectionService
from services.deletion import DeletionService
from services.documents import Chunk, DocumentService, NewDocument, write_document
from services.errors import ValidationFailed
from services.retrieval.core import RetrievalCore, clean_query
from services.retrieval.fusion import mmr, ranked, rrf
from services.retrieval.ranked_chunk import RankedChunk
from services.retrieval.rerank import llm_rerank
from services.retrieval.retriever import GraphAwareRetriever
from services.retrieval.search import SearchMode, SearchService
from services.stores import chunk_store, keyword_ranking
from services.stores.chunk_store import ChunkScope
from services.stores.embeddings import TextEmbedder
from services.stores.llm import LLMClient

_OPS = {FilterOperator.GT: "gt", FilterOperator.GTE: "gte", FilterOperator.LT: "lt", FilterOperator.LTE: "lte",
        FilterOperator.NE: "ne", FilterOperator.IN: "in"}
SOURCE_PREFIX = "llamaindex:"


def metadata_filters(filters: MetadataFilters | None) -> dict[str, Any] | None:
    """LlamaIndex filters (AND of ==, !=, <, <=, >, >=, in) as the chunk store's filter object."""
    if filters is None or not filters.filters:
        return None
    if filters.condition not in (None, FilterCondition.AND):
        raise ValidationFailed("Only filters combined with AND are supported.")
    out: dict[str, Any] = {}
    for f in filters.filters:
        if isinstance(f, MetadataFilters):
            raise ValidationFailed("Nested filter groups are not supported.")
        if f.operator == FilterOperator.EQ:
            out[f.key] = f.value
        elif f.operator in _OPS:
            out.setdefault(f.key, {})
            if not isinstance(out[f.key], dict):
                raise ValidationFailed(f"Filter {f.key!r}: equality cannot be combined with other operators.")
            out[f.key][_OPS[f.operator]] = f.value
        else:
            raise ValidationFailed(f"Filter operator {f.operator.value!r} is not supported.")
    return out


class WorkbenchEmbedding(BaseEmbedding):
    """The workbench's embedding model (local or OpenAI-compatible) as a LlamaIndex embedding model."""

    _embedder: Any = PrivateAttr()

    def __init__(self, embedder: TextEmbedder, **kwargs: Any) -> None:
        super().__init__(model_name=embedder.name, **kwargs)
        self._embedder = embedder

    def _get_query_embedding(self, query: str) -> list[float]:
        return [float(x) for x in self._embedder.embed_query(query)]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return [float(x) for x in self._embedder.embed_texts([text])[0]]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return [[float(x) for x in v] for v in self._embedder.embed_texts(texts)]


class ChunkVectorStore(BasePydanticVectorStore):
    """One workbench collection as a LlamaIndex vector store."""

    stores_text: bool = True
    collection: str
    ef_search: int = 200
    _collections: CollectionService = PrivateAttr()
    _documents: DocumentService = PrivateAttr()
    _deletion: DeletionService = PrivateAttr()

    def __init__(self, *, collection: str, collections: CollectionService, documents: DocumentService,
                 deletion: DeletionService, ef_search: int = 200) -> None:
        # Pydantic fields: mypy runs without the pydantic plugin (with it, checking llama_index's models took minutes).
        super().__init__(collection=collection, ef_search=ef_search)  # type: ignore[call-arg]
        self._collections = collections
        self._documents = documents
        self._deletion = deletion

    @property
    def client(self) -> Any:
        return self._documents.engine

    def add(self, nodes: list[BaseNode], **kwargs: Any) -> list[str]:  # type: ignore[override]
        """Store the nodes, one document per ``ref_doc_id`` (its nodes in order) and one transaction each."""
        coll = self._collections.get(self.collection)
        groups: dict[str, list[BaseNode]] = defaultdict(list)
        for node in nodes:
            if node.embedding is None:
                raise ValidationFailed(f"Node {node.node_id} has no embedding: embed it before adding it.")
            groups[node.ref_doc_id or node.node_id].append(node)
        for ref, members in groups.items():
            texts = [n.get_content() for n in members]
            chunks, pos = [], 0
            for i, text in enumerate(texts):
                chunks.append(Chunk(i, text, pos, pos + len(text), ()))
                pos += len(text) + 2
            first = members[0].metadata
            title = str(first.get("title") or ref)
            metadata = {k: v for k, v in first.items() if _json_value(v)}
            doc = NewDocument(coll.id, title, SOURCE_PREFIX + ref, "llamaindex", "\n\n".join(texts), metadata, chunks,
                              np.asarray([n.embedding for n in members], dtype=np.float32), graph_status="none",
                              chunk_metadata=[{"node_id": n.node_id, "ref_doc_id": ref} for n in members])
            with self._documents.engine.begin() as conn:
                write_document(conn, doc)
        return [n.node_id for n in nodes]

    def delete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
        """Delete the document stored for ``ref_doc_id`` (chunks, links and graph facts)."""
        coll = self._collections.get(self.collection)
        for doc in self._documents.list(collection_id=coll.id, limit=1000):
            if doc.source == SOURCE_PREFIX + ref_doc_id:
                self._deletion.delete_document(doc.id)

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        coll = self._collections.get(self.collection)
        scope = ChunkScope([coll.id], metadata_filters(query.filters))
        k = max(1, query.similarity_top_k or 1)
        depth = k if not (query.doc_ids or query.node_ids) else max(k * 10, 100)
        mode = query.mode
        with self._documents.engine.begin() as conn:
            dense: dict[int, float] = {}
            sparse: dict[int, float] = {}
            if mode in (VectorStoreQueryMode.DEFAULT, VectorStoreQueryMode.HYBRID):
                if query.query_embedding is None:
                    raise ValidationFailed("A semantic query needs a query embedding.")
                dense = chunk_store.semantic(conn, np.asarray(query.query_embedding, dtype=np.float32), scope,
                                             depth=depth, threshold=-1.0, ef_search=self.ef_search)
            if mode in (VectorStoreQueryMode.TEXT_SEARCH, VectorStoreQueryMode.SPARSE, VectorStoreQueryMode.HYBRID):
                if not query.query_str:
                    raise ValidationFailed("A keyword query needs the query text.")
                sparse = keyword_ranking.keyword(conn, query.query_str, scope, depth=depth)
            if mode not in (VectorStoreQueryMode.DEFAULT, VectorStoreQueryMode.HYBRID, VectorStoreQueryMode.TEXT_SEARCH,
                            VectorStoreQueryMode.SPARSE):
                raise ValidationFailed(f"Query mode {mode.value!r} is not supported.")
            if mode == VectorStoreQueryMode.HYBRID:
                alpha = 0.5 if query.alpha is None else float(query.alpha)  # 1: vector only, 0: BM25 only
                scores = rrf([(ranked(dense), alpha), (ranked(sparse), 1.0 - alpha)], 60)
            else:
                scores = dense or sparse
            rows = chunk_store.load_context(conn, ranked(scores))
        nodes, sims, ids = [], [], []
        for cid in ranked(scores):
            r = rows.get(cid)
            if r is None:
                continue
            meta = dict(r.metadata or {})
            node = TextNode(id_=str(meta.get("node_id") or cid), text=r.text,
                            metadata={"title": r.title, "document_id": r.document_id, "chunk_id": cid,
                                      "chunk_index": r.chunk_index})
            if query.node_ids and node.node_id not in query.node_ids:
                continue
            if query.doc_ids and str(meta.get("ref_doc_id")) not in query.doc_ids:
                continue
            nodes.append(node)
            sims.append(scores[cid])
            ids.append(node.node_id)
            if len(nodes) == k:
                break
        return VectorStoreQueryResult(nodes=nodes, similarities=sims, ids=ids)


def _json_value(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
        return True
    except (TypeError, ValueError):
        return False


# -- retrievers ------------------------------------------------------------------------------------
def chunk_node(chunk: RankedChunk, retriever: str) -> NodeWithScore:
    """A ranked chunk as a LlamaIndex node with its score."""
    hidden = ["chunk_id", "document_id", "chunk_metadata", "retriever", "semantic_score"]
    node = TextNode(id_=str(chunk.chunk_id), text=chunk.text, metadata={
        "chunk_id": chunk.chunk_id, "document_id": chunk.document_id, "title": chunk.title,
        "chunk_index": chunk.chunk_index, "heading_path": list(chunk.heading_path),
        "chunk_metadata": dict(chunk.chunk_metadata), "retriever": retriever, "semantic_score": chunk.semantic_score,
    }, excluded_embed_metadata_keys=hidden, excluded_llm_metadata_keys=hidden)
    return NodeWithScore(node=node, score=chunk.score)


def chunk_id(node: NodeWithScore) -> int:
    return int(node.node.metadata.get("chunk_id") or node.node.node_id)


class _SearchRetriever(BaseRetriever):
    mode: SearchMode = "semantic"

    def __init__(self, search: SearchService, *, collections: list[str] | None = None, limit: int = 20,
                 threshold: float = -1.0, filters: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.search = search
        self.collections = collections
        self.limit = limit
        self.threshold = threshold
        self.filters = filters

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        response = self.search.search(query_bundle.query_str, collections=self.collections, mode=self.mode,
                                      threshold=self.threshold, limit=self.limit, filters=self.filters, highlight=False)
        return [chunk_node(h, self.mode) for h in response.hits]


class SemanticRetriever(_SearchRetriever):
    """The chunks nearest the question's embedding (cosine), at or above ``threshold``: Search's semantic mode."""

    mode: SearchMode = "semantic"


class KeywordRetriever(_SearchRetriever):
    """The chunks that rank highest by BM25 for the question's words (websearch syntax allowed): Search's
    keyword mode."""

    mode: SearchMode = "keyword"


class GraphWalkRetriever(BaseRetriever):
    """The graph walk's list alone, as Ask computes it (services/retrieval/graph_walk.py): seeded by the question's
    entities, the named entities of its first hop's best chunks and its ``limit`` semantic hits."""

    def __init__(self, core: RetrievalCore, *, collections: list[str] | None = None, limit: int = 20) -> None:
        super().__init__()
        if core.walk is None:
            raise ValidationFailed("The knowledge graph is turned off: there is no graph to walk.")
        self.core = core
        self.collections = collections
        self.limit = limit

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        query = clean_query(query_bundle.query_str)
        scope = self.core.scope(self.collections, vectors=True)
        with self.core.engine.connect() as conn:
            found = self.core.rank(conn, query, scope, lists=("semantic", "graph"), depth=self.limit, threshold=-1.0)
            walked = [(c, found.graph[c]) for c in found.order("graph")]
            return [chunk_node(c, "graph") for c in self.core.chunks(conn, found, walked, query)]


class AskRetriever(BaseRetriever):
    """Ask's context for a question: the four lists fused, reranked (services/retrieval/retriever.py)."""

    def __init__(self, retriever: GraphAwareRetriever, *, collections: list[str] | None = None, limit: int = 6) -> None:
        super().__init__()
        self.retriever = retriever
        self.collections = collections
        self.limit = limit

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        found = self.retriever.gather(query_bundle.query_str, self.collections, limit=self.limit, threshold=-1.0)
        return [chunk_node(c, "fused") for c in found.chunks]


# -- node postprocessors ---------------------------------------------------------------------------
class MMRPostprocessor(BaseNodePostprocessor):
    """Maximal marginal relevance over the candidates' stored embeddings (relevance = their scores)."""

    top_n: int = 6
    lam: float = 0.7
    _embedder: Any = PrivateAttr()
    _vectors: Any = PrivateAttr()

    def __init__(self, embedder: TextEmbedder, vectors: Callable[[list[int]], np.ndarray], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._embedder = embedder
        self._vectors = vectors  # ids -> stored embeddings in that order (chunk_store.vectors over a connection)

    def _postprocess_nodes(self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        if query_bundle is None or len(nodes) <= self.top_n:
            return nodes[: self.top_n]
        vectors = self._vectors([chunk_id(n) for n in nodes])
        order = mmr(self._embedder.embed_query(query_bundle.query_str), vectors, [n.score or 0.0 for n in nodes],
                    self.top_n, self.lam)
        return [nodes[i] for i in order]


class LLMReranker(BaseNodePostprocessor):
    """The configured LLM reads the candidates and ranks them; on any LLM failure the given order stands."""

    top_n: int = 6
    _llm: LLMClient = PrivateAttr()

    def __init__(self, llm: LLMClient, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._llm = llm

    def _postprocess_nodes(self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        if query_bundle is None:
            return nodes[: self.top_n]
        passages = [(str(n.node.metadata.get("title", "")), n.node.get_content()) for n in nodes]
        picked = llm_rerank(self._llm, query_bundle.query_str, passages, self.top_n)
        return [nodes[i] if relevance is None else NodeWithScore(node=nodes[i].node, score=relevance)
                for i, relevance in picked]
