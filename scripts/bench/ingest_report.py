"""Markdown for docs/bench/ingest.json (throughput against raw embedding, where the time goes) and
docs/bench/concurrency.json (search and Ask latency while an ingest runs, from the reliability suite)."""

from __future__ import annotations

from typing import Any

from scripts.bench.report_sections import num, table

PASSES = {"raw": "raw embedding (the model alone)", "vector_only": "pipeline, vector-only",
          "with_graph": "pipeline, with offline graph (spaCy)"}
STAGES = ["parse", "chunk", "embed", "postgres_write", "graph_extract", "graph_write"]


def ingest_section(f: dict[str, Any]) -> list[str]:
    cps, eff, overall = f["chunks_per_s"], f["efficiency"], f.get("overall_chunks_per_s", {})
    out = [f"{f['documents']} documents, {f['chunks']:,} chunks per pass.", ""]
    rows = []
    for name, label in PASSES.items():
        s, e = cps[name], eff.get(name)
        rows.append([label, num(s["median"]), f"{num(s['min'])}–{num(s['max'])}", num(overall.get(name)),
                     num(f.get("wall_seconds", {}).get(name)),
                     f"{e['median']:.2f} ({e['min']:.2f}–{e['max']:.2f})" if e else "1"])
    out += table(["pass", "chunks/s, median over slices", "spread", "chunks/s, whole run", "wall s",
                  "÷ raw, median (spread)"], rows)
    stage_rows = []
    for name in ("vector_only", "with_graph"):
        st = f.get("stage_seconds", {}).get(name, {})
        wall = f.get("wall_seconds", {}).get(name)
        stage_rows.append([PASSES[name]] + [num(st.get(k)) if k in st else "—" for k in STAGES] + [num(wall)])
    out += ["Where the time goes (seconds summed over the slices; embedding runs in one thread while writes "
            "and graph extraction run in another, so stages overlap and can sum to more than the wall time):", ""]
    return out + table(["pass"] + STAGES + ["wall"], stage_rows)


def concurrency_section(f: dict[str, Any]) -> list[str]:
    ing = f.get("ingest", {})
    out = [f"From `tests/reliability/test_concurrency_load.py` (run with `RAG_RECORD_FIGURES=1`): {f.get('what', '')}. "
           f"The ingest: {ing.get('files')} files, {ing.get('chunks')} chunks in {num(ing.get('seconds'))} s; "
           f"{num(100 * f.get('calls_during_ingest_share', 0))} % of the calls overlapped it. No target in the issue; "
           "the test asserts every answer is right, not a speed.", ""]
    rows = []
    for kind in ("search_semantic", "search_hybrid", "ask"):
        idle, load = f.get("idle", {}).get(kind), f.get("during_ingest", {}).get(kind)
        if idle and load:
            rows.append([kind.replace("_", " "), num(idle["p50_ms"]), num(idle["p95_ms"]), num(load["p50_ms"]),
                         num(load["p95_ms"]), num(load["max_ms"]), load["n"]])
    return out + table(["call (with query embedding)", "idle p50 ms", "idle p95 ms", "during ingest p50 ms",
                        "during ingest p95 ms", "max ms", "calls"], rows)
