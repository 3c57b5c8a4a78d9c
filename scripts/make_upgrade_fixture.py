"""Make tests/fixtures/upgrade_v5/: the stores of a data folder written by the release at ba23b54 (schema v5).

The release's own code does the writing: its tree is exported with ``git archive`` into a temporary
folder and its ``rag`` runs there (same virtualenv), on a fresh data folder, offline:
- "speeches": three State of the Union addresses with a metadata.csv (year, president, party) and a
  typed schema; graph facts by spaCy;
- "policies": a .docx with a drawn flowchart (a diagram with nodes and edges, in both stores);
- "site": a two-page website on 127.0.0.1, crawled (a crawl with its pages);
- an Ask conversation (offline extractive answer, two turns) and a memory fact.
The release also records what it reads back (``expected.json``: collections with counts, documents,
search hits, crawls, memory, the conversation) through its CLI. Then the stores are saved:
PostgreSQL as a plain ``pg_dump`` (``postgres.sql.gz``; the schema_migrations rows say v5), FalkorDB
as its append-only files (``falkordb/appendonlydir``), as the embedded server keeps them.
Usage: python -m scripts.make_upgrade_fixture [--release ba23b54]
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "fixtures" / "upgrade_v5"
SOTU = ROOT.parent / "shared" / "data" / "sotu"
DOCX = ROOT.parent / "shared" / "data" / "flowchart-docx" / "expense-reimbursement-policy.docx"
SPEECHES = ["1947_harry_s_truman_d.txt", "1962_john_f_kennedy_d.txt", "1985_ronald_reagan_r.txt"]
QUERIES = ["atomic energy and the control of nuclear weapons", "space exploration and the moon", "tax reform"]
SITE = {
    "index.html": '<h1>Harbour guide</h1><p>The harbour guide for new sailors: <a href="/tides.html">tides</a> and '
                  '<a href="/buoys.html">buoys</a>, explained in plain words.</p>',
    "tides.html": "<h1>Tides</h1><p>" + "Spring tides follow the full and the new moon; neap tides the quarters. " * 8
                  + "</p>",
    "buoys.html": "<h1>Buoys</h1><p>" + "A red can buoy marks the port side of the channel when entering harbour. " * 8
                  + "</p>",
}


def _serve(folder: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", default="ba23b54", help="the commit whose code writes the data")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="rag-fixture-", dir="/tmp"))
    src, data = work / "src", work / "data"
    src.mkdir()
    subprocess.run(f"git archive {args.release} | tar -x -C {src}", shell=True, check=True, cwd=ROOT)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "DATABASE_URL", "NEO4J", "OPENAI"))}
    env.update(RAG_DATA_DIR=str(data), RAG_CONFIG_FILE=str(work / "none.toml"), HF_HUB_OFFLINE="1",
               RAG_FETCH_ALLOW_HOSTS='["127.0.0.1"]', RAG_FETCH_DELAY="0")

    def rag(*cmd: str) -> str:
        done = subprocess.run([sys.executable, "-m", "cli", *cmd], cwd=src, env=env, capture_output=True, text=True,
                              timeout=1800)
        if done.returncode != 0:
            raise SystemExit(f"rag {' '.join(cmd)} failed ({done.returncode}): {done.stderr[-2000:]}")
        return done.stdout

    def rag_json(*cmd: str) -> object:
        return json.loads(rag(*cmd, "--json"))

    speeches = work / "speeches"
    speeches.mkdir()
    rows = [line for line in (SOTU / "metadata.csv").read_text().splitlines()]
    (speeches / "metadata.csv").write_text("\n".join([rows[0]] + [r for r in rows if r.split(",")[0] in SPEECHES]) + "\n")
    for name in SPEECHES:
        shutil.copy(SOTU / name, speeches / name)
    site = work / "site"
    site.mkdir()
    for name, body in SITE.items():
        (site / name).write_text(f"<html><head><title>{name}</title></head><body><main>{body}</main></body></html>")
    root, server = _serve(site)
    try:
        rag("collection", "create", "speeches", "--description", "Three State of the Union addresses.",
            "--schema", '{"year": "integer", "president": "string", "party": "string"}')
        rag("ingest", "directory", "speeches", str(speeches), "--include", "*.txt")
        rag("collection", "create", "policies", "--description", "A policy with a drawn flowchart.")
        rag("ingest", "file", "policies", str(DOCX))
        rag("collection", "create", "site", "--description", "A small website, crawled.")
        rag("ingest", "url", root, "site", "--crawl", "--max-pages", "5")
    finally:
        server.shutdown()
    first = rag_json("ask", "What did the president say about atomic energy?", "-c", "speeches")
    conversation = first["conversation_id"]
    second = rag_json("ask", "And about the budget?", "--conversation", str(conversation))
    rag("memory", "remember", "I study the State of the Union addresses of the twentieth century.")

    collections = rag_json("collection", "list")
    expected = {
        "release": args.release,
        "collections": collections,
        "documents": {c["name"]: rag_json("document", "list", "--collection", c["name"]) for c in collections},
        "search": {q: rag_json("search", q, "-c", "speeches", "--mode", "semantic") for q in QUERIES},
        "crawls": rag_json("ingest", "crawls"),
        "memory": rag_json("memory", "list"),
        "conversation": {"id": conversation, "answers": [first["answer"]["text"], second["answer"]["text"]]},
    }
    rag("status")  # the stores answer

    import redis

    falkor = data / "falkordb"
    client = redis.Redis(unix_socket_path=str(falkor / "falkordb.sock"), socket_timeout=60)
    client.bgrewriteaof()  # one compact base file instead of the whole command history
    while client.info("persistence")["aof_rewrite_in_progress"] or client.info("persistence")["aof_rewrite_scheduled"]:
        time.sleep(0.2)
    try:
        client.shutdown(save=True)
    except redis.ConnectionError:
        pass

    pid_lines = (data / "pg" / "postmaster.pid").read_text().splitlines()
    port, sockets = pid_lines[3], pid_lines[4]
    pg_bin = Path(__import__("pgserver").__file__).parent / "pginstall" / "bin"
    dump = subprocess.run([str(pg_bin / "pg_dump"), "-h", sockets, "-p", port, "-U", "postgres", "--no-owner",
                           "--no-privileges", "postgres"], capture_output=True, check=True, timeout=600).stdout
    sys.path.insert(0, str(ROOT))
    from services.stores.embedded_postgres import stop_embedded_postgres

    stop_embedded_postgres(data)

    shutil.rmtree(OUT, ignore_errors=True)
    (OUT / "falkordb").mkdir(parents=True)
    shutil.copytree(falkor / "appendonlydir", OUT / "falkordb" / "appendonlydir")
    (OUT / "postgres.sql.gz").write_bytes(gzip.compress(dump, mtime=0))
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
