"""`rag ingest url`, `rag analyze` and the MCP tools, on loopback with a settings copy that allows 127.0.0.1."""

from __future__ import annotations

import json
import shutil

import anyio
import pytest
from click.testing import CliRunner
from mcp import Client


@pytest.fixture
def small_site(shared_data, tmp_path, serve_dir):
    root = tmp_path / "site"
    root.mkdir()
    for name in ("sql-createindex.html", "sql-dropindex.html"):
        shutil.copy(shared_data / "postgresql-docs" / name, root / name)
    return serve_dir(root)


def rag(*args):
    from cli.main import cli

    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="rag")


def test_cli_ingest_url_and_analyze(web_services, collection, small_site):
    out = rag("ingest", "url", small_site + "/sql-createindex.html", collection, "--crawl", "--max-pages", "2",
              "--include", "/sql-*", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["status"] == "done" and len(data["pages"]) == 2 and data["pages"][0]["status"] == "ingested"

    again = rag("ingest", "url", small_site + "/sql-createindex.html", collection)
    assert again.exit_code == 0 and "reingest" in again.output

    listed = rag("ingest", "crawls", "--collection", collection, "--json")
    assert listed.exit_code == 0, listed.output
    crawls = json.loads(listed.stdout)
    assert crawls[0]["root_url"] == small_site + "/sql-createindex.html" and crawls[0]["status"] == "done"
    assert crawls[0]["counts"] == {"ingested": 2} or crawls[0]["counts"].get("skipped") == 1, crawls[0]
    finished = rag("ingest", "resume", crawls[-1]["id"])
    assert finished.exit_code == 2 and "only a cancelled" in finished.stderr, finished.output

    analysis = rag("analyze", small_site + "/sql-createindex.html", "--time-limit", "10", "--json")
    assert analysis.exit_code == 0, analysis.output
    assert json.loads(analysis.stdout)["source"] == "links"


def test_cli_refuses_a_private_address(services, collection):
    from cli import context

    context.set_services(services)  # default settings: nothing private allowed
    try:
        out = rag("ingest", "url", "http://10.0.0.1/", collection)
    finally:
        context.set_services(None)
    assert out.exit_code == 2 and "private-network" in out.stderr


def test_mcp_tools(web_services, collection, small_site):
    from mcp_server.server import build_server

    async def main():
        async with Client(build_server(), mode="legacy", raise_exceptions=True) as client:
            analysed = await client.call_tool("analyze_website", {"url": small_site + "/sql-dropindex.html",
                                                                  "time_limit": 10})
            ingested = await client.call_tool("ingest_url", {"url": small_site + "/sql-dropindex.html",
                                                             "collection": collection})
            refused = await client.call_tool("ingest_url", {"url": "http://169.254.169.254/", "collection": collection})
            done = await client.call_tool("resume_crawl", {"crawl_id": ingested.structured_content["crawl_id"]})
            return analysed, ingested, refused, done

    analysed, ingested, refused, done = anyio.run(main)
    assert done.is_error and "only a cancelled" in done.content[0].text
    assert not analysed.is_error and analysed.structured_content["total_found"] >= 1
    assert not ingested.is_error and ingested.structured_content["pages"][0]["status"] == "ingested"
    assert refused.is_error and "metadata" in refused.content[0].text
