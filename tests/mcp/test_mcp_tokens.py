"""MCP over HTTP (a real uvicorn server on 127.0.0.1) with two users' tokens: each tool call acts as the token's
user with that user's roles; an unknown or revoked token is refused."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from services.authz.principal import Principal
from tests.mcp.conftest import error_text, ok
from tests.utils.access import make_two_teams, remove_two_teams


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def http_server(mcp_server, services):
    """``rag mcp --transport streamable-http`` in a thread of this process, on the test session's services."""
    import uvicorn

    from mcp_server.server import http_app

    port = free_port()
    config = uvicorn.Config(http_app(mcp_server, host="127.0.0.1", token=None), host="127.0.0.1", port=port,
                            log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:  # waits for the socket, however slow the machine; no deadline to race
        if not thread.is_alive():
            raise RuntimeError("the MCP HTTP server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    thread.join()


@pytest.fixture(scope="module")
def two_users(services):
    team = make_two_teams(services, "mcp", (("Harbour", "The harbour of Porto ships cork and wine."),
                                            ("Mine", "The Kiruna mine produces iron ore pellets.")))
    op = Principal.operator()
    try:
        yield {**team, "ann_token": services.access.create_token(team["ann"], by=op),
               "ben_token": services.access.create_token(team["ben"], by=op)}
    finally:
        remove_two_teams(services, team)


def call(url: str, token: str | None, scenario: Any) -> Any:
    async def main() -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with httpx.AsyncClient(headers=headers, timeout=None) as http:
            async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
                return await scenario(client)

    return anyio.run(main)


def test_each_token_acts_as_its_user(http_server, two_users, services) -> None:
    a, b = two_users["a"], two_users["b"]

    async def as_ann(client: Client) -> None:
        names = {c["name"] for c in ok(await client.call_tool("list_collections", {}))["collections"]}
        assert a in names and b not in names
        hits = ok(await client.call_tool("search_documents", {"query": "iron ore cork wine"}))["hits"]
        assert hits and {h["title"] for h in hits} == {"Harbour"}
        assert "Forbidden" in error_text(await client.call_tool("search_documents", {"query": "iron",
                                                                                      "collections": [b]}))
        done = ok(await client.call_tool("ingest_text", {"collection": a, "title": "Note", "text": "Cork oaks grow "
                                                         "slowly in Alentejo."}))
        assert done["status"] == "done"
        assert "Forbidden" in error_text(await client.call_tool("delete_collection", {"name": a}))  # editor only
        fact = ok(await client.call_tool("remember", {"fact": "Ann follows the cork trade"}))
        assert ok(await client.call_tool("recall", {"query": "cork trade"}))["facts"][0]["id"] == fact["id"]

    async def as_ben(client: Client) -> None:
        names = {c["name"] for c in ok(await client.call_tool("list_collections", {}))["collections"]}
        assert b in names and a not in names
        assert "Forbidden" in error_text(await client.call_tool("ingest_text", {"collection": b, "title": "X",
                                                                                 "text": "A viewer cannot add this."}))
        assert not ok(await client.call_tool("recall", {"query": "cork trade"}))["facts"]
        answer = ok(await client.call_tool("ask", {"question": "What does the harbour of Porto ship?"}))
        assert "Porto" not in str(answer["sources"]) and "cork" not in answer["answer"]["text"]

    call(http_server, two_users["ann_token"][1], as_ann)
    call(http_server, two_users["ben_token"][1], as_ben)
    audit = services.access.audit(by=Principal.operator(), limit=50, actor=two_users["ann"])
    assert ("document.ingest", a) in [(r["action"], r["target"]) for r in audit]


def test_unknown_and_revoked_tokens_are_refused(http_server, two_users, services) -> None:
    def status(token: str | None) -> int:
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"} if token \
            else {"Accept": "application/json, text/event-stream"}
        body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                           "clientInfo": {"name": "t", "version": "1"}}}
        return httpx.post(http_server, json=body, headers=headers).status_code

    assert status(None) == 401  # users exist: a token is needed
    assert status("rmw_not-a-token") == 401
    token_id, token = services.access.create_token(two_users["ann"], by=Principal.operator())
    assert status(token) == 200
    services.access.revoke_token(token_id, by=Principal.operator())
    assert status(token) == 401
