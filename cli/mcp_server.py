"""The MCP server: the workbench's collections, ingestion, documents, search and graph as tools for AI agents.

One services container per server process, built in the lifespan (or the one
handed to :func:`cli.context.set_services`). Tools run the synchronous services
on worker threads; a domain error becomes a tool error (``isError``) whose text
starts with the error kind (``NotFound: ...``) so an agent can react to it.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from cli import context
from services.container import Services
from services.errors import JobInProgress, WorkbenchError
from services.redaction import scrub

log = logging.getLogger(__name__)

INSTRUCTIONS = """\
A long-term memory of documents. Documents live in collections; each collection has a description
(read it with list_collections to choose where to look or store) and an optional metadata schema.
Use search_documents to find passages (hybrid search is the best default), get_document to read a
whole document, and query_relationships / query_temporal for facts about a named entity (who did
what, and when it was true). Store new knowledge with ingest_text (or ingest_file / ingest_directory
for files on the server). Ids returned by one tool (document_id) are accepted by the others."""


@dataclass
class AppContext:
    services: Services


@asynccontextmanager
async def lifespan(_server: MCPServer[Any]) -> AsyncIterator[AppContext]:
    """Start (or reuse) the stores and the model once for the server's lifetime."""
    services = await anyio.to_thread.run_sync(context.get_services)
    try:
        yield AppContext(services)
    finally:
        await anyio.to_thread.run_sync(context.close_services)


def services_of(ctx: Context) -> Services:
    return ctx.request_context.lifespan_context.services


@contextmanager
def tool_errors() -> Iterator[None]:
    """Domain errors → a tool error the agent can read; anything else stays a crash (logged, generic message)."""
    try:
        yield
    except JobInProgress as exc:
        raise ToolError(f"JobInProgress: {exc} Wait for that ingest to finish before asking again "
                        "(its documents appear in list_documents as it goes).") from None
    except WorkbenchError as exc:
        raise ToolError(scrub(f"{exc.__class__.__name__}: {exc}")) from None


def build_server() -> MCPServer[AppContext]:
    from cli import mcp_ask, mcp_collections, mcp_documents, mcp_graph, mcp_ingest, mcp_web

    server: MCPServer[AppContext] = MCPServer(
        "rag-memory", title="RAG Memory Workbench", instructions=INSTRUCTIONS, lifespan=lifespan, log_level="WARNING",
    )
    for module in (mcp_collections, mcp_ingest, mcp_web, mcp_documents, mcp_graph, mcp_ask):
        module.register(server)
    return server


class BearerAuth:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                from starlette.responses import JSONResponse

                response = JSONResponse({"error": "unauthorized", "detail": "Send Authorization: Bearer <RAG_MCP_TOKEN>."},
                                        status_code=401, headers={"WWW-Authenticate": "Bearer"})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def http_app(server: MCPServer[Any], *, host: str, token: str | None) -> Any:
    app = server.streamable_http_app(host=host)
    return BearerAuth(app, token) if token else app


def serve(transport: str, *, host: str = "127.0.0.1", port: int = 8765, token: str | None = None) -> None:
    """Run until the client disconnects (stdio) or the process is stopped (HTTP)."""
    server = build_server()
    if transport == "stdio":
        server.run("stdio")
        return
    import uvicorn

    config = uvicorn.Config(http_app(server, host=host, token=token), host=host, port=port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)
