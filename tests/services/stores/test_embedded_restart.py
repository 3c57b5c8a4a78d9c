"""The embedded FalkorDB after a restart: a server still reading its writes back is waited for, not reported
dead, and a long append-only file is then compacted, so that the next start reads a snapshot instead."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import redis

from services.stores import graph_store
from services.stores.graph_store import start_embedded_falkordb, stop_embedded_falkordb

GRAPH = "restart_probe"
WRITES = 6000  # about 600 KB of append-only file
COMPACT_AT = 256 * 1024


def _client(socket_path: Path) -> redis.Redis:
    return redis.Redis(unix_socket_path=str(socket_path), socket_timeout=60)


def _replay_seconds(folder: Path) -> float:
    """How long the last start spent replaying writes from the append-only file (from the server's log)."""
    log = (folder / "redis.log").read_text(errors="replace")
    last_start = log[log.rfind("Server initialized"):]
    found = re.findall(r"DB loaded from incr file \S+: ([\d.]+) seconds", last_start)
    return float(found[-1]) if found else 0.0


def _stop(data_dir: Path) -> None:
    assert stop_embedded_falkordb(data_dir)
    for _ in range(300):  # the server removes its pid file as it exits
        if not (data_dir / "falkordb" / "redis.pid").exists():
            return
        time.sleep(0.1)


@pytest.mark.embedded_only
def test_a_long_append_only_file_is_compacted_after_a_start(tmp_path: Path, monkeypatch):
    """A folder whose append-only file outgrew the compaction size (as one written before the setting): the
    start replays it, the server compacts it, and the next start has nothing to replay. The sizes are
    scaled down (a file of ~600 KB against 256 KB) so that the test takes seconds."""
    folder = tmp_path / "falkordb"
    monkeypatch.setattr(graph_store, "AOF_REWRITE_BYTES", 1 << 30)  # no compaction while the file is written
    socket_path = start_embedded_falkordb(tmp_path)
    client = _client(socket_path)
    try:
        pipe = client.pipeline(transaction=False)
        for i in range(WRITES):  # one query per write, as the graph step writes; each is replayed on a start
            pipe.execute_command("GRAPH.QUERY", GRAPH, f"CREATE (:Entity {{key: 'e{i}', name: 'Entity {i}'}})")
            if i % 1000 == 999:
                pipe.execute()
        pipe.execute()
        info = client.info("persistence")
        assert info["aof_current_size"] - info["aof_base_size"] > 2 * COMPACT_AT and info["aof_rewrites"] == 0
    finally:
        client.close()
    _stop(tmp_path)

    monkeypatch.setattr(graph_store, "AOF_REWRITE_BYTES", COMPACT_AT)
    socket_path = start_embedded_falkordb(tmp_path)
    replayed = _replay_seconds(folder)
    assert replayed > 0
    client = _client(socket_path)
    try:
        assert client.execute_command("GRAPH.QUERY", GRAPH, "MATCH (e:Entity) RETURN count(e)")[1][0][0] == WRITES
        info = client.info("persistence")
        for _ in range(600):  # the server compacts in the background
            if info["aof_rewrites"] >= 1 and not info["aof_rewrite_in_progress"]:
                break
            time.sleep(0.1)
            info = client.info("persistence")
        assert info["aof_rewrites"] == 1 and info["aof_last_bgrewrite_status"] == "ok"
    finally:
        client.close()
    _stop(tmp_path)

    start_embedded_falkordb(tmp_path)
    try:
        assert _replay_seconds(folder) < replayed / 10  # the snapshot holds the writes: nothing to replay
        client = _client(folder / "falkordb.sock")
        try:
            assert client.execute_command("GRAPH.QUERY", GRAPH, "MATCH (e:Entity) RETURN count(e)")[1][0][0] == WRITES
        finally:
            client.close()
    finally:
        _stop(tmp_path)


@pytest.mark.parametrize("log, loading", [
    ("1:M * Server initialized\n1:M * Reading RDB base file on AOF loading...\n", True),
    ("1:M * Server initialized\n1:M * DB loaded from append only file: 3.1 seconds\n"
     "1:M * Ready to accept connections unix\n", False),
    ("1:M * Ready to accept connections unix\n2:M * Server initialized\n", True),  # a later start, still loading
    ("", False),
])
def test_a_start_is_loading_until_its_log_says_ready(tmp_path: Path, log: str, loading: bool):
    (tmp_path / "redis.log").write_text(log)
    assert graph_store._still_loading(tmp_path / "redis.log") is loading
