"""The MCP server: the workbench's collections, ingestion, documents, search and graph as tools for AI agents.

One services container per server process, built in the lifespan (or the one
handed to :func:`services.process.set_services`). Tools run the synchronous services
on worker threads; a domain error becomes a tool error (``isError``) whose text
starts with the error kind (``NotFound: ...``) so an agent can react to it.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer

from mcp_server import ask_tools, collections_tools, documents_tools, graph_edit_tools, graph_tools, ingest_tools, web_tools
from mcp_server.context import AppContext, lifespan
from services import process
from services.authz.service import AccessService
from services.errors import Forbidden

log = logging.getLogger(__name__)

INSTRUCTIONS = """\
A long-term memory of documents. Documents live in collections; each collection has a description
(read it with list_collections to choose where to look or store) and an optional metadata schema.
Use search_documents to find passages (hybrid search is the best default), get_document to read a
whole document, and query_relationships / query_temporal for facts about a named entity (who did
what, and when it was true). Store new knowledge with ingest_text (or ingest_file / ingest_directory
for files on the server). Ids returned by one tool (document_id) are accepted by the others."""


def build_server() -> MCPServer[AppContext]:
    server: MCPServer[AppContext] = MCPServer(
        "rag-memory", title="RAG Memory Workbench", instructions=INSTRUCTIONS, lifespan=lifespan, log_level="WARNING",
    )
    for module in (collections_tools, ingest_tools, web_tools, documents_tools, graph_tools, graph_edit_tools, ask_tools):
        module.register(server)
    return server


class BearerAuth:
    """ASGI middleware: an HTTP request must carry ``Authorization: Bearer <token>``: the shared RAG_MCP_TOKEN
    (acts as the operator) or a user's token (`rag tokens create USER`; acts as that user, each tool call is
    checked by the access scope). Without a shared token and while no user exists, no header is needed
    (loopback only: `rag mcp` refuses another address). An unknown or revoked token gets 401."""

    def __init__(self, app: Any, token: str | None, access: Callable[[], AccessService] | None = None) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode() if token else None
        self.access = access

    def _allowed(self, given: bytes) -> bool:
        """Runs on a worker thread: it may read the users and tokens tables."""
        if self.expected is not None and hmac.compare_digest(given, self.expected):
            return True
        access = self.access() if self.access is not None else None
        if given[:7].lower() == b"bearer " and access is not None:
            try:
                access.principal_for_token(given[7:].decode("utf-8", "replace").strip())
                return True
            except Forbidden:
                return False
        return not given and self.expected is None and (access is None or not access.users_exist())

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not await anyio.to_thread.run_sync(self._allowed, given):
                from starlette.responses import JSONResponse

                response = JSONResponse({"error": "unauthorized", "detail": "Send Authorization: Bearer <token> "
                                         "(RAG_MCP_TOKEN, or one from `rag tokens create USER`)."},
                                        status_code=401, headers={"WWW-Authenticate": "Bearer"})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _access() -> AccessService:
    return process.get_services().access


def http_app(server: MCPServer[Any], *, host: str, token: str | None,
             access: Callable[[], AccessService] | None = _access) -> Any:
    return BearerAuth(server.streamable_http_app(host=host), token, access)


def serve(transport: str, *, host: str = "127.0.0.1", port: int = 8765, token: str | None = None) -> None:
    """Run until the client disconnects (stdio) or the process is stopped (HTTP)."""
    server = build_server()
    if transport == "stdio":
        server.run("stdio")
        return
    import uvicorn

    config = uvicorn.Config(http_app(server, host=host, token=token), host=host, port=port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)
