"""The ONNX benchmark: its export gives torch's vectors, and its pure parts (agreement, recall, report) count right."""

from __future__ import annotations

import numpy as np
import pytest

from scripts.bench.bench_onnx import sotu_inputs
from scripts.bench.onnx_quality import agreement, brute_force_recall
from scripts.bench.onnx_report import onnx_section


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_agreement_reports_the_worst_text_not_the_average():
    rng = np.random.default_rng(3)
    reference = _unit(rng.normal(size=(50, 8)))
    other = reference.copy()
    other[17] = _unit((reference[17] + np.eye(8)[0])[None, :])[0]  # one text clearly off
    out = agreement(reference, other)
    assert out["texts"] == 50
    assert out["min_cosine"] == pytest.approx(float(reference[17] @ other[17]), abs=1e-6)
    assert out["min_cosine"] < 0.95 < out["mean_cosine"]
    assert out["max_abs_diff"] == pytest.approx(float(np.abs(reference[17] - other[17]).max()))
    assert agreement(reference, reference)["min_cosine"] == pytest.approx(1.0)


def test_brute_force_recall_counts_gold_titles_among_the_first_distinct_titles():
    # Chunks at growing angles from the question: a strict ranking Apple, Apple, River, Violin, Comet, Tiger, Glacier.
    titles = ["Apple", "Apple", "River", "Violin", "Comet", "Tiger", "Glacier"]
    inputs = [f"chunk {i}" for i in range(len(titles))]
    angle = {text: 0.1 * (i + 1) for i, text in enumerate(inputs)} | {"q1": 0.0, "q2": 0.0}

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([[np.cos(angle[t]), np.sin(angle[t])] for t in texts])

    questions = [{"question": "q1", "supporting_facts": [["Apple", 0], ["River", 1]]},   # Apple's 2nd chunk is no title
                 {"question": "q2", "supporting_facts": [["Comet", 0], ["Glacier", 2]]}]  # 4th and 6th title
    out = brute_force_recall(embed, inputs, titles, questions)
    assert out["recall@2"] == pytest.approx((1.0 + 0.0) / 2)
    assert out["recall@5"] == pytest.approx((1.0 + 0.5) / 2)


def test_onnx_section_keeps_cosines_precise_and_states_the_verdict():
    stats = {"p50": 12.0, "p95": 20.0}
    speed = {name: {"chunks_per_s_median": rate, "chunks_per_s_range": [rate - 1, rate + 1],
                    "speedup_vs_torch_median": rate / 10, "speedup_vs_torch_range": [rate / 11, rate / 9],
                    "cpu_ms_per_chunk_median": 100.0, "query_ms": stats,
                    "speedup_per_batch": {"p50": rate / 10, "p10": 0.5, "p90": 2.0}}
             for name, rate in (("torch", 10.0), ("onnx", 13.0))}
    figures = {"texts": 2000, "batch_size": 64, "threads": 2, "rounds": 4, "file_mb": {"onnx": 91.0, "onnx_int8": 23.0},
               "prepare_s": {"onnx": 20.0, "torch": 5.0}, "speed": speed, "onnx_offered": True,
               "agreement_with_torch": {"onnx": {"min_cosine": 0.99999953, "max_abs_diff": 3.1e-7}},
               "hotpotqa_bruteforce_recall": {"torch": {"recall@2": 0.625, "recall@5": 0.785}}}
    text = "\n".join(onnx_section(figures))
    assert "0.9999995" in text and "1.30×" in text and "1.30× (0.50–2.00)" in text and "0.625 / 0.785" in text
    assert 'offered as `embedding_backend = "onnx"`' in text
    assert "not offered" in "\n".join(onnx_section({**figures, "onnx_offered": False}))


@pytest.mark.slow
def test_onnx_export_gives_the_torch_vectors(tmp_path, shared_data):
    """The benchmark compares like with like: its ONNX build of the model returns torch's vectors (real export)."""
    pytest.importorskip("onnxruntime")
    from scripts.bench.onnx_model import OnnxSentenceEncoder, bundled_model_dir, export_onnx
    from services.settings import get_settings
    from services.stores.embeddings import Embedder, create_embedder

    settings = get_settings()
    model_file = export_onnx(bundled_model_dir(), tmp_path / "model.onnx")
    assert [p.name for p in tmp_path.iterdir()] == ["model.onnx"]  # no partial file left behind
    onnx = Embedder("onnx", OnnxSentenceEncoder(model_file, bundled_model_dir()), settings.embed_batch_size)
    torch_model = create_embedder(settings)
    long_text = " ".join(["The constitution of the united states guarantees liberty"] * 80)  # > 256 tokens
    texts = [*sotu_inputs(settings, 40), "health care costs for families", long_text, "x"]
    want, got = torch_model.embed_texts(texts), onnx.embed_texts(texts)
    assert got.shape == want.shape == (len(texts), 384)
    assert (want * got).sum(axis=1).min() > 0.9999
    # Truncated at 256 tokens as sentence-transformers does: words past it change nothing.
    longer = onnx.embed_texts([long_text + " and then some unrelated words about the ocean"])[0]
    assert float(longer @ got[-2]) > 0.99999
    assert float(got[0] @ got[-1]) < 0.9  # different texts stay apart
