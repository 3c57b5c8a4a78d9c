"""MCP tools for Ask and memory: answer a question with citations; remember, recall and forget facts."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from mcp_server.context import scope_of, tool_errors
from services.jsonable import to_jsonable
from services.retrieval.ask import cited_sources


def register(server: MCPServer[Any]) -> None:
    @server.tool(description=(
        "Answer a question from the ingested documents, with citations. Use when the user wants an answer "
        "rather than a list of search hits. Returns text with [n] markers, the cited sources (title, "
        "document_id, chunk_index), the knowledge-graph facts used with their validity dates, an optional "
        "Mermaid diagram, and diagnostics. Pass conversation_id to continue a conversation so that follow-ups "
        "like 'what happened after that?' resolve against the previous answer. Without an LLM configured the "
        "answer is extracted sentences (mode 'extracted'); mode 'nothing' means nothing relevant was found."))
    def ask(
        ctx: Context,
        question: Annotated[str, Field(description="The question, in plain language.")],
        collections: Annotated[list[str] | None, Field(description="Answer from these collections (default: all).")] = None,
        conversation_id: Annotated[int | None, Field(description="Continue this conversation; omit to start one.")] = None,
    ) -> dict[str, Any]:
        with tool_errors():
            result = scope_of(ctx).ask(question, conversation_id=conversation_id, collections=collections)
            sources = cited_sources(result)
            return to_jsonable({"conversation_id": result.conversation_id, "answer": result.answer, "sources": sources,
                                "facts": result.facts, "mermaid": result.mermaid, "diagnostics": result.diagnostics})

    @server.tool(description=(
        "Remember a short fact about the user (e.g. 'I work in finance'). Facts very similar to a later question "
        "are given to the answering model as earlier conversation. Returns the stored fact with its id."))
    def remember(ctx: Context, fact: Annotated[str, Field(description="The fact, at most 500 characters.")]) -> dict[str, Any]:
        with tool_errors():
            return to_jsonable(scope_of(ctx).memory().remember(fact))

    @server.tool(description=(
        "Recall remembered facts about the user, ranked by similarity to a query (similarity 1.0 = same meaning). "
        "Use a broad query like 'about me' to see what is known. Returns {facts: [{id, text, similarity}]}."))
    def recall(
        ctx: Context,
        query: Annotated[str, Field(description="What to compare the facts with.")],
        limit: Annotated[int, Field(ge=1, le=200, description="At most this many facts.")] = 10,
    ) -> dict[str, Any]:
        with tool_errors():
            return {"facts": to_jsonable(scope_of(ctx).memory().recall(query, limit=limit))}

    @server.tool(description="Forget (delete) a remembered fact by its id, as returned by remember or recall.")
    def forget(ctx: Context, fact_id: Annotated[int, Field(description="The fact's id.")]) -> dict[str, Any]:
        with tool_errors():
            scope_of(ctx).memory().forget(fact_id)
            return {"forgotten": fact_id}
