"""CLI fixtures: every command runs in-process (CliRunner) on the session's real services."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner, Result


@pytest.fixture(scope="session")
def cli_services(services):
    """Point the CLI's container hook at the test session's services (the documented hook)."""
    from cli import context

    context.set_services(services)
    yield services
    context.set_services(None)


@pytest.fixture
def rag(cli_services) -> Callable[..., Result]:
    """``rag(*args, input=None)`` runs ``rag ARGS`` and returns Click's result (stdout and stderr apart)."""
    from cli.main import cli

    runner = CliRunner()

    def invoke(*args: Any, input: str | None = None) -> Result:
        return runner.invoke(cli, [str(a) for a in args], input=input, prog_name="rag")

    return invoke


def ok_json(result: Result) -> Any:
    """The JSON a successful ``--json`` command printed."""
    assert result.exit_code == 0, f"exit {result.exit_code}: {result.output}"
    return json.loads(result.stdout)


def assert_error(result: Result, code: int, text: str) -> str:
    """A failed command: the exit code, exactly one ``Error:`` line on stderr mentioning ``text``, no traceback."""
    assert result.exit_code == code, f"exit {result.exit_code}, wanted {code}: {result.output}"
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, result.stderr
    assert text in lines[0], lines[0]
    return lines[0]
