"""What every MCP tool module shares: the server's services and the domain-error → tool-error mapping."""

from __future__ import annotations

import hmac
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from services import process
from services.authz.principal import Principal
from services.authz.scope import Scope
from services.container import Services
from services.errors import Forbidden, JobInProgress, WorkbenchError
from services.redaction import scrub


@dataclass
class AppContext:
    services: Services


@asynccontextmanager
async def lifespan(_server: MCPServer[Any]) -> AsyncIterator[AppContext]:
    """Start (or reuse) the stores once for the server's lifetime; the model loads in the background meanwhile
    (a server lives long enough for its first search to want it ready; the tools answer without waiting for it)."""
    services = await anyio.to_thread.run_sync(process.get_services)
    services.start_loading_model()
    try:
        yield AppContext(services)
    finally:
        await anyio.to_thread.run_sync(process.close_services)


def services_of(ctx: Context) -> Services:
    return ctx.request_context.lifespan_context.services


def principal_of(ctx: Context, services: Services) -> Principal:
    """Who a tool call acts as: over stdio, or HTTP with the shared RAG_MCP_TOKEN (or none while no user
    exists), the operator; with a user's token (`rag tokens create USER`), that user. Anything else is
    refused (the HTTP middleware refuses it first; this check holds even without it)."""
    request = getattr(ctx.request_context, "request", None)
    if request is None:
        return Principal.operator()
    header = request.headers.get("authorization", "")
    token = header[7:].strip() if header[:7].lower() == "bearer " else ""
    shared = services.settings.mcp_token.get_secret_value() if services.settings.mcp_token else ""
    if shared and hmac.compare_digest(token.encode(), shared.encode()):
        return Principal.operator()
    if token:
        return services.access.principal_for_token(token)
    if shared or services.access.users_exist():
        raise Forbidden("Send Authorization: Bearer <token> (rag tokens create USER).")
    return Principal.operator()


def scope_of(ctx: Context) -> Scope:
    """The services as the caller may use them (services/authz/scope.py); every tool goes through it."""
    services = services_of(ctx)
    return services.scope(principal_of(ctx, services))


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
