"""spaCy's pipeline, loaded once per process, without what reading text never uses.

The graph's extractor (services/graph/extraction.py), a question's entities (services/graph/reads.py) and Ask's
offline answer (services/retrieval/extractive.py) share one pipeline per model name. This module imports
neither LlamaIndex nor the extractor, so Ask can read a question without either (a cold ``rag ask``).

``import spacy`` also imports spaCy's command line (``spacy.cli``: typer, weasel, rich, pygments, the download
code), only to offer ``spacy.info``: half of spaCy's import time (0.65 of 1.35 s of CPU measured here), for a
function the workbench never calls. :func:`load_spacy` imports spaCy with a stand-in for that package, removed
again once spaCy is in: ``spacy.info`` still works (it imports the real command line when called), and any
later ``import spacy.cli`` gets the real one. torch stays hidden as before (services/torch_guard.py).
"""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from services.errors import ConfigError
from services.long_lived import freeze_loaded
from services.torch_guard import spacy_without_torch

_NLP_CACHE: dict[str, Any] = {}
_NLP_LOCK = threading.Lock()
_CLI = ("spacy.cli", "spacy.cli.info")


def load_spacy(name: str) -> Any:
    """The pipeline ``name`` (textcat off), loaded on first use; ConfigError when it is not installed."""
    with _NLP_LOCK:
        if name not in _NLP_CACHE:
            with spacy_without_torch(), _without_spacy_cli():  # thinc would import torch, which the pipeline does not use
                import spacy

                try:
                    _NLP_CACHE[name] = spacy.load(name, disable=["textcat"])
                except OSError as exc:
                    raise ConfigError(f"The spaCy pipeline {name!r} is not installed: {exc}") from exc
            freeze_loaded()
        return _NLP_CACHE[name]


def _info(*args: Any, **kwargs: Any) -> Any:
    """``spacy.info``, importing spaCy's command line when someone calls it."""
    from spacy.cli.info import info

    return info(*args, **kwargs)


@contextmanager
def _without_spacy_cli() -> Iterator[None]:
    """While spaCy is first imported, ``spacy.cli`` is a stand-in holding only ``info`` (see the module docstring)."""
    if "spacy" in sys.modules or any(m in sys.modules for m in _CLI):
        yield  # spaCy (or its command line) is already in: nothing to spare
        return
    package = types.ModuleType("spacy.cli")
    package.__path__ = []
    module = types.ModuleType("spacy.cli.info")
    module.info = _info  # type: ignore[attr-defined]
    package.info = module  # type: ignore[attr-defined]
    sys.modules.update({"spacy.cli": package, "spacy.cli.info": module})
    try:
        yield
    finally:
        for name in _CLI:
            if sys.modules.get(name) in (package, module):
                del sys.modules[name]
        spacy = sys.modules.get("spacy")
        if spacy is not None and getattr(spacy, "cli", None) is package:
            del spacy.cli  # a later `spacy.cli` is the real package, imported then
