"""Secrets never appear in `rag config show`, on any page, in error messages or in logs.

Every secret the workbench knows is set to a recognisable value; then the
output of each place a person or a log file sees is searched for it. The
error paths are real: a DATABASE_URL at an unused port on 127.0.0.1, a Neo4j
URI that the driver refuses, an OpenAI-compatible endpoint on 127.0.0.1 that
echoes the key back in its 401 answer.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from cli.errors import from_workbench
from services.errors import StoreUnavailable
from services.redaction import MASK, mask_url, protect, scrub
from services.settings import Settings, get_settings
from services.stores.graph_store import create_graph_store
from services.stores.llm import LLMClient, LLMError
from tests.utils.app import HOME
from tests.utils.fake_openai import FakeOpenAI
from tests.utils.rendered import log_in, rendered_text

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["home", "collections", "ingest", "search", "documents", "graph", "timeline", "ask", "memory"]

OPENAI_KEY = "sk-test-secret-4f9b2c7e1d8a"
DB_PASSWORD = "db-pass-8c1e5a77"
SSL_PASSWORD = "ssl-pass-9f8e6d55"
NEO4J_PASSWORD = "neo4j-pass-3d7f2b90"
NEO4J_URI_PASSWORD = "neo4j-uri-pass-61c4"
PROXY_PASSWORD = "proxy-pass-1a2b3c4d"
AUTH_PASSWORD = "app-pass-6b2a9e13"
MCP_TOKEN = "mcp-token-5e6f7a80"
SECRETS = [OPENAI_KEY, DB_PASSWORD, SSL_PASSWORD, NEO4J_PASSWORD, NEO4J_URI_PASSWORD, PROXY_PASSWORD, AUTH_PASSWORD,
           MCP_TOKEN]


def _leaks(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def _unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=180)


@pytest.fixture
def registered():
    """Tests that call ``protect`` with secret settings put the session's own settings back afterwards."""
    yield
    protect(get_settings())


# -- rag config show ------------------------------------------------------------------------------


def test_config_show_masks_every_secret(tmp_path):
    port = _unused_port()
    env = {
        "OPENAI_API_KEY": OPENAI_KEY, "OPENAI_BASE_URL": f"http://gateway:{PROXY_PASSWORD}@127.0.0.1:{port}/v1",
        "DATABASE_URL": f"postgresql://bob:{DB_PASSWORD}@127.0.0.1:{port}/rag?sslpassword={SSL_PASSWORD}",
        "NEO4J_URI": f"bolt://neo4j:{NEO4J_URI_PASSWORD}@127.0.0.1:{port}", "NEO4J_PASSWORD": NEO4J_PASSWORD,
        "RAG_AUTH_PASSWORD": AUTH_PASSWORD, "RAG_CONFIG_FILE": str(tmp_path / "none.toml"),
    }
    human, as_json = _cli("config", "show", env=env), _cli("config", "show", "--json", env=env)
    for result in (human, as_json):
        assert result.returncode == 0, result.stderr
        assert _leaks(result.stdout + result.stderr) == []
    settings = json.loads(as_json.stdout)["settings"]
    assert settings["openai_api_key"] == settings["neo4j_password"] == settings["auth_password"] == MASK
    assert settings["database_url"] == f"postgresql://bob:{MASK}@127.0.0.1:{port}/rag?sslpassword={MASK}"
    assert settings["neo4j_uri"] == f"bolt://neo4j:{MASK}@127.0.0.1:{port}"
    assert settings["openai_base_url"] == f"http://gateway:{MASK}@127.0.0.1:{port}/v1"
    assert settings["keyword_weight"] == 1.0 and settings["auth_mode"] == "auto"  # not secrets: shown as they are
    assert f"auth_password = '{MASK}'" in human.stdout


# -- error messages -------------------------------------------------------------------------------


def test_status_with_an_unreachable_database_url_names_no_password(tmp_path):
    port = _unused_port()
    env = {"DATABASE_URL": f"postgresql://bob:{DB_PASSWORD}@127.0.0.1:{port}/rag?sslpassword={SSL_PASSWORD}",
           "RAG_MCP_TOKEN": MCP_TOKEN, "RAG_CONFIG_FILE": str(tmp_path / "none.toml")}
    result = _cli("status", env=env)
    assert result.returncode == 5, result.stderr
    assert result.stderr.startswith("Error: Cannot connect to DATABASE_URL") and "Traceback" not in result.stderr
    assert f"port {port}" in result.stderr
    assert _leaks(result.stdout + result.stderr) == []


def test_a_neo4j_error_shows_the_uri_masked(registered, caplog):
    settings = Settings(neo4j_uri=f"bolt://neo4j:{NEO4J_URI_PASSWORD}@127.0.0.1:{_unused_port()}",
                        neo4j_password=NEO4J_PASSWORD)
    with pytest.raises(StoreUnavailable) as caught:
        create_graph_store(settings)  # the driver refuses credentials in the URI, and says so
    message = str(caught.value)
    assert f"bolt://neo4j:{MASK}@127.0.0.1" in message and _leaks(message) == []
    assert _leaks(from_workbench(caught.value).message) == []

    protect(settings)
    with caplog.at_level(logging.ERROR):
        try:
            raise RuntimeError(f"driver said: {settings.neo4j_uri} / {NEO4J_PASSWORD}")
        except RuntimeError:
            logging.getLogger("services.stores.graph_store").exception("graph store failed for %s", settings.neo4j_uri)
    assert MASK in caplog.text and "driver said" in caplog.text
    assert _leaks(caplog.text) == []
    assert _leaks(caplog.records[-1].getMessage()) == []


