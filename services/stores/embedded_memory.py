"""The embedded PostgreSQL's memory: ``shared_buffers`` sized to the machine, not initdb's 128 MB.

initdb's default holds the HNSW index of about 60k chunks (1.95 KB a chunk at 384 dimensions: 199 MB at
100k). Beyond that, each semantic search copies index pages in from the OS cache: on the 100k-chunk
benchmark copy, semantic search took 12.8-13.6 ms at the median with 128 MB and 8.8-9.2 ms with 512 MB,
hybrid p95 32-33 ms and 30-32 (docs/bench/findings.md). PostgreSQL's guide suggests a quarter of the
memory for a dedicated server; the embedded one shares the machine with the app, so a quarter capped at
1 GB. Linux backs shared memory only as it is used, so a small collection costs no more than before.

``ALTER SYSTEM`` keeps the setting in the data folder; it takes effect when the server starts. A server
this process has just created is restarted at once (nothing else can be connected yet); one found running
(other processes may be using it) gets the setting at its next start.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import sqlalchemy as sa

log = logging.getLogger(__name__)

MB = 1024 * 1024
CAP_MB = 1024
FLOOR_MB = 128  # initdb's default: never less


def shared_buffers_mb(memory_bytes: int | None = None) -> int:
    """A quarter of the machine's memory, between 128 MB and 1 GB."""
    if memory_bytes is None:
        try:
            memory_bytes = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (ValueError, OSError, AttributeError):  # not on this platform: keep the default
            return FLOOR_MB
    return max(FLOOR_MB, min(CAP_MB, memory_bytes // 4 // MB))


def size_shared_buffers(url: str, pgdata: Path, *, created: bool) -> bool:
    """Set ``shared_buffers`` on the embedded server at ``url`` (restarting it if ``created``); True if changed."""
    wanted = shared_buffers_mb()
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            current = int(conn.execute(sa.text(
                "SELECT setting::bigint * (SELECT setting::bigint FROM pg_settings WHERE name = 'block_size') "
                "FROM pg_settings WHERE name = 'shared_buffers'")).scalar_one()) // MB
            configured = conn.execute(sa.text(  # the last file setting wins: postgresql.auto.conf's, if any
                "SELECT setting FROM pg_file_settings WHERE name = 'shared_buffers' ORDER BY seqno DESC LIMIT 1")).scalar()
            if configured == f"{wanted}MB" or (configured is None and current == wanted):
                return False
            conn.execute(sa.text(f"ALTER SYSTEM SET shared_buffers = '{wanted}MB'"))
    finally:
        engine.dispose()
    if created:
        restart_embedded_postgres(pgdata)
    else:
        log.info("shared_buffers %d MB -> %d MB at the embedded server's next start", current, wanted)
    return True


def restart_embedded_postgres(pgdata: Path) -> None:
    """Restart the server in ``pgdata`` with the options it was started with (same socket)."""
    from pgserver._commands import pg_ctl  # type: ignore[attr-defined]  # the wheel's own pg_ctl wrapper

    owner = pgdata.owner()
    kwargs = {"user": owner} if os.geteuid() == 0 and owner != "root" else {}
    # -l as pgserver starts it: the server's output goes to its log, not to pg_ctl's captured output.
    pg_ctl(["-m", "fast", "-w", "-l", str(pgdata / "log"), "restart"], pgdata=pgdata, timeout=60, **kwargs)
