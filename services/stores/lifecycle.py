"""The embedded servers' lifecycle: are they running, which processes use them, and stopping them.

The embedded PostgreSQL and FalkorDB are started by the first process that needs
them and keep running after it exits, so that the app, the CLI and the MCP server
share one pair of servers per data folder. Nothing here starts a server: the
status is read from their pid files and, when they run, from the servers
themselves (which workbench processes are connected: every connection names its
process in ``application_name``, see :func:`services.stores.postgres.application_name`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from services.errors import InUse
from services.redaction import mask_url
from services.settings import Settings
from services.stores.embedded_postgres import stop_embedded_postgres
from services.stores.graph_store import ping_socket, stop_embedded_falkordb
from services.stores.postgres import application_name, workbench_processes


@dataclass(frozen=True)
class ServerStatus:
    """One store as ``rag stores status`` and Home show it."""

    store: str  # "postgres" or "graph"
    kind: str  # "embedded", "external" or "off"
    running: bool
    location: str
    pid: int | None = None
    processes: tuple[str, ...] = field(default=())  # other workbench processes connected ("rag pid 42")
    clients: int | None = None  # connections to the embedded FalkorDB other than ours

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "processes": list(self.processes)}


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by another user (the postgres system user when run as root)
        return True
    return True


def _postmaster(pgdata: Path) -> tuple[int, int, str] | None:
    """(pid, port, socket directory) of a live postmaster in ``pgdata``, from its pid file; None if not running."""
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
        pid, port, sockets = int(lines[0]), int(lines[3]), lines[4].strip()
    except (OSError, ValueError, IndexError):
        return None
    return (pid, port, sockets) if _pid_alive(pid) else None


def postgres_status(settings: Settings) -> ServerStatus:
    if settings.database_url:
        return ServerStatus("postgres", "external", True, mask_url(settings.database_url))
    pgdata = settings.data_dir / "pg"
    found = _postmaster(pgdata)
    if found is None:
        return ServerStatus("postgres", "embedded", False, str(pgdata))
    pid, port, sockets = found
    engine = sa.create_engine(f"postgresql+psycopg2://postgres:@/postgres?host={sockets}&port={port}",
                              poolclass=sa.pool.NullPool, connect_args={"application_name": application_name()})
    try:
        with engine.connect() as conn:
            processes = workbench_processes(conn)
    except sa.exc.OperationalError:  # starting up or shutting down: running, clients unknown
        processes = ()
    finally:
        engine.dispose()
    return ServerStatus("postgres", "embedded", True, str(pgdata), pid, processes)


def graph_status(settings: Settings) -> ServerStatus:
    if not settings.graph_enabled:
        return ServerStatus("graph", "off", False, "")
    if settings.neo4j_uri or settings.falkordb_url:
        return ServerStatus("graph", "external", True, mask_url(settings.neo4j_uri or settings.falkordb_url or ""))
    folder = settings.data_dir / "falkordb"
    socket_path = folder / "falkordb.sock"
    if not (socket_path.exists() and ping_socket(socket_path)):
        return ServerStatus("graph", "embedded", False, str(socket_path))
    import redis

    try:
        pid: int | None = int((folder / "redis.pid").read_text().strip())
    except (OSError, ValueError):
        pid = None
    client = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=5)
    try:
        clients = int(client.info("clients")["connected_clients"]) - 1  # not counting this connection
    finally:
        client.close()
    return ServerStatus("graph", "embedded", True, str(socket_path), pid, clients=clients)


def stores_status(settings: Settings) -> list[ServerStatus]:
    """Both stores, without starting either."""
    return [postgres_status(settings), graph_status(settings)]


def stop_embedded_stores(settings: Settings, *, force: bool = False) -> list[str]:
    """Stop the embedded servers of the data folder; return the names of those stopped.

    Refuses (:class:`InUse`) while other workbench processes are connected, unless ``force``:
    their next query would fail (they start the servers again on their next start).
    External servers are never touched.
    """
    pg = postgres_status(settings)
    if pg.kind == "embedded" and pg.running and pg.processes and not force:
        raise InUse(f"The embedded stores are in use by {', '.join(pg.processes)}. Stop those first, "
                    "or stop the stores anyway with --force (those processes then fail until restarted).")
    stopped = []
    if settings.uses_embedded_falkordb and stop_embedded_falkordb(settings.data_dir):
        stopped.append("graph")
    if settings.uses_embedded_postgres and stop_embedded_postgres(settings.data_dir):
        stopped.append("postgres")
    return stopped
