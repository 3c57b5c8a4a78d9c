"""MCP tools for collections: create, list, inspect, describe/extend, delete, link a document."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from mcp_server.context import scope_of, tool_errors
from services.authz.scope import Scope
from services.errors import ValidationFailed
from services.jsonable import to_jsonable
from services.metadata_schema import schema_from_fields

Name = Annotated[str, Field(description="The collection's exact name (see list_collections).")]
SCHEMA_HELP = ('Metadata fields, e.g. {"year": {"type": "integer", "required": true}, "party": "string"}. '
               "Types: string, integer, number, boolean, date, list.")


def _info(scope: Scope, name: str) -> dict[str, Any]:
    coll = scope.collection(name)
    svc = scope.services
    graph = svc.graph.counts([coll.id]) if svc.graph is not None else None
    return {**to_jsonable(coll), "graph": graph}


def register(server: MCPServer[Any]) -> None:
    @server.tool()
    def create_collection(
        ctx: Context,
        name: Annotated[str, Field(description="A new, unique name (at most 100 characters).")],
        description: Annotated[str, Field(description="What the collection holds and what it is for; "
                                                      "agents read this to decide where to search or store.")],
        metadata_schema: Annotated[dict[str, Any] | None, Field(description=SCHEMA_HELP)] = None,
    ) -> dict[str, Any]:
        """Create an empty collection (a named group of documents) before ingesting into it.

        Use when no existing collection fits the material (check list_collections first). Documents
        ingested later must satisfy the metadata schema. Returns the collection."""
        with tool_errors():
            coll = scope_of(ctx).create_collection(
                name=name, description=description, metadata_schema=schema_from_fields(metadata_schema) if metadata_schema else None)
            return to_jsonable(coll)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def list_collections(ctx: Context) -> dict[str, Any]:
        """List every collection with its description, document and chunk counts and embedding model.

        Call this first to learn what knowledge is stored and which collection names to pass to other tools."""
        with tool_errors():
            return {"collections": to_jsonable(scope_of(ctx).collections())}

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def get_collection_info(ctx: Context, name: Name) -> dict[str, Any]:
        """Details of one collection: description, metadata schema (which fields documents may or must
        carry), counts, embedding model and knowledge-graph size (entities, facts)."""
        with tool_errors():
            return _info(scope_of(ctx), name)

    @server.tool()
    def update_collection_metadata(
        ctx: Context,
        name: Name,
        description: Annotated[str | None, Field(description="A new description; omit to keep the current one.")] = None,
        add_fields: Annotated[dict[str, Any] | None, Field(description="Metadata fields to add (schemas only grow; "
                                                                       "existing fields cannot change). " + SCHEMA_HELP)] = None,
        make_optional: Annotated[list[str] | None, Field(description="Fields to stop requiring.")] = None,
        drop_fields: Annotated[list[str] | None, Field(description="Fields to remove from the schema; refused while "
                                                                   "a document of the collection has a value for one.")] = None,
    ) -> dict[str, Any]:
        """Change a collection's description, add metadata fields to its schema, make fields optional or drop
        fields no document uses. Returns the collection."""
        with tool_errors():
            scope = scope_of(ctx)
            if description is None and not (add_fields or make_optional or drop_fields):
                raise ValidationFailed("Give a description, add_fields, make_optional and/or drop_fields.")
            collections = scope.editing(name)
            if description is not None:
                collections.update_description(name, description)
            for field_name in make_optional or []:
                collections.make_field_optional(name, field_name)
            for field_name in drop_fields or []:
                collections.drop_schema_field(name, field_name)
            if add_fields:
                collections.add_schema_fields(name, schema_from_fields(add_fields))
            return _info(scope, name)

    @server.tool(annotations=ToolAnnotations(destructive_hint=True))
    def delete_collection(ctx: Context, name: Name) -> dict[str, Any]:
        """Permanently delete a collection, its knowledge graph and the documents that belong only to it
        (documents shared with another collection survive). Only when the user asked for it."""
        with tool_errors():
            return {"collection": name, "documents_deleted": scope_of(ctx).delete_collection(name)}

    @server.tool()
    def link_document_to_collection(
        ctx: Context,
        document_id: Annotated[int, Field(description="An existing document's id (from search or list_documents).")],
        collection: Annotated[str, Field(description="The collection to add it to.")],
    ) -> dict[str, Any]:
        """Add an existing document to another collection as well, without re-ingesting it.

        Refused when the collection already holds it (or the same title or content), when the collection
        uses a different embedding model, or when the document's metadata does not fit its schema."""
        with tool_errors():
            coll = scope_of(ctx).link(document_id, collection)
            return {"document_id": document_id, "collection": to_jsonable(coll)}
