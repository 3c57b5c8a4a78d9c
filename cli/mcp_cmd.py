"""``rag mcp``: serve the workbench to AI agents over the Model Context Protocol."""

from __future__ import annotations

import click

from cli.context import get_settings
from cli.errors import CliError
from services.access import is_loopback_address


@click.command("mcp")
@click.option("--transport", type=click.Choice(["stdio", "streamable-http"]), default="stdio", show_default=True,
              help="stdio for a local agent that starts this command; streamable-http to listen on HOST:PORT.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (streamable-http).")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="Port (streamable-http).")
def mcp(transport: str, host: str, port: int) -> None:
    """Run the MCP server (tools for collections, ingestion, documents, search and the graph).

    Over HTTP the endpoint is http://HOST:PORT/mcp; when RAG_MCP_TOKEN is set every request
    must send `Authorization: Bearer $RAG_MCP_TOKEN`. Logs go to stderr.
    """
    from mcp_server.server import serve

    secret = get_settings().mcp_token
    token = secret.get_secret_value() if secret else None
    if transport == "streamable-http" and not token and not is_loopback_address(host):
        raise CliError(f"Refusing to listen on {host} without RAG_MCP_TOKEN: set a token, or use 127.0.0.1.", 2)
    serve(transport, host=host, port=port, token=token)
