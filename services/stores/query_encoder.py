"""The bundled all-MiniLM-L6-v2 computed in NumPy: what embeds a search's query.

A query is one short text, and torch costs seconds to import (5.9 s of a cold ``rag search``'s
12.7 s on this machine). The model is small (6 BERT layers of 384), so its forward pass is written
out here over the same files: the tokenizer from ``tokenizer.json`` (the ``tokenizers`` library that
transformers' fast tokenizer wraps), the weights from ``model.safetensors``, the exact (erf) GELU,
then the mean of the token vectors under the attention mask, unit length — as sentence-transformers
computes it. tests/services/stores/test_query_encoder.py holds it to torch's vectors (min cosine ≥ 0.99999).

Ingestion still embeds with torch (batches of chunks, where torch's kernels pay off). Every query,
in every process, takes this path, so the app, the CLI and the MCP server rank a query alike, and a
search never waits behind an ingest's turn on the torch model.
"""

from __future__ import annotations

import json
import math
import threading
from pathlib import Path

import numpy as np

from services.errors import ConfigError


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    out: np.ndarray = (x - mean) / np.sqrt(var + eps) * weight + bias
    return out


class NumpyMiniLM:
    """Texts → unit vectors with the model in ``folder`` (transformer → mean pooling → normalise)."""

    def __init__(self, folder: Path) -> None:
        from safetensors.numpy import load_file
        from scipy.special import erf
        from tokenizers import Tokenizer

        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu" or \
                config.get("position_embedding_type", "absolute") != "absolute":
            raise ConfigError(f"The model in {folder} is not a BERT with GELU and absolute positions.")
        self._erf = erf
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config["layer_norm_eps"])
        max_length = int(json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))["max_seq_length"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()  # the file pads every text to 128; a batch is padded to its longest here
        self.tokenizer.enable_truncation(max_length=max_length)
        self.w: dict[str, np.ndarray] = load_file(str(folder / "model.safetensors"))
        self._lock = threading.Lock()  # the tokenizer's settings are shared state

    def _gelu(self, x: np.ndarray) -> np.ndarray:
        out: np.ndarray = x * 0.5 * (1.0 + self._erf(x / math.sqrt(2.0)))
        return out

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        out: np.ndarray = x @ self.w[f"{name}.weight"].T + self.w[f"{name}.bias"]
        return out

    def encode(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            encodings = self.tokenizer.encode_batch(texts)
        length = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), length), dtype=np.int64)
        types = np.zeros_like(ids)
        mask = np.zeros((len(texts), length), dtype=np.float32)
        for row, e in enumerate(encodings):
            ids[row, : len(e.ids)], types[row, : len(e.ids)], mask[row, : len(e.ids)] = e.ids, e.type_ids, 1.0
        w = self.w
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:length]
             + w["embeddings.token_type_embeddings.weight"][types])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        batch, hidden = len(texts), x.shape[-1]
        size = hidden // self.heads
        blocked = (1.0 - mask)[:, None, None, :] * np.finfo(np.float32).min  # padding takes no attention

        def split(t: np.ndarray) -> np.ndarray:
            return t.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

        for i in range(self.layers):
            p = f"encoder.layer.{i}"
            q, k, v = (split(self._dense(x, f"{p}.attention.self.{n}")) for n in ("query", "key", "value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(size) + blocked
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            context = (scores / scores.sum(-1, keepdims=True)) @ v
            context = context.transpose(0, 2, 1, 3).reshape(batch, length, hidden)
            x = _layer_norm(self._dense(context, f"{p}.attention.output.dense") + x,
                            w[f"{p}.attention.output.LayerNorm.weight"], w[f"{p}.attention.output.LayerNorm.bias"],
                            self.eps)
            inner = self._gelu(self._dense(x, f"{p}.intermediate.dense"))
            x = _layer_norm(self._dense(inner, f"{p}.output.dense") + x,
                            w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"], self.eps)
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        vectors: np.ndarray = (pooled / np.where(norms == 0, 1, norms)).astype(np.float32)
        return vectors

    def __call__(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = self.encode(texts).tolist()
        return vectors
