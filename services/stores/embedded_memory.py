"""The embedded PostgreSQL's memory: ``shared_buffers`` sized to the machine, not initdb's 128 MB.

initdb's default holds the HNSW index of about 60k chunks (1.95 KB a chunk at 384 dimensions: 199 MB at
100k). Beyond that, each semantic search copies index pages in from the OS cache: on the 100k-chunk
benchmark copy, semantic search took 12.8-13.6 ms at the median with 128 MB and 8.8-9.2 ms with 512 MB,
hybrid p95 32-33 ms and 30-32 (docs/bench/findings.md). PostgreSQL's guide suggests a quarter of the
memory for a dedicated server; the embedded one shares the machine with the app, so a quarter capped at
1 GB. Linux backs shared memory only as it is used, so a small collection costs no more than before.

Only a server on initdb's value is changed: one whose ``shared_buffers`` someone set is left as set.
``ALTER SYSTEM`` keeps the setting in the data folder; it takes effect when the server starts. A server
this process has just created is restarted at once by its starter (:mod:`services.stores.embedded_postgres`;
nothing else can be connected yet); one found running (other processes may be using it) gets the setting
at its next start. Sizing is an optimisation: if it cannot be read or set, the server runs on as it is (a
warning is logged); a restart that fails is an error. This module runs no server command itself.
"""

from __future__ import annotations

import logging
import os

import sqlalchemy as sa
from sqlalchemy.engine import Connection

log = logging.getLogger(__name__)

MB = 1024 * 1024
CAP_MB = 1024
INITDB_MB = 128  # initdb's default, and the floor


def shared_buffers_mb(memory_bytes: int | None = None) -> int:
    """A quarter of the machine's memory, between 128 MB and 1 GB."""
    if memory_bytes is None:
        try:
            memory_bytes = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (ValueError, OSError, AttributeError):  # not on this platform: keep the default
            return INITDB_MB
    return max(INITDB_MB, min(CAP_MB, memory_bytes // 4 // MB))


def buffers(conn: Connection) -> tuple[int, str | None]:
    """(the server's shared_buffers now, in MB; the value its files give the next start, e.g. ``'512MB'``)."""
    now = conn.execute(sa.text(
        "SELECT setting::bigint * (SELECT setting::bigint FROM pg_settings WHERE name = 'block_size') "
        "FROM pg_settings WHERE name = 'shared_buffers'")).scalar_one()
    configured = conn.execute(sa.text(  # the last file setting wins: postgresql.auto.conf's, if any
        "SELECT setting FROM pg_file_settings WHERE name = 'shared_buffers' ORDER BY seqno DESC LIMIT 1")).scalar()
    return int(now) // MB, configured


def size_shared_buffers(url: str, *, created: bool) -> bool:
    """Set ``shared_buffers`` on the embedded server at ``url``; True if changed (a server just ``created``
    needs a restart for it to take effect now, one found running gets it at its next start)."""
    wanted = shared_buffers_mb()
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            current, configured = buffers(conn)
            if configured not in (None, f"{INITDB_MB}MB") or current >= wanted:
                return False  # set by someone, already pending, or enough
            conn.execute(sa.text(f"ALTER SYSTEM SET shared_buffers = '{wanted}MB'"))
    except sa.exc.SQLAlchemyError as exc:
        log.warning("could not size the embedded PostgreSQL's shared_buffers (%s); it keeps its own", exc)
        return False
    finally:
        engine.dispose()
    if not created:
        log.info("shared_buffers %d MB -> %d MB at the embedded server's next start", current, wanted)
    return True
