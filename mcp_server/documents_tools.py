"""MCP tools for documents (list, read, re-tag, delete) and search."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from mcp_server.context import scope_of, tool_errors
from services.errors import ValidationFailed
from services.jsonable import to_jsonable
from services.page_ref import page_ref

DocumentId = Annotated[int, Field(description="The document's id (from search_documents or list_documents).")]
READ_ONLY = ToolAnnotations(read_only_hint=True)


def _hit(hit: Any) -> dict[str, Any]:
    keep = ("document_id", "chunk_id", "title", "source", "score", "semantic_score", "keyword_score", "heading_path",
            "char_start", "char_end", "text", "metadata")
    return {**{k: to_jsonable(getattr(hit, k)) for k in keep}, "page": page_ref(hit.chunk_metadata),
            "pages": hit.chunk_metadata.get("pages")}


def register(server: MCPServer[Any]) -> None:
    @server.tool(annotations=READ_ONLY)
    def list_documents(
        ctx: Context,
        collection: Annotated[str | None, Field(description="Only documents in this collection.")] = None,
        title_contains: Annotated[str, Field(description="Only titles containing this text (case-insensitive).")] = "",
        metadata_filter: Annotated[dict[str, Any] | None, Field(
            description='Only documents whose metadata contains these values, e.g. {"party": "Whig"}.')] = None,
        limit: Annotated[int, Field(ge=1, le=1000, description="At most this many (ordered by title).")] = 50,
        offset: Annotated[int, Field(ge=0, description="Skip this many, to page through long lists.")] = 0,
    ) -> dict[str, Any]:
        """List stored documents (id, title, source, metadata, chunk count, graph status, collections).

        Use to browse what is stored or find a document id by title; use search_documents to find content."""
        with tool_errors():
            docs = scope_of(ctx).documents(collection, title_contains=title_contains, metadata_filter=metadata_filter,
                                           limit=limit, offset=offset)
            return {"documents": to_jsonable(docs)}

    @server.tool(annotations=READ_ONLY)
    def get_document(
        ctx: Context,
        document_id: DocumentId,
        include_chunks: Annotated[bool, Field(description="Also return the chunks with offsets and heading paths.")] = False,
        max_chars: Annotated[int, Field(ge=100, le=1_000_000, description="Return at most this much of the text.")] = 20_000,
    ) -> dict[str, Any]:
        """Read a whole document: its details, metadata and full text (cut at max_chars; 'truncated' says so).

        Use after search_documents when a passage needs its surrounding context."""
        with tool_errors():
            doc = scope_of(ctx).document(document_id, with_chunks=include_chunks)
            out = {"summary": to_jsonable(doc.summary), "content": doc.content[:max_chars],
                   "truncated": len(doc.content) > max_chars}
            if include_chunks:
                out["chunks"] = to_jsonable(doc.chunks)
            return out

    @server.tool()
    def update_document(
        ctx: Context,
        document_id: DocumentId,
        metadata: Annotated[dict[str, Any] | None, Field(description="Keys to set; merged into the existing metadata.")] = None,
        remove_keys: Annotated[list[str] | None, Field(description="Metadata keys to remove.")] = None,
        replace: Annotated[bool, Field(
            description="metadata is the whole new metadata: keys not in it are dropped.")] = False,
        expected_etag: Annotated[str | None, Field(description=(
            "The metadata_etag from get_document: the change is refused (EditConflict) if the metadata "
            "changed since then. Use it with replace."))] = None,
    ) -> dict[str, Any]:
        """Change a document's metadata (validated against its collections' schemas). Returns the summary.

        Concurrent updates of different keys are all kept."""
        with tool_errors():
            if not (metadata or remove_keys or (replace and metadata is not None)):
                raise ValidationFailed("Give metadata to set and/or remove_keys.")
            return to_jsonable(scope_of(ctx).update_metadata(
                document_id, metadata or {}, remove=remove_keys, replace=replace, expected_etag=expected_etag))

    @server.tool(annotations=ToolAnnotations(destructive_hint=True))
    def delete_document(ctx: Context, document_id: DocumentId) -> dict[str, Any]:
        """Permanently delete a document from every collection, with its chunks and graph facts."""
        with tool_errors():
            scope_of(ctx).delete_document(document_id)
            return {"document_id": document_id, "deleted": True}

    @server.tool(annotations=READ_ONLY)
    def search_documents(
        ctx: Context,
        query: Annotated[str, Field(description="What to look for: a question or keywords (at most 2000 characters).")],
        collections: Annotated[list[str] | None, Field(description="Search only these collections (default: all).")] = None,
        mode: Annotated[Literal["semantic", "keyword", "hybrid"], Field(
            description="hybrid (default) fuses meaning and exact words; semantic for paraphrases; "
                        "keyword for exact names, codes and quotes.")] = "hybrid",
        threshold: Annotated[float | None, Field(ge=-1.0, le=1.0, description=(
            "Minimum cosine similarity for meaning matches; lower it (e.g. 0.2) when nothing comes back. "
            "Default: the configured 0.35."))] = None,
        limit: Annotated[int | None, Field(ge=1, le=200, description="At most this many passages (default 10).")] = None,
        filters: Annotated[dict[str, Any] | None, Field(description=(
            'Metadata filters: {"party": "Whig"} for equality, or operators '
            '{"year": {"gte": 1900, "lt": 1950}} (gte, gt, lte, lt, ne, in).'))] = None,
    ) -> dict[str, Any]:
        """Find the passages (chunks) most relevant to a query, best first, each with its document id,
        title, heading path, score and text. The main way to recall stored knowledge."""
        with tool_errors():
            scope = scope_of(ctx)
            svc = scope.services
            response = scope.search(
                query, collections=collections or None, mode=mode, filters=filters,
                threshold=svc.settings.search_threshold if threshold is None else threshold,
                limit=svc.settings.search_limit if limit is None else limit,
            )
            return {"query": response.query, "mode": response.mode, "hits": [_hit(h) for h in response.hits],
                    "notes": response.notes}
