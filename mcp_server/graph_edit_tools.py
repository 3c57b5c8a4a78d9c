"""MCP tools for the analyst's graph edits, the same as the CLI's and the Graph page's: merge, rename, retype,
split, delete an entity or a fact, add a fact, the duplicate suggestions, the edit history, undo and export.
Every edit is recorded with its author (default ``mcp``) and can be undone."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from mcp_server.context import scope_of, tool_errors
from services.jsonable import to_jsonable

Coll = Annotated[str, Field(description="The collection whose graph to edit.")]
Name = Annotated[str, Field(description="An entity's exact name, alias or key (an ambiguous name is refused with "
                                        "the keys to choose from).")]
Author = Annotated[str, Field(description="Who makes the edit, recorded in the edit history.")]
EDIT = ("Returns the recorded edit: id, kind, summary, author, status, created_at, params, changed. "
        "graph_undo takes it back.")
CHANGES = ToolAnnotations(destructive_hint=False, idempotent_hint=False)
DELETES = ToolAnnotations(destructive_hint=True)
READ_ONLY = ToolAnnotations(read_only_hint=True)


def register(server: MCPServer[Any]) -> None:
    def cur(ctx: Context) -> Any:
        return scope_of(ctx).curation()

    @server.tool(annotations=CHANGES, description=(
        "Merge two or more entities of a collection's graph into the first one: every fact is kept and the "
        "other names become its aliases. " + EDIT))
    def graph_merge_entities(ctx: Context, collection: Coll, names: Annotated[list[str], Field(
            description="The entity to keep first, then the ones to fold into it.", min_length=2)],
            author: Author = "mcp") -> dict[str, Any]:
        with tool_errors():
            return dict(cur(ctx).merge(collection, names, author=author).brief())

    @server.tool(annotations=CHANGES, description="Rename an entity; its old name stays an alias. " + EDIT)
    def graph_rename_entity(ctx: Context, collection: Coll, name: Name,
                            new_name: Annotated[str, Field(description="The new name.")],
                            author: Author = "mcp") -> dict[str, Any]:
        with tool_errors():
            return dict(cur(ctx).rename(collection, name, new_name, author=author).brief())

    @server.tool(annotations=CHANGES, description="Change an entity's type (PERSON, ORG, GPE, PRODUCT...). " + EDIT)
    def graph_retype_entity(ctx: Context, collection: Coll, name: Name,
                            new_type: Annotated[str, Field(description="The new type, e.g. ORG.")],
                            author: Author = "mcp") -> dict[str, Any]:
        with tool_errors():
            return dict(cur(ctx).retype(collection, name, new_type, author=author).brief())

    @server.tool(annotations=CHANGES, description=(
        "Split an entity that conflates two things: the facts of the given documents, or the given facts, move "
        "to another entity named new_name (created if needed). " + EDIT))
    def graph_split_entity(ctx: Context, collection: Coll, name: Name,
                           new_name: Annotated[str, Field(description="The name of the entity the facts go to.")],
                           documents: Annotated[list[int] | None, Field(description="Move these documents' facts.")] = None,
                           fact_ids: Annotated[list[str] | None, Field(description="Move these facts (ids).")] = None,
                           new_type: Annotated[str | None, Field(description="The new entity's type.")] = None,
                           author: Author = "mcp") -> dict[str, Any]:
        with tool_errors():
            return dict(cur(ctx).split(collection, name, new_name, new_type=new_type, documents=documents,
                                       fact_ids=fact_ids, author=author).brief())

    @server.tool(annotations=DELETES, description="Delete an entity and all its facts (undo brings them back). " + EDIT)
    def graph_delete_entity(ctx: Context, collection: Coll, name: Name, author: Author = "mcp") -> dict[str, Any]:
        with tool_errors():
            return dict(cur(ctx).delete_entity(collection, name, author=author).brief())

    @server.tool(annotations=DELETES, description=(
        "Delete one wrong fact by its id (query_relationships gives fact ids). " + EDIT))
    def graph_delete_fact(ctx: Context, collection: Coll,
                          fact_id: Annotated[str, Field(description="The fact's id, e.g. '12:3'.")],
                          author: Author = "mcp") -> dict[str, Any]:
        with tool_errors():
            return dict(cur(ctx).delete_fact(collection, fact_id, author=author).brief())

    @server.tool(annotations=CHANGES, description=(
        "Add a fact subject -relation-> object, marked as added by its author; names not in the graph become "
        "new entities. Dates are YYYY, YYYY-MM or YYYY-MM-DD. " + EDIT))
    def graph_add_fact(ctx: Context, collection: Coll,
                       subject: Annotated[str, Field(description="The subject entity's name.")],
                       relation: Annotated[str, Field(description="The relation, e.g. 'born in' or 'ceo_of'.")],
                       object: Annotated[str, Field(description="The object entity's name.")],
                       valid_from: Annotated[str | None, Field(description="When it began to hold.")] = None,
                       valid_until: Annotated[str | None, Field(description="When it stopped holding.")] = None,
                       note: Annotated[str | None, Field(description="Its source, or why it is added.")] = None,
                       author: Author = "mcp") -> dict[str, Any]:
        with tool_errors():
            return dict(cur(ctx).add_fact(collection, subject, relation, object, valid_from=valid_from,
                                          valid_until=valid_until, note=note, author=author).brief())

    @server.tool(annotations=READ_ONLY, description=(
        "Likely duplicate entities of a collection, best first, each with its evidence (stated alias, name "
        "containment, name-embedding similarity); key_a is the entity a merge keeps. Answer with "
        "graph_decide_suggestion."))
    def graph_suggestions(ctx: Context, collection: Coll,
                          limit: Annotated[int, Field(ge=1, le=1000, description="At most this many.")] = 50
                          ) -> dict[str, Any]:
        with tool_errors():
            return {"suggestions": to_jsonable(cur(ctx).suggestions(collection, limit=limit))}

    @server.tool(annotations=CHANGES, description=(
        "Answer a duplicate suggestion: 'accept' merges the pair, 'reject' hides it until its evidence changes, "
        "'never' hides it for good."))
    def graph_decide_suggestion(ctx: Context, collection: Coll,
                                key_a: Annotated[str, Field(description="One entity key of the pair.")],
                                key_b: Annotated[str, Field(description="The other entity key.")],
                                decision: Annotated[str, Field(description="accept, reject or never.")],
                                author: Author = "mcp") -> dict[str, Any]:
        with tool_errors():
            out = cur(ctx).decide(collection, key_a, key_b, decision, author=author)
            return {"decision": out["decision"], "edit": out["edit"].brief() if out["edit"] else None,
                    "suggestion": to_jsonable(out["suggestion"])}

    @server.tool(annotations=READ_ONLY, description=(
        "The edits of a collection's graph, newest first: who, when, what, and whether applied or undone."))
    def graph_edit_history(ctx: Context, collection: Coll,
                           limit: Annotated[int, Field(ge=1, le=1000, description="At most this many.")] = 50
                           ) -> dict[str, Any]:
        with tool_errors():
            return {"edits": [e.brief() for e in cur(ctx).history(collection, limit)]}

    @server.tool(annotations=CHANGES, description=(
        "Undo the newest edit of a collection's graph that is still applied (one at a time). Returns it."))
    def graph_undo(ctx: Context, collection: Coll, author: Author = "mcp") -> dict[str, Any]:
        with tool_errors():
            return dict(cur(ctx).undo(collection, author=author).brief())

    @server.tool(annotations=READ_ONLY, description=(
        "A collection's whole graph as text: 'graphml' (Gephi, yEd), 'json' (re-importable) or 'csv' "
        "(neo4j-admin import: nodes.csv and relationships.csv). Returns {filename: content}."))
    def graph_export(ctx: Context, collection: Coll,
                     format: Annotated[str, Field(description="graphml, json or csv.")] = "graphml"
                     ) -> dict[str, Any]:
        with tool_errors():
            files = cur(ctx).export(collection, format)
            return {"files": {name: content.decode("utf-8") for name, content in files.items()}}
