"""``rag mcp`` as an agent runs it: a subprocess speaking MCP on stdio (nothing else may reach stdout)."""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.mcp.conftest import ok

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_rag_mcp_over_stdio(services, collection):
    """A second process on the session's stores (it reuses the running embedded servers)."""
    title = f"stdio-{uuid.uuid4().hex[:6]}"
    params = StdioServerParameters(command=sys.executable, args=["-m", "cli", "mcp"], cwd=str(ROOT), env=dict(os.environ))

    async def scenario():
        with anyio.fail_after(180):
            return await talk()

    async def talk():
        async with Client(params, mode="legacy", read_timeout_seconds=120) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"search_documents", "ingest_text"} <= names
            out = ok(await client.call_tool("ingest_text", {"collection": collection, "title": title,
                                                            "text": "Stdio servers talk in JSON lines."}))
            assert out["counts"]["ingested"] == 1
            hits = ok(await client.call_tool("search_documents", {"query": "JSON lines", "collections": [collection]}))
            return hits["hits"][0]["title"]

    assert anyio.run(scenario) == title
