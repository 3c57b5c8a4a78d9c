"""Bad input through ``rag`` (Click's CliRunner) and the MCP server: one clear error line, never a traceback.

The CLI refuses out-of-range options at its edge (exit 2); what gets past Click
(NaN, deep JSON, huge files, paths outside the roots) is refused by the services
with the same messages the pages show.
"""

from __future__ import annotations

import dataclasses
import json
import tracemalloc
from pathlib import Path

import anyio
import pytest
from click.testing import CliRunner
from mcp import Client

from tests.reliability import corpus
from tests.reliability.test_large_and_directory import MB, _write_100mb
from tests.utils.stories import make_acme


@pytest.fixture(scope="module")
def acme(services):
    name = make_acme(services)
    yield name
    services.deletion.delete_collection(name)


@pytest.fixture
def run_cli(services):
    """``run_cli(*args, services=None)``: ``rag ARGS`` in-process on the session's (or the given) services."""
    from cli import context
    from cli.main import cli

    def invoke(*args, services_override=None):
        context.set_services(services_override or services)
        try:
            return CliRunner().invoke(cli, [str(a) for a in args], prog_name="rag")
        finally:
            context.set_services(None)

    return invoke


def error_line(result, code: int) -> str:
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    assert "Traceback" not in result.output and "Unexpected error" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, result.stderr
    return lines[0]


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(("args", "message"), [
    (["search", "CEO", "--limit", 10**9], "1000000000 is not in the range 1<=x<=200"),
    (["search", "CEO", "--limit", -1], "is not in the range"),
    (["search", "CEO", "--threshold", "nan"], "threshold must be a finite number"),
    (["search", "CEO", "--threshold", "-7"], "is not in the range -1.0<=x<=1.0"),
    (["search", "x" * 10_000], "at most 2000 characters"),
    (["search", "CEO", "--filter", DEEP], "--filter is not valid JSON: it is nested too deeply."),
    (["search", "CEO", "--filter", '{"year": {"gte": Infinity}}'], "Infinity is not a JSON value"),
    (["search", "CEO", "--filter", '{"year": {"gte": 1e999}}'], "no NaN or infinite"),
    (["graph", "neighbourhood", "acme", "-c", "{acme}", "--depth", 50], "50 is not in the range 1<=x<=3"),
    (["graph", "paths", "alice", "carol", "-c", "{acme}", "--max-hops", 50], "50 is not in the range 1<=x<=3"),
    (["ingest", "text", "{acme}", "words", "--title", "t", "--metadata", DEEP], "nested too deeply"),
    (["ingest", "text", "{acme}", "words", "--title", "t", "--metadata", '{"date": NaN}'], "NaN is not a JSON value"),
], ids=["limit-1e9", "limit-negative", "threshold-nan", "threshold-minus-7", "query-10k", "filter-deep",
        "filter-infinity", "filter-overflow", "depth-50", "hops-50", "metadata-deep", "metadata-nan"])
def test_cli_refuses_absurd_options_with_one_line(run_cli, acme, args, message):
    line = error_line(run_cli(*[str(a).replace("{acme}", acme) for a in args]), 2)
    assert message in line, line


def test_cli_file_ingest_of_100mb_is_refused_by_size_unread(run_cli, collection, tmp_path):
    big = tmp_path / "huge.txt"
    _write_100mb(big)
    tracemalloc.start()
    try:
        result = run_cli("ingest", "file", collection, big, "--json")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.exit_code == 6, result.output  # nothing stored
    [item] = json.loads(result.stdout)["items"]
    assert item["status"] == "failed"
    assert item["reason"] == "100.0 MB is over the 50 MB limit (max_file_bytes)."
    assert peak < 10 * MB, f"peak {peak / MB:.1f} MB: the file was read"


def test_cli_reports_corrupt_files_with_their_reason(run_cli, collection, tmp_path):
    (tmp_path / "bomb.docx").write_bytes(corpus.docx_zip_bomb())
    (tmp_path / "cut.pdf").write_bytes(corpus.text_pdf()[:300])
    result = run_cli("ingest", "file", collection, tmp_path / "bomb.docx", tmp_path / "cut.pdf")
    assert result.exit_code == 6 and "Traceback" not in result.output  # nothing stored
    lines = result.stderr.splitlines()  # failures on stderr, each once, naming its file once
    assert "  failed    bomb.docx: refused, it would expand to 60 MB (a zip bomb or an absurdly large file)." in lines
    [cut] = [ln for ln in lines if "cut.pdf" in ln]
    assert cut.startswith("  failed    cut.pdf: the PDF could not be read; it is corrupt or truncated")
    assert "bomb.docx" not in result.stdout and "cut.pdf" not in result.stdout
    assert result.stdout.startswith("Job ") and "0 ingested" in result.stdout  # the summary stays on stdout


def test_cli_confines_files_and_directories_to_the_allowed_roots(run_cli, services, collection, tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.md").write_text("The vault combination is 31-07-1984.")
    (root / "link.md").symlink_to(outside / "secret.md")
    confined = dataclasses.replace(services, settings=services.settings.model_copy(update={"allowed_roots": [root]}))
    for args in (["ingest", "directory", collection, f"{root}/../outside"], ["ingest", "file", collection, root / "link.md"],
                 ["ingest", "file", collection, outside / "secret.md"]):
        line = error_line(run_cli(*args, services_override=confined), 2)
        assert "outside the allowed directories" in line, line
    assert services.collections.get(collection).document_count == 0


def _call_mcp(services, tool: str, arguments: dict) -> tuple[bool, str]:
    from cli import context
    from mcp_server.server import build_server

    context.set_services(services)
    try:
        async def main():
            async with Client(build_server(), mode="legacy", raise_exceptions=True) as client:
                result = await client.call_tool(tool, arguments)
                return result.is_error, result.content[0].text if result.content else ""

        return anyio.run(main)
    finally:
        context.set_services(None)


@pytest.mark.parametrize(("arguments", "message"), [
    ({"query": "CEO", "limit": 10**9}, "less than or equal to 200"),
    ({"query": "CEO", "threshold": -7}, "greater than or equal to -1"),
    ({"query": "CEO", "filters": json.loads('{"a": ' * 40 + "1" + "}" * 40)}, "nested too deeply"),
], ids=["limit-1e9", "threshold-minus-7", "filter-deep"])
def test_mcp_search_refuses_absurd_arguments_as_tool_errors(services, acme, arguments, message):
    is_error, text = _call_mcp(services, "search_documents", arguments)
    assert is_error and message in text, text


def test_mcp_ingest_file_of_a_corrupt_docx_reports_the_reason(services, collection, tmp_path: Path):
    (tmp_path / "random.docx").write_bytes(corpus.random_bytes())
    is_error, text = _call_mcp(services, "ingest_file", {"collection": collection, "path": str(tmp_path / "random.docx")})
    assert is_error and "IngestFailed: " in text, text  # nothing was stored: a tool error, with the reason
    assert "random.docx: not a valid .docx (the file is corrupt, truncated or not a Word file)." in text
