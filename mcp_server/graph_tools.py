"""MCP tools for the knowledge graph: facts about an entity, and facts valid in a time window."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from mcp_server.context import scope_of, tool_errors
from services.jsonable import to_jsonable

Entity = Annotated[str, Field(description="An entity's name, e.g. 'Acme' or 'Alice Smith' (case and articles "
                                          "do not matter; a partial name picks the best-connected match).")]
Collections = Annotated[list[str] | None, Field(description="Look only in these collections (default: all).")]
FACT_FIELDS = "Each fact: source, relation, target, valid_from, valid_until, status (current or superseded), " \
              "sentence (the evidence) and document_id; valid_from_precision, valid_until_precision and " \
              "stated_on_precision say how much of each date the text gave (year, month or day: a year alone is " \
              "stored as its 1 January) and are null on facts stored before precisions were kept."
READ_ONLY = ToolAnnotations(read_only_hint=True)


def register(server: MCPServer[Any]) -> None:
    @server.tool(annotations=READ_ONLY, description=(
        "Every fact the knowledge graph holds about an entity (who or what it is related to and how), oldest "
        "first, including facts later superseded (e.g. a former CEO). Use for 'what do we know about X' or "
        "'who is X's ...'. " + FACT_FIELDS))
    def query_relationships(
        ctx: Context,
        entity: Entity,
        collections: Collections = None,
        limit: Annotated[int, Field(ge=1, le=10_000, description="At most this many facts.")] = 200,
    ) -> dict[str, Any]:
        with tool_errors():
            return to_jsonable(scope_of(ctx).relationships(entity, collections, limit))

    @server.tool(annotations=READ_ONLY, description=(
        "Facts about an entity that were true at some time within a date window, e.g. who ran Acme between "
        "2015 and 2020. Dates are YYYY, YYYY-MM or YYYY-MM-DD; either end may be omitted (open). "
        "For 'as of' a single date pass the same date as start_date and end_date. " + FACT_FIELDS))
    def query_temporal(
        ctx: Context,
        entity: Entity,
        start_date: Annotated[str | None, Field(description="Window start (inclusive), e.g. '2015'.")] = None,
        end_date: Annotated[str | None, Field(description="Window end (inclusive), e.g. '2020-06-30'.")] = None,
        collections: Collections = None,
    ) -> dict[str, Any]:
        with tool_errors():
            return to_jsonable(scope_of(ctx).temporal(entity, start_date, end_date, collections))
