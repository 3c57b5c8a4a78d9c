"""The embedded PostgreSQL's shared_buffers: sized to the machine on a new server, and at the next start of
one that was running before (each start in a process of its own, as the app, the CLI and MCP start it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa

from services.stores.embedded_memory import MB, buffers, shared_buffers_mb
from services.stores.embedded_postgres import restart_embedded_postgres, stop_embedded_postgres

ROOT = Path(__file__).resolve().parents[3]
START = """
import sys
sys.path.insert(0, {root!r})
from pathlib import Path
from services.stores.embedded_postgres import start_embedded_postgres
print(start_embedded_postgres(Path({folder!r})))
"""


def _start(folder: Path) -> str:
    """Start (or reuse) the embedded server in a new process; its URL."""
    done = subprocess.run([sys.executable, "-c", START.format(root=str(ROOT), folder=str(folder))],
                          capture_output=True, text=True, timeout=300, check=True)
    return done.stdout.strip().splitlines()[-1]


def _buffers(url: str) -> tuple[int, str | None]:
    """(shared_buffers in MB now, the configured value the next start will use)."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return buffers(conn)
    finally:
        engine.dispose()


def _alter(url: str, statement: str) -> None:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(sa.text(statement))
    finally:
        engine.dispose()


def _reset_to_initdb_default(url: str, pgdata: Path) -> None:
    _alter(url, "ALTER SYSTEM RESET shared_buffers")
    restart_embedded_postgres(pgdata)


def test_a_quarter_of_the_memory_between_128_mb_and_1_gb():
    assert shared_buffers_mb(256 * MB) == 128
    assert shared_buffers_mb(2048 * MB) == 512
    assert shared_buffers_mb(24 * 1024 * MB) == 1024
    assert 128 <= shared_buffers_mb() <= 1024


def test_new_server_at_once_running_server_at_its_next_start(tmp_path):
    wanted = shared_buffers_mb()
    assert wanted > 128, "this machine has under 1 GB: the test cannot tell a sized server from initdb's"
    try:
        url = _start(tmp_path)
        assert _buffers(url) == (wanted, f"{wanted}MB")  # created by this start: restarted with it
        # A server from before this setting: initdb's 128 MB, found running by the next start.
        _reset_to_initdb_default(url, tmp_path / "pg")
        assert _buffers(url)[0] == 128
        assert _start(tmp_path) == url
        assert _buffers(url) == (128, f"{wanted}MB")  # not restarted under its users: set for the next start
        assert stop_embedded_postgres(tmp_path)
        url = _start(tmp_path)
        assert _buffers(url) == (wanted, f"{wanted}MB")
        # A value someone set is theirs: the next start leaves it.
        _alter(url, "ALTER SYSTEM SET shared_buffers = '200MB'")
        assert stop_embedded_postgres(tmp_path)
        url = _start(tmp_path)
        assert _buffers(url) == (200, "200MB")
    finally:
        stop_embedded_postgres(tmp_path)