class _EchoKey401(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that refuses the key and quotes it back, as some proxies do."""

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = json.dumps({"error": {"message": f"Invalid key: {self.headers.get('Authorization')}",
                                     "type": "invalid_request_error", "code": "invalid_api_key"}}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_an_llm_error_that_quotes_the_key_is_masked():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoKey401)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        llm = LLMClient(Settings(openai_api_key=OPENAI_KEY, llm_model="fake",
                                 openai_base_url=f"http://127.0.0.1:{server.server_address[1]}/v1"))
        with pytest.raises(LLMError) as json_error:
            llm.json_chat("system", "user")
        with pytest.raises(LLMError) as stream_error:
            list(llm.stream_chat([{"role": "user", "content": "hi"}]))
    finally:
        server.shutdown()
        server.server_close()
    for caught in (json_error, stream_error):
        message = str(caught.value)
        assert "AuthenticationError" in message and f"Bearer {MASK}" in message  # the endpoint did quote it
        assert _leaks(message) == []


# -- logs -----------------------------------------------------------------------------------------


def test_every_log_record_is_scrubbed_once_protected(registered, caplog):
    settings = Settings(openai_api_key=OPENAI_KEY, auth_password=AUTH_PASSWORD,
                        database_url=f"postgresql://bob:{DB_PASSWORD}@127.0.0.1:1/rag")
    log = logging.getLogger("tests.reliability.secrets")
    protect(settings)
    with caplog.at_level(logging.DEBUG):
        log.info("key %s, password %s", OPENAI_KEY, AUTH_PASSWORD)
        log.warning(f"url {settings.database_url}")
        log.debug("nothing secret here: %d chunks", 3)
    assert _leaks(caplog.text) == []
    assert caplog.text.count(MASK) == 3
    assert "nothing secret here: 3 chunks" in caplog.text  # ordinary records are left alone

    protect(Settings())  # no secrets registered: nothing is masked any more
    assert scrub(f"key {OPENAI_KEY}") == f"key {OPENAI_KEY}"


@pytest.mark.parametrize(("url", "masked"), [
    ("postgresql://u:p4ss@h:5432/db", f"postgresql://u:{MASK}@h:5432/db"),
    ("postgresql://u:p@ss:w@h/db", f"postgresql://u:{MASK}@h/db"),
    ("postgresql://u@h/db?password=abc&sslmode=require", f"postgresql://u@h/db?password={MASK}&sslmode=require"),
    ("postgresql+psycopg2://postgres:@/postgres?host=/tmp/x", "postgresql+psycopg2://postgres:@/postgres?host=/tmp/x"),
    ("https://api.example.org/v1?api_key=k123", f"https://api.example.org/v1?api_key={MASK}"),
    ("bolt://localhost:7687", "bolt://localhost:7687"),
    ("not a url", "not a url"),
])
def test_mask_url(url, masked):
    assert mask_url(url) == masked


# -- every page -----------------------------------------------------------------------------------


def test_no_page_shows_a_secret(services, monkeypatch, caplog, registered):
    """All secrets set, DATABASE_URL pointing at the session's PostgreSQL with a password in it."""
    socket_dir = services.engine.url.query["host"]
    with FakeOpenAI(lambda messages, request: "unused") as llm:  # so no request could leave the machine
        for name, value in {
            "DATABASE_URL": f"postgresql://postgres:{DB_PASSWORD}@/postgres?host={socket_dir}",
            "OPENAI_API_KEY": OPENAI_KEY, "OPENAI_BASE_URL": llm.base_url.replace("://", f"://gw:{PROXY_PASSWORD}@"),
            "NEO4J_PASSWORD": NEO4J_PASSWORD, "RAG_AUTH_PASSWORD": AUTH_PASSWORD, "RAG_MCP_TOKEN": MCP_TOKEN,
        }.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()
        st.cache_resource.clear()
        try:
            with caplog.at_level(logging.INFO):
                at = AppTest.from_file(HOME, default_timeout=180)
                at.run()
                assert _leaks(rendered_text(at)) == []
                log_in(at, AUTH_PASSWORD)
                for page in PAGES:
                    if page != "home":
                        at.switch_page(f"pages/{page}.py").run()
                    assert not at.exception, (page, at.exception)
                    text = rendered_text(at)
                    assert _leaks(text) == [], page
                    if page == "home":
                        assert "from DATABASE_URL" in text  # the URL with the password is the one in use
            assert _leaks(caplog.text) == []
            assert not llm.requests
        finally:
            monkeypatch.undo()
            get_settings.cache_clear()
            st.cache_resource.clear()
