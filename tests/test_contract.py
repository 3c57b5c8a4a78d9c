"""Front-end contract: every CLI command is documented and takes --json; every MCP tool is described."""

from __future__ import annotations

from collections.abc import Iterator

import anyio
import click

from cli.main import cli

NO_JSON = {"rag mcp"}  # a long-running server, not a command that prints a result


def _walk(command: click.Command, path: str = "rag") -> Iterator[tuple[str, click.Command]]:
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _walk(sub, f"{path} {name}")


def test_every_cli_command_has_help_text():
    commands = dict(_walk(cli))
    assert {"rag collection create", "rag ingest directory", "rag document view", "rag search", "rag graph mermaid",
            "rag config show", "rag status", "rag mcp"} <= set(commands)
    missing = [path for path, cmd in commands.items() if not (cmd.help or "").strip()]
    assert not missing, f"commands without help text: {missing}"
    for path, cmd in commands.items():
        for param in cmd.params:
            if isinstance(param, click.Option):
                assert (param.help or "").strip(), f"{path} {param.opts[0]} has no help"


def test_every_leaf_command_takes_json():
    leaves = [(p, c) for p, c in _walk(cli) if not isinstance(c, click.Group) and p not in NO_JSON]
    lacking = [p for p, c in leaves if "--json" not in {o for param in c.params for o in param.opts}]
    assert not lacking, f"commands without --json: {lacking}"


def test_every_mcp_tool_has_a_description():
    from mcp_server.server import build_server
    from tests.mcp.test_mcp import TOOLS

    tools = anyio.run(build_server().list_tools)
    assert {t.name for t in tools} == TOOLS
    undocumented = [t.name for t in tools if not (t.description or "").strip()]
    assert not undocumented, f"tools without a description: {undocumented}"


def test_streamlit_config_keeps_the_app_local_and_skips_the_per_run_full_gc():
    """The shipped .streamlit/config.toml: loopback only, and no gc.collect() after every script run
    (it held every page switch ~0.3 s with the model loaded; docs/bench/findings.md)."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"
    assert config["runner"]["postScriptGC"] is False
    assert config["browser"]["gatherUsageStats"] is False
