"""Markdown for each benchmark's figures: the search, graph and app results, and any other result generically."""

from __future__ import annotations

from typing import Any


def num(value: Any, unit: str = "") -> str:
    """A figure for a table: few digits, thousands separated, ``—`` when missing."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}{unit}"
    if isinstance(value, float):
        text = f"{value:,.0f}" if abs(value) >= 100 else f"{value:.1f}" if abs(value) >= 10 else f"{value:.2f}"
        return text + unit
    return f"{value}{unit}"


def spread(stats: dict[str, Any], key: str = "p95") -> str:
    low, high = stats.get(f"{key}_range", [None, None])
    return f"{num(low)}–{num(high)}" if low is not None else "—"


def table(header: list[str], rows: list[list[Any]]) -> list[str]:
    align = ["---"] + ["---:"] * (len(header) - 1)
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out + [""]


def _k(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 else str(n)


def search_section(f: dict[str, Any]) -> list[str]:
    emb = f.get("real_embeddings", {})
    syn = f.get("synthetic_vectors", {})
    out = [f"Corpus: {f.get('corpus')}; {f.get('queries')} queries. Real embeddings for the first scale "
           f"({emb.get('source')}" + (f", {num(emb.get('chunks_per_s'))} chunks/s" if emb.get("chunks_per_s") else "")
           + "). Larger scales: real text cut at shifted offsets, each vector a mix of the real vectors of two "
           f"chunks of the same speech (see scripts/bench/search_data.py), plus Gaussian noise (σ {num(syn.get('noise_sigma'))}, cosine "
           f"{num(syn.get('noise_similarity_to_mix'))} to the mix). Median cosine to the nearest real chunk: "
           f"{num(syn.get('synthetic_median_similarity_to_nearest_real'))} for a synthetic chunk, "
           f"{num(syn.get('real_median_nn_similarity'))} for a real one.", ""]
    out += ["Latency of one `SearchService.search` call, ms (p50 and p95: median over rounds; spread: lowest–highest "
            "round's p95):", ""]
    rows = []
    for scale in f["scales"]:
        for mode, stats in scale["without_embedding_ms"].items():
            withe = scale["with_embedding_ms"].get(mode)
            rows.append([f"{_k(scale['chunks'])} chunks", mode, num(stats["p50"]), num(stats["p95"]), spread(stats),
                         num(withe["p50"]) if withe else "= left", num(withe["p95"]) if withe else "= left"])
    out += table(["scale", "mode", "p50", "p95", "p95 spread", "p50 with query embedding",
                  "p95 with query embedding"], rows)
    rows = []
    for scale in f["scales"]:
        parts = scale.get("service_timings_p50_ms", {})
        rows.append([f"{_k(scale['chunks'])} chunks", num(scale["query_embedding_ms"]["p50"]),
                     num(scale["query_embedding_ms"]["p95"]), num(parts.get("semantic.semantic")),
                     num(parts.get("keyword.keyword")), num(parts.get("hybrid.fuse_and_load"))])
    out += ["Where the time goes (p50, ms, from the service's own timings):", ""]
    out += table(["scale", "embed query p50", "embed query p95", "semantic SQL", "keyword SQL",
                  "fuse + load hits (hybrid)"], rows)
    rows = []
    for scale in f["scales"]:
        for r in scale["recall"]:
            ties = f"{r['recall_at_10_ties']:.3f}" if "recall_at_10_ties" in r else "—"  # older runs lack it
            gap = num(r["kth_similarity_gap"]["max"]) if "kth_similarity_gap" in r else "—"
            rows.append([f"{_k(scale['chunks'])} chunks", r["ef_search"], f"{r['recall_at_10']:.3f}", f"{r['min']:.2f}",
                         r["queries_below_1"], ties, gap, num(r["semantic_ms"]["p50"])])
    out += ["HNSW recall@10 against an exact scan (same SQL, index scans off). \"with ties\" also counts a hit whose "
            "similarity is within 0.001 of the exact 10th best (ann-benchmarks' slack); \"10th gap\" is the largest "
            "shortfall of a query's 10th hit below the exact 10th similarity:", ""]
    out += table(["scale", "ef_search", "recall@10", "worst query", "queries < 1", "recall@10 with ties", "10th gap max",
                  "semantic p50 ms"], rows)
    for scale in f["scales"]:
        plans = scale.get("plans", {})
        sem, kw = plans.get("semantic", {}), plans.get("keyword", {})
        out.append(f"- Plans at {_k(scale['chunks'])} chunks: semantic uses the HNSW index: "
                   f"{num(sem.get('uses_hnsw'))} ({sem.get('execution', '')}); keyword: {kw.get('execution', '')}; "
                   f"the exact scan avoids the index: {num(not plans.get('exact_scan_uses_hnsw', True))}.")
    loads = f.get("loads", [])
    if loads:
        out.append("- Bulk loads (COPY): " + "; ".join(
            f"{num(x['chunks'])} chunks ({x['vectors']}) in {num(x['seconds'])} s"
            + (f", of which the HNSW index build {num(x['index_build_s'])} s" if "index_build_s" in x else
               ", HNSW index maintained") for x in loads) + ".")
    return out + [""]


def graph_section(f: dict[str, Any]) -> list[str]:
    g = f["graph"]
    deg, write = g["degree"], g["write_s"]
    out = [f"Graph: {num(g['entities'])} entities, {num(g['facts'])} facts ({num(g['superseded_facts'])} superseded "
           f"in {num(g['single_valued_slots'])} single-valued slots). Degree p50 {num(deg['p50'])}, p99 {num(deg['p99'])}, "
           f"max {num(deg['max'])}. Written in {num(sum(write.values()))} s "
           f"(facts {num(write['create_facts'])} s = {num(g['facts_per_s'])} facts/s; entities "
           f"{num(write['merge_entities'])} s; validity {num(write['resolve_validity'])} s).", ""]
    rows = []
    for name, groups in f["entity_queries_ms"].items():
        for group, s in groups.items():
            rows.append([name.replace("_", " "), group, num(s["p50"]), num(s["p95"]), spread(s),
                         f"{num(s['facts_returned_p50'])} / {num(s['facts_returned_max'])}"])
    out += ["Per-entity service calls, ms:", ""]
    out += table(["query", "entities", "p50", "p95", "p95 spread", "facts returned p50 / max"], rows)
    rows = [[name.replace("_", " "), num(s["p50"]), num(s["p95"]), spread(s)] for name, s in f["page_queries_ms"].items()]
    out += ["Queries behind the Graph page's overview, ms (cached until the collection's graph changes, so they run "
            "once after each change; a search for an entity runs each time):", ""]
    return out + table(["query", "p50", "p95", "p95 spread"], rows)


def app_section(f: dict[str, Any]) -> list[str]:
    out = []
    rows = []
    first = f.get("first_start", {})
    if first:
        rows.append(["first ever (servers boot, initdb)", 1, num(first["listening_s"]), num(first["title_s"]),
                     num(first["rendered_s"]), num(first["rendered_s"])])
    for label, key in (("restart, servers already up", "restart_servers_up"),
                       ("start, servers down (as after a reboot)", "start_servers_down")):
        s = f.get(key) or {}
        if s:
            rows.append([label, s["rendered_s"]["n"], num(s["listening_s"]["p50"]), num(s["title_s"]["p50"]),
                         num(s["rendered_s"]["p50"]), num(s["rendered_s"]["max"])])
    out += ["Cold start, seconds from process start (p50 over runs; worst run last):", ""]
    out += table(["start", "runs", "server listening", "Home title shown", "Home rendered", "worst rendered"], rows)
    sw = f.get("page_switches", {})
    rows = []
    for page, s in sw.get("warm_per_page_ms", {}).items():
        first_visit = sw.get("first_visit_ms", {}).get(page, {})
        rows.append([page, num(first_visit.get("rendered_ms")), num(s["title_p50"]), num(s.get("title_p95")),
                     num(s["p50"]), num(s["p95"])])
    overall, titles = sw.get("warm_all_pages_ms", {}), sw.get("warm_title_all_pages_ms", {})
    out += [f"Page switches, ms from the click (warm: {overall.get('rounds')} rounds; all pages together: title visible "
            f"p50 {num(titles.get('p50'))}, p95 {num(titles.get('p95'))} (spread {spread(titles) if titles else '—'}); "
            f"script finished p50 {num(overall.get('p50'))}, p95 {num(overall.get('p95'))} "
            f"(spread {spread(overall) if overall else '—'})):", ""]
    out += table(["page", "first visit, finished", "warm title visible p50", "warm title visible p95",
                  "warm finished p50", "warm finished p95"], rows)
    cites = f.get("citations") or {}
    if cites:
        c = cites["click_to_highlight_ms"]
        out.append(f"- Citations: a click on an Ask answer's [1] to its passage highlighted on the Documents page, same "
                   f"tab: p50 {num(c['p50'])} ms, p95 {num(c['p95'])} ms over {c['n']} clicks (each: "
                   f"{', '.join(num(x) for x in cites['runs_ms'])} ms); highlight inside the first screen "
                   f"{cites['highlight_on_first_screen']} of {c['n']} times; {cites['tabs_open_at_end']} tab open at the end.")
    req, seed = f.get("requests", {}), f.get("seed", {})
    out.append(f"- Browser requests: {num(req.get('loopback'))} to 127.0.0.1, {num(req.get('blocked_non_loopback'))} "
               "to any other host (aborted)" + (": " + ", ".join(req["blocked_urls"]) if req.get("blocked_urls") else "") + ".")
    if seed:
        out.append(f"- Data: {seed.get('documents')} speeches ingested with the graph ({num(seed.get('graph', {}).get('facts'))} "
                   f"facts) in {num(seed.get('seconds'))} s, before the restarts.")
    parts = seed.get("startup_breakdown_s") or {}
    if parts:
        out.append("- What building the services costs with the servers up (timed in the benchmark's own process): "
                   + ", ".join(f"{k.removesuffix('_s').replace('_', ' ')} {num(v)} s" for k, v in parts.items()) + ".")
    return out + [""]


def generic_section(figures: Any) -> list[str]:
    """Any other result (e.g. ingest.json): every figure as a row, statistics on one line."""
    rows = [[path, value] for path, value in _flatten(figures, "")]
    return table(["figure", "value"], rows[:120])


def _flatten(value: Any, path: str) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        if "p50" in value and "p95" in value:
            extra = f" (p95 spread {spread(value)})" if "p95_range" in value else ""
            return [(path, f"p50 {num(value['p50'])} · p95 {num(value['p95'])}{extra}")]
        out: list[tuple[str, str]] = []
        for key, item in value.items():
            out += _flatten(item, f"{path}.{key}" if path else str(key))
        return out
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            return [(path, ", ".join(num(v) for v in value))]
        out = []
        for i, item in enumerate(value):
            out += _flatten(item, f"{path}[{i}]")
        return out
    return [(path, num(value))]


SECTIONS = {"search": ("Search latency", search_section), "graph": ("Graph queries", graph_section),
            "app": ("App responsiveness", app_section)}
