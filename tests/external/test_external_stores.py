"""The workbench on a PostgreSQL server and a FalkorDB server reached over TCP with passwords.

These run in ``make test``'s second pass (``pytest --stores=external``), where the session's
services are built from ``DATABASE_URL`` and ``RAG_FALKORDB_URL`` (tests/conftest.py); in the
embedded pass they are skipped. The messages about pgvector are checked on the real server
where it can show them (a role that may not create the extension) and through the version
logic where it cannot (this server's pgvector is new enough and cannot be removed).
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

from services.errors import StoreUnavailable
from services.redaction import MASK
from services.settings import Settings
from services.stores.graph_store import create_graph_store
from services.stores.postgres import PGVECTOR_MINIMUM, create_db_engine, latest_schema_version, pgvector_problem

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pg(external_servers):
    return external_servers[0]


@pytest.fixture(scope="module")
def falkordb(external_servers):
    return external_servers[1]


def _rag(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env={**os.environ, **(env or {})},
                          capture_output=True, text=True, timeout=300)


def test_the_session_runs_on_the_external_servers_as_a_plain_role(services, pg, falkordb):
    health = services.health()
    assert health["postgres"]["kind"] == "DATABASE_URL"
    assert health["postgres"]["location"] == f"postgresql+psycopg2://rag:{MASK}@127.0.0.1:{pg.port}/rag"
    assert health["postgres"]["schema_version"] == latest_schema_version()
    assert health["graph"] == {"kind": "FalkorDB server", "location": f"redis://:{MASK}@127.0.0.1:{falkordb.port}"}
    with services.engine.connect() as conn:
        row = conn.execute(sa.text(
            "SELECT current_user, r.rolsuper, r.rolcreatedb, r.rolcreaterole, inet_server_addr()::text, system_user "
            "FROM pg_roles r WHERE r.rolname = current_user")).one()
        owned = conn.execute(sa.text("SELECT datname FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba "
                                     "WHERE r.rolname = current_user")).scalars().all()
    assert tuple(row) == ("rag", False, False, False, "127.0.0.1/32", "scram-sha-256:rag")  # authenticated by SCRAM
    assert [d for d in owned if not d.startswith("noext_")] == ["rag"]  # (noext_*: made by the test below)
    assert str(services.engine.url.port) == str(pg.port) and services.graph_store.kind == "FalkorDB server"


def test_a_wrong_or_missing_password_is_refused(pg):
    wrong = Settings(database_url=pg.url(password="not-the-password"), data_dir=Path("/nonexistent"))
    with pytest.raises(StoreUnavailable, match="password authentication failed"):
        create_db_engine(wrong)
    no_password = sa.create_engine(f"postgresql+psycopg2://rag@127.0.0.1:{pg.port}/rag", poolclass=sa.pool.NullPool)
    with pytest.raises(sa.exc.OperationalError, match="no password supplied|password authentication failed"):
        no_password.connect()


def test_rag_status_and_config_show_on_the_servers_never_show_the_passwords(services, pg, falkordb):
    status = _rag("status")
    shown = _rag("config", "show", "--json")
    assert status.returncode == 0, status.stderr
    assert "postgres.kind: DATABASE_URL" in status.stdout and f"127.0.0.1:{pg.port}/rag" in status.stdout
    assert f"graph: FalkorDB server at redis://:{MASK}@127.0.0.1:{falkordb.port}" in status.stdout
    assert shown.returncode == 0, shown.stderr
    for text in (status.stdout, status.stderr, shown.stdout, shown.stderr):
        assert pg.password not in text and falkordb.password not in text
        assert pg.url().split(":")[2].split("@")[0] not in text  # the percent-encoded form too
    assert f'"database_url": "postgresql://rag:{MASK}@127.0.0.1:{pg.port}/rag"' in shown.stdout
    assert f'"falkordb_url": "redis://:{MASK}@127.0.0.1:{falkordb.port}"' in shown.stdout


def test_a_wrong_graph_password_is_a_clear_error_without_the_password(falkordb):
    wrong = "wrong-" + uuid.uuid4().hex
    settings = Settings(falkordb_url=f"redis://:{wrong}@127.0.0.1:{falkordb.port}", data_dir=Path("/nonexistent"))
    with pytest.raises(StoreUnavailable) as caught:
        create_graph_store(settings)
    message = str(caught.value)
    assert message.startswith(f"Cannot open the FalkorDB graph at redis://:{MASK}@127.0.0.1:{falkordb.port}: "
                              "AuthenticationError"), message
    assert wrong not in message and falkordb.password not in message
    cli = _rag("status", env={"RAG_FALKORDB_URL": f"redis://:{wrong}@127.0.0.1:{falkordb.port}"})
    assert cli.returncode == 5, cli.stderr
    assert f"Error: Cannot open the FalkorDB graph at redis://:{MASK}@127.0.0.1" in cli.stderr and wrong not in cli.stderr
    assert "Traceback" not in cli.stderr


def test_a_role_that_may_not_create_pgvector_is_told_what_the_administrator_must_run(pg):
    database = f"noext_{uuid.uuid4().hex[:8]}"
    pg.create_role_database(database, extension=False)
    settings = Settings(database_url=pg.url(database), data_dir=Path("/nonexistent"))
    with pytest.raises(StoreUnavailable) as caught:
        create_db_engine(settings)
    assert str(caught.value) == (f'The role "rag" may not create the pgvector extension in database "{database}". '
                                 f'An administrator (a superuser) must run, once, in database "{database}": '
                                 "CREATE EXTENSION vector;")
    cli = _rag("status", env={"DATABASE_URL": pg.url(database)})
    assert cli.returncode == 5 and "An administrator (a superuser) must run" in cli.stderr, cli.stderr
    assert pg.password not in cli.stderr
    pg.admin("CREATE EXTENSION vector;", database=database)  # doing exactly what it says is enough
    engine = create_db_engine(settings)
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT max(version) FROM schema_migrations")).scalar_one() == \
                latest_schema_version()
    finally:
        engine.dispose()


def test_pgvector_versions_too_old_or_missing_name_the_version_needed():
    assert PGVECTOR_MINIMUM == "0.8.0"
    need = "pgvector 0.8.0 or newer (HNSW indexes and iterative index scans)"
    common = {"database": "rag", "role": "rag", "may_create": True}
    assert pgvector_problem(available="0.8.2", installed="0.8.2", **common) is None
    assert pgvector_problem(available="0.8.0", installed=None, **common) is None
    assert pgvector_problem(available="0.10.1", installed="0.10.1", **common) is None  # compared as numbers
    assert pgvector_problem(available=None, installed=None, **common) == (
        f"The pgvector extension is not installed on this PostgreSQL server; the workbench needs {need}. Install it "
        "on the server (https://github.com/pgvector/pgvector#installation), or unset DATABASE_URL to use the embedded "
        "PostgreSQL that ships with it.")
    assert pgvector_problem(available="0.7.4", installed=None, **common) == (
        f"This PostgreSQL server offers pgvector 0.7.4; the workbench needs {need}. "
        "An administrator must install a newer pgvector on the server.")
    assert pgvector_problem(available="0.8.1", installed="0.5.1", **common) == (
        f'Database "rag" has pgvector 0.5.1; the workbench needs {need}. '
        'An administrator must run, in database "rag": ALTER EXTENSION vector UPDATE;')
    assert pgvector_problem(available="0.4.4", installed="0.4.4", **common) == (
        f'Database "rag" has pgvector 0.4.4; the workbench needs {need}. An administrator must install {need} '
        'on the server, then run, in database "rag": ALTER EXTENSION vector UPDATE;')
