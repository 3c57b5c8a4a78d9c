"""Markdown for docs/bench/onnx.json: speed, agreement and retrieval quality of each embedding variant."""

from __future__ import annotations

from typing import Any

from scripts.bench.report_sections import num, table

LABELS = {"torch": "torch (shipped)", "onnx": "ONNX Runtime, ORT_ENABLE_ALL", "onnx_basic": "ONNX Runtime, basic optimisations",
          "onnx_int8": "ONNX Runtime, dynamic int8 (per channel)"}


def _ratio(low_high: list[float]) -> str:
    return f"{low_high[0]:.2f}–{low_high[1]:.2f}"


def _per_batch(stats: dict[str, Any] | None) -> str:
    return f"{stats['p50']:.2f}× ({stats['p10']:.2f}–{stats['p90']:.2f})" if stats else "—"


def onnx_section(f: dict[str, Any]) -> list[str]:
    speed, agree = f["speed"], f.get("agreement_with_torch", {})
    recall = f.get("hotpotqa_bruteforce_recall", {})
    out = [f"{f['texts']:,} sotu chunks, batch size {f['batch_size']}, {f['threads']} threads, {f['rounds']} rounds. "
           f"ONNX model file {num(f['file_mb']['onnx'])} MB (int8 {num(f['file_mb']['onnx_int8'])} MB); exporting it "
           f"and loading took {num(f['prepare_s']['onnx'])} s (torch loads in {num(f['prepare_s']['torch'])} s).", ""]
    rows = []
    for name, s in speed.items():
        a, r = agree.get(name), recall.get(name, {})
        rows.append([LABELS.get(name, name), num(s["chunks_per_s_median"]),
                     f"{num(s['chunks_per_s_range'][0])}–{num(s['chunks_per_s_range'][1])}",
                     f"{s['speedup_vs_torch_median']:.2f}×", _ratio(s["speedup_vs_torch_range"]),
                     _per_batch(s.get("speedup_per_batch")),
                     num(s["cpu_ms_per_chunk_median"]),
                     f"{num(s['query_ms']['p50'])} / {num(s['query_ms']['p95'])}" if "query_ms" in s else "—",
                     f"{a['min_cosine']:.7f}" if a else "—", f"{a['max_abs_diff']:.1e}" if a else "—",
                     f"{r['recall@2']:.3f} / {r['recall@5']:.3f}" if r else "—"])
    out += table(["variant", "chunks/s", "spread", "× torch", "× spread",
                  "× torch per batch, p50 (p10–p90)", "CPU ms per chunk",
                  "one query, ms p50 / p95", "min cosine to torch",
                  "max abs diff", "hotpotqa recall@2 / @5 (exact cosine)"], rows)
    verdict = "offered as `embedding_backend = \"onnx\"`" if f.get("onnx_offered") else "not offered as a setting"
    return out + [f"Verdict: ONNX Runtime is {verdict} (it needs ≥ 1.2× torch's median speed with min cosine ≥ 0.9999). "
                  "int8 is never offered: its vectors differ from those already stored by torch.", ""]
