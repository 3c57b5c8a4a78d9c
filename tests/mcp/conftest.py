"""MCP fixtures: the real server object, on the session's services, driven by the SDK client in memory."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import CallToolResult


@pytest.fixture(scope="session")
def mcp_server(services):
    """The server ``rag mcp`` runs, with its lifespan pointed at the test session's container."""
    from cli import context
    from mcp_server.server import build_server

    context.set_services(services)
    yield build_server()
    context.set_services(None)


@pytest.fixture
def session(mcp_server) -> Callable[[Callable[[Client], Awaitable[Any]]], Any]:
    """``session(scenario)`` connects a client over in-memory JSON-RPC streams and runs ``await scenario(client)``."""

    def run(scenario: Callable[[Client], Awaitable[Any]]) -> Any:
        async def main() -> Any:
            async with Client(mcp_server, mode="legacy", raise_exceptions=True) as client:
                return await scenario(client)

        return anyio.run(main)

    return run


def ok(result: CallToolResult) -> Any:
    assert not result.is_error, result.content
    return result.structured_content


def error_text(result: CallToolResult) -> str:
    assert result.is_error, result.structured_content
    return result.content[0].text
