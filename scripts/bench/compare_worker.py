"""One checkout's side of a ``--compare`` benchmark: a long-lived process that times requests from the driver.

Run as a file with cwd and PYTHONPATH set to the checkout under test (so ``services`` is that checkout's), and
RAG_DATA_DIR set to the data folder the driver prepared. It builds the services once, then reads one JSON object
per line on stdin and answers one per line on stdout; anything a library prints goes to stderr. It imports only
the standard library and the checkout's own ``services`` (never this checkout's ``scripts``), and times each call
itself, so the pipe's cost is in no figure. Requests (``op``):
- ``hello``: where ``services`` was imported from, and the process id;
- ``gather``: ``GraphAwareRetriever.gather(query, collections)`` in ms and its own ``timings_ms``;
- ``ask``: a whole offline ``AskService.ask``; its ``timings_ms["answer"]`` and the conversation id;
- ``embed``: ``embed_query`` (fills the query cache, so later searches exclude embedding);
- ``search``: ``SearchService.search(query, collections, mode)`` in ms and its ``timings_ms``;
- ``quit``.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from typing import Any


def handle(svc: Any, request: dict[str, Any]) -> dict[str, Any]:
    op, query, scope = request["op"], request.get("query", ""), request.get("collections")
    if op == "hello":
        import services

        return {"services": services.__file__, "pid": os.getpid()}
    t0 = time.perf_counter()
    if op == "gather":
        got = svc.ask.retriever.gather(query, scope)
        return {"ms": (time.perf_counter() - t0) * 1000, "parts": dict(got.timings_ms), "chunks": len(got.chunks)}
    if op == "ask":
        result = svc.ask.ask(query, conversation_id=request.get("conversation"), collections=scope)
        return {"ms": result.diagnostics["timings_ms"]["answer"], "conversation": result.conversation_id}
    if op == "embed":
        svc.embedder.embed_query(query)
        return {"ms": (time.perf_counter() - t0) * 1000}
    if op == "search":
        resp = svc.search.search(query, collections=scope, mode=request["mode"])
        return {"ms": (time.perf_counter() - t0) * 1000, "parts": dict(resp.timings_ms), "hits": len(resp.hits)}
    raise ValueError(f"unknown request {op!r}")


def serve() -> int:
    here = os.path.dirname(os.path.abspath(__file__))  # run as a file: its folder's modules must shadow nothing
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)  # libraries' prints (and C-level writes) go to stderr, never into the protocol
    sys.stdout = sys.stderr
    from services.container import build_services
    from services.settings import get_settings

    svc = build_services(get_settings())
    try:
        replies.write(json.dumps({"ready": True}) + "\n")
        for line in sys.stdin:
            if not line.strip():
                continue
            request = json.loads(line)
            if request.get("op") == "quit":
                break
            try:
                reply = {"ok": True, **handle(svc, request)}
            except Exception as exc:  # the driver stops with this message; the worker stays usable
                reply = {"ok": False, "error": f"{exc.__class__.__name__}: {exc}", "trace": traceback.format_exc()}
            replies.write(json.dumps(reply) + "\n")
    finally:
        svc.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(serve())
