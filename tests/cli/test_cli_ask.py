"""`rag ask` and `rag memory` against the real stores (CliRunner)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import context
from cli.main import cli
from tests.utils.stories import make_zorbex


@pytest.fixture(scope="module")
def zorbex(services):
    context.set_services(services)
    name, _ = make_zorbex(services)
    yield name
    services.deletion.delete_collection(name)
    context.set_services(None)


def test_ask_json_has_answer_sources_and_conversation(zorbex):
    out = CliRunner().invoke(cli, ["ask", "Who founded Zorbex?", "-c", zorbex, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["answer"]["mode"] == "extracted" and "**Ivana Petrova** founded Zorbex" in data["answer"]["text"]
    assert data["sources"][0]["title"] == "Founding" and data["conversation_id"] > 0
    follow = CliRunner().invoke(cli, ["ask", "What does she grow?", "-c", zorbex, "--conversation",
                                      str(data["conversation_id"]), "--json"])
    assert "tomatoes" in json.loads(follow.stdout)["answer"]["text"]


def test_ask_human_output_and_errors(zorbex):
    out = CliRunner().invoke(cli, ["ask", "Who founded Zorbex?", "-c", zorbex])
    assert out.exit_code == 0 and "(extracted from your documents, not generated)" in out.output
    assert "[1] Founding" in out.output
    missing = CliRunner().invoke(cli, ["ask", "x", "-c", "no-such-collection"])
    assert missing.exit_code == 3 and missing.output.startswith("Error:") and "Traceback" not in missing.output


def test_memory_group(services):
    context.set_services(services)
    try:
        saved = json.loads(CliRunner().invoke(cli, ["memory", "remember", "I like green tea", "--json"]).stdout)
        recalled = json.loads(CliRunner().invoke(cli, ["memory", "recall", "favourite drink", "--json"]).stdout)
        assert recalled[0]["id"] == saved["id"] and recalled[0]["similarity"] > 0.3
        assert CliRunner().invoke(cli, ["memory", "forget", str(saved["id"])]).exit_code == 0
        again = CliRunner().invoke(cli, ["memory", "forget", str(saved["id"])])
        assert again.exit_code == 3 and "No memory fact" in again.output
    finally:
        context.set_services(None)
