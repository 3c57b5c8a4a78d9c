"""The benchmark harness's pure parts: statistics, targets, synthetic data shapes and the report (no timings)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from scripts.bench import common, graph_data, report
from scripts.bench.report_sections import generic_section
from scripts.bench.search_data import BenchDoc, noisy_vectors, synthetic_docs


def test_percentile_matches_numpy_linear_interpolation():
    rng = random.Random(1)
    for n in (1, 2, 7, 100, 1001):
        values = [rng.uniform(0, 50) for _ in range(n)]
        for q in (0, 5, 50, 95, 99, 100):
            assert common.percentile(values, q) == pytest.approx(float(np.percentile(values, q)))
    assert common.percentile([4, 1, 3, 2], 50) == 2.5
    assert common.median([10, 30, 20]) == 20


def test_percentile_rejects_nothing_and_bad_q():
    with pytest.raises(ValueError):
        common.percentile([], 50)
    with pytest.raises(ValueError):
        common.percentile([1.0], 101)


def test_summarize_rounds_gives_median_of_round_figures_and_their_spread():
    rounds = [[float(x) for x in range(1, 101)], [float(x) * 2 for x in range(1, 101)], [float(x) * 3 for x in range(1, 101)]]
    s = common.summarize_rounds(rounds)
    p95s = [np.percentile(r, 95) for r in rounds]
    assert s["rounds"] == 3 and s["n"] == 300
    assert s["p95"] == pytest.approx(float(np.median(p95s)))
    assert s["p95_range"] == pytest.approx([min(p95s), max(p95s)])
    assert s["p50_range"][0] < s["p50"] < s["p50_range"][1]
    assert s["pooled"]["max"] == 300.0
    with pytest.raises(ValueError):
        common.summarize_rounds([[], []])


def test_targets_know_which_way_is_better():
    assert common.target("p95", 19.0, 20, "ms")["met"] is True
    assert common.target("p95", 21.0, 20, "ms")["met"] is False
    assert common.target("recall", 0.94, 0.95, "", lower_is_better=False)["met"] is False
    assert common.target("recall", 0.96, 0.95, "", lower_is_better=False)["op"] == "≥"
    assert common.target("x", None, 1, "s")["met"] is None


def test_noisy_vectors_mix_their_two_origins_and_sit_at_the_asked_similarity():
    rng = np.random.default_rng(0)
    base = rng.normal(size=(50, 384)).astype(np.float32)
    base /= np.linalg.norm(base, axis=1, keepdims=True)
    mixes = [(i % 50, (i + 1) % 50, 0.75) for i in range(2000)]
    out, sigma = noisy_vectors(base, mixes, 0.9)
    assert out.shape == (2000, 384) and sigma > 0
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)
    mixed = 0.75 * base[[m[0] for m in mixes]] + 0.25 * base[[m[1] for m in mixes]]
    mixed /= np.linalg.norm(mixed, axis=1, keepdims=True)
    assert abs(float(np.einsum("ij,ij->i", out, mixed).mean()) - 0.9) < 0.02
    to_first = np.einsum("ij,ij->i", out, base[[m[0] for m in mixes]]).mean()
    to_second = np.einsum("ij,ij->i", out, base[[m[1] for m in mixes]]).mean()
    assert to_first > to_second + 0.3  # the bigger share dominates


def test_synthetic_chunks_are_exact_slices_of_their_speech_and_point_at_a_real_chunk():
    from services.ingest.chunking import chunk_text

    text = "\n\n".join(f"Paragraph {i}. " + "The budget grows every year. " * 12 for i in range(40))
    real = [BenchDoc("speech", text, {}, chunk_text(text, size=400, overlap=80))]
    extra = synthetic_docs(real, 50, 400, 80)
    assert sum(len(d.chunks) for d in extra) == 50
    for doc in extra:
        assert len(doc.bases) == len(doc.chunks)
        for chunk, (first, second, share) in zip(doc.chunks, doc.bases):
            assert text[chunk.char_start : chunk.char_end] == chunk.text
            assert 0 <= first < len(real[0].chunks) and 0 <= second < len(real[0].chunks) and 0.35 <= share <= 0.65
            assert real[0].chunks[first].char_start <= chunk.char_start < real[0].chunks[first].char_end


def test_graph_data_is_seeded_skewed_and_chained():
    rows, facts, slots = graph_data.build(3000, 800, collection_id=7)
    again = graph_data.build(3000, 800, collection_id=7)
    assert facts == again[1]
    assert len(facts) == 3000 and len({f["id"] for f in facts}) == 3000
    keys = {r["key"] for r in rows}
    assert all(f["source"] in keys and f["target"] in keys and f["source"] != f["target"] for f in facts)
    degree = sorted(graph_data.degrees(facts).values(), reverse=True)
    assert degree[0] > 10 * degree[len(degree) // 2]  # hubs
    chained = [f for f in facts if f["relation"] in graph_data.CHAINS]
    assert 0.15 * len(facts) < len(chained) < 0.3 * len(facts)
    assert {(f["relation"], f["source"], f["target"], 7, None) for f in chained} == slots


def _stats(*values: float) -> dict:
    return common.summarize_rounds([list(values), [v * 1.1 for v in values]])


def _fake_results(folder):
    started = 1_700_000_000.0
    s = _stats(5.0, 8.0, 30.0)
    scale = {"chunks": 100_000, "without_embedding_ms": {"semantic": s, "keyword": s, "hybrid": s},
             "with_embedding_ms": {"semantic": s, "hybrid": s}, "query_embedding_ms": common.summarize([20.0, 40.0]),
             "service_timings_p50_ms": {"semantic.semantic": 4.0},
             "recall": [{"ef_search": 100, "recall_at_10": 0.97, "min": 0.6, "queries_below_1": 4,
                         "semantic_ms": common.summarize([5.0])}],
             "plans": {"semantic": {"uses_hnsw": True, "execution": "Execution Time: 3.1 ms"}, "keyword": {},
                       "exact_scan_uses_hnsw": False}}
    common.write_results("search", {"corpus": "sotu", "queries": 3, "scales": [scale]}, started=started,
                         targets=[common.target("semantic p95 at 100k", 31.0, 20, "ms")],
                         notes=["Missed: semantic p95, because of a test."], method=["how"], results_dir=folder)
    common.write_results("ingest", {"chunks_per_s": {"pipeline_vector_only": 42.5, "with_graph": 12.0},
                                    "breakdown": {"embed": 3.5, "write": 0.4}, "efficiency": [0.8, 0.9]},
                         started=started, results_dir=folder)
    common.write_results("search_old", {"scales": [{"chunks": 5}]}, started=started, results_dir=folder)
    (folder / "zz_plain.json").write_text(json.dumps({"what": "a hand-written result", "idle": {"p50": 1.0, "p95": 2.0}}))


def test_report_renders_targets_known_sections_generic_results_and_the_eval_table(tmp_path):
    _fake_results(tmp_path)
    evaluation = tmp_path / "evaluation.md"
    evaluation.write_text("# Eval\n\nRun today.\n\n| setup | recall@5 |\n| --- | ---: |\n| semantic only | 0.785 |\n\nafter\n")
    results = report.load_results(tmp_path)
    assert [r["benchmark"] for r in results] == ["ingest", "search", "search_old", "zz_plain"]
    text = report.render(results, evaluation)
    assert "| semantic p95 at 100k | 31.0 ms | ≤ 20 ms | **missed** |" in text
    assert "- Missed: semantic p95, because of a test." in text
    assert "## Ingestion throughput" in text and "| chunks_per_s.pipeline_vector_only | 42.5 |" in text
    assert "| breakdown.embed | 3.50 |" in text and "| efficiency | 0.80, 0.90 |" in text
    assert "## Search latency" in text and "| 100k chunks | 100 | 0.970 |" in text
    assert "## Search old" in text and "| scales[0].chunks | 5 |" in text  # unknown shape: rendered generically
    assert "| semantic only | 0.785 |" in text and "Run today." in text
    assert "## Zz plain" in text and "| what | a hand-written result |" in text and "| idle | p50 1.00 · p95 2.00 |" in text
    assert "make bench-ingest" in text


def test_report_includes_the_findings_file_after_the_targets(tmp_path):
    _fake_results(tmp_path)
    findings = tmp_path / "findings.md"
    findings.write_text("## Findings\n\nThe keyword fallback was slow.\n")
    text = report.render(report.load_results(tmp_path), tmp_path / "none.md", findings)
    assert text.index("## Targets") < text.index("The keyword fallback was slow.") < text.index("## Machine")


def test_report_says_when_the_evaluation_is_missing(tmp_path):
    text = report.render([], tmp_path / "nope.md")
    assert "run `make eval`" in text and "No targets" in text


def test_generic_section_folds_statistics_into_one_row():
    rows = generic_section({"search": _stats(1.0, 2.0, 3.0), "n": 3})
    assert any(r.startswith("| search | p50 ") and "p95 spread" in r for r in rows)
    assert "| n | 3 |" in rows


def test_results_file_carries_machine_versions_and_figures(tmp_path):
    path = common.write_results("x", {"a": np.float32(1.5)}, started=1_700_000_000.0, results_dir=tmp_path)
    data = json.loads(path.read_text())
    assert data["figures"] == {"a": 1.5}
    assert data["machine"]["cores"] and "load_average_1m_at_end" in data["machine"]
    assert data["versions"]["streamlit"] != "not installed"


def test_cli_bench_reads_importtime_lines():
    from scripts.bench.bench_cli import import_profile, parse_importtime

    stderr = "\n".join([
        "import time: self [us] | cumulative | imported package",
        "import time:       100 |       1100 |     torch._C",
        "import time:       400 |       1500 |   torch",
        "import time:        50 |       1550 | cli.main",
        "some other line",
    ])
    rows = parse_importtime(stderr)
    assert rows == [("torch._C", 2, 100, 1100), ("torch", 1, 400, 1500), ("cli.main", 0, 50, 1550)]
    profile = import_profile(rows)
    assert profile["total_ms"] == 0.55 and profile["modules"] == 3 and profile["heavy_imported"] == ["torch"]
    assert profile["by_package_ms"] == {"torch": 0.5, "cli": 0.05}
    # a try-import that failed at once (torch hidden from thinc: sys.modules["torch"] = None) is no import
    blocked = parse_importtime("import time:         8 |          8 |   torch\nimport time: 50 | 58 | thinc.compat")
    assert import_profile(blocked)["heavy_imported"] == []
    assert list(profile["largest_imports_ms"]) == ["cli.main", "torch"]


def test_compare_schedule_times_every_query_on_both_sides_and_flips_who_goes_first():
    from scripts.bench.compare import schedule

    order = list(schedule(3, 2))
    assert len(order) == 12
    assert {(r, q, side) for r, q, side in order} == {(r, q, s) for r in range(2) for q in range(3) for s in ("old", "new")}
    firsts = [side for i, (_r, _q, side) in enumerate(order) if i % 2 == 0]
    assert firsts == ["old", "new", "old", "new", "old", "new"]  # and on across the rounds
    assert [q for _r, q, _s in order[:6]] == [0, 0, 1, 1, 2, 2] and all(r == 1 for r, _q, _s in order[6:])
    pairs = [order[i : i + 2] for i in range(0, 12, 2)]
    assert all({a[2], b[2]} == {"old", "new"} and a[:2] == b[:2] for a, b in pairs)
    assert sum(a[2] == "old" for a, _b in pairs) == 3  # each side goes first half the time


def test_compare_reads_worker_replies_and_stops_on_a_failed_or_broken_one():
    from scripts.bench.compare import parse_reply

    assert parse_reply('{"ok": true, "ms": 12.5, "parts": {"semantic": 3.0}}\n', "old")["parts"] == {"semantic": 3.0}
    with pytest.raises(RuntimeError, match="the new worker failed: KeyError: 'x'"):
        parse_reply('{"ok": false, "error": "KeyError: \'x\'", "trace": "..."}', "new")
    with pytest.raises(RuntimeError, match="not JSON"):
        parse_reply("Loading weights: 100%\n", "old")
    with pytest.raises(RuntimeError, match="the old worker exited"):
        parse_reply("", "old")


def test_compare_samples_give_each_side_its_figures_and_new_over_old_ratios():
    from scripts.bench.compare import Samples

    s = Samples(rounds=2)
    for r in range(2):
        for ms in (10.0, 20.0, 30.0):
            s.add("gather", "old", r, ms)
            s.add("gather", "new", r, ms / 2)
            s.add("gather.walk", "old", r, 1.0)  # a part only the old code times
    fig = s.figures()
    assert fig["gather"]["old"]["p50"] == 20.0 and fig["gather"]["new"]["p50"] == 10.0
    assert fig["gather"]["ratio_p50"] == pytest.approx(0.5) and fig["gather"]["ratio_p95"] == pytest.approx(0.5)
    assert fig["gather"]["paired_ratio_median"] == pytest.approx(0.5)
    assert fig["gather.walk"]["only"] == "old" and "new" not in fig["gather.walk"]
    assert s.load_figures() == {}


def test_compare_results_keep_the_other_benchmarks_figures(tmp_path):
    from scripts.bench.compare import merge_results

    common.write_results("cmp", {"ask": {"gather": 1}}, started=1_700_000_000.0, method=["[ask] how"],
                         results_dir=tmp_path)
    figures, method = merge_results("cmp", "search", {"hybrid": 2}, ["timed so"], results_dir=tmp_path)
    assert figures == {"ask": {"gather": 1}, "search": {"hybrid": 2}}
    assert method == ["[ask] how", "[search] timed so"]
    again, method = merge_results("cmp", "ask", {"gather": 3}, ["anew"], results_dir=tmp_path)
    assert again == {"ask": {"gather": 3}} and method == ["[ask] anew"]  # its own earlier figures replaced
