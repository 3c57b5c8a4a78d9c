"""A collection's chunks as a LlamaIndex vector store (``BasePydanticVectorStore``), on the same PostgreSQL tables.

``VectorStoreIndex.from_vector_store(ChunkVectorStore(...), embed_model=WorkbenchEmbedding(...))`` gives a
LlamaIndex index over a workbench collection: its retrievers and query engines read the chunks the app, the
CLI and MCP read, with semantic (``default``), BM25 (``text_search``/``sparse``) and ``hybrid`` queries and
``MetadataFilters``. ``add`` writes each source document (``ref_doc_id``) with all its nodes in one
transaction, through the same ``write_document`` the ingester uses, so dedup constraints and the BM25 statistics
hold; ``delete`` removes a document everywhere, graph facts included.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import numpy as np
from llama_index.core.bridge.pydantic import PrivateAttr
from llama_index.core.embeddings import BaseEmbedding
from llama_index.core.schema import BaseNode, TextNode
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
from services.retrieval.fusion import ranked, rrf
from services.stores import chunk_store, keyword_ranking
from services.stores.chunk_store import ChunkScope
from services.stores.embeddings import TextEmbedder

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
